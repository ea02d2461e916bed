use std::fmt;

/// The errors of `boneyard.core.errors`, one variant each; the bindings raise the Python class of
/// the same name with the message unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    IllegalAction(String),
    InvalidActionString(String),
    InvalidParameter(String),
    InvalidState(String),
    UnknownGame(String),
    /// A seat outside the game's seats (Python's plain `ValueError`).
    BadSeat(String),
    /// Something this game does not do (Python's `NotImplementedError`).
    NotSupported(String),
}

impl EngineError {
    pub fn message(&self) -> &str {
        match self {
            EngineError::IllegalAction(m)
            | EngineError::InvalidActionString(m)
            | EngineError::InvalidParameter(m)
            | EngineError::InvalidState(m)
            | EngineError::UnknownGame(m)
            | EngineError::BadSeat(m)
            | EngineError::NotSupported(m) => m,
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for EngineError {}
