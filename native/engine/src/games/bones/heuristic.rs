//! The greedy Bones heuristic behind the bots (`boneyard/games/bones/heuristic.py`, number for
//! number). It reads only what every seat sees: the top colours and the pieces.
//!
//! * **Windows**: every five consecutive squares of a rank or file scores for a colour by how
//!   many of its squares show that colour (`WEIGHTS`), cut by `MIXED` for each square of the
//!   other colour in it.
//! * **Immediate wins**: the side to move with a placement that makes five in a line is valued
//!   `WIN_SOON`.
//! * **Threats**: when the side not to move holds immediate wins, the mover's placements that
//!   touch those windows are tried; if none leaves the threat without a win it is unstoppable
//!   (`UNSTOPPABLE`), otherwise it costs the mover `THREAT` points.
//! * Other positions are valued `SPREAD * tanh(score / SCALE)` for the side to move.

use super::notation::{Square, LINE};
use super::rules::BonesRules;
use crate::core::{Action, Rules, TERMINAL};

pub const WEIGHTS: [f64; 6] = [0.0, 1.0, 4.0, 16.0, 64.0, 256.0];
pub const MIXED: f64 = 0.25;
pub const THREAT: f64 = 30.0;
pub const TEMPO: f64 = 2.0;
pub const SCALE: f64 = 60.0;
pub const WIN_SOON: f64 = 0.95;
pub const UNSTOPPABLE: f64 = 0.9;
pub const SPREAD: f64 = 0.85;

/// A window: five squares of a rank or file.
pub type Window = [Square; LINE];

/// Every five consecutive squares of a rank, then of a file, as the Python `line_windows` lists
/// them.
pub fn line_windows(width: usize, height: usize) -> Vec<Window> {
    let mut windows = Vec::new();
    if width >= LINE {
        for rank in 0..height {
            for file in 0..=width - LINE {
                let start = rank * width + file;
                windows.push(std::array::from_fn(|i| (start + i) as Square));
            }
        }
    }
    if height >= LINE {
        for file in 0..width {
            for rank in 0..=height - LINE {
                let start = rank * width + file;
                windows.push(std::array::from_fn(|i| (start + i * width) as Square));
            }
        }
    }
    windows
}

/// `WEIGHTS[own] * MIXED ** other`.
fn factor(own: usize, other: usize) -> f64 {
    WEIGHTS[own] * MIXED.powi(other as i32)
}

/// The placements that cover `square`: the two along its rank, the two along its file.
fn touching(state: &BonesRules, square: usize, out: &mut Vec<Action>) {
    let table = &state.table;
    let (width, height) = (table.width, table.height);
    let horizontal = (width - 1) * height;
    let (rank, file) = (square / width, square % width);
    if file > 0 {
        out.push((rank * (width - 1) + file - 1) as Action);
    }
    if file + 1 < width {
        out.push((rank * (width - 1) + file) as Action);
    }
    if rank > 0 {
        out.push((horizontal + square - width) as Action);
    }
    if rank + 1 < height {
        out.push((horizontal + square) as Action);
    }
}

/// The placement on the two squares `first < second`, if they are adjacent.
fn by_pair(state: &BonesRules, first: usize, second: usize) -> Option<Action> {
    let width = state.table.width;
    let horizontal = (width - 1) * state.table.height;
    if second == first + 1 && first % width != width - 1 {
        Some(((first / width) * (width - 1) + first % width) as Action)
    } else if second == first + width {
        Some((horizontal + first) as Action)
    } else {
        None
    }
}

fn colour(state: &BonesRules, square: Square) -> i32 {
    state.top_colour[square as usize].map_or(-1, i32::from)
}

fn count(state: &BonesRules, window: &Window, seat: i32) -> usize {
    window.iter().filter(|&&s| colour(state, s) == seat).count()
}

/// The legal placements that fill `window` with `seat`'s colour (its other squares show it).
fn completions(state: &BonesRules, window: &Window, seat: i32, out: &mut Vec<Action>) {
    let mut missing = [0usize; LINE];
    let mut found = 0;
    for &square in window {
        if colour(state, square) != seat {
            missing[found] = square as usize;
            found += 1;
        }
    }
    let start = out.len();
    match found {
        1 => touching(state, missing[0], out),
        2 => out.extend(by_pair(state, missing[0], missing[1])),
        _ => {}
    }
    let mut keep = start;
    for index in start..out.len() {
        if state.is_legal_placement(out[index]) {
            out[keep] = out[index];
            keep += 1;
        }
    }
    out.truncate(keep);
}

/// Window scores of both colours, their immediate wins, and the windows those wins are in.
struct Scan {
    scores: [f64; 2],
    wins: [Vec<Action>; 2],
    win_windows: [Vec<Window>; 2],
}

fn scan(state: &BonesRules) -> Scan {
    let mut result = Scan {
        scores: [0.0, 0.0],
        wins: [Vec::new(), Vec::new()],
        win_windows: [Vec::new(), Vec::new()],
    };
    for window in &state.table.windows {
        let white = count(state, window, 0);
        let black = count(state, window, 1);
        result.scores[0] += factor(white, black);
        result.scores[1] += factor(black, white);
        for (seat, shown) in [(0, white), (1, black)] {
            if shown >= LINE - 2 {
                let before = result.wins[seat].len();
                completions(state, window, seat as i32, &mut result.wins[seat]);
                if result.wins[seat].len() > before {
                    result.win_windows[seat].push(*window);
                }
            }
        }
    }
    result
}

fn has_win_in(state: &BonesRules, windows: &[Window], seat: i32) -> bool {
    let mut found = Vec::new();
    windows.iter().any(|window| {
        count(state, window, seat) >= LINE - 2 && {
            found.clear();
            completions(state, window, seat, &mut found);
            !found.is_empty()
        }
    })
}

/// The placements of the side to move, among those touching `windows`, that leave `attacker`
/// without an immediate win (no other placement changes those wins); only the first with
/// `first_only`.
fn blocks(state: &BonesRules, attacker: i32, windows: &[Window], first_only: bool) -> Vec<Action> {
    let mut candidates = Vec::new();
    for window in windows {
        for &square in window {
            touching(state, square as usize, &mut candidates);
        }
    }
    candidates.sort_unstable();
    candidates.dedup();
    candidates.retain(|&a| state.is_legal_placement(a));
    // Lines that a placement could open (by freeing a covered piece's spot) lie in windows where
    // the attacker already shows three: check all of them after each try.
    let watched: Vec<Window> = state
        .table
        .windows
        .iter()
        .filter(|w| count(state, w, attacker) >= LINE - 2)
        .copied()
        .collect();
    let mut found = Vec::new();
    for action in candidates {
        let mut child = state.clone();
        child.apply_action(action);
        if child.current_player() == TERMINAL || !has_win_in(&child, &watched, attacker) {
            found.push(action);
            if first_only {
                break;
            }
        }
    }
    found
}

/// Whether some placement of the side to move, among those touching `windows`, leaves
/// `attacker` without an immediate win.
fn can_block(state: &BonesRules, attacker: i32, windows: &[Window]) -> bool {
    !blocks(state, attacker, windows, true).is_empty()
}

/// `Rules::forcing_moves`: the mover's winning placements where it has one; else, where the
/// opponent has an immediate win, the placements that take every such win away (the Python
/// `blocking_placements`), or the first legal placement where none does (all lose alike: the
/// opponent wins next); `None` in a quiet position or at the end.
pub fn forcing_moves(state: &BonesRules) -> Option<Vec<Action>> {
    let mover = state.current_player();
    if mover == TERMINAL {
        return None;
    }
    let mover = mover as usize;
    let other = 1 - mover;
    let found = scan(state);
    if !found.wins[mover].is_empty() {
        let mut wins = found.wins[mover].clone();
        wins.sort_unstable();
        wins.dedup();
        return Some(wins);
    }
    if found.wins[other].is_empty() {
        return None;
    }
    let parries = blocks(state, other as i32, &found.win_windows[other], false);
    if parries.is_empty() {
        return Some(state.legal_actions().into_iter().take(1).collect());
    }
    Some(parries)
}

/// `evaluate(state, seat)`: the value for `seat` inside (-1, 1); the result once the game is over.
pub fn evaluate(state: &BonesRules, seat: usize) -> f64 {
    let mover = state.current_player();
    if mover == TERMINAL {
        return state.returns()[seat];
    }
    let mover = mover as usize;
    let other = 1 - mover;
    let found = scan(state);
    if !found.wins[mover].is_empty() {
        return if seat == mover { WIN_SOON } else { -WIN_SOON };
    }
    let mut score = found.scores[mover] - found.scores[other] + TEMPO;
    if !found.wins[other].is_empty() {
        if !can_block(state, other as i32, &found.win_windows[other]) {
            return if seat == mover {
                -UNSTOPPABLE
            } else {
                UNSTOPPABLE
            };
        }
        score -= THREAT;
    }
    let value = SPREAD * (score / SCALE).tanh();
    if seat == mover {
        value
    } else {
        -value
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::notation::{self, DominoTable};
    use super::*;

    /// The default board after the placements in `text`.
    fn play(text: &str) -> BonesRules {
        let table = Arc::new(DominoTable::new(10, 9));
        let mut state = BonesRules::new(Arc::clone(&table), 30);
        for word in text.split_whitespace() {
            state.apply_action(notation::string_to_action(&table, word).unwrap());
        }
        state
    }

    fn names(state: &BonesRules, actions: &[Action]) -> Vec<String> {
        actions
            .iter()
            .map(|&a| notation::action_to_string(&state.table, a).unwrap())
            .collect()
    }

    #[test]
    fn a_quiet_position_has_no_forcing_moves() {
        assert_eq!(forcing_moves(&play("e5-f5 a1-a2")), None);
    }

    #[test]
    fn the_mover_with_a_win_is_forced_to_take_it() {
        // White shows e5 f5 g5 h5: i5 (or d5) finishes the line.
        let state = play("e5-f5 a1-a2 g5-h5 a3-a4");
        let wins = forcing_moves(&state).unwrap();
        assert!(!wins.is_empty());
        for action in wins {
            let mut child = state.clone();
            child.apply_action(action);
            assert_eq!(child.winner, Some(0));
        }
    }

    #[test]
    fn a_threat_leaves_only_its_parries() {
        // White shows e5 f5 g5 with h5-i5 free (and c5-d5): black must cover a white square of
        // the line or the pair that would finish it.
        let state = play("e5-f5 a1-a2 g5-g6");
        let parries = forcing_moves(&state).unwrap();
        assert!(!parries.is_empty() && parries.len() < state.legal_actions().len());
        assert!(names(&state, &parries).contains(&"f5-g5".to_string()));
        for &action in &parries {
            let mut child = state.clone();
            child.apply_action(action);
            assert_eq!(
                forcing_moves(&child),
                None,
                "{action}: white's wins are gone"
            );
        }
    }

    #[test]
    fn a_double_threat_that_nothing_parries_leaves_one_move() {
        // g5-g6 makes e5 f5 g5 (row 5) and g6 h6 i6 (row 6): no one piece parries both (the one
        // on g5-g6 itself may not lie exactly on a completely visible piece).
        let state = play("e5-f5 a1-a2 h6-i6 a8-a9 g5-g6");
        let only = forcing_moves(&state).unwrap();
        assert_eq!(only.len(), 1);
        assert!(!can_block(&state, 0, &scan(&state).win_windows[0]));
    }
}
