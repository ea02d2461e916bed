//! Race's action ids and strings: a move adds 1 (`+1`, id 0) or 2 (`+2`, id 1); a coin shows
//! `coin 0` (0) or `coin 1` (1).

use crate::core::{Action, EngineError};

const MOVES: [&str; 2] = ["+1", "+2"];
const COINS: [&str; 2] = ["coin 0", "coin 1"];

fn names(coin: bool) -> &'static [&'static str; 2] {
    if coin {
        &COINS
    } else {
        &MOVES
    }
}

pub fn action_to_string(action: Action, coin: bool) -> Result<String, EngineError> {
    names(coin)
        .get(action as usize)
        .map(|name| name.to_string())
        .ok_or_else(|| EngineError::InvalidActionString(format!("no race action {action}")))
}

pub fn string_to_action(text: &str, coin: bool) -> Result<Action, EngineError> {
    let names = names(coin);
    match names.iter().position(|&name| name == text) {
        Some(index) => Ok(index as Action),
        None => Err(EngineError::InvalidActionString(format!(
            "bad action {text:?}; allowed: {}",
            names.join(", ")
        ))),
    }
}
