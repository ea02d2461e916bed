//! Alpha-beta with expectiminimax at chance nodes: the Rust twin of the Python `alphabeta` bot
//! (`boneyard/ai/alphabeta.py`), over any native game.
//!
//! * **Values** are the Python bot's, from the searching seat's side: a won end is worth `WIN`
//!   more than its value in `[0, 1]` (`ai/values.py`'s `values_from_returns`), a lost one `WIN`
//!   less, a win sooner and a loss later by `1e-3` a ply; an unfinished leaf is the game's
//!   heuristic (`Rules::heuristic`) squashed into `[0, 1]` by a tanh a tenth of the utility range
//!   wide (`SquashedHeuristicEvaluator`). A game without a ported heuristic scores such a leaf
//!   0.5 (unknown).
//! * **Players**: the searching seat maximises, every other seat minimises its value. With two
//!   players that is negamax written as max and min; with more it is the *paranoid* search (the
//!   others play as one coalition against the searcher), as the Python bot searches, so both give
//!   the same value at a fixed depth. (Max-n prunes far less, and paranoid is what the levels
//!   were measured with.)
//! * **Chance nodes** (OYNO's wild rolls) are averaged over their outcomes, each searched with a
//!   full window, and cost no depth (as in Python).
//! * **Hidden information**: a game that hides something is searched on one resample of the
//!   searching seat's view (`Rules::resample`), as the Python bot does, never on the true state.
//! * **Transposition table**: keyed by the game's `Rules::transposition_key` (a hash of the
//!   fields the rest of the game depends on: exact but for a 64-bit collision) mixed with the ply,
//!   as Python keys on the move number; a fixed number of slots, the deeper search kept.
//! * **Iterative deepening** to the depth asked (`options.depth` or `iterations`) or until the
//!   time limit (checked every few hundred nodes); the deepest finished iteration answers, or a
//!   move that the unfinished one proved better than the previous best. It stops early where a
//!   forced result is known (as in Python) or where no leaf was cut by the depth (deeper is the
//!   same tree).
//! * **Move ordering**: the root's moves in the previous iteration's order (a seeded shuffle
//!   first: the seed breaks ties between equal moves), inside the tree the table's move first,
//!   then the ply's two killer moves, then by the history heuristic.
//!
//! * **Threat extension** (option `threat_plies`, 0 by default: the Python bot's search): at a
//!   leaf where the position is forcing (`Rules::forcing_moves`: the mover can win at once, or
//!   must parry an immediate win), the search goes on through those few moves alone, up to
//!   `threat_plies` plies past the depth, as a chess engine extends checks. A threat and its
//!   parry then cost the depth one ply, not two, and a win forced by threats is seen as a win,
//!   not as a heuristic's guess; the value is no longer the Python bot's.
//!
//! Options (a JSON object): `depth` (1 to `MOST_DEPTH`: an exact fixed-depth search), `moves`
//! (the root moves to consider, as UCI's `searchmoves`: the value of one move alone), `avoid`
//! (root moves played only when better by more than `REPEAT_MARGIN`: a hint's repetitions),
//! `threat_plies` (0 to `MOST_DEPTH`: the threat extension above), `forcing_cuts` (a forcing
//! node two or more plies from the leaves searches its forcing moves alone: the same value,
//! fewer nodes).

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::Value;

use super::{known_options, SearchOutcome, SearchRequest};
use crate::core::{mix64, Action, EngineError, Played, Rules, CHANCE, TERMINAL};

/// The search's name in `search::run`.
pub const NAME: &str = "alphabeta";
/// A won end is worth `WIN` more than any heuristic value (a lost one `WIN` less).
pub const WIN: f64 = 10.0;
/// What a ply costs a win (and gains a loss): sooner wins, later losses.
const PLY_COST: f64 = 1e-3;
/// `ai/values.py`'s `OUTCOME_WEIGHT`: how much of an end's value is who beat whom.
const OUTCOME_WEIGHT: f64 = 0.8;
/// `ai/repetition.py`'s `REPEAT_MARGIN`: how much better a move to avoid must be.
pub const REPEAT_MARGIN: f64 = 0.01;
/// The deepest search asked for or reached.
pub const MOST_DEPTH: u32 = 64;
/// How many nodes pass between two looks at the clock.
const CLOCK_EVERY: u64 = 128;
/// The options this search reads.
const OPTIONS: &[&str] = &["avoid", "depth", "forcing_cuts", "moves", "threat_plies"];

/// The search's options, read and checked.
#[derive(Debug, Clone, PartialEq)]
struct Options {
    depth: Option<u32>,
    moves: Option<Vec<Action>>,
    avoid: Vec<Action>,
    threat_plies: u32,
    forcing_cuts: bool,
}

fn bad(message: String) -> EngineError {
    EngineError::InvalidParameter(format!("alphabeta: {message}"))
}

/// A list of root actions for option `name`, each legal at the root.
fn read_actions(name: &str, value: &Value, legal: &[Action]) -> Result<Vec<Action>, EngineError> {
    let Some(items) = value.as_array() else {
        return Err(bad(format!(
            "option {name:?} is a list of legal action ids, not {value}"
        )));
    };
    let mut actions = Vec::with_capacity(items.len());
    for item in items {
        let action = item
            .as_u64()
            .and_then(|a| Action::try_from(a).ok())
            .filter(|a| legal.contains(a));
        match action {
            Some(a) if !actions.contains(&a) => actions.push(a),
            Some(a) => return Err(bad(format!("option {name:?} names action {a} twice"))),
            None => {
                return Err(bad(format!(
                    "option {name:?}: {item} is not a legal action here; legal: {legal:?}"
                )))
            }
        }
    }
    Ok(actions)
}

fn read_options(value: &Value, legal: &[Action]) -> Result<Options, EngineError> {
    let map = known_options(value, OPTIONS).map_err(bad)?;
    let depth = match map.get("depth") {
        None => None,
        Some(value) => match value.as_u64() {
            Some(d) if (1..=u64::from(MOST_DEPTH)).contains(&d) => Some(d as u32),
            _ => {
                return Err(bad(format!(
                "option \"depth\" is a whole number of plies from 1 to {MOST_DEPTH}, not {value}"
            )))
            }
        },
    };
    let moves = match map.get("moves") {
        None => None,
        Some(value) => {
            let moves = read_actions("moves", value, legal)?;
            if moves.is_empty() {
                return Err(bad("option \"moves\" names no move".to_string()));
            }
            Some(moves)
        }
    };
    let avoid = match map.get("avoid") {
        None => Vec::new(),
        Some(value) => read_actions("avoid", value, legal)?,
    };
    let threat_plies = match map.get("threat_plies") {
        None => 0,
        Some(value) => match value.as_u64() {
            Some(plies) if plies <= u64::from(MOST_DEPTH) => plies as u32,
            _ => {
                return Err(bad(format!(
                    "option \"threat_plies\" is a whole number of plies from 0 to {MOST_DEPTH}, \
                     not {value}"
                )))
            }
        },
    };
    let forcing_cuts = match map.get("forcing_cuts") {
        None => false,
        Some(Value::Bool(on)) => *on,
        Some(value) => {
            return Err(bad(format!(
                "option \"forcing_cuts\" is true or false, not {value}"
            )))
        }
    };
    Ok(Options {
        depth,
        moves,
        avoid,
        threat_plies,
        forcing_cuts,
    })
}

/// What a table entry's value is: exact, or a bound the search proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// What a probe of the table tells a node.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Probe {
    /// A value that settles the node, if the table holds one.
    settled: Option<f64>,
    alpha: f64,
    beta: f64,
    /// The move to search first.
    first: Option<Action>,
}

const NO_MOVE: Action = Action::MAX;

/// The transposition table: a power of two of slots, each position in the slot its key picks;
/// a new result replaces an old one of another position unless that was searched deeper.
///
/// A slot is three words, all zero when empty (the key is never 0), so that a large table is
/// handed out by the allocator as zeroed pages, not written slot by slot before the search
/// starts: `[key, value's bits, best move | depth << 32 | bound << 40]`.
struct Table {
    slots: Vec<[u64; 3]>,
    mask: usize,
}

fn bound_code(bound: Bound) -> u64 {
    match bound {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    }
}

fn bound_of(code: u64) -> Bound {
    match code {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    }
}

impl Table {
    fn new(slots_log2: u32) -> Table {
        let slots = 1usize << slots_log2;
        Table {
            slots: vec![[0u64; 3]; slots],
            mask: slots - 1,
        }
    }

    fn probe(&self, key: u64, depth: u32, mut alpha: f64, mut beta: f64) -> Probe {
        let [stored_key, value_bits, packed] = self.slots[key as usize & self.mask];
        if stored_key != key {
            return Probe {
                settled: None,
                alpha,
                beta,
                first: None,
            };
        }
        let value = f64::from_bits(value_bits);
        let best = packed as u32;
        let stored_depth = (packed >> 32) as u8 as u32;
        let first = (best != NO_MOVE).then_some(best);
        let mut settled = None;
        if stored_depth >= depth {
            match bound_of(packed >> 40) {
                Bound::Exact => settled = Some(value),
                Bound::Lower => alpha = alpha.max(value),
                Bound::Upper => beta = beta.min(value),
            }
            if settled.is_none() && alpha >= beta {
                settled = Some(value);
            }
        }
        Probe {
            settled,
            alpha,
            beta,
            first,
        }
    }

    /// `value` of `key` searched `depth` deep in the window (`alpha`, `beta`): exact inside it,
    /// else the bound it proves.
    fn store(&mut self, key: u64, depth: u32, value: f64, best: Action, alpha: f64, beta: f64) {
        let slot = &mut self.slots[key as usize & self.mask];
        let stored_depth = (slot[2] >> 32) as u8 as u32;
        if slot[0] != key && slot[0] != 0 && stored_depth > depth {
            return;
        }
        let bound = if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let packed = u64::from(best) | u64::from(depth.min(255)) << 32 | bound_code(bound) << 40;
        *slot = [key, value.to_bits(), packed];
    }
}

/// The table key of a position `ply` plies below the root.
fn table_key(position: u64, ply: u32) -> u64 {
    let key = mix64(position ^ mix64(u64::from(ply).wrapping_add(0x9e37_79b9_7f4a_7c15)));
    key.max(1)
}

/// The time ran out inside an iteration.
struct OutOfTime;

/// Killer moves and history scores: moves that cut elsewhere are tried early.
struct Ordering {
    killers: Vec<[Action; 2]>,
    /// `history[action * players + player]`.
    history: Vec<u64>,
    players: usize,
}

impl Ordering {
    fn new(players: usize) -> Ordering {
        Ordering {
            killers: Vec::new(),
            history: Vec::new(),
            players,
        }
    }

    fn score(&self, player: usize, action: Action) -> u64 {
        self.history
            .get(action as usize * self.players + player)
            .copied()
            .unwrap_or(0)
    }

    /// The table's move first, then the ply's killers, then by history score (a stable sort:
    /// equal scores keep the game's order).
    fn order(&self, actions: &mut [Action], player: usize, first: Option<Action>, ply: u32) {
        if !self.history.is_empty() {
            actions.sort_by_key(|&a| std::cmp::Reverse(self.score(player, a)));
        }
        let mut front: Vec<Action> = Vec::with_capacity(3);
        front.extend(first);
        if let Some(killers) = self.killers.get(ply as usize) {
            front.extend(
                killers
                    .iter()
                    .copied()
                    .filter(|&k| k != NO_MOVE && Some(k) != first),
            );
        }
        for &action in front.iter().rev() {
            if let Some(at) = actions.iter().position(|&a| a == action) {
                actions[..=at].rotate_right(1);
            }
        }
    }

    fn remember_killer(&mut self, action: Action, ply: u32) {
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [NO_MOVE; 2]);
        }
        let killers = &mut self.killers[ply];
        if !killers.contains(&action) {
            killers[1] = killers[0];
            killers[0] = action;
        }
    }

    fn remember_cutoff(&mut self, action: Action, player: usize, depth: u32, ply: u32) {
        self.remember_killer(action, ply);
        let index = action as usize * self.players + player;
        if self.history.len() <= index {
            self.history.resize(index + 1, 0);
        }
        self.history[index] += u64::from(depth) * u64::from(depth);
    }
}

/// One search from one root.
struct Searcher {
    seat: usize,
    low: f64,
    high: f64,
    softness: f64,
    deadline: Option<Instant>,
    nodes: u64,
    /// Whether a leaf of this iteration was cut by the depth (not an end of the game).
    cut: bool,
    /// How many plies past the depth the threat extension may go, and how many it has gone
    /// on the current line.
    threat_plies: u32,
    extended: u32,
    /// Whether a forcing node with two or more plies to go searches its forcing moves alone.
    forcing_cuts: bool,
    table: Table,
    ordering: Ordering,
}

impl Searcher {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `values_from_returns(game, returns)[seat]`.
    fn end_value(&self, returns: &[f64]) -> f64 {
        let mine = returns[self.seat];
        let scaled = if self.high <= self.low {
            0.5
        } else {
            ((mine - self.low) / (self.high - self.low)).clamp(0.0, 1.0)
        };
        if returns.len() == 1 {
            return scaled;
        }
        let beaten: f64 = returns
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != self.seat)
            .map(|(_, &theirs)| {
                if mine > theirs {
                    1.0
                } else if mine == theirs {
                    0.5
                } else {
                    0.0
                }
            })
            .sum();
        let outcome = beaten / (returns.len() - 1) as f64;
        OUTCOME_WEIGHT * outcome + (1.0 - OUTCOME_WEIGHT) * scaled
    }

    /// The Python bot's `_value`: an end by who won, then by how much; a leaf by the heuristic.
    fn value<R: Rules>(&mut self, state: &R, ply: u32) -> f64 {
        if state.current_player() == TERMINAL {
            let returns = state.returns();
            let value = self.end_value(&returns);
            let mine = returns[self.seat];
            let best_other = super::best_other_return(&returns, self.seat);
            let penalty = f64::from(ply) * PLY_COST;
            if returns.len() > 1 {
                if mine > best_other {
                    return WIN + value - penalty;
                }
                if mine < best_other {
                    return -WIN + value + penalty;
                }
                return value;
            }
            if mine >= self.high {
                return WIN + value - penalty;
            }
            return value;
        }
        self.cut = true;
        match state.heuristic(self.seat) {
            Some(estimate) => 0.5 + 0.5 * (estimate / self.softness).tanh(),
            None => 0.5,
        }
    }

    fn search<R: Rules>(
        &mut self,
        state: &R,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        ply: u32,
    ) -> Result<f64, OutOfTime> {
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 0 && self.out_of_time() {
            return Err(OutOfTime);
        }
        let player = state.current_player();
        if player == TERMINAL {
            return Ok(self.value(state, ply));
        }
        if depth == 0 {
            if player >= 0 && self.extended < self.threat_plies {
                if let Some(moves) = state.forcing_moves() {
                    return self.extend(state, &moves, alpha, beta, ply);
                }
            }
            return Ok(self.value(state, ply));
        }
        if player == CHANCE {
            let mut total = 0.0;
            for (outcome, probability) in state.chance_outcomes() {
                let mut child = state.clone();
                child.apply_action(outcome);
                total += probability
                    * self.search(&child, depth, f64::NEG_INFINITY, f64::INFINITY, ply + 1)?;
            }
            return Ok(total);
        }
        let player = player as usize;
        let maximizing = player == self.seat;
        let key = state.transposition_key().map(|k| table_key(k, ply));
        let mut first = None;
        if let Some(key) = key {
            let probe = self.table.probe(key, depth, alpha, beta);
            if let Some(value) = probe.settled {
                return Ok(value);
            }
            (alpha, beta, first) = (probe.alpha, probe.beta, probe.first);
        }
        // Two plies or more from the leaves, a forcing position's few moves give the value of all
        // of them (`Rules::forcing_moves`): a move that neither wins at once nor parries loses
        // to the reply one ply down, which the search then sees. One ply from the leaves it
        // would not (the reply is beyond the depth), so there every move is searched.
        let forcing = if self.forcing_cuts && depth >= 2 {
            state.forcing_moves()
        } else {
            None
        };
        let mut actions = forcing.unwrap_or_else(|| state.legal_actions());
        self.ordering.order(&mut actions, player, first, ply);
        let (original_alpha, original_beta) = (alpha, beta);
        let mut best_value = if maximizing {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_action = actions[0];
        let mut cutoff = false;
        for &action in &actions {
            let mut child = state.clone();
            child.apply_action(action);
            let value = self.search(&child, depth - 1, alpha, beta, ply + 1)?;
            if (maximizing && value > best_value) || (!maximizing && value < best_value) {
                best_value = value;
                best_action = action;
            }
            if maximizing {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta {
                self.ordering.remember_cutoff(action, player, depth, ply);
                cutoff = true;
                break;
            }
        }
        if !cutoff {
            // The best move here is still the likeliest refutation in sibling nodes.
            self.ordering.remember_killer(best_action, ply);
        }
        if let Some(key) = key {
            self.table.store(
                key,
                depth,
                best_value,
                best_action,
                original_alpha,
                original_beta,
            );
        }
        Ok(best_value)
    }

    /// A forcing leaf searched on through its forcing `moves` alone (the threat extension): no
    /// table, no ordering, every child again a leaf unless it is forcing too.
    fn extend<R: Rules>(
        &mut self,
        state: &R,
        moves: &[Action],
        mut alpha: f64,
        mut beta: f64,
        ply: u32,
    ) -> Result<f64, OutOfTime> {
        let maximizing = state.current_player() as usize == self.seat;
        let mut best = if maximizing {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        self.extended += 1;
        for &action in moves {
            let mut child = state.clone();
            child.apply_action(action);
            let value = match self.search(&child, 0, alpha, beta, ply + 1) {
                Ok(value) => value,
                Err(out) => {
                    self.extended -= 1;
                    return Err(out);
                }
            };
            if maximizing {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        self.extended -= 1;
        Ok(best)
    }

    /// Every root move's score at `depth` (`scores` filled as they finish), in `order`.
    fn root_scores<R: Rules>(
        &mut self,
        root: &R,
        order: &[Action],
        avoid: &[Action],
        depth: u32,
        scores: &mut Vec<(Action, f64)>,
        visits: &mut [u64],
    ) -> Result<(), OutOfTime> {
        let mut alpha = f64::NEG_INFINITY;
        for (index, &action) in order.iter().enumerate() {
            let mut child = root.clone();
            child.apply_action(action);
            let before = self.nodes;
            let searched = self.search(&child, depth - 1, alpha, f64::INFINITY, 1);
            visits[index] += self.nodes - before;
            let mut value = searched?;
            if avoid.contains(&action) {
                // Counted down by the margin, a move to avoid wins only by more than it; the
                // window stays the raw alpha, so every other move within the margin is exact.
                value -= REPEAT_MARGIN;
            }
            scores.push((action, value));
            alpha = alpha.max(value);
        }
        Ok(())
    }
}

/// The highest score and the first move in `order` that has it.
fn best_of(scores: &[(Action, f64)]) -> (Action, f64) {
    let mut best = scores[0];
    for &(action, value) in &scores[1..] {
        if value > best.1 {
            best = (action, value);
        }
    }
    best
}

/// Search `state` (a player's turn) as `request` asks.
pub fn search<R: Rules>(
    state: &Played<R>,
    request: &SearchRequest,
) -> Result<SearchOutcome, EngineError> {
    let started = Instant::now();
    let player = state.rules.current_player();
    if player < 0 {
        return Err(EngineError::InvalidState(format!(
            "alphabeta searches a player's turn, not {}",
            if player == TERMINAL {
                "the end of the game"
            } else {
                "a chance node"
            }
        )));
    }
    let seat = player as usize;
    let legal = state.rules.legal_actions();
    let options = read_options(&request.options, &legal)?;
    let depth_limit = match (options.depth, request.iterations) {
        (Some(_), Some(_)) => {
            return Err(bad(
                "give the depth once: option \"depth\" or iterations, not both".to_string(),
            ))
        }
        (Some(d), None) => Some(d),
        (None, Some(i)) if (1..=u64::from(MOST_DEPTH)).contains(&i) => Some(i as u32),
        (None, Some(i)) => {
            return Err(bad(format!(
                "iterations are the depth in plies, 1 to {MOST_DEPTH}, not {i}"
            )))
        }
        (None, None) => None,
    };
    if depth_limit.is_none() && request.time_limit_ms.is_none() {
        return Err(bad(
            "a search needs a budget: option \"depth\", iterations, or a time limit".to_string(),
        ));
    }
    if request.time_limit_ms == Some(0) {
        return Err(bad("the time limit is at least 1 ms".to_string()));
    }
    let Some((low, high)) = state.rules.utility_range() else {
        return Err(EngineError::NotSupported(format!(
            "alphabeta needs the utility range of {}, which its native engine does not state yet",
            R::NAME
        )));
    };
    let mut rng = SmallRng::seed_from_u64(request.seed);
    let root = if R::HIDDEN_INFORMATION {
        state.rules.resample(seat, &mut rng)?
    } else {
        state.rules.clone()
    };
    let mut order = options.moves.clone().unwrap_or(legal);
    order.shuffle(&mut rng);
    let deadline = request
        .time_limit_ms
        .map(|ms| started + Duration::from_millis(ms));
    let mut searcher = Searcher {
        seat,
        low,
        high,
        softness: (0.1 * (high - low)).max(1e-9),
        deadline,
        nodes: 0,
        cut: false,
        threat_plies: options.threat_plies,
        extended: 0,
        forcing_cuts: options.forcing_cuts,
        // A timed search may visit millions of nodes; a fixed-depth one far fewer.
        table: Table::new(if deadline.is_some() { 20 } else { 16 }),
        ordering: Ordering::new(root.num_players()),
    };
    let mut visits = vec![0u64; order.len()];
    let mut best = order[0];
    let mut value = f64::NAN;
    let mut finished = 0;
    // A lone move needs no search unless its value is asked for at a fixed depth.
    let search_alone = options.depth.is_some() || request.iterations.is_some();
    if order.len() > 1 || search_alone {
        let most = depth_limit.unwrap_or(MOST_DEPTH);
        for depth in 1..=most {
            searcher.cut = false;
            let mut scores = Vec::with_capacity(order.len());
            let done = searcher.root_scores(
                &root,
                &order,
                &options.avoid,
                depth,
                &mut scores,
                &mut visits,
            );
            if done.is_err() {
                // The unfinished iteration searched the previous best move first; any move it
                // proved better at this depth is better, so it is used.
                if let Some(&(_, first)) = scores.first() {
                    let (action, top) = best_of(&scores);
                    if top > first {
                        best = action;
                    }
                }
                break;
            }
            let (action, top) = best_of(&scores);
            best = action;
            value = top;
            finished = depth;
            // The next iteration searches the best first (a stable sort keeps ties in order).
            let mut ranked: Vec<(usize, Action, f64)> = scores
                .iter()
                .enumerate()
                .map(|(i, &(a, v))| (i, a, v))
                .collect();
            ranked.sort_by(|x, y| y.2.total_cmp(&x.2).then(x.0.cmp(&y.0)));
            let old_visits: Vec<(Action, u64)> =
                order.iter().copied().zip(visits.iter().copied()).collect();
            order = ranked.iter().map(|&(_, a, _)| a).collect();
            visits = order
                .iter()
                .map(|a| old_visits.iter().find(|(b, _)| b == a).map_or(0, |v| v.1))
                .collect();
            if top.abs() > WIN / 2.0 || !searcher.cut || searcher.out_of_time() {
                break; // a forced result is known, the tree is whole, or the time is up
            }
        }
    }
    let players = root.num_players();
    let values = (0..players)
        .map(|s| {
            if s == seat {
                value
            } else {
                (1.0 - value) / (players - 1) as f64
            }
        })
        .collect();
    Ok(SearchOutcome {
        action: best,
        values,
        visits: order.into_iter().zip(visits).collect(),
        iterations: u64::from(finished),
        elapsed_ms: started.elapsed().as_millis() as u64,
        action_values: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_settles_an_exact_value_only_as_deep_as_it_was_searched() {
        let mut table = Table::new(4);
        let key = table_key(42, 3);
        table.store(key, 3, 0.6, 7, 0.0, 1.0);
        let deep_enough = table.probe(key, 3, 0.0, 1.0);
        assert_eq!(deep_enough.settled, Some(0.6));
        assert_eq!(deep_enough.first, Some(7));
        let deeper = table.probe(key, 4, 0.0, 1.0);
        assert_eq!(deeper.settled, None);
        assert_eq!(
            deeper.first,
            Some(7),
            "the move still leads a deeper search"
        );
        let other = table.probe(table_key(43, 3), 1, 0.0, 1.0);
        assert_eq!((other.settled, other.first), (None, None));
    }

    #[test]
    fn the_table_narrows_the_window_by_a_bound() {
        let mut table = Table::new(4);
        let key = table_key(9, 1);
        // searched in (0.5, 1.0), the value 0.4 is only an upper bound
        table.store(key, 2, 0.4, 1, 0.5, 1.0);
        let probe = table.probe(key, 2, 0.0, 1.0);
        assert_eq!((probe.settled, probe.alpha, probe.beta), (None, 0.0, 0.4));
        // a window above the bound is settled by it
        let above = table.probe(key, 2, 0.45, 1.0);
        assert_eq!(above.settled, Some(0.4));
        // searched in (0.0, 0.3), the value 0.7 is a lower bound
        table.store(key, 2, 0.7, 1, 0.0, 0.3);
        let lower = table.probe(key, 2, 0.0, 1.0);
        assert_eq!((lower.settled, lower.alpha), (None, 0.7));
    }

    #[test]
    fn a_deeper_entry_of_another_position_is_kept() {
        let mut table = Table::new(0); // one slot: every key collides
        let (deep, shallow) = (table_key(1, 0), table_key(2, 0));
        table.store(deep, 5, 0.9, 3, 0.0, 1.0);
        table.store(shallow, 2, 0.1, 4, 0.0, 1.0);
        assert_eq!(table.probe(deep, 5, 0.0, 1.0).settled, Some(0.9));
        assert_eq!(table.probe(shallow, 2, 0.0, 1.0).settled, None);
        table.store(shallow, 6, 0.2, 4, 0.0, 1.0);
        assert_eq!(table.probe(shallow, 6, 0.0, 1.0).settled, Some(0.2));
    }

    #[test]
    fn keys_differ_by_ply_and_are_never_empty() {
        assert_ne!(table_key(5, 1), table_key(5, 2));
        assert_ne!(table_key(5, 1), 0);
    }

    #[test]
    fn ordering_puts_the_table_move_then_killers_then_history_first() {
        let mut ordering = Ordering::new(2);
        ordering.remember_cutoff(4, 0, 3, 1); // history 9 for (0, 4), killer at ply 1
        ordering.remember_cutoff(2, 0, 1, 5); // history 1 for (0, 2), killer at ply 5
        let mut actions = vec![1, 2, 3, 4, 5];
        ordering.order(&mut actions, 0, None, 0);
        assert_eq!(
            actions,
            vec![4, 2, 1, 3, 5],
            "by history, ties in the game's order"
        );
        let mut actions = vec![1, 2, 3, 4, 5];
        ordering.order(&mut actions, 0, Some(5), 5);
        assert_eq!(
            actions,
            vec![5, 2, 4, 1, 3],
            "table move, killer, then history"
        );
        let mut actions = vec![1, 2, 3, 4, 5];
        ordering.order(&mut actions, 1, None, 9);
        assert_eq!(
            actions,
            vec![1, 2, 3, 4, 5],
            "another player's history is its own"
        );
    }

    #[test]
    fn killers_keep_the_two_latest_distinct_moves() {
        let mut ordering = Ordering::new(1);
        for action in [1, 2, 2, 3] {
            ordering.remember_killer(action, 0);
        }
        assert_eq!(ordering.killers[0], [3, 2]);
    }

    #[test]
    fn options_are_checked() {
        let legal = [3, 5, 8];
        let read = |text: &str| read_options(&serde_json::from_str(text).unwrap(), &legal);
        assert_eq!(
            read(r#"{"depth": 2, "moves": [5, 3]}"#).unwrap(),
            Options {
                depth: Some(2),
                moves: Some(vec![5, 3]),
                avoid: vec![],
                threat_plies: 0,
                forcing_cuts: false,
            }
        );
        let message = |text: &str| read(text).unwrap_err().message().to_string();
        assert!(message(r#"{"dpth": 2}"#).contains(
            "no option dpth; its options: avoid, depth, forcing_cuts, moves, threat_plies"
        ));
        assert!(message(r#"{"forcing_cuts": 1}"#).contains("true or false, not 1"));
        assert!(message(r#"{"depth": 0}"#).contains("1 to 64, not 0"));
        assert!(message(r#"{"depth": "3"}"#).contains("not \"3\""));
        assert!(message(r#"{"moves": [4]}"#).contains("4 is not a legal action here"));
        assert!(message(r#"{"moves": []}"#).contains("names no move"));
        assert!(message(r#"[1]"#).contains("a JSON object"));
        assert!(message(r#"{"threat_plies": -1}"#).contains("from 0 to 64, not -1"));
        assert_eq!(
            read(r#"{"threat_plies": 6}"#).unwrap().threat_plies,
            6,
            "the threat extension's plies are read"
        );
    }
}
