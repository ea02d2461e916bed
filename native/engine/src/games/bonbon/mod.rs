//! Bon-Bon (`boneyard.games.bonbon`): push-your-luck chocolates for 2 to 6 players, with a
//! shuffled deck (chance) and face-down cards (hidden information, with resample).

mod deck;
mod heuristic;
mod notation;
mod observation;
mod resample;
mod rules;
mod snapshot;
mod tensor;

pub use rules::{load, BonBonGame, BonBonRules};
