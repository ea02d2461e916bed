//! Action ids and strings of both OYNO games, as `boneyard/games/oyno/notation.py` lays them out.
//! `N = size * size` (25 on 5x5).
//!
//! Puzzle: a move `X * N + Y` (`b2-d4`); its set-up outcomes `c` (`bone b2`), `N` (`down`),
//! `N + 1` (`up`), or with a difficulty one ticket `t` (`puzzle 17`).
//!
//! Two-player: `c` (`place b2`), `N + c` (`place b2 wild`), `2N + X * N + Y` (`move b2-d4`),
//! `2N + N*N + X * N + Y` (`move b2-d4 wild`), `2N + 2N*N + c` (`flip b2`); a wild roll `0`
//! (`down`) or `1` (`up`).

use super::board::{python_repr, Board, CellMask};
use crate::core::{Action, EngineError};

/// Chance outcomes of a `difficulty` puzzle's set-up: one ticket each, probability 1/1024.
pub const DIFFICULTY_TICKETS: usize = 1024;
pub const ROLL_DOWN: Action = 0;
pub const ROLL_UP: Action = 1;

fn bad(message: String) -> EngineError {
    EngineError::InvalidActionString(message)
}

/// A resting cell from its name; the center or an off-board name is refused (`parse_cell`).
fn parse_cell<M: CellMask>(board: &Board<M>, text: &str, what: &str) -> Result<usize, EngineError> {
    let cell = parse_square(board, text)?;
    if cell == board.center {
        return Err(bad(format!(
            "{} is the center: no bone rests there ({what}); cells are a1 to {} except {}",
            python_repr(text),
            board.last_name(),
            board.name(board.center)
        )));
    }
    Ok(cell)
}

/// Any cell from its name, the center included (`Grid.parse`).
fn parse_square<M: CellMask>(board: &Board<M>, text: &str) -> Result<usize, EngineError> {
    board.cell_named(text).ok_or_else(|| {
        bad(format!(
            "no square {} on a {size}x{size} board: squares are a1 to {}",
            python_repr(text),
            board.last_name(),
            size = board.size
        ))
    })
}

/// `"b2-d4"` -> (from, to).
fn parse_move<M: CellMask>(
    board: &Board<M>,
    text: &str,
    example: &str,
) -> Result<(usize, usize), EngineError> {
    let parts: Vec<&str> = text.split('-').collect();
    let [from, to] = parts[..] else {
        return Err(bad(format!(
            "bad move {}: write the two cells joined by '-', for example {}",
            python_repr(text),
            python_repr(example)
        )));
    };
    Ok((
        parse_cell(board, from, "from")?,
        parse_cell(board, to, "to")?,
    ))
}

fn no_action(what: &str, action: Action, allowed: String) -> EngineError {
    bad(format!("no {what} {action}: {allowed}"))
}

// ----- puzzle ------------------------------------------------------------------------------------

pub fn puzzle_action_to_string<M: CellMask>(
    board: &Board<M>,
    action: Action,
) -> Result<String, EngineError> {
    let n = board.cells;
    let (start, end) = (action as usize / n, action as usize % n);
    if start >= n {
        return Err(no_action(
            "OYNO puzzle action",
            action,
            format!("ids are 0 to {}", n * n - 1),
        ));
    }
    Ok(format!("{}-{}", board.name(start), board.name(end)))
}

pub fn puzzle_string_to_action<M: CellMask>(
    board: &Board<M>,
    text: &str,
) -> Result<Action, EngineError> {
    let (start, end) = parse_move(board, text, "b2-d4")?;
    Ok((start * board.cells + end) as Action)
}

pub fn puzzle_chance_to_string<M: CellMask>(
    board: &Board<M>,
    outcome: Action,
    difficulty: bool,
) -> Result<String, EngineError> {
    let n = board.cells;
    let outcome_index = outcome as usize;
    if difficulty {
        if outcome_index >= DIFFICULTY_TICKETS {
            return Err(no_action(
                "puzzle ticket",
                outcome,
                format!("tickets are 0 to {}", DIFFICULTY_TICKETS - 1),
            ));
        }
        return Ok(format!("puzzle {outcome}"));
    }
    match outcome_index {
        cell if cell < n => Ok(format!("bone {}", board.name(cell))),
        down if down == n => Ok("down".to_string()),
        up if up == n + 1 => Ok("up".to_string()),
        _ => Err(no_action(
            "OYNO set-up outcome",
            outcome,
            format!("outcomes are 0 to {}", n + 1),
        )),
    }
}

pub fn puzzle_string_to_chance<M: CellMask>(
    board: &Board<M>,
    text: &str,
    difficulty: bool,
) -> Result<Action, EngineError> {
    let n = board.cells;
    match text {
        "down" => return Ok(n as Action),
        "up" => return Ok(n as Action + 1),
        _ => {}
    }
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    if word == "bone" && !rest.is_empty() {
        return Ok(parse_square(board, rest)? as Action);
    }
    if word == "puzzle" && !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
        // a number too long for u64 is no ticket either
        if let Some(ticket) = rest
            .parse::<u64>()
            .ok()
            .filter(|&t| t < DIFFICULTY_TICKETS as u64)
        {
            return Ok(ticket as Action);
        }
    }
    let tickets = if difficulty {
        format!(", 'puzzle 0' to 'puzzle {}'", DIFFICULTY_TICKETS - 1)
    } else {
        String::new()
    };
    Err(bad(format!(
        "bad set-up outcome {}: outcomes are 'bone b2', 'up', 'down'{tickets}",
        python_repr(text)
    )))
}

// ----- two-player --------------------------------------------------------------------------------

/// The kinds of a two-player action, decoded from its id by the layout above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuelAction {
    Place { cell: usize, wild: bool },
    Move { from: usize, to: usize, wild: bool },
    Flip { cell: usize },
}

impl DuelAction {
    /// The action of `id` on a board of `n` cells, if the id is one.
    pub fn decode(id: Action, n: usize) -> Option<DuelAction> {
        let id = id as usize;
        let moves = 2 * n;
        let flips = moves + 2 * n * n;
        if id < moves {
            Some(DuelAction::Place {
                cell: id % n,
                wild: id >= n,
            })
        } else if id < flips {
            let code = (id - moves) % (n * n);
            Some(DuelAction::Move {
                from: code / n,
                to: code % n,
                wild: id - moves >= n * n,
            })
        } else if id < flips + n {
            Some(DuelAction::Flip { cell: id - flips })
        } else {
            None
        }
    }

    pub fn encode(self, n: usize) -> Action {
        let id = match self {
            DuelAction::Place { cell, wild } => cell + if wild { n } else { 0 },
            DuelAction::Move { from, to, wild } => {
                2 * n + if wild { n * n } else { 0 } + from * n + to
            }
            DuelAction::Flip { cell } => 2 * n + 2 * n * n + cell,
        };
        id as Action
    }
}

pub fn duel_action_to_string<M: CellMask>(
    board: &Board<M>,
    action: Action,
) -> Result<String, EngineError> {
    let n = board.cells;
    let wild_word = |wild: bool| if wild { " wild" } else { "" };
    match DuelAction::decode(action, n) {
        Some(DuelAction::Place { cell, wild }) => {
            Ok(format!("place {}{}", board.name(cell), wild_word(wild)))
        }
        Some(DuelAction::Move { from, to, wild }) => Ok(format!(
            "move {}-{}{}",
            board.name(from),
            board.name(to),
            wild_word(wild)
        )),
        Some(DuelAction::Flip { cell }) => Ok(format!("flip {}", board.name(cell))),
        None => Err(no_action(
            "OYNO action",
            action,
            format!("ids are 0 to {}", 3 * n + 2 * n * n - 1),
        )),
    }
}

pub fn duel_string_to_action<M: CellMask>(
    board: &Board<M>,
    text: &str,
) -> Result<Action, EngineError> {
    let n = board.cells;
    let words: Vec<&str> = text.split(' ').collect();
    let wild = words.len() == 3 && words[2] == "wild";
    if words.len() == 2 || wild {
        let (kind, target) = (words[0], words[1]);
        let action = match kind {
            "place" => Some(DuelAction::Place {
                cell: parse_cell(board, target, "place")?,
                wild,
            }),
            "move" => {
                let (from, to) = parse_move(board, target, "move b2-d4")?;
                Some(DuelAction::Move { from, to, wild })
            }
            "flip" if !wild => Some(DuelAction::Flip {
                cell: parse_cell(board, target, "flip")?,
            }),
            _ => None,
        };
        if let Some(action) = action {
            return Ok(action.encode(n));
        }
    }
    Err(bad(format!(
        "bad action {}: actions are 'place b2', 'move b2-d4', 'flip b2', and with the wild \
         variant 'place b2 wild', 'move b2-d4 wild'",
        python_repr(text)
    )))
}

pub fn roll_to_string(outcome: Action) -> Result<String, EngineError> {
    match outcome {
        ROLL_DOWN => Ok("down".to_string()),
        ROLL_UP => Ok("up".to_string()),
        _ => Err(no_action(
            "roll outcome",
            outcome,
            "0 (down) or 1 (up)".to_string(),
        )),
    }
}

pub fn string_to_roll(text: &str) -> Result<Action, EngineError> {
    match text {
        "down" => Ok(ROLL_DOWN),
        "up" => Ok(ROLL_UP),
        _ => Err(bad(format!(
            "bad roll {}: a roll is 'up' or 'down'",
            python_repr(text)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board<u64> {
        Board::new(5).unwrap()
    }

    #[test]
    fn puzzle_moves_are_from_times_cells_plus_to() {
        let board = board();
        assert_eq!(
            puzzle_string_to_action(&board, "b2-d4").unwrap(),
            6 * 25 + 18
        );
        assert_eq!(
            puzzle_action_to_string(&board, 6 * 25 + 18).unwrap(),
            "b2-d4"
        );
        assert!(puzzle_action_to_string(&board, 625).is_err());
    }

    #[test]
    fn two_player_ids_follow_the_documented_layout() {
        let board = board();
        let n = 25;
        for (text, id) in [
            ("place b2", 6),
            ("place b2 wild", n + 6),
            ("move b2-d4", 2 * n + 6 * n + 18),
            ("move b2-d4 wild", 2 * n + n * n + 6 * n + 18),
            ("flip b2", 2 * n + 2 * n * n + 6),
        ] {
            assert_eq!(duel_string_to_action(&board, text).unwrap(), id as Action);
            assert_eq!(duel_action_to_string(&board, id as Action).unwrap(), text);
        }
        assert!(duel_action_to_string(&board, (3 * n + 2 * n * n) as Action).is_err());
    }

    #[test]
    fn bad_strings_say_what_is_allowed() {
        let board = board();
        let message = |r: Result<Action, EngineError>| r.unwrap_err().message().to_string();
        assert_eq!(
            message(duel_string_to_action(&board, "place c3")),
            "'c3' is the center: no bone rests there (place); cells are a1 to e5 except c3"
        );
        assert_eq!(
            message(duel_string_to_action(&board, "flip b2 wild")),
            "bad action 'flip b2 wild': actions are 'place b2', 'move b2-d4', 'flip b2', and \
             with the wild variant 'place b2 wild', 'move b2-d4 wild'"
        );
        assert_eq!(
            message(puzzle_string_to_action(&board, "b2")),
            "bad move 'b2': write the two cells joined by '-', for example 'b2-d4'"
        );
        assert_eq!(
            message(puzzle_string_to_chance(&board, "bone z9", false)),
            "no square 'z9' on a 5x5 board: squares are a1 to e5"
        );
        assert_eq!(
            puzzle_string_to_chance(&board, "puzzle 1023", true),
            Ok(1023)
        );
        assert!(puzzle_string_to_chance(&board, "puzzle 1024", true).is_err());
        assert!(puzzle_string_to_chance(&board, "puzzle 99999999999999999999999", true).is_err());
        assert_eq!(string_to_roll("up"), Ok(ROLL_UP));
    }
}
