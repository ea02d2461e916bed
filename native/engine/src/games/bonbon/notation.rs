//! Bon-Bon's action ids and strings, as `boneyard/games/bonbon/notation.py` numbers them.
//!
//! Player actions have the same ids for every deck and player count: `pass` 0, `draw` 1, `up` 2,
//! `down` 3, `end` 4, `gift S` 5-10, `catch S` 11-16, `bonus V` 17-26. Chance outcomes are the
//! deck's card ids (`card L`, see `deck.rs`), then one id per ascending triple of tile values
//! (`tiles a b c`).

use crate::core::Action;

pub const PASS: Action = 0;
pub const DRAW: Action = 1;
pub const UP: Action = 2;
pub const DOWN: Action = 3;
pub const END: Action = 4;
pub const GIFT: Action = 5;
pub const CATCH: Action = 11;
pub const BONUS: Action = 17;
pub const MAX_SEATS: Action = 6;
pub const MAX_TILE_VALUE: Action = 9;
pub const NUM_ACTIONS: Action = BONUS + MAX_TILE_VALUE + 1;

const WORDS: [(&str, Action); 5] = [
    ("pass", PASS),
    ("draw", DRAW),
    ("up", UP),
    ("down", DOWN),
    ("end", END),
];

/// A player action's string, or `None` for an id that is none.
pub fn player_action_to_string(action: Action) -> Option<String> {
    if let Some(&(word, _)) = WORDS.iter().find(|&&(_, id)| id == action) {
        return Some(word.to_string());
    }
    match action {
        a if (GIFT..GIFT + MAX_SEATS).contains(&a) => Some(format!("gift {}", a - GIFT)),
        a if (CATCH..CATCH + MAX_SEATS).contains(&a) => Some(format!("catch {}", a - CATCH)),
        a if (BONUS..NUM_ACTIONS).contains(&a) => Some(format!("bonus {}", a - BONUS)),
        _ => None,
    }
}

/// Python's `str.isdigit()` then `int()`, for the ASCII digits notation uses; `None` where the
/// text is no number or too big to be any id.
pub fn small_number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The id of a player action string, or `None` if `text` is not one.
pub fn parse_player_action(text: &str) -> Option<Action> {
    if let Some(&(_, id)) = WORDS.iter().find(|&&(word, _)| word == text) {
        return Some(id);
    }
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    let number = small_number(rest)?;
    match word {
        "gift" if number < u64::from(MAX_SEATS) => Some(GIFT + number as Action),
        "catch" if number < u64::from(MAX_SEATS) => Some(CATCH + number as Action),
        "bonus" if number <= u64::from(MAX_TILE_VALUE) => Some(BONUS + number as Action),
        _ => None,
    }
}

/// Every ascending triple of tile values `0..=top`, in id order (Python's
/// `combinations_with_replacement(range(top + 1), 3)`).
pub fn tile_triples(top: u8) -> Vec<[u8; 3]> {
    let mut triples = Vec::new();
    for a in 0..=top {
        for b in a..=top {
            for c in b..=top {
                triples.push([a, b, c]);
            }
        }
    }
    triples
}

/// `"1,1,2,2,3,3"` as its values, or `None` if malformed.
pub fn parse_tiles(text: &str) -> Option<Vec<u8>> {
    text.split(',')
        .map(|part| {
            small_number(part.trim())
                .filter(|&v| v <= u64::from(MAX_TILE_VALUE))
                .map(|v| v as u8)
        })
        .collect()
}

pub use crate::core::python_repr;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_player_action_reads_back_as_its_id() {
        for action in 0..NUM_ACTIONS {
            let text = player_action_to_string(action).unwrap();
            assert_eq!(parse_player_action(&text), Some(action));
        }
        assert_eq!(player_action_to_string(NUM_ACTIONS), None);
        assert_eq!(parse_player_action("gift 6"), None);
        assert_eq!(parse_player_action("bonus 05"), Some(BONUS + 5));
        assert_eq!(parse_player_action("catch 99999999999999999999999"), None);
    }

    #[test]
    fn triples_count_as_combinations_with_replacement() {
        assert_eq!(tile_triples(3).len(), 20);
        assert_eq!(tile_triples(3)[0], [0, 0, 0]);
        assert_eq!(tile_triples(3)[19], [3, 3, 3]);
        assert_eq!(parse_tiles("1, 1,2,2,3,3"), Some(vec![1, 1, 2, 2, 3, 3]));
        assert_eq!(parse_tiles("1,x"), None);
    }
}
