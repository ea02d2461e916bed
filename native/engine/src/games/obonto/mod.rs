//! Obonto (`boneyard.games.obonto`): two players move a lion, a zebra and a camel over a 9x9
//! board that darkens behind them, in matches of one or more games.

pub mod heuristic;
mod notation;
mod observation;
mod rules;
mod tensor;

pub use rules::{load, GameResult, MatchRules, ObontoGame, ObontoRules};
