//! What an Obonto seat sees, with the keys of `boneyard.games.obonto.observation.ObontoObservation`.
//! Obonto hides nothing: every seat and a spectator see the same board, only `seat` differs.

use serde_json::{json, Map, Value};

use super::notation::{self, KINDS, SQUARES};
use super::rules::ObontoRules;
use crate::core::Rules;

pub fn observe(state: &ObontoRules, seat: Option<usize>) -> Value {
    let dark: Vec<String> = (0..SQUARES)
        .filter(|&index| state.dark >> index & 1 == 1)
        .map(notation::square_name)
        .collect();
    let animals: Vec<Value> = state
        .animals
        .chunks(3)
        .map(|own| {
            let by_kind: Map<String, Value> = KINDS
                .iter()
                .zip(own)
                .map(|(kind, &square)| {
                    (
                        kind.to_string(),
                        Value::from(notation::square_name(square.into())),
                    )
                })
                .collect();
            Value::Object(by_kind)
        })
        .collect();
    let results: Vec<Value> = state
        .results
        .iter()
        .map(|result| json!({"winner": result.winner, "score": result.score}))
        .collect();
    let last_move = state
        .last_move
        .and_then(|action| notation::action_to_string(action).ok());
    json!({
        "seat": seat,
        "current_player": state.current_player(),
        "to_move": state.to_move,
        "phase": state.phase(),
        "loser": state.loser,
        "solo_moves": state.solo_moves,
        "dark": dark,
        "animals": animals,
        "game": state.game_index + 1,
        "games": state.match_rules.games,
        "target": state.match_rules.target,
        "first": state.first,
        "results": results,
        "totals": state.totals,
        "last_move": last_move,
    })
}
