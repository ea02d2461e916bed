//! The engine contract every native game keeps, as `boneyard.core.game` states it for Python.

mod batch;
mod error;
mod game;
mod key;
mod params;
mod played;
mod random;
mod text;

pub use batch::{Batch, BatchArrays};
pub use error::EngineError;
pub use game::{Action, DynState, NativeGame, Rules, CHANCE, TERMINAL};
pub use key::{mix64, PositionHasher};
pub use params::Params;
pub use played::Played;
pub use random::{python_shuffle, Randomness};
pub use text::python_repr;
