//! Obonto notation, as `boneyard/games/obonto/notation.py` writes it: squares are algebraic on
//! the 9x9 board (`a1` .. `i9`), a square's index is `rank0 * 9 + file0`; an action moves one
//! animal from a square to a square, `"d1-d2"`, id `from_index * 81 + to_index`. A placement (the
//! `start` parameter) names the six animals' squares: seat 0's lion, zebra, camel, then seat 1's.

use crate::core::{Action, EngineError};

pub const SIZE: usize = 9;
pub const SQUARES: usize = SIZE * SIZE;
pub const NUM_ACTIONS: Action = (SQUARES * SQUARES) as Action;

/// The animal kinds in their fixed order; kind `k` moves exactly `STEPS[k]` steps.
pub const KINDS: [&str; 3] = ["lion", "zebra", "camel"];
pub const STEPS: [usize; 3] = [1, 2, 3];

/// The squares dark at the start of every game: the 3rd and 7th squares of both diagonals.
pub const START_DARK: [&str; 4] = ["c3", "g3", "c7", "g7"];

/// A square's name: `0 -> "a1"`, `80 -> "i9"` (the caller keeps `index < SQUARES`).
pub fn square_name(index: usize) -> String {
    let file = char::from(b'a' + (index % SIZE) as u8);
    let rank = char::from(b'1' + (index / SIZE) as u8);
    [file, rank].iter().collect()
}

/// A square's index from its name (already lower-cased), or `None` for no square of the board.
pub fn square_index(name: &str) -> Option<usize> {
    match name.as_bytes() {
        &[file @ b'a'..=b'i', rank @ b'1'..=b'9'] => {
            Some(usize::from(rank - b'1') * SIZE + usize::from(file - b'a'))
        }
        _ => None,
    }
}

/// Bitmask (bit = square index) of the squares dark at the start of a game.
pub fn start_dark_mask() -> u128 {
    START_DARK
        .iter()
        .filter_map(|name| square_index(name))
        .fold(0, |mask, index| mask | 1 << index)
}

/// `origin * 81 + target`: the id of the move between two squares.
pub fn action_id(origin: usize, target: usize) -> Action {
    (origin * SQUARES + target) as Action
}

/// The two squares of a move id (the caller keeps `action < NUM_ACTIONS`).
pub fn squares_of(action: Action) -> (usize, usize) {
    let action = action as usize;
    (action / SQUARES, action % SQUARES)
}

/// `"d1-d2"` for `3 * 81 + 12`; an id past the moves is refused as Python refuses it.
pub fn action_to_string(action: Action) -> Result<String, EngineError> {
    if action >= NUM_ACTIONS {
        return Err(EngineError::InvalidActionString(format!(
            "no obonto action {action}: action ids are 0 to {}",
            NUM_ACTIONS - 1
        )));
    }
    let (origin, target) = squares_of(action);
    Ok(format!("{}-{}", square_name(origin), square_name(target)))
}

/// The id of `"d1-d2"` (already stripped and lower-cased); malformed text is refused with what is
/// allowed, in the Python engine's words.
pub fn string_to_action(text: &str) -> Result<Action, EngineError> {
    let Some((origin, target)) = text
        .split_once('-')
        .filter(|(origin, target)| looks_like_square(origin) && looks_like_square(target))
    else {
        return Err(EngineError::InvalidActionString(format!(
            "bad obonto move {}: write the animal's square and its target square joined by '-', \
             for example d1-d2 (squares a1 to i9)",
            python_repr(text)
        )));
    };
    let index = |name: &str| {
        square_index(name).ok_or_else(|| {
            EngineError::InvalidActionString(format!(
                "bad obonto move {}: no square {} on a 9x9 board: squares are a1 to i9",
                python_repr(text),
                python_repr(name)
            ))
        })
    };
    Ok(action_id(index(origin)?, index(target)?))
}

/// The Python pattern `[a-z]+[0-9]+`: letters, then digits (ASCII only).
fn looks_like_square(text: &str) -> bool {
    let letters = text.bytes().take_while(u8::is_ascii_lowercase).count();
    let digits = text[letters..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    letters > 0 && digits > 0 && letters + digits == text.len()
}

/// Six square indices from a placement (`"d1,e1,f1,f9,e9,d9"`, commas, spaces or `/` between),
/// as the Python game already checked it; anything else is an `InvalidParameter` error.
pub fn parse_placement(text: &str) -> Result<[u8; 6], EngineError> {
    let bad = || EngineError::InvalidParameter(format!("bad placement {text:?}"));
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '/')
        .filter(|word| !word.is_empty())
        .collect();
    let [a, b, c, d, e, f] = words[..] else {
        return Err(bad());
    };
    let mut squares = [0u8; 6];
    for (slot, word) in [a, b, c, d, e, f].into_iter().enumerate() {
        let index = square_index(&word.to_lowercase()).ok_or_else(bad)?;
        if squares[..slot].contains(&(index as u8)) {
            return Err(bad());
        }
        squares[slot] = index as u8;
    }
    Ok(squares)
}

pub use crate::core::python_repr;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_id_is_from_index_times_81_plus_to_index() {
        assert_eq!(string_to_action("d1-d2"), Ok(3 * 81 + 12));
        assert_eq!(string_to_action("a1-a2"), Ok(9));
        assert_eq!(string_to_action("i9-a1"), Ok(80 * 81));
        for origin in 0..SQUARES {
            for target in [0, 40, 80] {
                let action = action_id(origin, target);
                let text = action_to_string(action).unwrap();
                assert_eq!(
                    text,
                    format!("{}-{}", square_name(origin), square_name(target))
                );
                assert_eq!(string_to_action(&text), Ok(action));
            }
        }
    }

    #[test]
    fn malformed_action_strings_say_what_is_allowed() {
        for text in ["d1d2", "d1-", "z1-d2", "d1-d10", "d1 d2", "lion d2", ""] {
            let error = string_to_action(text).unwrap_err();
            assert!(matches!(error, EngineError::InvalidActionString(_)));
            assert!(error.message().contains("a1 to i9"), "{error}");
        }
        assert_eq!(
            string_to_action("z1-d2").unwrap_err().message(),
            "bad obonto move 'z1-d2': no square 'z1' on a 9x9 board: squares are a1 to i9"
        );
    }

    #[test]
    fn ids_past_the_moves_have_no_notation() {
        assert!(action_to_string(NUM_ACTIONS - 1).is_ok());
        assert_eq!(
            action_to_string(NUM_ACTIONS).unwrap_err().message(),
            "no obonto action 6561: action ids are 0 to 6560"
        );
    }

    #[test]
    fn placements_read_commas_spaces_and_slashes() {
        assert_eq!(
            parse_placement("a2,b2,c2,a8 b8 /c8"),
            Ok([9, 10, 11, 63, 64, 65])
        );
        assert!(parse_placement("d1,d1,f1,f9,e9,d9").is_err());
        assert!(parse_placement("d1,e1,f1").is_err());
    }

    #[test]
    fn the_start_darkens_c3_g3_c7_g7() {
        assert_eq!(start_dark_mask(), 1 << 20 | 1 << 24 | 1 << 56 | 1 << 60);
    }

    #[test]
    fn input_is_quoted_as_python_quotes_it() {
        assert_eq!(python_repr("d1-d2"), "'d1-d2'");
        assert_eq!(python_repr("it's"), "\"it's\"");
        assert_eq!(python_repr("a\\b"), "'a\\\\b'");
    }
}
