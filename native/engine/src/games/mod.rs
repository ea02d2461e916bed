//! One module per game, named as its Python package under `boneyard.games`.

use crate::core::{EngineError, NativeGame, Params};

pub mod bonbon;
pub mod bones;
pub mod obonto;
pub mod race;

/// A game's constructor from its resolved parameters.
type Loader = fn(&Params) -> Result<Box<dyn NativeGame>, EngineError>;

/// Every game with a native engine: its name and how to load it. A game added here is loadable
/// by `boneyard.native.load_game` with no other edit.
const GAMES: &[(&str, Loader)] = &[
    ("bonbon", bonbon::load),
    ("bones", bones::load),
    ("obonto", obonto::load),
    ("race", race::load),
];

/// The names of the games that have a native engine, sorted.
pub fn game_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = GAMES.iter().map(|&(name, _)| name).collect();
    names.sort_unstable();
    names
}

/// The native engine of `name` with `params` (as the Python game resolved them).
pub fn load_game(name: &str, params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    match GAMES.iter().find(|&&(known, _)| known == name) {
        Some(&(_, load)) => load(params),
        None => Err(EngineError::UnknownGame(format!(
            "no native engine for {name:?}; native engines: {}",
            game_names().join(", ")
        ))),
    }
}
