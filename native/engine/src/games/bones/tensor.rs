//! Bones's observation tensor, as `boneyard/games/bones/tensor.py` lays it out: eleven
//! `height` x `width` planes, flattened plane by plane, rank 1 first within a plane (index
//! `rank0 * width + file0`):
//!
//! * planes 0-1: squares whose top piece is the observer's colour, the opponent's
//! * planes 2-4: stack height 1, 2, 3 or more
//! * planes 5-6: the square and its right (upper) neighbour show the same piece
//! * plane 7: the start area, until the first piece is down
//! * planes 8-9: the fraction of the observer's (the opponent's) pieces still to place, on every
//!   square, rounded to float32 as the Python rounds it
//! * plane 10: all 1.0 when the observer is the player to move
//!
//! The observer is `seat`; a spectator sees white's side (unlike Obonto, where it is the seat to
//! move). Bones has perfect information, so the state's fields show a seat nothing its
//! observation does not.

use super::rules::BonesRules;
use crate::core::Rules;

pub const PLANES: usize = 11;

/// The tensor's shape on a `width` x `height` board.
pub fn shape(width: usize, height: usize) -> Vec<usize> {
    vec![PLANES, height, width]
}

/// `supply / pieces`, as the Python's `_float32(supply / total)`: the quotient in double
/// precision, then rounded to the nearest float32 (0.0 where a player has no pieces at all).
fn fraction(supply: usize, pieces: usize) -> f32 {
    if pieces == 0 {
        0.0
    } else {
        (supply as f64 / pieces as f64) as f32
    }
}

fn flag(on: bool) -> f32 {
    if on {
        1.0
    } else {
        0.0
    }
}

/// The planes of `seat`'s view written into `out`; `false` (and nothing written) when `out` is
/// not `PLANES * width * height` long or `seat` is no seat of the game.
pub fn write(state: &BonesRules, seat: Option<usize>, out: &mut [f32]) -> bool {
    let table = &state.table;
    let (width, size) = (table.width, table.width * table.height);
    let own = seat.unwrap_or(0);
    if out.len() != PLANES * size || own > 1 {
        return false;
    }
    let (board, rest) = out.split_at_mut(7 * size);
    let (own_top, board) = board.split_at_mut(size);
    let (opponent_top, board) = board.split_at_mut(size);
    let (height_1, board) = board.split_at_mut(size);
    let (height_2, board) = board.split_at_mut(size);
    let (height_3, board) = board.split_at_mut(size);
    let (joined_right, joined_up) = board.split_at_mut(size);
    for square in 0..size {
        let colour = state.top_colour[square];
        own_top[square] = flag(colour.is_some_and(|c| usize::from(c) == own));
        opponent_top[square] = flag(colour.is_some_and(|c| usize::from(c) != own));
        let stack = state.heights[square];
        height_1[square] = flag(stack == 1);
        height_2[square] = flag(stack == 2);
        height_3[square] = flag(stack >= 3);
        // Two squares show the same piece exactly when their top piece numbers are equal.
        let piece = state.top_piece[square];
        let shows_piece = |other: usize| piece.is_some() && state.top_piece[other] == piece;
        joined_right[square] = flag(square % width < width - 1 && shows_piece(square + 1));
        joined_up[square] = flag(square + width < size && shows_piece(square + width));
    }
    let (start, rest) = rest.split_at_mut(size);
    start.fill(0.0);
    if state.placed.is_empty() {
        for &square in &table.start_squares {
            start[usize::from(square)] = 1.0;
        }
    }
    let (own_supply, rest) = rest.split_at_mut(size);
    let (opponent_supply, own_turn) = rest.split_at_mut(size);
    own_supply.fill(fraction(state.supply(own), state.pieces_each));
    opponent_supply.fill(fraction(state.supply(1 - own), state.pieces_each));
    own_turn.fill(flag(usize::try_from(state.current_player()) == Ok(own)));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{DynState, NativeGame, Params};
    use crate::games::bones::rules::load;

    const WIDTH: usize = 10;
    const SIZE: usize = 90;

    fn game() -> Box<dyn NativeGame> {
        let params = Params::from_json(r#"{"width": 10, "height": 9, "pieces": 30}"#).unwrap();
        load(&params).unwrap()
    }

    fn play(text: &str) -> Box<dyn DynState> {
        let mut state = game().new_initial_state();
        for word in text.split_whitespace() {
            let action = state.string_to_action(word).unwrap();
            state.apply_action(action.into()).unwrap();
        }
        state
    }

    fn planes(state: &dyn DynState, seat: Option<usize>) -> Vec<f32> {
        let mut out = vec![0.5; PLANES * SIZE];
        assert!(state.observation_tensor(seat, &mut out));
        out
    }

    fn plane(out: &[f32], index: usize) -> &[f32] {
        &out[index * SIZE..(index + 1) * SIZE]
    }

    fn square(name: &str) -> usize {
        let file = usize::from(name.as_bytes()[0] - b'a');
        let rank: usize = name[1..].parse().unwrap();
        (rank - 1) * WIDTH + file
    }

    #[test]
    fn the_shape_is_eleven_planes_of_the_board() {
        assert_eq!(game().observation_tensor_shape(), Some(vec![11, 9, 10]));
    }

    #[test]
    fn the_empty_board_shows_the_start_area_and_full_supplies() {
        let state = play("");
        let white = planes(&*state, Some(0));
        let lit: Vec<usize> = (0..SIZE).filter(|&s| plane(&white, 7)[s] == 1.0).collect();
        assert_eq!(lit, [square("e5"), square("f5")]);
        assert!((0..7).all(|p| plane(&white, p).iter().all(|&v| v == 0.0)));
        assert!((8..11).all(|p| plane(&white, p).iter().all(|&v| v == 1.0)));
        assert!(plane(&planes(&*state, Some(1)), 10)
            .iter()
            .all(|&v| v == 0.0));
        assert_eq!(planes(&*state, None), white); // a spectator sees white's side
    }

    #[test]
    fn the_planes_show_tops_heights_joins_and_supplies() {
        // White e5-f5, black f5-f6 (covering f5), white a1-b1.
        let state = play("e5-f5 f5-f6 a1-b1");
        let black = planes(&*state, Some(1));
        let (e5, f5, f6, a1, b1) = (
            square("e5"),
            square("f5"),
            square("f6"),
            square("a1"),
            square("b1"),
        );
        assert_eq!((plane(&black, 0)[f5], plane(&black, 0)[f6]), (1.0, 1.0));
        assert_eq!((plane(&black, 1)[e5], plane(&black, 1)[a1]), (1.0, 1.0));
        assert_eq!(plane(&black, 0).iter().sum::<f32>(), 2.0);
        assert_eq!(plane(&black, 1).iter().sum::<f32>(), 3.0);
        assert_eq!((plane(&black, 2)[e5], plane(&black, 3)[f5]), (1.0, 1.0));
        assert_eq!(plane(&black, 2).iter().sum::<f32>(), 4.0);
        // a1-b1 and f5-f6 are completely visible; e5-f5 is half covered.
        assert_eq!(plane(&black, 5)[a1], 1.0);
        assert_eq!(plane(&black, 5).iter().sum::<f32>(), 1.0);
        assert_eq!(plane(&black, 6)[f5], 1.0);
        assert_eq!(plane(&black, 6).iter().sum::<f32>(), 1.0);
        assert!(plane(&black, 7).iter().all(|&v| v == 0.0));
        assert!(plane(&black, 8)
            .iter()
            .all(|&v| v == (29.0 / 30.0_f64) as f32));
        assert!(plane(&black, 9)
            .iter()
            .all(|&v| v == (28.0 / 30.0_f64) as f32));
        assert!(plane(&black, 10).iter().all(|&v| v == 1.0));
        let white = planes(&*state, Some(0));
        assert_eq!(plane(&white, 0)[b1], 1.0);
        assert_eq!(plane(&white, 0), plane(&black, 1));
        assert_eq!(plane(&white, 8), plane(&black, 9));
        assert!(plane(&white, 10).iter().all(|&v| v == 0.0));
        assert_eq!(planes(&*state, None), white);
    }

    #[test]
    fn a_buffer_of_another_size_or_a_seat_out_of_range_is_left_alone() {
        let state = play("e5-f5");
        let mut short = vec![0.5; 10];
        assert!(!state.observation_tensor(Some(0), &mut short));
        assert!(short.iter().all(|&v| v == 0.5));
        let mut full = vec![0.5; PLANES * SIZE];
        assert!(!state.observation_tensor(Some(2), &mut full));
        assert!(full.iter().all(|&v| v == 0.5));
    }
}
