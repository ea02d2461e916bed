//! boneyard's games in Rust, move for move the rules of the Python engines (`boneyard.games`),
//! which stay the readable reference: a differential test plays both side by side.
//!
//! `core` holds the engine contract once (the history, the legal-action cache, refusing an
//! illegal action without a change, the words of the errors); each module of `games` is one
//! game with the module names of its Python package (`rules`, `notation`, `observation`).

pub mod core;
pub mod games;
pub mod network;
pub mod search;
pub mod solvers;

pub use crate::core::{
    Action, Batch, BatchArrays, DynState, EngineError, NativeGame, Params, Played, Randomness,
    Rules, CHANCE, TERMINAL,
};
pub use crate::games::{game_names, load_game};
