//! OYNO (`boneyard.games.oyno`): the one-player puzzle (`oyno_puzzle`) and the two-player game
//! (`oyno`), sharing the board (`board`) and the notation (`notation`), with the module names of
//! the Python package. Each game is written once over `CellMask` and loaded with the narrowest
//! mask its board fits.

mod board;
mod duel;
mod generator;
pub mod heuristic;
mod notation;
mod observation;
mod puzzle;
mod python_random;
mod search;
mod tensor;

use crate::core::{EngineError, NativeGame, Params};
use board::Wide;

pub use board::{Board, CellMask};
pub use duel::{DuelGame, DuelRules};
pub use puzzle::{PuzzleGame, PuzzleRules};

/// A game's constructor from its resolved parameters, for one mask width.
type Loader = fn(&Params) -> Result<Box<dyn NativeGame>, EngineError>;

/// `loader::<M>(params)` for the narrowest mask `M` that holds the board of `params`: the board
/// of up to 7x7 in one machine word, up to 11x11 in two, up to 15x15 in four, up to 25x25 in ten.
fn by_board_size(
    params: &Params,
    loaders: [Loader; 4],
) -> Result<Box<dyn NativeGame>, EngineError> {
    let size = params.int("size")?;
    let cells = usize::try_from(size.saturating_mul(size)).unwrap_or(usize::MAX);
    let [word, two_words, four_words, ten_words] = loaders;
    match cells {
        0..=64 => word(params),
        65..=128 => two_words(params),
        129..=256 => four_words(params),
        _ => ten_words(params),
    }
}

/// The two-player game.
pub fn load_duel(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    by_board_size(
        params,
        [
            duel::load::<u64>,
            duel::load::<u128>,
            duel::load::<Wide<4>>,
            duel::load::<Wide<10>>,
        ],
    )
}

/// The puzzle.
pub fn load_puzzle(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    by_board_size(
        params,
        [
            puzzle::load::<u64>,
            puzzle::load::<u128>,
            puzzle::load::<Wide<4>>,
            puzzle::load::<Wide<10>>,
        ],
    )
}
