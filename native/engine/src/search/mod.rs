//! Whole searches over the native engines: a bot's thinking done in Rust, the GIL released.
//!
//! Every search is generic over a game's `Rules` and reached from Python through one entry,
//! `DynState::search` (a search's name and its options as JSON), so the bindings and the Python
//! bots stay game-agnostic. A game's evaluation of an unfinished position is `Rules::heuristic`,
//! the Rust twin of its Python `heuristic.py`. Each search module owns its options: it reads
//! them from `SearchRequest::options` and refuses the ones it does not know.

pub mod alphabeta;

use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::core::{Action, EngineError, Played, Rules};

pub mod expert;
pub mod greedy;
pub mod ismcts;
pub mod mcts;

/// What a caller asks of a search: its name, its options (a JSON object), and its budget.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// The search: the names `run` knows.
    pub search: String,
    /// The search's own options (exploration constant, depth, resamples, ...), as JSON.
    pub options: Value,
    /// Stop after this many milliseconds (a wall-clock budget), if given.
    pub time_limit_ms: Option<u64>,
    /// Stop after this many iterations (simulations, or depth for a depth-first search), if given;
    /// an iteration budget alone makes a seeded search give the same move every time.
    pub iterations: Option<u64>,
    /// The search's random seed.
    pub seed: u64,
}

/// What a search found: the move it chose and what it knows of the others.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The chosen action.
    pub action: Action,
    /// The root's value for each seat, as far as the search could tell.
    pub values: Vec<f64>,
    /// Per root action: how much the search looked at it (visits, or nodes below it).
    pub visits: Vec<(Action, u64)>,
    /// Iterations (simulations) or the depth reached, whichever the search counts.
    pub iterations: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
    /// Per root action its value, where the search gives every action one (a game's own
    /// lookahead); empty otherwise.
    pub action_values: Vec<(Action, f64)>,
}

/// What a `null` options value reads as: no options.
static NO_OPTIONS: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

/// A search's options `value` as a map: a JSON object (or `null`, no options) whose every key
/// is among `known`. Otherwise the sentence the search refuses it with, naming the keys it knows
/// (the search puts its own name in front). Each search then reads its values from the map.
pub fn known_options<'a>(
    value: &'a Value,
    known: &[&str],
) -> Result<&'a Map<String, Value>, String> {
    let map = match value {
        Value::Null => &*NO_OPTIONS,
        Value::Object(map) => map,
        other => return Err(format!("options are a JSON object, not {other}")),
    };
    let unknown: Vec<&str> = map
        .keys()
        .map(String::as_str)
        .filter(|key| !known.contains(key))
        .collect();
    if unknown.is_empty() {
        Ok(map)
    } else {
        Err(format!(
            "no option {}; its options: {}",
            unknown.join(", "),
            known.join(", ")
        ))
    }
}

/// The whole-number option `name` of an options map (`known_options`), `default` where it is
/// absent; otherwise the sentence refusing it, naming the range `range`.
pub fn whole_option(
    map: &Map<String, Value>,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
    default: u64,
) -> Result<u64, String> {
    match map.get(name) {
        None => Ok(default),
        Some(value) => match value.as_u64() {
            Some(n) if range.contains(&n) => Ok(n),
            _ => Err(format!(
                "option {name:?} is a whole number from {} to {}, not {value}",
                range.start(),
                range.end()
            )),
        },
    }
}

/// The highest return of any seat but `seat` (minus infinity in a one-player game): what a
/// search's value of an end compares the seat's own with (a win, a loss or a share).
pub fn best_other_return(returns: &[f64], seat: usize) -> f64 {
    returns
        .iter()
        .enumerate()
        .filter(|&(other, _)| other != seat)
        .map(|(_, &r)| r)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The names of the searches `run` knows, for error messages.
pub const SEARCHES: &[&str] = &[
    alphabeta::NAME,
    greedy::NAME,
    "mcts",
    "ismcts",
    "lookahead (bondo_cones)",
    "lookahead_rollouts (bondo_cones)",
];

/// Run `request` from `state` (a player's turn: not a chance node, not the end).
pub fn run<R: Rules>(
    state: &Played<R>,
    request: &SearchRequest,
) -> Result<SearchOutcome, EngineError> {
    // A game's own search (`Rules::own_search`: Bond O Cones' lookahead) answers first.
    if let Some(found) = state.rules.own_search(request) {
        return found;
    }
    // Each search adds one arm here: `"mcts" => mcts::search(state, request),`.
    match request.search.as_str() {
        alphabeta::NAME => alphabeta::search(state, request),
        greedy::NAME => greedy::search(state, request),
        "mcts" => mcts::search(state, request),
        "ismcts" => ismcts::search(state, request),
        other => Err(EngineError::NotSupported(format!(
            "no native search called {other:?}; native searches: {}",
            if SEARCHES.is_empty() {
                "none yet".to_string()
            } else {
                SEARCHES.join(", ")
            }
        ))),
    }
}
