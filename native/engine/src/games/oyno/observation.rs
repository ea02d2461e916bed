//! What an OYNO seat sees, with the keys of `boneyard.games.oyno.observation`: `DuelObservation`
//! and `PuzzleObservation`. Both games are of perfect information: every seat and a spectator
//! see the same.

use serde_json::{json, Value};

use super::board::CellMask;
use super::duel::DuelRules;
use super::puzzle::PuzzleRules;
use crate::core::Rules;

pub fn duel<M: CellMask>(state: &DuelRules<M>) -> Value {
    let setup = &state.setup;
    json!({
        "game": "oyno",
        "current_player": state.current_player(),
        "player": state.player,
        "size": setup.board.size,
        "position": state.position(),
        "supply": state.supply,
        "bones_per_player": setup.bones_per_player,
        "rolling": state.rolling.map(|cell| setup.board.name(cell)),
        "moves": state.moves,
        "max_moves": setup.max_moves,
        "winner": state.winner,
        "draw": state.draw,
        "repetitions": state.repetitions(),
    })
}

pub fn puzzle<M: CellMask>(state: &PuzzleRules<M>) -> Value {
    let setup = &state.setup;
    json!({
        "game": "oyno_puzzle",
        "current_player": state.current_player(),
        "size": setup.board.size,
        "position": state.position(),
        "bones": setup.bones,
        "dealt": state.dealt,
        "pending": state.pending.map(|cell| setup.board.name(cell)),
        "up": state.up.count(),
        "moves": state.moves,
        "max_moves": setup.max_moves,
        "solved": state.is_solved(),
    })
}
