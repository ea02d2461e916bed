//! Bones notation (`boneyard/games/bones/notation.py`): the board's squares, the placements
//! (action ids) and their strings.
//!
//! Squares are algebraic (`a1` at seat 0's lower left); a square's index is
//! `rank0 * width + file0`. A placement names its two squares, the one nearer `a1` first
//! (`e5-f5`, `e5-e6`); parsing also takes them the other way round (`f5-e5`).
//!
//! Action ids never change meaning for a board size: the horizontal placements first, by their
//! left square (`id = rank0 * (width - 1) + file0`), then the vertical ones, by their lower square
//! (`id = height * (width - 1) + rank0 * width + file0`). So sorting ids sorts placements the same
//! way on every board.

use std::collections::HashMap;

use crate::core::{Action, EngineError};

/// How many consecutive squares of one colour in a rank or file win.
pub const LINE: usize = 5;

/// A square's index, `rank0 * width + file0` (a 26x26 board has 676 squares).
pub type Square = u16;

/// Up to `LINE - 1` squares walking away from a placement along one direction, nearest first:
/// all that a line of five through the placement can reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ray {
    squares: [Square; LINE - 1],
    len: u8,
}

impl Ray {
    /// The squares from `square` (excluded) in direction `(file step, rank step)`, at most
    /// `length` of them, stopping at the board's edge.
    fn walk(
        width: usize,
        height: usize,
        square: usize,
        step: (isize, isize),
        length: usize,
    ) -> Ray {
        let mut ray = Ray::default();
        let (mut file, mut rank) = ((square % width) as isize, (square / width) as isize);
        for _ in 0..length {
            file += step.0;
            rank += step.1;
            if !(0..width as isize).contains(&file) || !(0..height as isize).contains(&rank) {
                break;
            }
            ray.squares[ray.len as usize] = (rank as usize * width + file as usize) as Square;
            ray.len += 1;
        }
        ray
    }

    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }
}

/// One line (rank or file) a placement can complete: how many of its squares the placement
/// covers in that line, and the rays on either side of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineThrough {
    pub covered: u8,
    pub back: Ray,
    pub forward: Ray,
}

/// Every placement of one board size, computed once per game and shared by its states (Python's
/// `DominoTable`).
#[derive(Debug)]
pub struct DominoTable {
    pub width: usize,
    pub height: usize,
    /// How many placements (action ids) the board has.
    pub count: usize,
    /// `first[action]`: the square nearer a1 (left or lower).
    pub first: Vec<Square>,
    /// `second[action]`: the other square (right or upper).
    pub second: Vec<Square>,
    /// The start area's two squares, left one first.
    pub start_squares: [Square; 2],
    /// The placements that touch the start area (the legal first moves), sorted.
    pub start_actions: Vec<Action>,
    /// `names[square]`: `a1`, `b1`, ...
    pub names: Vec<String>,
    /// `strings[action]`: the placement's notation.
    pub strings: Vec<String>,
    /// `(first, second)` -> action id, for parsing.
    by_pair: HashMap<(Square, Square), Action>,
    /// `square name` -> index, for parsing.
    by_name: HashMap<String, Square>,
    /// `lines[action]`: the three lines a placement can complete: its own direction, and across
    /// it at each of its two squares (so a win is looked for only there).
    pub lines: Vec<[LineThrough; 3]>,
    /// Every five consecutive squares of a rank or file (the heuristic's windows).
    pub windows: Vec<super::heuristic::Window>,
}

/// The start area's two square indices on a `width` x `height` board (left one first): the two
/// middle squares of the middle rank, the lower middle rank of an even height, the middle file
/// and its right neighbour on an odd width.
pub fn start_area(width: usize, height: usize) -> [Square; 2] {
    let first = (height - 1) / 2 * width + (width - 1) / 2;
    [first as Square, (first + 1) as Square]
}

fn square_name(width: usize, square: usize) -> String {
    let file = char::from(b'a' + (square % width) as u8);
    format!("{file}{}", square / width + 1)
}

impl DominoTable {
    /// The placement table of a `width` x `height` board (2 to 26 each, as Python checks).
    pub fn new(width: usize, height: usize) -> DominoTable {
        let mut first = Vec::new();
        let mut second = Vec::new();
        for rank in 0..height {
            for file in 0..width - 1 {
                let square = rank * width + file;
                first.push(square as Square);
                second.push((square + 1) as Square);
            }
        }
        let horizontal = first.len();
        for rank in 0..height - 1 {
            for file in 0..width {
                let square = rank * width + file;
                first.push(square as Square);
                second.push((square + width) as Square);
            }
        }
        let count = first.len();
        let start_squares = start_area(width, height);
        let names: Vec<String> = (0..width * height).map(|s| square_name(width, s)).collect();
        let start_actions = (0..count)
            .filter(|&a| start_squares.contains(&first[a]) || start_squares.contains(&second[a]))
            .map(|a| a as Action)
            .collect();
        let strings = (0..count)
            .map(|a| format!("{}-{}", names[first[a] as usize], names[second[a] as usize]))
            .collect();
        let by_pair = (0..count)
            .map(|a| ((first[a], second[a]), a as Action))
            .collect();
        let by_name = names
            .iter()
            .enumerate()
            .map(|(s, name)| (name.clone(), s as Square))
            .collect();
        let lines = (0..count)
            .map(|a| {
                lines_through(
                    width,
                    height,
                    first[a] as usize,
                    second[a] as usize,
                    a < horizontal,
                )
            })
            .collect();
        DominoTable {
            width,
            height,
            count,
            first,
            second,
            start_squares,
            start_actions,
            names,
            strings,
            by_pair,
            by_name,
            lines,
            windows: super::heuristic::line_windows(width, height),
        }
    }

    /// The last square's name (`j9` on the default board), as the errors quote it.
    fn last_name(&self) -> &str {
        self.names.last().map(String::as_str).unwrap_or("a1")
    }
}

/// The three lines of a placement on `first` and `second`: along it (the placement covers two of
/// its squares, so each ray needs at most three more), and across it at each square (one covered,
/// rays of four), the rays cut to what a line of five needs.
fn lines_through(
    width: usize,
    height: usize,
    first: usize,
    second: usize,
    horizontal: bool,
) -> [LineThrough; 3] {
    let (along, across) = if horizontal {
        ((1, 0), (0, 1))
    } else {
        ((0, 1), (1, 0))
    };
    let back = (-along.0, -along.1);
    let down = (-across.0, -across.1);
    let need = LINE - 1;
    let ray = |square, step, length| Ray::walk(width, height, square, step, length);
    [
        LineThrough {
            covered: 2,
            back: ray(first, back, need - 1),
            forward: ray(second, along, need - 1),
        },
        LineThrough {
            covered: 1,
            back: ray(first, down, need),
            forward: ray(first, across, need),
        },
        LineThrough {
            covered: 1,
            back: ray(second, down, need),
            forward: ray(second, across, need),
        },
    ]
}

/// `e5-f5`: the placement's two squares, the one nearer a1 first.
pub fn action_to_string(table: &DominoTable, action: Action) -> Result<String, EngineError> {
    table.strings.get(action as usize).cloned().ok_or_else(|| {
        EngineError::InvalidActionString(format!(
            "no bones placement {action} on a {}x{} board: action ids are 0 to {}",
            table.width,
            table.height,
            table.count - 1
        ))
    })
}

/// The two square names of `text` if it has the shape `<letter><digits> - <letter><digits>`
/// (spaces around the dash allowed): Python's `^([a-z][0-9]+)\s*-\s*([a-z][0-9]+)$`.
fn placement_squares(text: &str) -> Option<(&str, &str)> {
    let (one, two) = text.split_once('-')?;
    let (one, two) = (one.trim_end(), two.trim_start());
    let is_square = |name: &str| {
        let mut bytes = name.bytes();
        matches!(bytes.next(), Some(b'a'..=b'z'))
            && name.len() > 1
            && bytes.all(|b| b.is_ascii_digit())
    };
    (is_square(one) && is_square(two)).then_some((one, two))
}

/// `'e5-f5'` -> its id (either order of the squares); malformed text is an
/// `InvalidActionString` error that says why, worded as the Python engine words it.
pub fn string_to_action(table: &DominoTable, text: &str) -> Result<Action, EngineError> {
    let text = text.trim();
    let shown = python_repr(text);
    let bad = |why: String| {
        EngineError::InvalidActionString(format!("bad bones placement {shown}: {why}"))
    };
    let Some((one, two)) = placement_squares(text) else {
        return Err(bad(format!(
            "write the two adjacent squares the piece covers, joined by '-', for example e5-f5 \
             or e5-e6 (squares a1 to {})",
            table.last_name()
        )));
    };
    let parse = |name: &str| {
        table.by_name.get(name).copied().ok_or_else(|| {
            bad(format!(
                "no square {} on a {}x{} board: squares are a1 to {}",
                python_repr(name),
                table.width,
                table.height,
                table.last_name()
            ))
        })
    };
    let (one, two) = (parse(one)?, parse(two)?);
    let pair = if one < two { (one, two) } else { (two, one) };
    table.by_pair.get(&pair).copied().ok_or_else(|| {
        bad("a piece covers two orthogonally adjacent squares, for example e5-f5 or e5-e6".into())
    })
}

pub use crate::core::python_repr;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_count_horizontal_then_vertical() {
        let table = DominoTable::new(10, 9);
        assert_eq!(table.count, 9 * 9 + 8 * 10);
        let expected = [
            (0, "a1-b1"),
            (1, "b1-c1"),
            (8, "i1-j1"),
            (9, "a2-b2"),
            (80, "i9-j9"),
            (81, "a1-a2"),
            (82, "b1-b2"),
            (91, "a2-a3"),
            (160, "j8-j9"),
        ];
        for (action, text) in expected {
            assert_eq!(action_to_string(&table, action).unwrap(), text);
        }
        assert!(action_to_string(&table, 161).is_err());
    }

    #[test]
    fn the_documented_formula() {
        for (width, height) in [(10, 9), (6, 5), (2, 2), (7, 4), (26, 26)] {
            let table = DominoTable::new(width, height);
            for rank in 0..height {
                for file in 0..width {
                    let square = (rank * width + file) as Square;
                    if file < width - 1 {
                        let action = rank * (width - 1) + file;
                        assert_eq!(
                            (table.first[action], table.second[action]),
                            (square, square + 1)
                        );
                    }
                    if rank < height - 1 {
                        let action = height * (width - 1) + rank * width + file;
                        let above = square + width as Square;
                        assert_eq!((table.first[action], table.second[action]), (square, above));
                    }
                }
            }
            assert_eq!(table.count, height * (width - 1) + (height - 1) * width);
        }
    }

    #[test]
    fn strings_round_trip_in_either_order() {
        let table = DominoTable::new(10, 9);
        for action in 0..table.count as Action {
            let text = action_to_string(&table, action).unwrap();
            assert_eq!(string_to_action(&table, &text), Ok(action));
            let (one, two) = text.split_once('-').unwrap();
            assert_eq!(
                string_to_action(&table, &format!("{two}-{one}")),
                Ok(action)
            );
            assert_eq!(
                string_to_action(&table, &format!("{one} - {two}")),
                Ok(action)
            );
        }
    }

    #[test]
    fn the_start_area_follows_the_board_size() {
        let cases = [
            (10, 9, ["e5", "f5"]),
            (9, 9, ["e5", "f5"]),
            (10, 8, ["e4", "f4"]),
            (6, 5, ["c3", "d3"]),
            (7, 4, ["d2", "e2"]),
            (5, 5, ["c3", "d3"]),
            (2, 2, ["a1", "b1"]),
            (26, 26, ["m13", "n13"]),
        ];
        for (width, height, area) in cases {
            let table = DominoTable::new(width, height);
            let names = table
                .start_squares
                .map(|s| table.names[s as usize].as_str());
            assert_eq!(names, area);
        }
        let table = DominoTable::new(10, 9);
        let firsts: Vec<&str> = table
            .start_actions
            .iter()
            .map(|&a| table.strings[a as usize].as_str())
            .collect();
        assert_eq!(
            firsts,
            ["d5-e5", "e5-f5", "f5-g5", "e4-e5", "f4-f5", "e5-e6", "f5-f6"]
        );
    }

    #[test]
    fn malformed_text_says_why() {
        let table = DominoTable::new(10, 9);
        let error = |text: &str| string_to_action(&table, text).unwrap_err().to_string();
        assert_eq!(
            error("e5"),
            "bad bones placement 'e5': write the two adjacent squares the piece covers, joined \
             by '-', for example e5-f5 or e5-e6 (squares a1 to j9)"
        );
        assert_eq!(
            error("j5-k5"),
            "bad bones placement 'j5-k5': no square 'k5' on a 10x9 board: squares are a1 to j9"
        );
        assert_eq!(
            error("e5-e7"),
            "bad bones placement 'e5-e7': a piece covers two orthogonally adjacent squares, \
             for example e5-f5 or e5-e6"
        );
        for off_board in [
            "e9-e10", "a0-a1", "j1-a2", "e5-e5", "e05-f5", "-", "e5-f5-g5", "",
        ] {
            assert!(string_to_action(&table, off_board).is_err(), "{off_board}");
        }
    }

    #[test]
    fn errors_quote_the_input_as_python_does() {
        assert_eq!(python_repr("it's"), "\"it's\"");
        assert_eq!(python_repr("a\\b"), "'a\\\\b'");
        assert_eq!(python_repr("'\""), "'\\'\"'");
        assert_eq!(python_repr("a\u{0}"), "'a\\x00'");
    }
}
