//! Bones (`boneyard.games.bones`): two players lay dominoes of their colour, overlapping, until
//! one shows five in a line.

pub mod heuristic;
mod notation;
mod observation;
mod rules;
mod tensor;

pub use rules::{load, BonesGame, BonesRules};
