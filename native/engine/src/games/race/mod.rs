//! Race, the template game (`boneyard.games.race`): copy this folder to start a native engine.

mod notation;
mod observation;
mod rules;

pub use rules::{load, RaceGame, RaceRules};
