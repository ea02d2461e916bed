//! Exact solvers over the native rules' positions: the Rust twins of `boneyard.solvers`, which
//! stay the readable references (tests hold each to its Python solver's values).

pub mod oyno_duel;
