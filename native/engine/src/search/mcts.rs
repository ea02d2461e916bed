//! Monte Carlo tree search, native: `mcts` (UCT with chance nodes) and, through `ismcts.rs`,
//! single-observer information-set MCTS. The twin of `boneyard/ai/mcts.py`, step for step:
//!
//! Each iteration starts from a world the searching seat may look at: a copy of the state in a
//! perfect-information game, a fresh `Rules::resample(seat, ..)` in a hidden-information game
//! (drawn from the search's own seeded generator), so a search never reads the true hidden
//! state. It walks down the tree choosing by UCB among the actions legal *in that world* (a
//! child's "availability" counts how often it could have been chosen, as in Cowling et al.'s
//! ISMCTS), samples chance outcomes by their probabilities, adds one node, scores the leaf by a
//! random rollout cut at `rollout_depth` player moves and valued by `Rules::heuristic` (played to
//! the end where the game has none), and backs up one value per seat in [0, 1]
//! (`boneyard/ai/values.py`'s scale), each edge taking the value of the seat that chose it, so
//! any number of players is searched.
//!
//! Chance edges are keyed by outcome (`mcts`) or by what the searching seat sees of the outcome
//! (`ismcts`: `action_string_for(seat, ..)`, so outcomes hidden from it share one edge).
//!
//! No tree is kept between calls: `State.search` is one call per move from a state the Python
//! bot rebuilds by replaying the game's history, and a tree surviving between calls would need a
//! handle owned by the bindings (a search object living across moves and worker processes); a
//! fresh tree per move is what the `ismcts` reference does too (a reused tree is only sound where
//! the bot sees the true history).

use std::collections::HashMap;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value};

use super::{SearchOutcome, SearchRequest};
use crate::core::{Action, EngineError, Played, Rules, CHANCE, TERMINAL};

/// `values.OUTCOME_WEIGHT`: how much of a value is who beats whom; the rest the scaled return.
const OUTCOME_WEIGHT: f64 = 0.8;
/// The most iterations one call may ask for.
pub const MAX_ITERATIONS: u64 = 100_000_000;
/// The longest time budget one call may ask for (ten minutes).
pub const MAX_TIME_LIMIT_MS: u64 = 600_000;
/// The tree's default size limit: past it the search goes on without adding nodes (each node
/// is a few dozen bytes, so the default stays within a few hundred MB).
pub const DEFAULT_MAX_NODES: u64 = 4_000_000;
/// The largest `max_nodes` a caller may set.
pub const MAX_MAX_NODES: u64 = 50_000_000;
/// The default exploration constant, the Python bot's.
pub const DEFAULT_EXPLORATION: f64 = 0.7;
/// The default rollout depth, the Python bot's.
pub const DEFAULT_ROLLOUT_DEPTH: u64 = 10;

/// The options both searches read (`SearchRequest::options`).
#[derive(Debug, Clone, PartialEq)]
pub struct MctsOptions {
    pub exploration: f64,
    /// Player moves a rollout plays before the heuristic scores it; `None`: to the end.
    pub rollout_depth: Option<u64>,
    /// The game's utility range (`game.info.min_utility`, `max_utility`), for the values' scale.
    pub utility_range: (f64, f64),
    pub max_nodes: u64,
}

const OPTION_NAMES: &str = "exploration, rollout_depth, utility_range, max_nodes";

impl MctsOptions {
    /// Read `options` (a JSON object; `null` for all defaults), refusing an unknown key or a bad
    /// value with a sentence naming what is allowed.
    pub fn parse(search: &str, options: &Value) -> Result<MctsOptions, EngineError> {
        let bad = |message: String| EngineError::InvalidParameter(format!("{search}: {message}"));
        let empty = Map::new();
        let fields = match options {
            Value::Null => &empty,
            Value::Object(fields) => fields,
            other => {
                return Err(bad(format!(
                    "options must be a JSON object, not {other}; options: {OPTION_NAMES}"
                )))
            }
        };
        let mut parsed = MctsOptions {
            exploration: DEFAULT_EXPLORATION,
            rollout_depth: Some(DEFAULT_ROLLOUT_DEPTH),
            utility_range: (-1.0, 1.0),
            max_nodes: DEFAULT_MAX_NODES,
        };
        for (key, value) in fields {
            match key.as_str() {
                "exploration" => match value.as_f64() {
                    Some(c) if c.is_finite() && (0.0..=100.0).contains(&c) => {
                        parsed.exploration = c
                    }
                    _ => {
                        return Err(bad(format!(
                            "exploration must be a number from 0 to 100, not {value}"
                        )))
                    }
                },
                "rollout_depth" => {
                    parsed.rollout_depth = match value {
                        Value::Null => None,
                        _ => match value.as_u64() {
                            Some(depth) if depth <= 100_000 => Some(depth),
                            _ => {
                                return Err(bad(format!(
                                "rollout_depth must be a whole number from 0 to 100000, or null \
                                 (play to the end), not {value}"
                            )))
                            }
                        },
                    }
                }
                "utility_range" => {
                    let pair = value.as_array().and_then(|items| match items.as_slice() {
                        [low, high] => Some((low.as_f64()?, high.as_f64()?)),
                        _ => None,
                    });
                    match pair {
                        Some((low, high)) if low.is_finite() && high.is_finite() && low < high => {
                            parsed.utility_range = (low, high)
                        }
                        _ => {
                            return Err(bad(format!(
                                "utility_range must be [low, high] with low < high, not {value}"
                            )))
                        }
                    }
                }
                "max_nodes" => match value.as_u64() {
                    Some(n) if (1..=MAX_MAX_NODES).contains(&n) => parsed.max_nodes = n,
                    _ => {
                        return Err(bad(format!(
                        "max_nodes must be a whole number from 1 to {MAX_MAX_NODES}, not {value}"
                    )))
                    }
                },
                other => return Err(bad(format!("no option {other:?}; options: {OPTION_NAMES}"))),
            }
        }
        Ok(parsed)
    }
}

/// A budget checked before any work: an iteration count, a time limit, or both (whichever ends
/// first), each bounded.
pub fn check_budget(search: &str, request: &SearchRequest) -> Result<(), EngineError> {
    let bad = |message: String| EngineError::InvalidParameter(format!("{search}: {message}"));
    if request.iterations.is_none() && request.time_limit_ms.is_none() {
        return Err(bad(
            "a search needs a budget: iterations, a time limit, or both".to_string(),
        ));
    }
    if let Some(n) = request.iterations {
        if !(1..=MAX_ITERATIONS).contains(&n) {
            return Err(bad(format!(
                "iterations must be from 1 to {MAX_ITERATIONS}, not {n}"
            )));
        }
    }
    if let Some(ms) = request.time_limit_ms {
        if !(1..=MAX_TIME_LIMIT_MS).contains(&ms) {
            return Err(bad(format!(
                "time_limit_ms must be from 1 to {MAX_TIME_LIMIT_MS}, not {ms}"
            )));
        }
    }
    Ok(())
}

/// The seat to move at `state`, or a clear refusal at a chance node or the end.
pub fn mover<R: Rules>(search: &str, rules: &R) -> Result<usize, EngineError> {
    match rules.current_player() {
        TERMINAL => Err(EngineError::InvalidState(format!(
            "{search}: the {} game is over: there is no move to search",
            R::NAME
        ))),
        CHANCE => Err(EngineError::InvalidState(format!(
            "{search}: chance is to move in this {} state, not a player: apply a chance outcome \
             first",
            R::NAME
        ))),
        seat => Ok(seat as usize),
    }
}

/// `mcts`: UCT with chance edges keyed by outcome.
pub fn search<R: Rules>(
    state: &Played<R>,
    request: &SearchRequest,
) -> Result<SearchOutcome, EngineError> {
    run_tree_search("mcts", state, request, false)
}

/// The search both names share; `information_sets` keys chance edges by what the seat sees.
pub fn run_tree_search<R: Rules>(
    name: &str,
    state: &Played<R>,
    request: &SearchRequest,
    information_sets: bool,
) -> Result<SearchOutcome, EngineError> {
    let options = MctsOptions::parse(name, &request.options)?;
    check_budget(name, request)?;
    let seat = mover(name, &state.rules)?;
    let started = Instant::now();
    let legal = state.rules.legal_actions();
    let mut search = Search {
        seat,
        players: state.rules.num_players(),
        options,
        information_sets,
        nodes: vec![Node::default()],
        keys: HashMap::new(),
        rng: SmallRng::seed_from_u64(request.seed),
        root_values: vec![0.0; state.rules.num_players()],
        heuristic_known: None,
    };
    if legal.len() == 1 {
        // One legal move: nothing to weigh (the Python bots answer at once too). Its values come
        // from a world the seat may look at, as every iteration's do.
        let mut world = if R::HIDDEN_INFORMATION {
            state.rules.resample(seat, &mut search.rng)?
        } else {
            state.rules.clone()
        };
        return Ok(SearchOutcome {
            action: legal[0],
            values: search.leaf_values(&mut world),
            visits: vec![(legal[0], 0)],
            iterations: 0,
            elapsed_ms: started.elapsed().as_millis() as u64,
            action_values: Vec::new(),
        });
    }
    let deadline = request
        .time_limit_ms
        .map(|ms| started + std::time::Duration::from_millis(ms));
    let mut iterations = 0u64;
    loop {
        let world = if R::HIDDEN_INFORMATION {
            state.rules.resample(seat, &mut search.rng)?
        } else {
            state.rules.clone()
        };
        search.iterate(world)?;
        iterations += 1;
        if request.iterations.is_some_and(|n| iterations >= n) {
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    let child = |action: Action| {
        search
            .child(0, u64::from(action))
            .map(|id| &search.nodes[id as usize])
    };
    // Most visits, then the larger value sum, the first such in id order (Python's `max`).
    let mut best = legal[0];
    let mut best_key = (-1i64, 0.0f64);
    let mut visits = Vec::with_capacity(legal.len());
    for &action in &legal {
        let key = child(action).map_or((-1, 0.0), |node| (node.visits as i64, node.total));
        visits.push((action, key.0.max(0) as u64));
        if key.0 > best_key.0 || (key.0 == best_key.0 && key.1 > best_key.1) {
            best_key = key;
            best = action;
        }
    }
    let values = search
        .root_values
        .iter()
        .map(|total| total / iterations as f64)
        .collect();
    let elapsed_ms = started.elapsed().as_millis() as u64;
    // A tree of a second's search is some 100k nodes, each its own allocation: freeing them took
    // milliseconds past the budget, so another thread frees them (here, if none can start).
    let Search { nodes, keys, .. } = search;
    let _ = std::thread::Builder::new().spawn(move || drop((nodes, keys)));
    Ok(SearchOutcome {
        action: best,
        values,
        visits,
        iterations,
        elapsed_ms,
        action_values: Vec::new(),
    })
}

/// A tree node: the visits and value sum of the edge into it (for the seat that chose it), how
/// often it could have been chosen, and its children sorted by edge key (looked up by bisection:
/// a player node's walk looks up every legal action, and Bones has some 150).
#[derive(Debug, Default)]
struct Node {
    visits: u64,
    available: u64,
    total: f64,
    children: Vec<(u64, u32)>,
}

/// Where an `ismcts` chance edge's key starts: the interned notations sit above every action id.
const SEEN_KEY_BASE: u64 = 1 << 40;

struct Search {
    seat: usize,
    players: usize,
    options: MctsOptions,
    information_sets: bool,
    nodes: Vec<Node>,
    /// `ismcts`: a chance outcome's notation as the seat sees it -> its edge key.
    keys: HashMap<String, u64>,
    rng: SmallRng,
    root_values: Vec<f64>,
    /// Whether the game has a heuristic (learned at the first cut rollout).
    heuristic_known: Option<bool>,
}

impl Search {
    fn child(&self, node: u32, key: u64) -> Option<u32> {
        let children = &self.nodes[node as usize].children;
        children
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .map(|at| children[at].1)
    }

    /// A new child of `node` under `key`, or `None` once the tree is full.
    fn add_child(&mut self, node: u32, key: u64) -> Option<u32> {
        if self.nodes.len() as u64 >= self.options.max_nodes {
            return None;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        let children = &mut self.nodes[node as usize].children;
        let at = children.partition_point(|&(k, _)| k < key);
        children.insert(at, (key, id));
        Some(id)
    }

    fn chance_key<R: Rules>(&mut self, world: &R, outcome: Action) -> Result<u64, EngineError> {
        if !self.information_sets {
            return Ok(u64::from(outcome));
        }
        let seen = world.action_string_for(Some(self.seat), outcome)?;
        let next = SEEN_KEY_BASE + self.keys.len() as u64;
        Ok(*self.keys.entry(seen).or_insert(next))
    }

    fn iterate<R: Rules>(&mut self, mut world: R) -> Result<(), EngineError> {
        // (node entered, seat that chose the edge into it; CHANCE for a chance edge)
        let mut path: Vec<(u32, i32)> = Vec::new();
        let mut node = 0u32;
        loop {
            let player = world.current_player();
            if player == TERMINAL {
                break;
            }
            let (action, child, expanded) = if player == CHANCE {
                let outcome = sample_outcome(&world.chance_outcomes(), &mut self.rng);
                let key = self.chance_key(&world, outcome)?;
                match self.child(node, key) {
                    Some(child) => (outcome, child, false),
                    None => match self.add_child(node, key) {
                        Some(child) => (outcome, child, true),
                        None => break,
                    },
                }
            } else {
                let legal = world.legal_actions();
                let mut untried = Vec::new();
                for &action in &legal {
                    match self.child(node, u64::from(action)) {
                        Some(existing) => self.nodes[existing as usize].available += 1,
                        None => untried.push(action),
                    }
                }
                if !untried.is_empty() {
                    let action = untried[self.rng.random_range(0..untried.len())];
                    match self.add_child(node, u64::from(action)) {
                        Some(child) => {
                            self.nodes[child as usize].available = 1;
                            (action, child, true)
                        }
                        None => break,
                    }
                } else {
                    let action = self.select(node, &legal);
                    let child = self.child(node, u64::from(action)).unwrap_or(0);
                    (action, child, false)
                }
            };
            world.apply_action(action);
            path.push((child, player));
            node = child;
            if expanded {
                break;
            }
        }
        let values = self.leaf_values(&mut world);
        self.nodes[0].visits += 1;
        for (total, value) in self.root_values.iter_mut().zip(&values) {
            *total += value;
        }
        for (entered, chooser) in path {
            let entered = &mut self.nodes[entered as usize];
            entered.visits += 1;
            if chooser >= 0 {
                entered.total += values[chooser as usize];
            }
        }
        Ok(())
    }

    /// UCB over `legal` (every one a child already): the mean value for the chooser plus the
    /// exploration term over its availability, the first best in id order.
    fn select(&self, node: u32, legal: &[Action]) -> Action {
        let mut best_action = legal[0];
        let mut best_score = f64::NEG_INFINITY;
        for &action in legal {
            let Some(id) = self.child(node, u64::from(action)) else {
                continue;
            };
            let child = &self.nodes[id as usize];
            let visits = child.visits as f64;
            let score = child.total / visits
                + self.options.exploration * ((child.available.max(1) as f64).ln() / visits).sqrt();
            if score > best_score {
                best_score = score;
                best_action = action;
            }
        }
        best_action
    }

    /// A rollout from `world`: random moves (chance by its odds), cut after `rollout_depth` player
    /// moves and scored by the heuristic; exact values at the end.
    fn leaf_values<R: Rules>(&mut self, world: &mut R) -> Vec<f64> {
        let mut depth = 0u64;
        let mut limit = self.options.rollout_depth;
        loop {
            let player = world.current_player();
            if player == TERMINAL {
                return values_from_returns(&world.returns(), self.options.utility_range);
            }
            if limit.is_some_and(|limit| depth >= limit) {
                if self.heuristic_known != Some(false) {
                    if let Some(estimates) = self.estimates(world) {
                        self.heuristic_known = Some(true);
                        return values_from_estimates(&estimates, self.options.utility_range);
                    }
                    self.heuristic_known = Some(false);
                }
                // No heuristic: play on to the end.
                limit = None;
            }
            let action = if player == CHANCE {
                sample_outcome(&world.chance_outcomes(), &mut self.rng)
            } else {
                depth += 1;
                let legal = world.legal_actions();
                legal[self.rng.random_range(0..legal.len())]
            };
            world.apply_action(action);
        }
    }

    /// `values.estimates`: every seat's heuristic, or in a two-player zero-sum game the searching
    /// seat's and its negation.
    fn estimates<R: Rules>(&self, world: &R) -> Option<Vec<f64>> {
        let (low, high) = self.options.utility_range;
        if self.players == 2 && (low + high).abs() < 1e-12 {
            let mine = world.heuristic(self.seat)?;
            return Some(if self.seat == 0 {
                vec![mine, -mine]
            } else {
                vec![-mine, mine]
            });
        }
        (0..self.players)
            .map(|seat| world.heuristic(seat))
            .collect()
    }
}

/// A chance outcome drawn by its probability.
pub fn sample_outcome(outcomes: &[(Action, f64)], rng: &mut SmallRng) -> Action {
    let mut left = rng.random::<f64>() * outcomes.iter().map(|&(_, p)| p).sum::<f64>();
    for &(action, probability) in outcomes {
        if left < probability {
            return action;
        }
        left -= probability;
    }
    outcomes[outcomes.len() - 1].0
}

fn scaled(value: f64, (low, high): (f64, f64)) -> f64 {
    if high <= low {
        return 0.5;
    }
    ((value - low) / (high - low)).clamp(0.0, 1.0)
}

/// Each seat's blend of its outcome against the others (`share_beaten`) and its scaled number.
fn blend(numbers: &[f64], range: (f64, f64), share_beaten: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let players = numbers.len();
    numbers
        .iter()
        .enumerate()
        .map(|(seat, &mine)| {
            let own = scaled(mine, range);
            if players == 1 {
                return own;
            }
            let beaten: f64 = numbers
                .iter()
                .enumerate()
                .filter(|&(other, _)| other != seat)
                .map(|(_, &theirs)| share_beaten(mine, theirs))
                .sum();
            OUTCOME_WEIGHT * beaten / (players - 1) as f64 + (1.0 - OUTCOME_WEIGHT) * own
        })
        .collect()
}

/// `values.values_from_returns`: win 1, draw half, loss 0 against each other seat, blended with
/// the scaled return.
pub fn values_from_returns(returns: &[f64], range: (f64, f64)) -> Vec<f64> {
    blend(returns, range, |mine, theirs| {
        if mine > theirs {
            1.0
        } else if mine == theirs {
            0.5
        } else {
            0.0
        }
    })
}

/// `values.values_from_estimates`: a soft "who beats whom" (a lead of a tenth of the utility
/// range is about three quarters of a win).
pub fn values_from_estimates(estimates: &[f64], range: (f64, f64)) -> Vec<f64> {
    let softness = 0.1 * (range.1 - range.0).max(1e-9);
    blend(estimates, range, |mine, theirs| {
        0.5 + 0.5 * ((mine - theirs) / softness).tanh()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_the_python_scale() {
        let range = (-1.0, 1.0);
        assert_eq!(values_from_returns(&[1.0, -1.0], range), vec![1.0, 0.0]);
        assert_eq!(values_from_returns(&[0.0, 0.0], range), vec![0.5, 0.5]);
        let soft = values_from_estimates(&[0.1, -0.1], range);
        let expected = 0.8 * (0.5 + 0.5 * (0.2f64 / 0.2).tanh()) + 0.2 * 0.55;
        assert!((soft[0] - expected).abs() < 1e-12);
    }

    #[test]
    fn options_refuse_unknown_keys_and_bad_values() {
        let parse = |text: &str| MctsOptions::parse("mcts", &serde_json::from_str(text).unwrap());
        assert!(parse("{}").is_ok());
        assert_eq!(
            parse("{\"rollout_depth\": null}").unwrap().rollout_depth,
            None
        );
        for bad in [
            "{\"explore\": 1}",
            "{\"exploration\": -1}",
            "{\"rollout_depth\": 1.5}",
            "{\"utility_range\": [1, 0]}",
            "{\"max_nodes\": 0}",
            "[1]",
        ] {
            let error = parse(bad).unwrap_err();
            assert!(matches!(error, EngineError::InvalidParameter(_)), "{bad}");
        }
    }
}

#[cfg(test)]
mod race_tests {
    //! The search against a brute-force expectimax, in Race (the template game: two players,
    //! a coin after every move, no heuristic, so rollouts play to the end).
    use serde_json::json;

    use super::super::SearchRequest;
    use crate::core::{DynState, Params, CHANCE};
    use crate::games::race;

    fn race(goal: i64) -> Box<dyn DynState> {
        let params = Params::from_json(&format!("{{\"goal\": {goal}, \"coin\": true}}")).unwrap();
        race::load(&params).unwrap().new_initial_state()
    }

    /// The expected return of seat 0 under best play by both seats, chance by its odds.
    fn expectimax(state: &mut Box<dyn DynState>) -> f64 {
        if state.is_terminal() {
            return state.returns()[0];
        }
        let player = state.current_player();
        if player == CHANCE {
            return state
                .chance_outcomes()
                .into_iter()
                .map(|(outcome, p)| {
                    let mut child = state.clone_box();
                    child.apply_action(i64::from(outcome)).unwrap();
                    p * expectimax(&mut child)
                })
                .sum();
        }
        let values = action_values(state);
        let best = values
            .iter()
            .map(|&(_, v)| if player == 0 { v } else { -v });
        let best = best.fold(f64::NEG_INFINITY, f64::max);
        if player == 0 {
            best
        } else {
            -best
        }
    }

    fn action_values(state: &mut Box<dyn DynState>) -> Vec<(u32, f64)> {
        state
            .legal_actions()
            .to_vec()
            .into_iter()
            .map(|action| {
                let mut child = state.clone_box();
                child.apply_action(i64::from(action)).unwrap();
                (action, expectimax(&mut child))
            })
            .collect()
    }

    fn search(state: &dyn DynState, name: &str, iterations: u64, seed: u64) -> (u32, Vec<f64>) {
        let request = SearchRequest {
            search: name.to_string(),
            options: json!({"rollout_depth": null}),
            time_limit_ms: None,
            iterations: Some(iterations),
            seed,
        };
        let found = state.search(&request).unwrap();
        (found.action, found.values)
    }

    #[test]
    fn many_iterations_choose_the_expectimax_move() {
        let mut checked = 0;
        for goal in 4..=8 {
            for opening in [vec![], vec![0, 1], vec![1, 0], vec![1, 1]] {
                let mut state = race(goal);
                for action in opening {
                    if !state.is_terminal() {
                        state.apply_action(action).unwrap();
                    }
                }
                if state.is_terminal() || state.is_chance_node() {
                    continue;
                }
                let mover = state.current_player() as usize;
                let sign = if mover == 0 { 1.0 } else { -1.0 };
                let values = action_values(&mut state);
                let (best, best_value) = values
                    .iter()
                    .map(|&(a, v)| (a, sign * v))
                    .fold((0, f64::NEG_INFINITY), |b, c| if c.1 > b.1 { c } else { b });
                let margin = values
                    .iter()
                    .filter(|&&(a, _)| a != best)
                    .map(|&(_, v)| best_value - sign * v)
                    .fold(f64::INFINITY, f64::min);
                if margin < 0.05 {
                    continue; // near ties: either move is right
                }
                for name in ["mcts", "ismcts"] {
                    let (action, root) = search(state.as_ref(), name, 30_000, 7);
                    assert_eq!(action, best, "{name}, goal {goal}, values {values:?}");
                    // The root's mean value approaches the expectimax value on the values' scale.
                    let expected = (1.0 + best_value) / 2.0;
                    assert!(
                        (root[mover] - expected).abs() < 0.05,
                        "{name}, goal {goal}: {} against {expected}",
                        root[mover]
                    );
                }
                checked += 1;
            }
        }
        assert!(
            checked >= 6,
            "only {checked} positions had a clear best move"
        );
    }

    #[test]
    fn an_iteration_budget_gives_the_same_search_twice() {
        let state = race(9);
        assert_eq!(
            search(state.as_ref(), "mcts", 3000, 5),
            search(state.as_ref(), "mcts", 3000, 5)
        );
    }
}
