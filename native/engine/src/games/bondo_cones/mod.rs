//! Bond O Cones (`boneyard.games.bondo_cones`): dice, hidden cone values, BondO rings and
//! battles; chance and hidden information, with resampling drawn as the Python engine draws.

mod board;
mod heuristic;
pub mod lookahead;
mod notation;
mod observation;
mod record;
mod rollouts;
mod rules;
mod tensor;

pub use rules::{load, BondoConesGame, BondoConesRules};
