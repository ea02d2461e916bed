//! Puzzle set-ups by difficulty (`boneyard/games/oyno/generator.py`).

use super::board::{Board, CellMask};
use crate::core::EngineError;

pub fn ticket_setup<M: CellMask>(
    _board: &Board<M>,
    _bones: u32,
    _difficulty: u32,
    _ticket: u32,
) -> Result<(M, M), EngineError> {
    Err(EngineError::NotSupported(
        "difficulty tickets are not native yet".into(),
    ))
}
