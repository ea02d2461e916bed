//! `expert`: the PUCT search of `boneyard/ai/expert.py` (`ExpertBot.search`), step for step,
//! with the network evaluated in Rust (`crate::network`) and the leaves of many searches
//! evaluated together, one batch a round.
//!
//! The same search as the Python one: at a position the network has valued, the action of best
//! `Q + c * P * sqrt(N) / (1 + n)` (an untried action scores `UNVISITED_VALUE + c * P *
//! sqrt(N)`, so of those only the one of highest prior is scored); a new position is valued by
//! the network, one value per seat in [0, 1] backed up, each edge taking the value of the seat
//! that chose it; a finished game is valued by its returns (`outcome_targets` for a network with
//! a value per seat, `values_from_returns` for an older file's one value). Chance is a node with
//! a child per outcome: an unvisited chance node with at most `exact_chance` ways to the next
//! decision is valued by their exact expectation (each way evaluated); every later visit goes
//! down the outcome furthest below its share of the visits (perfect information) or one drawn by
//! its odds in that iteration's world (hidden information). In Bond O Cones and Bon-Bon every
//! iteration searches a fresh `resample` of the mover's view from the search's own seeded
//! generator, its chance edges keyed by what the mover sees of each outcome: the true hidden
//! cards and cones are never read.
//!
//! Why batches of searches and not virtual loss: each search runs its iterations one after
//! another exactly as the Python search does (a leaf is backed up before the next iteration
//! selects), so a search gives the Python search's visits whatever the batch; what is batched is
//! the network, one forward pass for the waiting leaves of every search in the round (the
//! self-play games of a step, side by side).

use std::collections::HashMap;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::mcts::{sample_outcome, values_from_returns};
use crate::core::{Action, DynState, EngineError, CHANCE};
use crate::network::Network;

/// `expert.UNVISITED_VALUE`: the value an untried action is taken to have.
pub const UNVISITED_VALUE: f64 = 0.4;
/// Where a hidden-information chance edge's key starts: the interned notations sit above every
/// action id.
const SEEN_KEY_BASE: u64 = 1 << 40;
/// The most iterations one search may ask for.
pub const MAX_ITERATIONS: u64 = 1_000_000;

/// What every search of a call shares.
#[derive(Debug, Clone)]
pub struct ExpertOptions {
    /// PUCT's `c`.
    pub exploration: f64,
    /// The most ways through chance an unvisited chance node's value averages exactly (0: none).
    pub exact_chance: usize,
    /// Iterations a search (at least 1).
    pub iterations: u64,
    /// When a search stops even short of its iterations (after its first one): a bot's
    /// clock. None: the iterations alone end it, and the same seed gives the same visits.
    pub deadline: Option<Instant>,
    /// The game's lowest and highest return, for a finished game's value.
    pub utility_range: (f64, f64),
}

impl ExpertOptions {
    fn check(&self) -> Result<(), EngineError> {
        let bad = |message: String| EngineError::InvalidParameter(format!("expert: {message}"));
        if !(self.exploration.is_finite() && (0.0..=100.0).contains(&self.exploration)) {
            return Err(bad(format!(
                "exploration must be a number from 0 to 100, not {}",
                self.exploration
            )));
        }
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return Err(bad(format!(
                "iterations must be from 1 to {MAX_ITERATIONS}, not {}",
                self.iterations
            )));
        }
        let (low, high) = self.utility_range;
        if !(low.is_finite() && high.is_finite() && low <= high) {
            return Err(bad(format!(
                "utility_range must be [low, high] with low <= high, not [{low}, {high}]"
            )));
        }
        Ok(())
    }
}

/// What one search found at its root: per legal action (in id order) its visits and its mean
/// value for the mover (0 where unvisited).
#[derive(Debug, Clone, PartialEq)]
pub struct ExpertOutcome {
    pub actions: Vec<Action>,
    pub visits: Vec<u64>,
    pub values: Vec<f64>,
    pub iterations: u64,
}

/// The network's priors at a node: over the legal actions of the world it was valued in.
#[derive(Debug)]
struct Priors {
    /// Sorted (the legal actions' order).
    actions: Vec<Action>,
    probabilities: Vec<f64>,
    /// The actions most likely first, equals in id order (Python's stable `sorted`).
    order: Vec<Action>,
}

impl Priors {
    fn new(actions: Vec<Action>, probabilities: Vec<f64>) -> Priors {
        let mut ranked: Vec<usize> = (0..actions.len()).collect();
        ranked.sort_by(|&a, &b| probabilities[b].total_cmp(&probabilities[a]));
        let order = ranked.iter().map(|&i| actions[i]).collect();
        Priors {
            actions,
            probabilities,
            order,
        }
    }

    fn get(&self, action: Action) -> Option<f64> {
        self.actions
            .binary_search(&action)
            .ok()
            .map(|at| self.probabilities[at])
    }
}

/// A node of the tree: `SearchNode`'s fields.
#[derive(Debug, Default)]
struct Node {
    visits: u64,
    /// Sum of the values for the seat that chose the edge into this node.
    total: f64,
    /// Sorted by edge key (an action, a chance outcome, or a seen outcome's interned key).
    children: Vec<(u64, u32)>,
    priors: Option<Priors>,
    /// The legal actions last selected from, and those of them without a prior.
    legal: Vec<Action>,
    missing: Vec<Action>,
}

/// A position waiting for the network: its observation, legal actions and mover.
#[derive(Debug, Default)]
pub struct Leaves {
    features: Vec<f32>,
    legal: Vec<Vec<Action>>,
    movers: Vec<usize>,
    players: Vec<usize>,
}

impl Leaves {
    fn len(&self) -> usize {
        self.movers.len()
    }

    fn clear(&mut self) {
        self.features.clear();
        self.legal.clear();
        self.movers.clear();
        self.players.clear();
    }

    fn ask(&mut self, world: &mut dyn DynState, input_size: usize) -> Result<usize, EngineError> {
        let mover = world.current_player();
        let mover = usize::try_from(mover)
            .map_err(|_| EngineError::InvalidState(format!("expert: no seat to move ({mover})")))?;
        let start = self.features.len();
        self.features.resize(start + input_size, 0.0);
        if !world.observation_tensor(Some(mover), &mut self.features[start..]) {
            return Err(EngineError::NotSupported(format!(
                "{} has no native observation tensor of {input_size} numbers",
                world.name()
            )));
        }
        self.legal.push(world.legal_actions().to_vec());
        self.movers.push(mover);
        self.players.push(world.num_players());
        Ok(self.len() - 1)
    }
}

/// The network's answer for one leaf: priors over its legal actions and every seat's value in
/// [0, 1] (`NetworkEvaluator`'s scale).
#[derive(Debug, Clone)]
struct Judgement {
    priors: Vec<f64>,
    values: Vec<f64>,
}

/// `NetworkEvaluator.evaluate`'s values of a leaf from the network's outputs for it.
fn judge(
    network: &Network,
    head_logits: &[f32],
    values: &[f32],
    legal: &[Action],
    mover: usize,
    players: usize,
) -> Result<Judgement, EngineError> {
    let priors = network.policy(head_logits, legal)?;
    let values = if network.value_outputs() == 1 {
        let mine = 0.5 * (1.0 + f64::from(values[0]));
        let others = (1.0 - mine) / (players.max(2) - 1) as f64;
        (0..players)
            .map(|seat| if seat == mover { mine } else { others })
            .collect()
    } else {
        network
            .seat_values(values, mover, players)?
            .into_iter()
            .map(|v| 0.5 * (1.0 + v))
            .collect()
    };
    Ok(Judgement { priors, values })
}

/// Every waiting leaf through the network at once.
fn judge_all(network: &Network, leaves: &Leaves) -> Result<Vec<Judgement>, EngineError> {
    let rows = leaves.len();
    let out = network.forward(&leaves.features, rows)?;
    let (heads, values) = (network.head_outputs(), network.value_outputs());
    (0..rows)
        .map(|i| {
            judge(
                network,
                &out.head_logits[i * heads..(i + 1) * heads],
                &out.values[i * values..(i + 1) * values],
                &leaves.legal[i],
                leaves.movers[i],
                leaves.players[i],
            )
        })
        .collect()
}

/// `network.outcome_targets`: each seat's return less the mean of the others', over the range.
pub fn outcome_targets(returns: &[f64], (low, high): (f64, f64)) -> Vec<f64> {
    let width = high - low;
    if width <= 0.0 {
        return vec![0.0; returns.len()];
    }
    let players = returns.len();
    if players == 1 {
        return vec![(2.0 * (returns[0] - low) / width - 1.0).clamp(-1.0, 1.0)];
    }
    let total: f64 = returns.iter().sum();
    returns
        .iter()
        .map(|&mine| {
            let others = (total - mine) / (players - 1) as f64;
            ((mine - others) / width).clamp(-1.0, 1.0)
        })
        .collect()
}

/// One way of an exact chance expectation: its probability and its value, known (the game
/// ended) or waiting for the network (a leaf's index in the round's batch).
enum Way {
    Known(f64, Vec<f64>),
    Asked(f64, usize),
}

/// The edges an iteration went down: (node entered, seat that chose it; `CHANCE` for chance).
type Path = Vec<(u32, i32)>;
/// An iteration done: its path and every seat's value of its leaf.
type Finished = (Path, Vec<f64>);

/// An iteration waiting for the network.
struct Pending {
    path: Path,
    /// A player node to be valued (its priors set), or none: an exact chance expectation.
    leaf: Option<(u32, usize)>,
    ways: Vec<Way>,
}

/// One search: a tree grown from one position for its mover.
struct Search {
    root: Box<dyn DynState>,
    seat: usize,
    players: usize,
    hidden: bool,
    nodes: Vec<Node>,
    keys: HashMap<String, u64>,
    rng: SmallRng,
    done: u64,
    pending: Option<Pending>,
}

impl Search {
    fn new(root: Box<dyn DynState>, hidden: bool, seed: u64) -> Result<Search, EngineError> {
        let seat = match root.current_player() {
            seat if seat >= 0 => seat as usize,
            CHANCE => {
                return Err(EngineError::InvalidState(format!(
                    "expert: chance is to move in this {} state, not a player: apply a chance \
                     outcome first",
                    root.name()
                )))
            }
            _ => {
                return Err(EngineError::InvalidState(format!(
                    "expert: the {} game is over: there is no move to search",
                    root.name()
                )))
            }
        };
        Ok(Search {
            players: root.num_players(),
            root,
            seat,
            hidden,
            nodes: vec![Node::default()],
            keys: HashMap::new(),
            rng: SmallRng::seed_from_u64(seed),
            done: 0,
            pending: None,
        })
    }

    fn child(&self, node: u32, key: u64) -> Option<u32> {
        let children = &self.nodes[node as usize].children;
        children
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .map(|at| children[at].1)
    }

    fn child_or_new(&mut self, node: u32, key: u64) -> u32 {
        if let Some(id) = self.child(node, key) {
            return id;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        let children = &mut self.nodes[node as usize].children;
        let at = children.partition_point(|&(k, _)| k < key);
        children.insert(at, (key, id));
        id
    }

    /// A finished game's values (`NetworkEvaluator` at the end).
    fn end_values(
        &self,
        world: &dyn DynState,
        network: &Network,
        options: &ExpertOptions,
    ) -> Vec<f64> {
        let returns = world.returns();
        if network.value_outputs() == 1 {
            return values_from_returns(&returns, options.utility_range);
        }
        outcome_targets(&returns, options.utility_range)
            .into_iter()
            .map(|t| 0.5 * (1.0 + t))
            .collect()
    }

    /// Run iterations until one waits for the network (its leaves added to `leaves`: true) or
    /// the budget is spent (false).
    fn advance(
        &mut self,
        network: &Network,
        options: &ExpertOptions,
        leaves: &mut Leaves,
    ) -> Result<bool, EngineError> {
        while self.done < options.iterations {
            if self.done > 0 && options.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let world = if self.hidden {
                self.root.resample(self.seat, &mut self.rng)?
            } else {
                self.root.clone_box()
            };
            match self.descend(world, network, options, leaves)? {
                Some((path, values)) => self.back_up(&path, &values),
                None => return Ok(true),
            }
        }
        Ok(false)
    }

    /// `_iterate` down to a leaf: its values where they are known at once (`Some`), else the
    /// iteration is left pending with its leaves asked of the network.
    fn descend(
        &mut self,
        mut world: Box<dyn DynState>,
        network: &Network,
        options: &ExpertOptions,
        leaves: &mut Leaves,
    ) -> Result<Option<Finished>, EngineError> {
        let mut path: Path = Vec::new();
        let mut node = 0u32;
        while !world.is_terminal() {
            let player = world.current_player();
            let (action, key) = if player == CHANCE {
                if self.nodes[node as usize].visits == 0 && options.exact_chance > 0 {
                    if let Some(ways) =
                        self.expected_values(world.as_ref(), network, options, leaves)?
                    {
                        return Ok(self.wait_or_sum(path, ways));
                    }
                }
                self.chance_outcome(node, world.as_ref())?
            } else {
                if self.nodes[node as usize].priors.is_none() {
                    let asked = leaves.ask(world.as_mut(), network.input_size())?;
                    self.pending = Some(Pending {
                        path,
                        leaf: Some((node, asked)),
                        ways: Vec::new(),
                    });
                    return Ok(None);
                }
                let legal = world.legal_actions().to_vec();
                let action = self.select(node, legal, options.exploration);
                (action, u64::from(action))
            };
            let child = self.child_or_new(node, key);
            world.apply_action(i64::from(action))?;
            path.push((child, player));
            node = child;
        }
        let values = self.end_values(world.as_ref(), network, options);
        Ok(Some((path, values)))
    }

    /// The ways of an exact expectation: summed now where every one is known, else pending.
    fn wait_or_sum(&mut self, path: Path, ways: Vec<Way>) -> Option<Finished> {
        if ways.iter().all(|way| matches!(way, Way::Known(..))) {
            let values = self.sum_ways(&ways, &[]);
            return Some((path, values));
        }
        self.pending = Some(Pending {
            path,
            leaf: None,
            ways,
        });
        None
    }

    fn sum_ways(&self, ways: &[Way], judged: &[Judgement]) -> Vec<f64> {
        let mut totals = vec![0.0; self.players];
        for way in ways {
            let (probability, values) = match way {
                Way::Known(p, values) => (*p, values.as_slice()),
                Way::Asked(p, at) => (*p, judged[*at].values.as_slice()),
            };
            for (total, value) in totals.iter_mut().zip(values) {
                *total += probability * value;
            }
        }
        totals
    }

    /// `_expected_values`: the ways from chance node `world` to the next decision (or the end),
    /// finished ones valued and the rest asked of the network; `None` where there are more than
    /// `exact_chance`.
    fn expected_values(
        &self,
        world: &dyn DynState,
        network: &Network,
        options: &ExpertOptions,
        leaves: &mut Leaves,
    ) -> Result<Option<Vec<Way>>, EngineError> {
        if world.chance_outcomes().len() > options.exact_chance {
            return Ok(None);
        }
        let mut found = Vec::new();
        if !chance_ways(world, 1.0, options.exact_chance, &mut found)? {
            return Ok(None);
        }
        let mut ways = Vec::with_capacity(found.len());
        for (probability, mut leaf) in found {
            ways.push(if leaf.is_terminal() {
                Way::Known(
                    probability,
                    self.end_values(leaf.as_ref(), network, options),
                )
            } else {
                Way::Asked(
                    probability,
                    leaves.ask(leaf.as_mut(), network.input_size())?,
                )
            });
        }
        Ok(Some(ways))
    }

    /// `_chance_outcome`: the outcome to go down and its edge's key.
    fn chance_outcome(
        &mut self,
        node: u32,
        world: &dyn DynState,
    ) -> Result<(Action, u64), EngineError> {
        let outcomes = world.chance_outcomes();
        if self.hidden {
            let action = sample_outcome(&outcomes, &mut self.rng);
            let seen = world.action_string_for(Some(self.seat), i64::from(action))?;
            let next = SEEN_KEY_BASE + self.keys.len() as u64;
            return Ok((action, *self.keys.entry(seen).or_insert(next)));
        }
        let mut best = (outcomes[0].0, f64::NEG_INFINITY);
        for &(action, probability) in &outcomes {
            let visits = self
                .child(node, u64::from(action))
                .map_or(0, |id| self.nodes[id as usize].visits);
            let score = probability / (1 + visits) as f64;
            if score > best.1 {
                best = (action, score);
            }
        }
        Ok((best.0, u64::from(best.0)))
    }

    /// `_select`: the legal action of best PUCT score, the first in `legal` among equals (the
    /// tried children scored one by one, of the untried only the one of highest prior and the
    /// first without a prior).
    fn select(&mut self, node: u32, legal: Vec<Action>, exploration: f64) -> Action {
        let floor = 1.0 / legal.len() as f64;
        let scale = exploration * (self.nodes[node as usize].visits.max(1) as f64).sqrt();
        {
            let entry = &mut self.nodes[node as usize];
            if entry.legal != legal {
                let priors = entry.priors.as_ref();
                entry.missing = legal
                    .iter()
                    .copied()
                    .filter(|&a| priors.is_none_or(|p| p.get(a).is_none()))
                    .collect();
                entry.legal = legal;
            }
        }
        let entry = &self.nodes[node as usize];
        let legal = &entry.legal;
        let place = |action: Action| legal.binary_search(&action).ok();
        let untried = |action: Action| {
            self.child(node, u64::from(action))
                .is_none_or(|id| self.nodes[id as usize].visits == 0)
        };
        let mut best_action = legal[0];
        let mut best = (f64::NEG_INFINITY, 0usize);
        let mut consider = |action: Action, at: usize, score: f64| {
            if score > best.0 || (score == best.0 && at < best.1 && best.0 > f64::NEG_INFINITY) {
                best = (score, at);
                best_action = action;
            }
        };
        for &(key, id) in &entry.children {
            let child = &self.nodes[id as usize];
            let Ok(action) = Action::try_from(key) else {
                continue;
            };
            if child.visits == 0 {
                continue;
            }
            if let Some(at) = place(action) {
                let prior = entry
                    .priors
                    .as_ref()
                    .and_then(|p| p.get(action))
                    .unwrap_or(floor);
                let visits = child.visits as f64;
                consider(
                    action,
                    at,
                    child.total / visits + scale * prior / (1 + child.visits) as f64,
                );
            }
        }
        if let Some(priors) = &entry.priors {
            if let Some(&action) = priors
                .order
                .iter()
                .find(|&&a| place(a).is_some() && untried(a))
            {
                let prior = priors.get(action).unwrap_or(floor);
                consider(
                    action,
                    place(action).unwrap_or(0),
                    UNVISITED_VALUE + scale * prior,
                );
            }
        }
        if let Some(&action) = entry.missing.iter().find(|&&a| untried(a)) {
            consider(
                action,
                place(action).unwrap_or(0),
                UNVISITED_VALUE + scale * floor,
            );
        }
        best_action
    }

    /// `mcts.back_up`: the root and every edge of `path` get a visit, each edge the value of the
    /// seat that chose it (a chance edge only the visit).
    fn back_up(&mut self, path: &[(u32, i32)], values: &[f64]) {
        self.nodes[0].visits += 1;
        for &(entered, chooser) in path {
            let node = &mut self.nodes[entered as usize];
            node.visits += 1;
            if chooser >= 0 {
                node.total += values[chooser as usize];
            }
        }
        self.done += 1;
    }

    fn outcome(&mut self) -> ExpertOutcome {
        let actions = self.root.legal_actions().to_vec();
        let mut visits = Vec::with_capacity(actions.len());
        let mut values = Vec::with_capacity(actions.len());
        for &action in &actions {
            match self.child(0, u64::from(action)) {
                Some(id) => {
                    let node = &self.nodes[id as usize];
                    visits.push(node.visits);
                    values.push(if node.visits > 0 {
                        node.total / node.visits as f64
                    } else {
                        0.0
                    });
                }
                None => {
                    visits.push(0);
                    values.push(0.0);
                }
            }
        }
        ExpertOutcome {
            actions,
            visits,
            values,
            iterations: self.done,
        }
    }
}

/// `_chance_ways`: add each way chance goes from `state` to a decision (or the end), with its
/// probability; false as soon as there are more than `limit`.
fn chance_ways(
    state: &dyn DynState,
    probability: f64,
    limit: usize,
    ways: &mut Vec<(f64, Box<dyn DynState>)>,
) -> Result<bool, EngineError> {
    if !state.is_chance_node() {
        ways.push((probability, state.clone_box()));
        return Ok(ways.len() <= limit);
    }
    for (outcome, chance) in state.chance_outcomes() {
        if chance <= 0.0 {
            continue;
        }
        let mut child = state.clone_box();
        child.apply_action(i64::from(outcome))?;
        if !chance_ways(child.as_ref(), probability * chance, limit, ways)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The most threads one call may split its searches over.
pub const MAX_THREADS: usize = 256;

/// Search every state of `states` (each a player's turn) for its mover with `network`, search
/// `i` seeded by `seeds[i]`, the leaves of all of them evaluated together a round at a time.
/// `hidden`: the game hides something, so every iteration searches a fresh resample of the
/// mover's view. `threads` splits the searches into that many groups, each on its own thread
/// with its own rounds: a search's iterations are its own, so the results are the same for any
/// number of threads.
pub fn search_many(
    states: Vec<Box<dyn DynState>>,
    hidden: bool,
    network: &Network,
    options: &ExpertOptions,
    seeds: &[u64],
    threads: usize,
) -> Result<Vec<ExpertOutcome>, EngineError> {
    options.check()?;
    if seeds.len() != states.len() {
        return Err(EngineError::InvalidParameter(format!(
            "expert: {} seeds for {} states (one each)",
            seeds.len(),
            states.len()
        )));
    }
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(EngineError::InvalidParameter(format!(
            "expert: threads must be from 1 to {MAX_THREADS}, not {threads}"
        )));
    }
    let mut searches = states
        .into_iter()
        .zip(seeds)
        .map(|(state, &seed)| Search::new(state, hidden, seed))
        .collect::<Result<Vec<_>, _>>()?;
    let group = searches.len().div_ceil(threads).max(1);
    if threads == 1 || searches.len() <= group {
        run_rounds(&mut searches, network, options)?;
    } else {
        std::thread::scope(|scope| {
            let running: Vec<_> = searches
                .chunks_mut(group)
                .map(|chunk| scope.spawn(move || run_rounds(chunk, network, options)))
                .collect();
            running.into_iter().try_for_each(|thread| {
                thread.join().unwrap_or_else(|_| {
                    Err(EngineError::InvalidState(
                        "expert: a search thread stopped without its result".to_string(),
                    ))
                })
            })
        })?;
    }
    Ok(searches.iter_mut().map(Search::outcome).collect())
}

/// The rounds of `searches` until every one has spent its iterations: each runs to its next
/// leaf, the waiting leaves go through the network in one batch, and each backs its up.
fn run_rounds(
    searches: &mut [Search],
    network: &Network,
    options: &ExpertOptions,
) -> Result<(), EngineError> {
    let mut leaves = Leaves::default();
    let mut waiting: Vec<usize> = (0..searches.len()).collect();
    while !waiting.is_empty() {
        leaves.clear();
        let mut still = Vec::with_capacity(waiting.len());
        for &i in &waiting {
            if searches[i].advance(network, options, &mut leaves)? {
                still.push(i);
            }
        }
        waiting = still;
        if waiting.is_empty() {
            break;
        }
        let judged = judge_all(network, &leaves)?;
        for &i in &waiting {
            let search = &mut searches[i];
            let Some(pending) = search.pending.take() else {
                continue;
            };
            let values = match pending.leaf {
                Some((node, at)) => {
                    let priors = Priors::new(leaves.legal[at].clone(), judged[at].priors.clone());
                    search.nodes[node as usize].priors = Some(priors);
                    judged[at].values.clone()
                }
                None => search.sum_ways(&pending.ways, &judged),
            };
            search.back_up(&pending.path, &values);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Params;
    use crate::network::Dense;

    #[test]
    fn a_finished_games_targets_are_its_returns_less_the_others_mean() {
        assert_eq!(outcome_targets(&[1.0, 1.0], (0.0, 1.0)), [0.0, 0.0]);
        assert_eq!(outcome_targets(&[1.0, 0.0], (0.0, 1.0)), [1.0, -1.0]);
        assert_eq!(
            outcome_targets(&[0.0, 1.0, 1.0], (0.0, 1.0)),
            [-1.0, 0.5, 0.5]
        );
        assert_eq!(outcome_targets(&[0.0], (0.0, 1.0)), [-1.0]);
        assert_eq!(values_from_returns(&[1.0, -1.0], (-1.0, 1.0)), [1.0, 0.0]);
    }

    /// A network of zeros over Race's tensor: uniform priors, every value 0.5.
    fn flat_network(inputs: usize, actions: usize) -> Network {
        let dense = |name: &str, i: usize, o: usize| {
            Dense::new(name, i, o, vec![0.0; i * o], vec![0.0; o]).unwrap()
        };
        let heads = (0..actions as u32).map(|a| [0, 1, 2 + a]).collect();
        Network::new(
            vec![dense("w0", inputs, 4)],
            dense("wp", 4, 2 + actions),
            dense("wv", 4, 2),
            heads,
        )
        .unwrap()
    }

    #[test]
    fn a_search_spends_its_iterations_and_repeats_itself() {
        // The OYNO duel on a small board: dice (chance nodes) and a tensor.
        let params = serde_json::json!({
            "size": 3, "bones_per_player": 2, "wild": false, "max_moves": 40,
            "place_rule": "all_up", "start": null,
        });
        let game = crate::games::oyno::load_duel(&Params::from_json(&params.to_string()).unwrap());
        let game = game.unwrap();
        let mut state = game.new_initial_state();
        let mut rng = <SmallRng as SeedableRng>::seed_from_u64(3);
        state.settle_chance(&mut rng);
        let shape = game.observation_tensor_shape().unwrap();
        let actions = 4096; // more than the ids of any OYNO board this size
        let network = flat_network(shape.iter().product(), actions);
        let options = ExpertOptions {
            exploration: 1.5,
            exact_chance: 12,
            iterations: 50,
            utility_range: (-1.0, 1.0),
            deadline: None,
        };
        let legal = state.legal_actions().to_vec();
        let run = |threads| {
            let states = (0..3).map(|_| state.clone_box()).collect();
            search_many(states, false, &network, &options, &[1, 2, 3], threads)
        };
        let first = run(1).unwrap();
        assert_eq!(first[0].visits.iter().sum::<u64>(), 49);
        assert_eq!(first[0].actions, legal);
        assert_eq!(first, run(1).unwrap());
        assert_eq!(first, run(2).unwrap()); // threads change nothing but the speed

        // A clock already run out still lets each search finish its first iteration.
        let timed = ExpertOptions {
            iterations: MAX_ITERATIONS,
            deadline: Some(Instant::now()),
            ..options
        };
        let states = (0..2).map(|_| state.clone_box()).collect();
        let stopped = search_many(states, false, &network, &timed, &[1, 2], 1).unwrap();
        assert!(stopped.iter().all(|outcome| outcome.iterations == 1));
    }
}
