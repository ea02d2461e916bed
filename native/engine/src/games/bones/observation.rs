//! What a Bones seat sees, with the keys of `boneyard.games.bones.observation.BonesObservation`:
//! everything (Bones is a game of perfect information), so every seat's view is the spectator's
//! but for `seat`.

use serde_json::{json, Value};

use super::rules::{BonesRules, BLACK, WHITE};
use crate::core::Rules;

/// The letter a square shows: `.` empty, `W` white on top, `B` black on top.
fn letter(colour: Option<u8>) -> char {
    match colour {
        None => '.',
        Some(WHITE) => 'W',
        Some(_) => 'B',
    }
}

pub fn observe(state: &BonesRules, seat: Option<usize>) -> Value {
    let table = &state.table;
    let width = table.width;
    let name = |square: usize| table.names[square].as_str();
    let top: Vec<String> = state
        .top_colour
        .chunks(width)
        .map(|rank| rank.iter().map(|&c| letter(c)).collect())
        .collect();
    let heights: Vec<&[u16]> = state.heights.chunks(width).collect();
    json!({
        "current_player": state.current_player(),
        "seat": seat,
        "width": width,
        "height": table.height,
        "start_area": table.start_squares.map(|s| name(s as usize)),
        "supply": [state.supply(WHITE as usize), state.supply(BLACK as usize)],
        "pieces": state.placed.iter().map(|&a| table.strings[a as usize].as_str()).collect::<Vec<_>>(),
        "top": top,
        "heights": heights,
        "winner": state.winner,
        "winning_squares": state.winning_squares().into_iter().map(name).collect::<Vec<_>>(),
    })
}
