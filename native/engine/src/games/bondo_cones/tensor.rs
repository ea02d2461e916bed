//! Bond O Cones' observation tensor, as `boneyard/games/bondo_cones/tensor.py` lays it out: 13
//! planes of 120 squares (index `rank0 * 10 + file0`), then 26 numbers, all in one flat row.
//!
//! * planes 0, 1: own cone, opponent cone
//! * planes 2, 3: own rings / 2, opponent rings / 2
//! * planes 4-8: value 0, 1, 2, 4, 8 (one-hot, where the observer knows the value)
//! * plane 9: an opponent cone of unknown value
//! * planes 10, 11: peeked, spied
//! * plane 12: the last move's two squares
//! * then own and opponent score / 41, target / 41, turn / max_turns, the phase (one-hot over
//!   10), the die (one-hot over 6), "the observer acts now", own and opponent battle window / 3,
//!   a ring set aside, own and opponent set-up progress / 17.
//!
//! "Own" is the observer's: `seat`, or seat 0 for a spectator. The cones come from
//! `observation::seen_cones`, the very cones `observation(seat)` lists, so no hidden value or
//! secret set-up reaches a seat's tensor; every other entry is public.
//!
//! Fractions are worked out in `f64` and then rounded to `f32`, as the Python floats are when the
//! batch stores them, so the rows are equal bit for bit.

use super::board::SQUARES;
use super::notation::FACES;
use super::observation::{seen_cones, Viewer};
use super::rules::BondoConesRules;
use crate::core::Rules;

pub const PLANES: usize = 13;
pub const GLOBALS: usize = 26;
pub const TENSOR_SIZE: usize = PLANES * SQUARES + GLOBALS;
pub const SHAPE: [usize; 1] = [TENSOR_SIZE];

/// Python's divisors: a score is at most 41 (every value of a side), set-up progress at most 17.
const MOST_POINTS: f64 = 41.0;
const WINDOW_TURNS: f64 = 3.0;
const SETUP_STEPS: f64 = 17.0;

const OWN_CONE: usize = 0;
const OTHER_CONE: usize = 1;
const OWN_RINGS: usize = 2;
const OTHER_RINGS: usize = 3;
const UNKNOWN_VALUE: usize = 9;
const PEEKED: usize = 10;
const SPIED: usize = 11;
const LAST_MOVE: usize = 12;

/// The plane of a known value (`_VALUE_PLANE`); no value outside 0, 1, 2, 4, 8 is ever dealt.
fn value_plane(value: u8) -> Option<usize> {
    match value {
        0 => Some(4),
        1 => Some(5),
        2 => Some(6),
        4 => Some(7),
        8 => Some(8),
        _ => None,
    }
}

fn ratio(part: impl Into<f64>, whole: f64) -> f32 {
    (part.into() / whole) as f32
}

/// `seat`'s tensor written into `out`; `false` (and nothing written) when `out` is not
/// `TENSOR_SIZE` long.
pub fn write(state: &BondoConesRules, seat: Option<usize>, out: &mut [f32]) -> bool {
    if out.len() != TENSOR_SIZE {
        return false;
    }
    let me = seat.unwrap_or(0).min(1);
    let them = 1 - me;
    out.fill(0.0);
    let (board, tail) = out.split_at_mut(PLANES * SQUARES);
    let mut mark = |plane: usize, square: usize, value: f32| {
        if let Some(entry) = board.get_mut(plane * SQUARES + square) {
            *entry = value;
        }
    };
    for cone in seen_cones(state, Viewer::of(seat)) {
        let (square, mine) = (cone.square, cone.seat == me);
        mark(if mine { OWN_CONE } else { OTHER_CONE }, square, 1.0);
        let rings = ratio(cone.rings, 2.0);
        mark(if mine { OWN_RINGS } else { OTHER_RINGS }, square, rings);
        match cone.value {
            Some(value) => {
                if let Some(plane) = value_plane(value) {
                    mark(plane, square, 1.0);
                }
            }
            None if !mine => mark(UNKNOWN_VALUE, square, 1.0),
            None => {}
        }
        if cone.peeked {
            mark(PEEKED, square, 1.0);
        }
        if cone.spied {
            mark(SPIED, square, 1.0);
        }
    }
    if let Some((origin, target)) = state.last_move {
        mark(LAST_MOVE, usize::from(origin), 1.0);
        mark(LAST_MOVE, usize::from(target), 1.0);
    }
    let config = &state.config;
    tail[0] = ratio(state.scores[me], MOST_POINTS);
    tail[1] = ratio(state.scores[them], MOST_POINTS);
    tail[2] = ratio(config.target, MOST_POINTS);
    tail[3] = ratio(state.turns, f64::from(config.max_turns));
    tail[4 + state.phase as usize] = 1.0;
    if let Some(face) = state.die.filter(|&face| face < FACES.len()) {
        tail[14 + face] = 1.0;
    }
    if usize::try_from(state.current_player()) == Ok(me) {
        tail[20] = 1.0;
    }
    tail[21] = ratio(state.windows[me], WINDOW_TURNS);
    tail[22] = ratio(state.windows[them], WINDOW_TURNS);
    if state.set_aside {
        tail[23] = 1.0;
    }
    tail[24] = ratio(state.setup_progress[me], SETUP_STEPS);
    tail[25] = ratio(state.setup_progress[them], SETUP_STEPS);
    true
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::bondo_cones::notation::parse_square;
    use crate::games::bondo_cones::rules::{Config, Phase, PUTS, SETUP_DONE, SPIED as SPIED_FLAG};

    fn empty_state() -> BondoConesRules {
        BondoConesRules::new(Arc::new(Config {
            target: 28,
            max_turns: 1000,
            setup: "choose".to_string(),
            random_setup: false,
        }))
    }

    fn square(name: &str) -> usize {
        parse_square(name).unwrap()
    }

    /// Black (seat 0) to act on an eye: its peeked 8 with a ring on a1 and a 4 on b1; White's
    /// spied 2 on a12 and a hidden 1 with both rings on b12; black's last move b2-b1.
    fn mid_game() -> BondoConesRules {
        let mut state = empty_state();
        state.place(square("a1"), 0, 8, 1);
        state.place(square("b1"), 0, 4, 0);
        state.place(square("a12"), 1, 2, 0);
        state.place(square("b12"), 1, 1, 2);
        state.flags[square("a1")] = 1;
        state.flags[square("a12")] = SPIED_FLAG;
        state.setup_progress = [SETUP_DONE, SETUP_DONE];
        state.scores = [5, 3];
        state.windows = [0, 2];
        state.turns = 10;
        state.first = Some(0);
        state.phase = Phase::Act;
        state.die = Some(4);
        state.last_move = Some((square("b2") as u8, square("b1") as u8));
        state
    }

    fn tensor(state: &BondoConesRules, seat: Option<usize>) -> Vec<f32> {
        let mut out = vec![0.5; TENSOR_SIZE];
        assert!(state.observation_tensor(seat, &mut out));
        out
    }

    fn at(out: &[f32], plane: usize, name: &str) -> f32 {
        out[plane * SQUARES + square(name)]
    }

    /// The value planes (4-8) and the unknown-value plane of a square, in that order.
    fn values(out: &[f32], name: &str) -> [f32; 6] {
        [4, 5, 6, 7, 8, UNKNOWN_VALUE].map(|plane| at(out, plane, name))
    }

    #[test]
    fn a_seat_sees_its_own_values_and_the_spied_ones_only() {
        let state = mid_game();
        let black = tensor(&state, Some(0));
        assert_eq!(
            (at(&black, OWN_CONE, "a1"), at(&black, OWN_RINGS, "a1")),
            (1.0, 0.5)
        );
        assert_eq!(values(&black, "a1"), [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        assert_eq!(values(&black, "a12"), [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]); // spied: a 2
        assert_eq!(values(&black, "b12"), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]); // hidden
        assert_eq!(
            (
                at(&black, OTHER_CONE, "b12"),
                at(&black, OTHER_RINGS, "b12")
            ),
            (1.0, 1.0)
        );
        assert_eq!(
            (at(&black, PEEKED, "a1"), at(&black, SPIED, "a12")),
            (1.0, 1.0)
        );
        assert_eq!(
            (at(&black, LAST_MOVE, "b2"), at(&black, LAST_MOVE, "b1")),
            (1.0, 1.0)
        );
        let tail = &black[PLANES * SQUARES..];
        assert_eq!(
            tail[..4],
            [
                (5.0 / 41.0) as f32,
                (3.0 / 41.0) as f32,
                (28.0 / 41.0) as f32,
                0.01
            ]
        );
        assert_eq!(
            (tail[4 + Phase::Act as usize], tail[14 + 4], tail[20]),
            (1.0, 1.0, 1.0)
        );
        assert_eq!((tail[21], tail[22]), (0.0, (2.0 / 3.0) as f32));
        assert_eq!((tail[24], tail[25]), (1.0, 1.0));
        assert_eq!(black.iter().filter(|&&v| v == 0.5).count(), 1); // a1's ring, nothing left over

        let white = tensor(&state, Some(1));
        assert_eq!(values(&white, "a1"), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]); // peeked, still hidden
        assert_eq!(values(&white, "a12"), [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]); // its own 2
        assert_eq!(
            (at(&white, OWN_CONE, "b12"), at(&white, OTHER_CONE, "a1")),
            (1.0, 1.0)
        );
        let tail = &white[PLANES * SQUARES..];
        assert_eq!(
            (tail[0], tail[1], tail[20]),
            ((3.0 / 41.0) as f32, (5.0 / 41.0) as f32, 0.0)
        );
    }

    #[test]
    fn a_spectator_sees_as_black_without_any_value() {
        let spectator = tensor(&mid_game(), None);
        assert_eq!(at(&spectator, OWN_CONE, "a1"), 1.0);
        assert_eq!(values(&spectator, "a1"), [0.0; 6]); // black's, unknown, not marked
        assert_eq!(values(&spectator, "a12"), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]); // spied by black
        assert_eq!(values(&spectator, "b12"), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(spectator[PLANES * SQUARES + 20], 1.0); // black, the spectator's side, acts
    }

    #[test]
    fn a_secret_set_up_shows_only_to_its_seat() {
        let mut state = empty_state();
        state.place(square("a1"), 0, 8, 0);
        state.place(square("a12"), 1, 8, 0);
        state.setup_progress = [SETUP_DONE, (PUTS - 1) as u8];
        state.actor = 1;
        let black = tensor(&state, Some(0));
        assert_eq!(black[SQUARES..2 * SQUARES].iter().sum::<f32>(), 0.0);
        assert_eq!(values(&black, "a12"), [0.0; 6]);
        assert_eq!(
            tensor(&state, None)[SQUARES..2 * SQUARES]
                .iter()
                .sum::<f32>(),
            0.0
        );
        let white = tensor(&state, Some(1));
        assert_eq!(
            (at(&white, OWN_CONE, "a12"), at(&white, 8, "a12")),
            (1.0, 1.0)
        );
        assert_eq!(
            (
                at(&white, OTHER_CONE, "a1"),
                at(&white, UNKNOWN_VALUE, "a1")
            ),
            (1.0, 1.0)
        );
        assert_eq!(white[PLANES * SQUARES + 20], 1.0);
    }

    #[test]
    fn no_hidden_fact_changes_a_view() {
        let state = mid_game();
        let mut changed = mid_game();
        changed.value[square("b12")] = 4; // white's hidden 1 is another value
        changed.value[square("a1")] = 2; // and black's peeked 8
        assert_eq!(tensor(&changed, Some(0)), {
            let mut black = tensor(&state, Some(0));
            black[8 * SQUARES + square("a1")] = 0.0;
            black[6 * SQUARES + square("a1")] = 1.0;
            black
        });
        assert_eq!(tensor(&changed, None), tensor(&state, None));
        let mut white = tensor(&state, Some(1));
        white[5 * SQUARES + square("b12")] = 0.0;
        white[7 * SQUARES + square("b12")] = 1.0;
        assert_eq!(tensor(&changed, Some(1)), white);
    }

    #[test]
    fn a_buffer_of_another_size_is_left_alone() {
        let mut short = vec![0.5; TENSOR_SIZE - 1];
        assert!(!mid_game().observation_tensor(Some(0), &mut short));
        assert!(short.iter().all(|&v| v == 0.5));
    }
}
