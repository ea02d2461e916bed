//! Bon-Bon's observation tensor, as `boneyard/games/bonbon/tensor.py` lays it out: one flat row
//! of `13 * players + 28 + 4 * kinds` numbers.
//!
//! * the observing seat (one-hot; zeros for a spectator), the player to act (one-hot, then
//!   chance, terminal), the phase (one-hot over the nine phases)
//! * per seat: its status (one-hot), wins / 3, personal limit / 10, face-up total / 10, run
//!   length, face-down cards and trailing face-down cards (each / 20), bonus tile taken (flag,
//!   value / 9)
//! * the marker / collective limit, the collective limit / 36, cards left / deck size, round /
//!   max rounds; the tiles on offer (a count per value 0..9, / 3) and whether they are open
//! * per kind of card: unseen count / 10; the drawn card (one-hot, then "hidden"); the peeked
//!   card (one-hot, then "hidden"); the kinds in the observer's own run (count / 10)
//!
//! Every number is worked out in `f64` as Python does and only then rounded to `f32`, so that the
//! rows are the Python tensor cast to `float32`, bit for bit. What `seat` may not see is never
//! read: a card's kind counts only where `observation::knows` says the seat knows it, the drawn
//! card only where the seat's bit is in its mask, the peeked card only for the peeker — the
//! rules of `observation::observe` (and of Python's `_typed_observation`).

use super::observation::knows;
use super::rules::{holds, BonBonRules, PERSONAL_LIMIT, WINS_TO_WIN};
use crate::core::{Rules, CHANCE, TERMINAL};

const PHASES: usize = 9;
const STATUSES: usize = 3;
/// Bonus tiles are worth 0 to 9 (`notation::MAX_TILE_VALUE`).
const TILE_VALUES: usize = 10;
/// The numbers of one seat's row: status, wins, limit, face-up total, three run lengths, tile.
const SEAT_ROW: usize = STATUSES + 8;
/// The marker, the limit, the deck, the round, the tile counts and "open".
const TABLE_ROW: usize = 4 + TILE_VALUES + 1;

/// The length of the tensor for `players` seats and `kinds` kinds of card (Python's
/// `tensor_size`).
pub fn size(players: usize, kinds: usize) -> usize {
    13 * players + 28 + 4 * kinds
}

/// Where each part of the row starts.
struct Layout {
    players: usize,
    seats: usize,
    table: usize,
    unseen: usize,
    drawn: usize,
    peek: usize,
    own: usize,
    end: usize,
}

impl Layout {
    fn new(players: usize, kinds: usize) -> Layout {
        let seats = 2 * players + 2 + PHASES;
        let table = seats + SEAT_ROW * players;
        let unseen = table + TABLE_ROW;
        let drawn = unseen + kinds;
        let peek = drawn + kinds + 1;
        let own = peek + kinds + 1;
        Layout {
            players,
            seats,
            table,
            unseen,
            drawn,
            peek,
            own,
            end: own + kinds,
        }
    }
}

/// `numerator / denominator` as Python's true division gives it (correctly rounded `f64`), then
/// rounded to `f32` as numpy's cast does.
fn ratio(numerator: f64, denominator: f64) -> f32 {
    (numerator / denominator) as f32
}

/// Writes `value` at `index`; the layout keeps every index inside the checked length, and an
/// index past it is dropped rather than a panic.
fn set(out: &mut [f32], index: usize, value: f32) {
    if let Some(slot) = out.get_mut(index) {
        *slot = value;
    }
}

/// Adds one to a count kept (exactly: it is a small integer) in the row until it is scaled.
fn count_one(out: &mut [f32], index: usize, by: f32) {
    if let Some(slot) = out.get_mut(index) {
        *slot += by;
    }
}

/// Divides the counts kept in `out[range]` by `denominator`.
fn scale(out: &mut [f32], range: std::ops::Range<usize>, denominator: f64) {
    if let Some(counts) = out.get_mut(range) {
        for value in counts {
            *value = ratio(f64::from(*value), denominator);
        }
    }
}

/// The tensor of `seat`'s view (`None`: a spectator's) written into `out`; `false` (and nothing
/// written) when `out` is not `size(players, kinds)` long or `seat` is no seat of the table.
pub fn write(state: &BonBonRules, seat: Option<usize>, out: &mut [f32]) -> bool {
    let table = &state.table;
    let kinds = table.deck.kinds.len();
    let at = Layout::new(table.players, kinds);
    if out.len() != at.end || at.end != size(table.players, kinds) {
        return false;
    }
    if seat.is_some_and(|s| s >= at.players) {
        return false;
    }
    out.fill(0.0);
    write_head(state, seat, &at, out);

    // The deck's counts, then every card this seat does not know, less a peeked card it saw.
    for (kind, &count) in state.counts.iter().enumerate() {
        set(out, at.unseen + kind, count as f32);
    }
    for (s, run) in state.runs.iter().enumerate() {
        write_seat_row(state, s, at.seats + s * SEAT_ROW, out);
        for card in run {
            if !knows(card, seat) {
                count_one(out, at.unseen + card.kind, 1.0);
            } else if seat == Some(s) {
                count_one(out, at.own + card.kind, 1.0);
            }
        }
    }
    write_table_row(state, at.table, out);
    if let Some(kind) = state.drawn {
        if seat.is_some_and(|s| holds(state.drawn_mask, s)) {
            set(out, at.drawn + kind, 1.0);
        } else {
            count_one(out, at.unseen + kind, 1.0);
            set(out, at.drawn + kinds, 1.0);
        }
    }
    if let Some((kind, peeker)) = state.peek {
        if seat == Some(peeker) {
            count_one(out, at.unseen + kind, -1.0);
            set(out, at.peek + kind, 1.0);
        } else {
            set(out, at.peek + kinds, 1.0);
        }
    }
    scale(out, at.unseen..at.unseen + kinds, 10.0);
    scale(out, at.own..at.own + kinds, 10.0);
    true
}

/// The observer, the player to act and the phase.
fn write_head(state: &BonBonRules, seat: Option<usize>, at: &Layout, out: &mut [f32]) {
    let players = at.players;
    if let Some(seat) = seat {
        set(out, seat, 1.0);
    }
    match state.current_player() {
        CHANCE => set(out, 2 * players, 1.0),
        TERMINAL => set(out, 2 * players + 1, 1.0),
        player => {
            if let Ok(player) = usize::try_from(player) {
                set(out, players + player, 1.0);
            }
        }
    }
    set(out, 2 * players + 2 + state.phase as usize, 1.0);
}

/// Seat `s`'s status, wins, limit, face-up total, run, and bonus tile, from `start`. Every seat
/// may see these: a face-down card shows that it lies there, not what it is.
fn write_seat_row(state: &BonBonRules, s: usize, start: usize, out: &mut [f32]) {
    let run = state.runs.get(s).map_or(&[][..], |run| &run[..]);
    if let Some(status) = state.status.get(s) {
        set(out, start + *status as usize, 1.0);
    }
    let wins = state.wins.get(s).copied().unwrap_or(0) as f64;
    let up_total = state.up_total.get(s).copied().unwrap_or(0) as f64;
    let down = run.iter().filter(|card| !card.up).count();
    let trailing = run.iter().rev().take_while(|card| !card.up).count();
    let row = start + STATUSES;
    set(out, row, ratio(wins, WINS_TO_WIN as f64));
    set(out, row + 1, ratio(PERSONAL_LIMIT as f64 - wins, 10.0));
    set(out, row + 2, ratio(up_total, 10.0));
    set(out, row + 3, ratio(run.len() as f64, 20.0));
    set(out, row + 4, ratio(down as f64, 20.0));
    set(out, row + 5, ratio(trailing as f64, 20.0));
    if let Some(Some(taken)) = state.tile_taken.get(s) {
        set(out, row + 6, 1.0);
        set(out, row + 7, ratio(*taken as f64, 9.0));
    }
}

/// The marker and limit, the deck, the round, the tiles on offer, from `start`.
fn write_table_row(state: &BonBonRules, start: usize, out: &mut [f32]) {
    let table = &state.table;
    let over = state.phase == super::rules::Phase::Over;
    let round = state.rounds_played + if over { 0 } else { 1 };
    let limit = table.collective_limit as f64;
    set(out, start, ratio(state.marker as f64, limit));
    set(out, start + 1, ratio(limit, 36.0));
    set(
        out,
        start + 2,
        ratio(
            f64::from(state.deck_left),
            f64::from(table.deck_size.max(1)),
        ),
    );
    set(out, start + 3, ratio(round as f64, table.max_rounds as f64));
    let tiles = start + 4;
    for &value in state.tile_values() {
        if usize::from(value) < TILE_VALUES {
            count_one(out, tiles + usize::from(value), 1.0);
        }
    }
    scale(out, tiles..tiles + TILE_VALUES, 3.0);
    set(
        out,
        tiles + TILE_VALUES,
        if state.tiles_open { 1.0 } else { 0.0 },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{DynState, NativeGame, Params};
    use crate::games::bonbon::load;

    /// Two players, the default deck (77 cards of 14 kinds: "1" to "5", "3!" to "6!", then the
    /// effects): 110 numbers. Kind "3" is kind 2.
    const SIZE: usize = 110;
    const SEAT_ROWS: usize = 15;
    const TABLE: usize = 37;
    const UNSEEN: usize = 52;
    const DRAWN: usize = 66;
    const PEEK: usize = 81;
    const OWN: usize = 96;
    const THREE: usize = 2;

    fn game() -> Box<dyn NativeGame> {
        let params = Params::from_json(
            r#"{"players": 2, "deck": "default", "tiles": "1,1,2,2,3,3", "max_rounds": 40}"#,
        )
        .unwrap();
        load(&params).unwrap()
    }

    fn played(moves: &[&str]) -> Box<dyn DynState> {
        let mut state = game().new_initial_state();
        for &text in moves {
            let action = state.string_to_action(text).unwrap();
            state.apply_action(i64::from(action)).unwrap();
        }
        state
    }

    fn tensor(state: &dyn DynState, seat: Option<usize>) -> Vec<f32> {
        let mut out = vec![0.5; SIZE];
        assert!(state.observation_tensor(seat, &mut out));
        out
    }

    #[test]
    fn the_shape_is_the_python_tensor_size() {
        assert_eq!(game().observation_tensor_shape(), Some(vec![SIZE]));
        assert_eq!(size(6, 14), 13 * 6 + 28 + 56);
    }

    #[test]
    fn the_head_and_the_table_show_the_turn_the_phase_and_the_tiles() {
        let state = played(&["tiles 1 2 3"]);
        let south = tensor(&*state, Some(0));
        assert_eq!(&south[..6], [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]); // seat 0, 0 to act
        assert_eq!(south[6 + 1], 1.0); // the phase "turn"
        assert_eq!(south[6..SEAT_ROWS].iter().sum::<f32>(), 1.0);
        assert_eq!(south[SEAT_ROWS + 4], 1.0); // personal limit 10 / 10, no win yet
        let marker_limit_deck_round = &south[TABLE..TABLE + 4];
        assert_eq!(
            marker_limit_deck_round,
            [0.0, (10.0 / 36.0) as f32, 1.0, 0.025]
        );
        let tiles = &south[TABLE + 4..TABLE + 15];
        let third = (1.0f64 / 3.0) as f32;
        assert_eq!(
            tiles,
            [0.0, third, third, third, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(south[UNSEEN], 1.2); // twelve 1s in the deck
        let spectator = tensor(&*state, None);
        assert_eq!(&spectator[..2], [0.0, 0.0]);
        assert_eq!(spectator[2..], south[2..]); // nothing is secret yet
    }

    #[test]
    fn a_drawn_card_is_shown_to_its_drawer_alone_and_kept_in_its_own_run() {
        let placing = played(&["tiles 1 2 3", "draw", "card 3"]);
        let drawer = tensor(&*placing, Some(0));
        assert_eq!((drawer[DRAWN + THREE], drawer[DRAWN + 14]), (1.0, 0.0));
        assert_eq!(drawer[UNSEEN + THREE], 1.0); // ten 3s left unseen of eleven
        for other in [tensor(&*placing, Some(1)), tensor(&*placing, None)] {
            assert!(other[DRAWN..DRAWN + 14].iter().all(|&v| v == 0.0));
            assert_eq!(other[DRAWN + 14], 1.0); // a card is drawn, its kind hidden
            assert_eq!(other[UNSEEN + THREE], 1.1);
        }

        let down = played(&["tiles 1 2 3", "draw", "card 3", "down"]);
        let south = tensor(&*down, Some(0));
        let run = &south[SEAT_ROWS + 6..SEAT_ROWS + 9];
        assert_eq!(run, [0.05, 0.05, 0.05]); // one card, face down, at the end
        assert_eq!(south[OWN + THREE], 0.1);
        let north = tensor(&*down, Some(1));
        assert_eq!(&north[..4], [0.0, 1.0, 0.0, 1.0]); // North now acts
        assert_eq!(&north[SEAT_ROWS + 6..SEAT_ROWS + 9], run); // it sees a card lies there
        assert_eq!(north[UNSEEN + THREE], 1.1); // not what it is
        assert!(north[OWN..].iter().all(|&v| v == 0.0));
        assert!(north[PEEK..OWN].iter().all(|&v| v == 0.0)); // no peek
    }

    #[test]
    fn a_buffer_of_another_size_or_a_seat_off_the_table_is_left_alone() {
        let state = played(&["tiles 1 2 3"]);
        for (seat, length) in [(Some(0), SIZE - 1), (Some(0), SIZE + 1), (Some(2), SIZE)] {
            let mut out = vec![0.5; length];
            assert!(!state.observation_tensor(seat, &mut out));
            assert!(out.iter().all(|&v| v == 0.5));
        }
    }
}
