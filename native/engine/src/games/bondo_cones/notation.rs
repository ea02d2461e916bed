//! Bond O Cones notation, as `boneyard/games/bondo_cones/notation.py` states it: stable action
//! ids, action strings and cone tokens.
//!
//! Player action ids (`sq` is a square index, `rank0 * 10 + file0`, so `a1` is 0 and `j12` 119):
//!
//! | ids                    | string        | meaning                                          |
//! |------------------------|---------------|--------------------------------------------------|
//! | 0 + from*120 + to      | `c3-c5`       | move a cone (ordinary or BondO)                  |
//! | 14400 + from*120 + to  | `ring d4-e5`  | move the ring(s) of an own cone (die: ring)      |
//! | 28800 + from*120 + to  | `take g9>d4`  | won battle: take the ring of g9, put it on d4    |
//! | 43200 + sq             | `put e3`      | set-up: the next cone in value order goes here   |
//! | 43320 + sq             | `ring d4`     | set-up: the ring goes on this red-field cone     |
//! | 43440 + sq             | `ring *-e5`   | place the set-aside ring (die: ring)             |
//! | 43560 + sq             | `peek c3`     | look at an own cone (die: eye)                   |
//! | 43680 + sq             | `spy d4`      | after a lost battle: learn one loser's value     |
//! | 43800 + sq             | `seize d4`    | after a lost battle against a Double: take it    |
//! | 43920, 43921, 43922    | `battle`, `roll`, `pass` |                                       |
//!
//! Chance outcomes: 0..=5 the die (`roll 1` .. `roll ring`), 6 and 7 who starts (`first 0`,
//! `first 1`), 8 and 9 the battle (`battle won`, `battle lost`), 10 + sq a random set-up's next
//! cone (`put e3`), 130 + sq its ring (`ring d4`).

use super::board::{SQUARES, WIDTH};
use crate::core::{Action, EngineError};

const SQ: Action = SQUARES as Action;
pub const MOVE_BASE: Action = 0;
pub const RING_MOVE_BASE: Action = MOVE_BASE + SQ * SQ;
pub const TAKE_BASE: Action = RING_MOVE_BASE + SQ * SQ;
pub const PUT_BASE: Action = TAKE_BASE + SQ * SQ;
pub const SETUP_RING_BASE: Action = PUT_BASE + SQ;
pub const SET_ASIDE_BASE: Action = SETUP_RING_BASE + SQ;
pub const PEEK_BASE: Action = SET_ASIDE_BASE + SQ;
pub const SPY_BASE: Action = PEEK_BASE + SQ;
pub const SEIZE_BASE: Action = SPY_BASE + SQ;
pub const BATTLE: Action = SEIZE_BASE + SQ;
pub const ROLL: Action = BATTLE + 1;
pub const PASS: Action = ROLL + 1;
pub const NUM_DISTINCT_ACTIONS: Action = PASS + 1;

pub const FACES: [&str; 6] = ["1", "2", "3", "4", "eye", "ring"];
pub const FACE_EYE: usize = 4;
pub const FACE_RING: usize = 5;
pub const FIRST_BASE: Action = 6;
pub const BATTLE_WON: Action = 8;
pub const BATTLE_LOST: Action = 9;
pub const CHANCE_PUT_BASE: Action = 10;
pub const CHANCE_RING_BASE: Action = CHANCE_PUT_BASE + SQ;
pub const MAX_CHANCE_OUTCOMES: Action = CHANCE_RING_BASE + SQ;

/// The actions named by a word and one square, in id order (`ring *-` is written apart).
const SQUARE_KINDS: [(Action, &str); 5] = [
    (PUT_BASE, "put"),
    (SETUP_RING_BASE, "ring"),
    (PEEK_BASE, "peek"),
    (SPY_BASE, "spy"),
    (SEIZE_BASE, "seize"),
];
const WORDS: [&str; 3] = ["battle", "roll", "pass"];

const PLAYER_FORMS: &str = "c3-c5, put e3, ring d4, ring d4-e5, ring *-e5, take g9>d4, peek c3, \
                            spy d4, seize d4, battle, roll, pass";
const CHANCE_FORMS: &str = "roll 1, roll 2, roll 3, roll 4, roll eye, roll ring, first 0, \
                            first 1, battle won, battle lost, put e3, ring d4";

/// `0 -> "a1"`, `119 -> "j12"`.
pub fn square_name(square: usize) -> String {
    format!(
        "{}{}",
        char::from(b'a' + (square % WIDTH) as u8),
        square / WIDTH + 1
    )
}

/// The square named `text` (as `Grid.parse`: spaces around it do not matter).
pub fn parse_square(text: &str) -> Option<usize> {
    let text = text.trim();
    let mut chars = text.chars();
    let file = chars.next()?;
    let rank = chars.as_str();
    if !file.is_ascii_lowercase() || (file as usize - 'a' as usize) >= WIDTH {
        return None;
    }
    // Only the names a1..j12 themselves: no sign, no leading zero.
    if rank.is_empty() || rank.starts_with('0') || !rank.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: usize = rank.parse().ok()?;
    if !(1..=SQUARES / WIDTH).contains(&rank) {
        return None;
    }
    Some((rank - 1) * WIDTH + (file as usize - 'a' as usize))
}

pub use crate::core::python_repr;

/// The notation of a player action id (no state needed: ids say everything).
pub fn player_action_to_string(action: Action) -> Result<String, EngineError> {
    if action >= NUM_DISTINCT_ACTIONS {
        return Err(EngineError::InvalidActionString(format!(
            "no Bond O Cones action {action}: ids are 0 to {PASS}"
        )));
    }
    let pair = |base: Action| {
        let (origin, target) = ((action - base) / SQ, (action - base) % SQ);
        (square_name(origin as usize), square_name(target as usize))
    };
    Ok(if action < RING_MOVE_BASE {
        let (origin, target) = pair(MOVE_BASE);
        format!("{origin}-{target}")
    } else if action < TAKE_BASE {
        let (origin, target) = pair(RING_MOVE_BASE);
        format!("ring {origin}-{target}")
    } else if action < PUT_BASE {
        let (origin, target) = pair(TAKE_BASE);
        format!("take {origin}>{target}")
    } else if action < BATTLE {
        let base = PUT_BASE + (action - PUT_BASE) / SQ * SQ;
        let square = square_name((action - base) as usize);
        match SQUARE_KINDS.iter().find(|&&(kind, _)| kind == base) {
            Some(&(_, word)) => format!("{word} {square}"),
            None => format!("ring *-{square}"),
        }
    } else {
        WORDS[(action - BATTLE) as usize].to_string()
    })
}

/// The notation of a chance outcome id.
pub fn chance_outcome_to_string(outcome: Action) -> Result<String, EngineError> {
    Ok(match outcome {
        _ if outcome < FIRST_BASE => format!("roll {}", FACES[outcome as usize]),
        _ if outcome < BATTLE_WON => format!("first {}", outcome - FIRST_BASE),
        BATTLE_WON => "battle won".to_string(),
        BATTLE_LOST => "battle lost".to_string(),
        _ if outcome < CHANCE_RING_BASE => {
            format!("put {}", square_name((outcome - CHANCE_PUT_BASE) as usize))
        }
        _ if outcome < MAX_CHANCE_OUTCOMES => {
            format!(
                "ring {}",
                square_name((outcome - CHANCE_RING_BASE) as usize)
            )
        }
        _ => {
            return Err(EngineError::InvalidActionString(format!(
                "no Bond O Cones chance outcome {outcome}: ids are 0 to 249"
            )))
        }
    })
}

fn bad_square(text: &str, whole: &str) -> EngineError {
    EngineError::InvalidActionString(format!(
        "bad Bond O Cones action {}: no square {} (squares are a1 to j12)",
        python_repr(whole),
        python_repr(text)
    ))
}

fn square(text: &str, whole: &str) -> Result<Action, EngineError> {
    parse_square(text)
        .map(|sq| sq as Action)
        .ok_or_else(|| bad_square(text, whole))
}

/// Two squares joined by `separator`: `(origin, target)`.
fn pair(text: &str, separator: char, whole: &str) -> Result<(Action, Action), EngineError> {
    match text.split_once(separator) {
        Some((left, right)) => Ok((square(left, whole)?, square(right, whole)?)),
        None => Err(EngineError::InvalidActionString(format!(
            "bad Bond O Cones action {}: expected two squares joined by {}",
            python_repr(whole),
            python_repr(&separator.to_string())
        ))),
    }
}

/// Parse a player action (already stripped and lower-cased), as `string_to_player_action`.
pub fn string_to_player_action(text: &str) -> Result<Action, EngineError> {
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    if rest.is_empty() {
        if let Some(index) = WORDS.iter().position(|&w| w == text) {
            return Ok(BATTLE + index as Action);
        }
        if text.contains('-') {
            let (origin, target) = pair(text, '-', text)?;
            return Ok(MOVE_BASE + origin * SQ + target);
        }
    } else if word == "ring" && rest.starts_with("*-") {
        return Ok(SET_ASIDE_BASE + square(&rest[2..], text)?);
    } else if word == "ring" && rest.contains('-') {
        let (origin, target) = pair(rest, '-', text)?;
        return Ok(RING_MOVE_BASE + origin * SQ + target);
    } else if word == "take" {
        let (origin, target) = pair(rest, '>', text)?;
        return Ok(TAKE_BASE + origin * SQ + target);
    } else if let Some(&(base, _)) = SQUARE_KINDS.iter().find(|&&(_, w)| w == word) {
        return Ok(base + square(rest, text)?);
    }
    Err(EngineError::InvalidActionString(format!(
        "bad Bond O Cones action {}: actions look like {PLAYER_FORMS}",
        python_repr(text)
    )))
}

/// Parse a chance outcome (already stripped and lower-cased), as `string_to_chance_outcome`.
pub fn string_to_chance_outcome(text: &str) -> Result<Action, EngineError> {
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    match word {
        "roll" => {
            if let Some(face) = FACES.iter().position(|&f| f == rest) {
                return Ok(face as Action);
            }
        }
        "first" if rest == "0" || rest == "1" => {
            return Ok(FIRST_BASE + Action::from(rest == "1"));
        }
        "battle" if rest == "won" => return Ok(BATTLE_WON),
        "battle" if rest == "lost" => return Ok(BATTLE_LOST),
        "put" if !rest.is_empty() => return Ok(CHANCE_PUT_BASE + square(rest, text)?),
        "ring" if !rest.is_empty() && !rest.contains('-') => {
            return Ok(CHANCE_RING_BASE + square(rest, text)?)
        }
        _ => {}
    }
    Err(EngineError::InvalidActionString(format!(
        "bad Bond O Cones chance outcome {}: outcomes look like {CHANCE_FORMS}",
        python_repr(text)
    )))
}

/// `b` for black (seat 0), `w` for white.
pub const COLOURS: [char; 2] = ['b', 'w'];

/// A cone as an observation shows it (`notation.observed_token`): `b8` (black 8), `w?` (value
/// unknown), then `+` (one ring) or `#` (two), `p` if its owner has peeked at it and `s` if the
/// opponent has spied it: `b8+p`, `w?s`.
pub fn observed_token(
    seat: usize,
    value: Option<u8>,
    rings: u8,
    peeked: bool,
    spied: bool,
) -> String {
    let mut token = String::with_capacity(5);
    token.push(COLOURS[seat]);
    match value {
        Some(value) => token.push(char::from(b'0' + value)),
        None => token.push('?'),
    }
    match rings {
        0 => {}
        1 => token.push('+'),
        _ => token.push('#'),
    }
    if peeked {
        token.push('p');
    }
    if spied {
        token.push('s');
    }
    token
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_strings_round_trip() {
        for (text, id) in [
            ("a1-a2", 10),
            ("ring d4-e5", RING_MOVE_BASE + 33 * 120 + 44),
            ("take g9>d4", TAKE_BASE + 86 * 120 + 33),
            ("put e3", PUT_BASE + 24),
            ("ring d4", SETUP_RING_BASE + 33),
            ("ring *-e5", SET_ASIDE_BASE + 44),
            ("peek j12", PEEK_BASE + 119),
            ("spy d4", SPY_BASE + 33),
            ("seize d4", SEIZE_BASE + 33),
            ("battle", BATTLE),
            ("roll", ROLL),
            ("pass", PASS),
        ] {
            assert_eq!(string_to_player_action(text), Ok(id), "{text}");
            assert_eq!(player_action_to_string(id).as_deref(), Ok(text));
        }
        for outcome in 0..MAX_CHANCE_OUTCOMES {
            let text = chance_outcome_to_string(outcome).unwrap();
            assert_eq!(string_to_chance_outcome(&text), Ok(outcome), "{text}");
        }
    }

    #[test]
    fn bad_strings_say_what_is_allowed() {
        let message = |text| string_to_player_action(text).unwrap_err().to_string();
        assert!(message("k1-a1").contains("no square 'k1'"));
        assert!(message("take g9").contains("joined by '>'"));
        assert!(message("jump").contains("actions look like"));
        assert!(string_to_chance_outcome("roll 7").is_err());
        assert!(player_action_to_string(NUM_DISTINCT_ACTIONS).is_err());
        assert!(chance_outcome_to_string(MAX_CHANCE_OUTCOMES).is_err());
        assert_eq!(parse_square(" j12 "), Some(119));
        assert_eq!(parse_square("a01"), None);
        assert_eq!(parse_square("a13"), None);
    }
}
