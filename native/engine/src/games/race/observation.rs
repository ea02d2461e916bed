//! What a Race seat sees, with the keys of `boneyard.games.race.observation.RaceObservation`.

use serde_json::{json, Value};

use super::rules::RaceRules;
use crate::core::Rules;

pub fn observe(state: &RaceRules, seat: Option<usize>) -> Value {
    json!({
        "seat": seat,
        "current_player": state.current_player(),
        "total": state.total,
        "goal": state.goal,
        "winner": state.winner,
    })
}
