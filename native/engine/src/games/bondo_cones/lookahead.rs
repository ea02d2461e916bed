//! Bond O Cones' own lookahead, the twin of `boneyard/games/bondo_cones/search.py` (the
//! `lookahead` bot's `Game.lookahead_values`), and a deeper search on the same model.
//!
//! The model is `search.py`'s: a `Position` is one seat's picture of the board built from what
//! it sees alone (`seen_cones`): its own cones at their values, the opponent's at the value it
//! has seen (captured or spied), else at the mean of the values it has not seen, with the chance
//! that such a cone is worth enough to win. At depth 0 the search is `search.py`'s three plies,
//! value for value (tests/native/test_lookahead.py holds them to each other):
//!
//! 1. each own action (the best `width` at a glance searched in full);
//! 2. every roll of the opponent (the eye and the ring change no square), and for each its
//!    one-ply answer: the most it wins minus what the seat could capture back, equal answers
//!    averaged;
//! 3. the seat's next roll, scored at the leaf (`leaf_value`).
//!
//! Each depth above 0 puts one more pair of turns between the opponent's answer and the leaf:
//! the seat's next roll (six faces) and its best move among the `move_width` best at a glance,
//! then the opponent's roll and its answer, now the worst for the seat among its `reply_width`
//! best one-ply answers (a minimising opponent, where depth 0 models a one-ply one). The search
//! deepens one depth at a time within the time limit; the deepest finished depth answers, or the
//! best move of an unfinished one where it finished the previous best (searched first).
//!
//! No random numbers go into the values: the seed only breaks ties between equal moves. Nothing
//! but `seen_cones(state, Viewer::Seat(seat))` and the public record is read, so two states that
//! the seat cannot tell apart get the same values.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::Value;

use super::board::{
    ball, bondo_destinations, squares_of, Bits, ConeBoards, HEIGHT, SQUARES, WIDTH,
};
use super::heuristic::RING_WORTH;
use super::notation as nt;
use super::observation::{seen_cones, Viewer};
use super::rules::{BondoConesRules, Phase, VALUES};
use crate::core::{Action, EngineError, PositionHasher, Rules};
use crate::search::{known_options, whole_option, SearchOutcome, SearchRequest};

/// The search's name in `search::run`.
pub const NAME: &str = "lookahead";
/// Points a won game is worth over any count of points, in the search's eyes.
pub const WIN: f64 = 40.0;
/// How much of the expected best capture of the seat's next roll counts at a leaf.
const THREAT_WEIGHT: f64 = 0.8;
/// How much of the opponent's expected best capture counts at a leaf (the seat moves first).
const EXPOSURE_WEIGHT: f64 = 0.5;
/// Points a leaf loses for each point of value the seat's ring cones carry.
const RING_BEARER: f64 = 0.25;
/// Share of the time limit after which depth 0 starts no further action's search.
const SOFT_SHARE: f64 = 0.7;
/// The most equally good opponent answers whose leaves are averaged (spread over the list).
const MAX_TIED: usize = 4;
/// Die faces (eye, ring) on which a side moves no cone.
const QUIET_ROLLS: f64 = 2.0;
/// The least a depth is taken to cost over the one below it, when the time limit decides
/// whether to start it (measured: some hundred times).
const MIN_GROWTH: f64 = 4.0;
/// The deepest search asked for or reached.
pub const MOST_DEPTH: u32 = 8;
/// The options this search reads.
const OPTIONS: &[&str] = &["depth", "width", "move_width", "reply_width"];

/// Seat 0's start fields from the most sheltered to the most exposed, in mirror pairs (seat 1
/// uses the same files on the mirrored ranks): the set-up fills them in value order.
const SAFETY_ORDER: [[&str; 2]; 13] = [
    ["e1", "f1"],
    ["d1", "g1"],
    ["c1", "h1"],
    ["e2", "f2"],
    ["d2", "g2"],
    ["b1", "i1"],
    ["c2", "h2"],
    ["a1", "j1"],
    ["b2", "i2"],
    ["e3", "f3"],
    ["d3", "g3"],
    ["c3", "h3"],
    ["d4", "g4"],
];

/// The search's options, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// A fixed depth (0: `search.py`'s three plies); `None`: deepen until the time runs out
    /// (depth 0 without a time limit).
    pub depth: Option<u32>,
    /// How many of the seat's root actions (the best at a glance) are searched in full.
    pub width: usize,
    /// How many of the seat's moves (the best at a glance) a deeper turn searches.
    pub move_width: usize,
    /// How many of the opponent's best one-ply answers a deeper turn weighs.
    pub reply_width: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            depth: None,
            width: 10,
            move_width: 4,
            reply_width: 3,
        }
    }
}

fn bad(message: String) -> EngineError {
    EngineError::InvalidParameter(format!("lookahead: {message}"))
}

/// The options of `value` (a JSON object or null), every key known and every value in range.
pub fn read_options(value: &Value) -> Result<Options, EngineError> {
    let map = known_options(value, OPTIONS).map_err(bad)?;
    let defaults = Options::default();
    let depth = match map.get("depth") {
        None => None,
        Some(value) => match value.as_u64() {
            Some(d) if d <= u64::from(MOST_DEPTH) => Some(d as u32),
            _ => {
                return Err(bad(format!(
                    "option \"depth\" is a whole number from 0 to {MOST_DEPTH}, not {value}"
                )))
            }
        },
    };
    Ok(Options {
        depth,
        width: whole_option(map, "width", 1..=100, defaults.width as u64).map_err(bad)? as usize,
        move_width: whole_option(map, "move_width", 1..=100, defaults.move_width as u64)
            .map_err(bad)? as usize,
        reply_width: whole_option(map, "reply_width", 1..=100, defaults.reply_width as u64)
            .map_err(bad)? as usize,
    })
}

/// One seat's picture of the board (`search.Position`): where the cones stand, what each is
/// worth to the seat (`worth`) and in the opponent's eyes (`their_view`, own cones only), which
/// opponent cones the seat does not know (`hidden`), and the points each side captured.
#[derive(Clone, Debug)]
pub struct Position {
    boards: ConeBoards,
    worth: [f64; SQUARES],
    their_view: [f64; SQUARES],
    hidden: Bits,
    scores: [f64; 2],
}

/// The values of a side not among `captured` (each captured value taken once).
fn values_left(captured: &[u8]) -> Vec<u8> {
    let mut left = VALUES.to_vec();
    for &value in captured {
        remove_value(&mut left, value);
    }
    left
}

/// One `value` off `values` (`list.remove`), where it is there.
fn remove_value(values: &mut Vec<u8>, value: u8) {
    if let Some(index) = values.iter().position(|&v| v == value) {
        values.remove(index);
    }
}

fn mean(values: &[u8]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len() as f64
    }
}

impl Position {
    /// `Position.from_observation(state.observation(me))`, read from what `me` sees; with the
    /// opponent's values `me` has not seen (for the chance that an unknown cone wins).
    fn from_state(state: &BondoConesRules, me: usize) -> (Position, Vec<u8>) {
        let mut position = Position {
            boards: ConeBoards::default(),
            worth: [0.0; SQUARES],
            their_view: [0.0; SQUARES],
            hidden: 0,
            scores: [f64::from(state.scores[0]), f64::from(state.scores[1])],
        };
        let mut unseen = values_left(&state.captured[me]);
        let mut mine_unseen_by_them = values_left(&state.captured[1 - me]);
        let cones: Vec<_> = seen_cones(state, Viewer::Seat(me)).collect();
        for cone in &cones {
            position.boards.put_cone(cone.seat, cone.square, cone.rings);
            if cone.seat == me {
                let value = cone.value.unwrap_or(0);
                position.worth[cone.square] = f64::from(value);
                if cone.spied {
                    remove_value(&mut mine_unseen_by_them, value);
                }
            } else if let Some(value) = cone.value {
                remove_value(&mut unseen, value);
                position.worth[cone.square] = f64::from(value);
            } else {
                position.hidden |= 1 << cone.square;
            }
        }
        let hidden_mean = mean(&unseen);
        let mine_mean = mean(&mine_unseen_by_them);
        for cone in &cones {
            if position.hidden >> cone.square & 1 != 0 {
                position.worth[cone.square] = hidden_mean;
            } else if cone.seat == me {
                position.their_view[cone.square] = if cone.spied {
                    position.worth[cone.square]
                } else {
                    mine_mean
                };
            }
        }
        (position, unseen)
    }

    fn rings_held(&self, seat: usize) -> f64 {
        f64::from(self.boards.ringed[seat].count_ones() + self.boards.double[seat].count_ones())
    }

    /// `apply_move`: `seat`'s cone from `origin` to `target` (a capture scores its worth).
    fn apply_move(&mut self, seat: usize, origin: usize, target: usize) {
        let t_bit: Bits = 1 << target;
        if self.boards.move_cone(seat, origin, target) {
            self.scores[seat] += self.worth[target];
            self.hidden &= !t_bit;
        }
        if self.hidden >> origin & 1 != 0 {
            self.hidden ^= 1 << origin | t_bit;
        }
        self.worth[target] = self.worth[origin];
        self.worth[origin] = 0.0;
        self.their_view[target] = self.their_view[origin];
        self.their_view[origin] = 0.0;
    }

    /// `apply_move`, with what `undo` needs to take it back (a search tries every reply on
    /// one copy instead of copying the position for each).
    fn apply_undoable(&mut self, seat: usize, origin: usize, target: usize) -> Undo {
        let undo = Undo {
            boards: self.boards.clone(),
            hidden: self.hidden,
            scores: self.scores,
            origin,
            target,
            worth: [self.worth[origin], self.worth[target]],
            their_view: [self.their_view[origin], self.their_view[target]],
        };
        self.apply_move(seat, origin, target);
        undo
    }

    fn undo(&mut self, undo: Undo) {
        self.boards = undo.boards;
        self.hidden = undo.hidden;
        self.scores = undo.scores;
        self.worth[undo.origin] = undo.worth[0];
        self.worth[undo.target] = undo.worth[1];
        self.their_view[undo.origin] = undo.their_view[0];
        self.their_view[undo.target] = undo.their_view[1];
    }

    fn moved(&self, seat: usize, origin: usize, target: usize) -> Position {
        let mut child = self.clone();
        child.apply_move(seat, origin, target);
        child
    }
}

/// `(origin, target)` of a move id (`origin * 120 + target`).
fn split(action: Action) -> (usize, usize) {
    (action as usize / SQUARES, action as usize % SQUARES)
}

/// What a move changed, to take it back.
struct Undo {
    boards: ConeBoards,
    hidden: Bits,
    scores: [f64; 2],
    origin: usize,
    target: usize,
    worth: [f64; 2],
    their_view: [f64; 2],
}

/// The time limit passed in the middle of an action's search.
struct OutOfTime;

/// A child of the seat's own action: the position after it and the chance it wins at once.
struct Child {
    action: Action,
    position: Option<Position>,
    chance: f64,
}

/// How many BondO walks the cache remembers before it forgets them all and starts over.
const WALK_CACHE_SIZE: usize = 1 << 18;

/// BondO walks already found, keyed on the squares within reach of the walk (`cached_walk`): a
/// search meets the same neighbourhood of a ring cone again and again.
type WalkCache = HashMap<(usize, Bits, Bits), Bits, BuildHasherDefault<PositionHasher>>;

/// The search over one seat's picture of one state.
pub struct Lookahead {
    walks: RefCell<WalkCache>,
    me: usize,
    them: usize,
    target: f64,
    phase: Phase,
    root: Position,
    /// `win_table[need]`: the chance that an unknown opponent cone is worth `need` or more.
    win_table: [f64; 42],
    /// `below_mean[need]`: the mean value of an unknown opponent cone worth less than `need`.
    below_mean: [f64; 42],
    options: Options,
    soft_deadline: Option<Instant>,
    deadline: Option<Instant>,
    /// Opponent answers weighed (one per roll of each opponent turn searched).
    pub nodes: u64,
    /// Per root action searched in full, the opponent answers weighed below it.
    pub visits: Vec<(Action, u64)>,
}

impl Lookahead {
    /// The search for `seat` (the one to act) in `state`; `time_limit` cuts it short.
    pub fn new(
        state: &BondoConesRules,
        seat: usize,
        options: Options,
        time_limit: Option<Duration>,
    ) -> Lookahead {
        let started = Instant::now();
        let (root, unseen) = Position::from_state(state, seat);
        let mut win_table = [0.0; 42];
        let mut below_mean = [0.0; 42];
        for need in 0..42u8 {
            let enough = unseen.iter().filter(|&&v| v >= need).count();
            let short: Vec<u8> = unseen.iter().copied().filter(|&v| v < need).collect();
            win_table[need as usize] = if unseen.is_empty() {
                0.0
            } else {
                enough as f64 / unseen.len() as f64
            };
            below_mean[need as usize] = mean(&short);
        }
        Lookahead {
            walks: RefCell::new(WalkCache::default()),
            me: seat,
            them: 1 - seat,
            target: f64::from(state.config.target),
            phase: state.phase,
            root,
            win_table,
            below_mean,
            options,
            soft_deadline: time_limit.map(|limit| started + limit.mul_f64(SOFT_SHARE)),
            deadline: time_limit.map(|limit| started + limit),
            nodes: 0,
            visits: Vec::new(),
        }
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() > d)
    }

    // ----- values of positions ------------------------------------------------------------

    /// `bondo_destinations`, remembered.
    fn walk(&self, square: usize, steps: usize, empty: Bits, target: Bits) -> Bits {
        if steps <= 2 {
            // Found at once, without a search.
            return bondo_destinations(square, steps, empty, target);
        }
        let reach = ball(square, steps);
        let key = (square << 4 | steps, empty & reach, target & reach);
        let mut walks = self.walks.borrow_mut();
        if let Some(&found) = walks.get(&key) {
            return found;
        }
        if walks.len() >= WALK_CACHE_SIZE {
            walks.clear();
        }
        let found = bondo_destinations(square, steps, empty, target);
        walks.insert(key, found);
        found
    }

    fn hit_masks(&self, p: &Position, attacker: usize) -> [Bits; 5] {
        p.boards
            .hit_masks_by(attacker, &mut |sq, steps, empty, target| {
                self.walk(sq, steps, empty, target)
            })
    }

    fn cone_moves(&self, p: &Position, seat: usize, roll: usize) -> Vec<Action> {
        p.boards
            .cone_moves_by(seat, roll, &mut |sq, steps, empty, target| {
                self.walk(sq, steps, empty, target)
            })
    }

    /// The points `seat` still needs to win, as a table index.
    fn need(&self, p: &Position, seat: usize) -> usize {
        let need = (self.target - p.scores[seat] - 1e-9).ceil().max(0.0);
        (need as usize).min(41)
    }

    /// The expected best capture `attacker` has with its next roll (six faces).
    fn best_captures(&self, p: &Position, attacker: usize) -> f64 {
        let hits = self.hit_masks(p, attacker);
        let defender = 1 - attacker;
        let need = (self.target - p.scores[attacker] - 1e-9).ceil().max(0.0);
        let hidden_bonus = WIN * self.win_table[(need as usize).min(41)];
        let ringed = p.boards.ringed[defender];
        let double = p.boards.double[defender];
        let mut total = 0.0;
        for &mask in &hits[1..] {
            let mut best = 0.0;
            for square in squares_of(mask) {
                let bit: Bits = 1 << square;
                let mut worth = p.worth[square];
                if p.hidden & bit != 0 {
                    worth += hidden_bonus;
                } else if worth >= need {
                    worth += WIN;
                }
                if ringed & bit != 0 {
                    worth += if double & bit != 0 { 4.0 } else { 2.0 } * RING_WORTH;
                }
                if worth > best {
                    best = worth;
                }
            }
            total += best;
        }
        total / 6.0
    }

    fn material(&self, p: &Position) -> f64 {
        let (me, them) = (self.me, self.them);
        let points =
            p.scores[me] - p.scores[them] + RING_WORTH * (p.rings_held(me) - p.rings_held(them));
        if p.scores[them] >= self.target {
            points - WIN
        } else if p.scores[me] >= self.target {
            points + WIN
        } else {
            points
        }
    }

    fn decided(&self, p: &Position) -> bool {
        p.scores[self.them] >= self.target || p.scores[self.me] >= self.target
    }

    /// `RING_BEARER` times the value the seat's ring cones carry.
    fn bearer_cost(&self, p: &Position) -> f64 {
        let cost: f64 = squares_of(p.boards.ringed[self.me])
            .map(|square| p.worth[square])
            .fold(0.0, |sum, worth| sum + worth);
        RING_BEARER * cost
    }

    /// The seat's value of `p` at a glance, with the opponent to roll next (orders moves).
    fn quick_value(&self, p: &Position) -> f64 {
        let points = self.material(p);
        if self.decided(p) {
            return points;
        }
        let points = points - self.bearer_cost(p);
        points - self.best_captures(p, self.them) + 0.5 * self.best_captures(p, self.me)
    }

    /// The seat's value of `p` with the seat to roll next.
    fn leaf_value(&self, p: &Position, threat: Option<f64>) -> f64 {
        let points = self.material(p);
        if self.decided(p) {
            return points;
        }
        let threat = threat.unwrap_or_else(|| self.best_captures(p, self.me));
        let exposure = self.best_captures(p, self.them);
        let points = points - self.bearer_cost(p);
        points + THREAT_WEIGHT * threat - EXPOSURE_WEIGHT * exposure
    }

    // ----- the plies ----------------------------------------------------------------------

    /// The seat's value of `p` with the opponent to roll next, `depth` turn pairs deeper than
    /// `search.py`'s `after_own_action`.
    fn after_own_action(&mut self, p: &Position, depth: u32) -> Result<f64, OutOfTime> {
        if p.scores[self.me] >= self.target {
            return Ok(self.material(p));
        }
        let mut total = QUIET_ROLLS * self.own_turn(p, depth)?;
        for roll in 1..=4 {
            total += self.answer(p, roll, depth)?;
        }
        Ok(total / 6.0)
    }

    /// The seat's value after the opponent's answer to `roll`.
    fn answer(&mut self, p: &Position, roll: usize, depth: u32) -> Result<f64, OutOfTime> {
        if self.out_of_time() {
            return Err(OutOfTime);
        }
        self.nodes += 1;
        let them = self.them;
        let replies = self.cone_moves(p, them, roll);
        if replies.is_empty() {
            return self.own_turn(p, depth);
        }
        let mine = p.boards.cones[self.me];
        let need = (self.target - p.scores[them] - 1e-9).ceil().max(0.0);
        // Per reply its one-ply score for the opponent and the seat's threat after it.
        let mut answers: Vec<(f64, f64)> = Vec::with_capacity(replies.len());
        let mut scratch = p.clone();
        for &reply in &replies {
            let (origin, target) = split(reply);
            let bit: Bits = 1 << target;
            let mut gain = 0.0;
            if mine & bit != 0 {
                let rings = f64::from(p.boards.rings_on(self.me, target));
                gain = p.their_view[target] + 2.0 * RING_WORTH * rings;
                if p.worth[target] >= need {
                    gain += WIN;
                }
            }
            let undo = scratch.apply_undoable(them, origin, target);
            let threat = self.best_captures(&scratch, self.me);
            scratch.undo(undo);
            answers.push((gain - threat, threat));
        }
        if depth == 0 {
            // `search.py`: the one-ply answer, equal ones averaged.
            let mut best = f64::NEG_INFINITY;
            let mut tied: Vec<usize> = Vec::new();
            for (index, &(choice, _)) in answers.iter().enumerate() {
                if choice > best + 1e-9 {
                    best = choice;
                    tied.clear();
                    tied.push(index);
                } else if choice > best - 1e-9 {
                    tied.push(index);
                }
            }
            if tied.len() > MAX_TIED {
                let step = tied.len() as f64 / MAX_TIED as f64;
                tied = (0..MAX_TIED)
                    .map(|i| tied[(i as f64 * step) as usize])
                    .collect();
            }
            let count = tied.len() as f64;
            let total = tied.iter().fold(0.0, |sum, &index| {
                let (origin, target) = split(replies[index]);
                let undo = scratch.apply_undoable(them, origin, target);
                let leaf = self.leaf_value(&scratch, Some(answers[index].1));
                scratch.undo(undo);
                sum + leaf
            });
            return Ok(total / count);
        }
        // Deeper: the worst for the seat among the opponent's best one-ply answers.
        let mut order: Vec<usize> = (0..answers.len()).collect();
        order.sort_by(|&a, &b| answers[b].0.total_cmp(&answers[a].0));
        order.truncate(self.options.reply_width);
        let mut worst = f64::INFINITY;
        for index in order {
            let (origin, target) = split(replies[index]);
            let value = self.own_turn(&p.moved(them, origin, target), depth)?;
            worst = worst.min(value);
        }
        Ok(worst)
    }

    /// The seat's value of `p` with the seat to roll next: the leaf at depth 0, else its roll
    /// and its best move, then the opponent's turn one depth shallower.
    fn own_turn(&mut self, p: &Position, depth: u32) -> Result<f64, OutOfTime> {
        if depth == 0 {
            return Ok(self.leaf_value(p, None));
        }
        if self.decided(p) {
            return Ok(self.material(p));
        }
        let mut total = QUIET_ROLLS * self.after_own_action(p, depth - 1)?;
        for roll in 1..=4 {
            let moves = self.cone_moves(p, self.me, roll);
            if moves.is_empty() {
                total += self.after_own_action(p, depth - 1)?;
                continue;
            }
            let mut scratch = p.clone();
            let mut glances: Vec<(f64, Action)> = moves
                .iter()
                .map(|&action| (self.glance(&mut scratch, action), action))
                .collect();
            glances.sort_by(|a, b| b.0.total_cmp(&a.0));
            glances.truncate(self.options.move_width);
            let mut best = f64::NEG_INFINITY;
            for &(_, action) in &glances {
                let child = self.move_child(p, action);
                let position = child.position.as_ref().unwrap_or(p);
                let value = self.after_own_action(position, depth - 1)?;
                best = best.max(
                    child.chance * (WIN + self.material(position)) + (1.0 - child.chance) * value,
                );
            }
            total += best;
        }
        Ok(total / 6.0)
    }

    /// The seat's glance at its cone move `action` from `scratch` (`quick_value`, a won game
    /// by its chance), `scratch` left as it was.
    fn glance(&self, scratch: &mut Position, action: Action) -> f64 {
        let (origin, target) = split(action);
        let original = scratch.worth[target];
        let mut chance = 0.0;
        if scratch.hidden >> target & 1 != 0 {
            let need = self.need(scratch, self.me);
            chance = self.win_table[need];
            if chance != 0.0 {
                scratch.worth[target] = self.below_mean[need];
            }
        }
        let undo = scratch.apply_undoable(self.me, origin, target);
        let value = chance * WIN + self.quick_value(scratch);
        scratch.undo(undo);
        scratch.worth[target] = original;
        value
    }

    // ----- the seat's decisions -----------------------------------------------------------

    /// A cone move's child: the position after it, with the chance it wins the game at once
    /// (the capture of an unknown cone that may be worth enough; else it is worth the mean of
    /// those worth less).
    fn move_child(&self, p: &Position, action: Action) -> Child {
        let (origin, target) = (action as usize / SQUARES, action as usize % SQUARES);
        let bit: Bits = 1 << target;
        if p.hidden & bit != 0 {
            let need = self.need(p, self.me);
            let chance = self.win_table[need];
            let mut child = p.clone();
            if chance != 0.0 {
                child.worth[target] = self.below_mean[need];
            }
            child.apply_move(self.me, origin, target);
            return Child {
                action,
                position: Some(child),
                chance,
            };
        }
        Child {
            action,
            position: Some(p.moved(self.me, origin, target)),
            chance: 0.0,
        }
    }

    /// `_children`: each action's position after it (`None`: unchanged, a peek or a pass).
    fn children(&self, actions: &[Action]) -> Vec<Child> {
        let p = &self.root;
        actions
            .iter()
            .map(|&action| {
                if action < nt::RING_MOVE_BASE {
                    self.move_child(p, action)
                } else if action < nt::TAKE_BASE {
                    let pair = (action - nt::RING_MOVE_BASE) as usize;
                    let mut child = p.clone();
                    child
                        .boards
                        .move_rings(self.me, Some(pair / SQUARES), pair % SQUARES);
                    Child {
                        action,
                        position: Some(child),
                        chance: 0.0,
                    }
                } else if (nt::SET_ASIDE_BASE..nt::PEEK_BASE).contains(&action) {
                    let mut child = p.clone();
                    child
                        .boards
                        .move_rings(self.me, None, (action - nt::SET_ASIDE_BASE) as usize);
                    Child {
                        action,
                        position: Some(child),
                        chance: 0.0,
                    }
                } else {
                    Child {
                        action,
                        position: None,
                        chance: 0.0,
                    }
                }
            })
            .collect()
    }

    /// The value of a root child searched `depth` deep.
    fn child_value(&mut self, child: &Child, depth: u32) -> Result<f64, OutOfTime> {
        let root = self.root.clone();
        let position = child.position.as_ref().unwrap_or(&root);
        let before = self.nodes;
        let value = self.after_own_action(position, depth);
        let weighed = self.nodes - before;
        match self.visits.iter_mut().find(|(a, _)| *a == child.action) {
            Some(entry) => entry.1 += weighed,
            None => self.visits.push((child.action, weighed)),
        }
        let value = value?;
        Ok(child.chance * (WIN + self.material(position)) + (1.0 - child.chance) * value)
    }

    /// `search.py`'s values of `actions` at depth 0 (`_act_values`), and the children in the
    /// order they were searched.
    fn act_values_at_zero(&mut self, actions: &[Action]) -> (Vec<(Action, f64)>, Vec<Child>) {
        let children = self.children(actions);
        if children.iter().all(|child| child.position.is_none()) {
            return (actions.iter().map(|&a| (a, 0.0)).collect(), children);
        }
        let root = self.root.clone();
        let mut quick: Vec<(f64, Child)> = children
            .into_iter()
            .map(|child| {
                let position = child.position.as_ref().unwrap_or(&root);
                (child.chance * WIN + self.quick_value(position), child)
            })
            .collect();
        // A stable sort: equal glances keep the actions' order, as Python's `sorted`.
        quick.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut values = Vec::with_capacity(quick.len());
        let mut out_of_time = false;
        for (rank, (glance, child)) in quick.iter().enumerate() {
            out_of_time = out_of_time || self.soft_deadline.is_some_and(|d| Instant::now() > d);
            if rank >= self.options.width || out_of_time {
                values.push((child.action, glance - 10.0 * WIN));
                continue;
            }
            match self.child_value(child, 0) {
                Ok(value) => values.push((child.action, value)),
                Err(OutOfTime) => {
                    out_of_time = true;
                    values.push((child.action, glance - 10.0 * WIN));
                }
            }
        }
        (values, quick.into_iter().map(|(_, child)| child).collect())
    }

    /// The values of `actions` (the seat's legal actions), higher is better, and the deepest
    /// depth finished (plus the best action of an unfinished deeper one, where it has one).
    pub fn values(&mut self, actions: &[Action]) -> (Vec<(Action, f64)>, u32, Option<Action>) {
        match self.phase {
            Phase::SetupPut => (self.setup_values(actions), 0, None),
            Phase::SetupRing => (
                actions
                    .iter()
                    .map(|&a| (a, -self.root.worth[(a - nt::SETUP_RING_BASE) as usize]))
                    .collect(),
                0,
                None,
            ),
            Phase::Decide => (
                actions
                    .iter()
                    .map(|&a| (a, if a == nt::BATTLE { 1.0 } else { 0.0 }))
                    .collect(),
                0,
                None,
            ),
            Phase::Take => (self.take_values(actions), 0, None),
            Phase::Punish => (self.punish_values(actions), 0, None),
            _ => self.act_values(actions),
        }
    }

    /// Depth 0, then one depth deeper at a time over the best `width` actions (in the previous
    /// depth's order) until the depth asked or the time limit.
    fn act_values(&mut self, actions: &[Action]) -> (Vec<(Action, f64)>, u32, Option<Action>) {
        let began_zero = Instant::now();
        let (mut values, children) = self.act_values_at_zero(actions);
        if children.iter().all(|child| child.position.is_none()) {
            return (values, 0, None);
        }
        let most = self.options.depth.unwrap_or(if self.deadline.is_some() {
            MOST_DEPTH
        } else {
            0
        });
        let mut children = children;
        let mut finished = 0;
        let (mut last_took, mut growth) = (began_zero.elapsed(), MIN_GROWTH);
        for depth in 1..=most {
            if self.out_of_time() {
                break;
            }
            // Start no depth that cannot finish: it costs the last one's time times the growth
            // from the one before (a depth costs some hundred times the one below it).
            if let Some(deadline) = self.deadline {
                if Instant::now() + last_took.mul_f64(growth) > deadline {
                    break;
                }
            }
            let began = Instant::now();
            // The previous depth's order, best first (stable: ties keep the glance's order).
            let rank = |action: Action| {
                values
                    .iter()
                    .find(|&&(a, _)| a == action)
                    .map_or(f64::NEG_INFINITY, |&(_, v)| v)
            };
            children.sort_by(|a, b| rank(b.action).total_cmp(&rank(a.action)));
            let searched = children.len().min(self.options.width);
            let mut deeper: Vec<(Action, f64)> = Vec::with_capacity(searched);
            for child in &children[..searched] {
                match self.child_value(child, depth) {
                    Ok(value) => deeper.push((child.action, value)),
                    Err(OutOfTime) => break,
                }
            }
            if deeper.len() < searched {
                // Unfinished: its best answers where it finished the previous best (first).
                let best = deeper
                    .iter()
                    .copied()
                    .reduce(|a, b| if b.1 > a.1 { b } else { a })
                    .map(|(action, _)| action);
                return (values, finished, best);
            }
            for entry in values.iter_mut() {
                if let Some(&(_, value)) = deeper.iter().find(|&&(a, _)| a == entry.0) {
                    entry.1 = value;
                }
            }
            finished = depth;
            let took = began.elapsed();
            growth = (took.as_secs_f64() / last_took.as_secs_f64().max(1e-6)).max(MIN_GROWTH);
            last_took = took;
        }
        (values, finished, None)
    }

    fn setup_values(&self, actions: &[Action]) -> Vec<(Action, f64)> {
        let mut rank = [-100.0f64; SQUARES];
        for (place, pair) in SAFETY_ORDER.iter().enumerate() {
            for name in pair {
                let bytes = name.as_bytes();
                let file = usize::from(bytes[0] - b'a');
                let rank_number: usize = name[1..].parse().unwrap_or(1);
                let rank_index = if self.me == 0 {
                    rank_number - 1
                } else {
                    HEIGHT - rank_number
                };
                rank[rank_index * WIDTH + file] = -(place as f64);
            }
        }
        actions
            .iter()
            .map(|&a| {
                let value = a
                    .checked_sub(nt::PUT_BASE)
                    .and_then(|sq| rank.get(sq as usize).copied())
                    .unwrap_or(-100.0);
                (a, value)
            })
            .collect()
    }

    fn take_values(&self, actions: &[Action]) -> Vec<(Action, f64)> {
        actions
            .iter()
            .map(|&a| {
                let pair = (a - nt::TAKE_BASE) as usize;
                let mut child = self.root.clone();
                child
                    .boards
                    .take_ring(self.me, pair / SQUARES, pair % SQUARES);
                (a, self.leaf_value(&child, None))
            })
            .collect()
    }

    fn punish_values(&self, actions: &[Action]) -> Vec<(Action, f64)> {
        let p = &self.root;
        let hits = self.hit_masks(p, self.me);
        let threatened = hits[1] | hits[2] | hits[3] | hits[4];
        actions
            .iter()
            .map(|&a| {
                let value = if (nt::SEIZE_BASE..nt::BATTLE).contains(&a) {
                    let square = (a - nt::SEIZE_BASE) as usize;
                    let mut child = p.clone();
                    let owner = usize::from(child.boards.cones[0] >> square & 1 == 0);
                    child.boards.lift_cone(owner, square);
                    child.hidden &= !(1 << square);
                    child.worth[square] = 0.0;
                    child.their_view[square] = 0.0;
                    child.scores[self.me] += p.worth[square];
                    self.leaf_value(&child, None)
                } else if (nt::SPY_BASE..nt::SEIZE_BASE).contains(&a) {
                    let bit: Bits = 1 << (a - nt::SPY_BASE);
                    (if threatened & bit != 0 { 2.0 } else { 0.0 })
                        + (if p.hidden & bit != 0 { 1.0 } else { 0.0 })
                } else {
                    0.0
                };
                (a, value)
            })
            .collect()
    }
}

/// `seat`'s depth-0 values of `actions` in `state` (its decision), the root's best `width`
/// searched in full: what `search` answers at depth 0, without a time limit.
pub(super) fn depth_zero_values(
    state: &BondoConesRules,
    seat: usize,
    actions: &[Action],
    width: usize,
) -> Vec<(Action, f64)> {
    let options = Options {
        depth: Some(0),
        width,
        ..Options::default()
    };
    Lookahead::new(state, seat, options, None).values(actions).0
}

/// The value of `state` for `seat` on the model, as a leaf with `seat` to roll next
/// (`leaf_value`), or the points and the win alone where the game is decided or over.
pub(super) fn position_value(state: &BondoConesRules, seat: usize) -> f64 {
    let lookahead = Lookahead::new(state, seat, Options::default(), None);
    lookahead.leaf_value(&lookahead.root, None)
}

/// The lookahead search from `state` (a seat's decision), as `request` asks: `depth` fixed, or
/// deepening within the time limit. `action_values` are the deepest finished depth's values.
pub fn search(
    state: &BondoConesRules,
    request: &SearchRequest,
) -> Result<SearchOutcome, EngineError> {
    let started = Instant::now();
    let options = read_options(&request.options)?;
    if request.iterations.is_some() {
        return Err(bad(
            "counts its budget in the option \"depth\" and the time limit, not iterations"
                .to_string(),
        ));
    }
    let time_limit = match request.time_limit_ms {
        None => None,
        Some(ms) if (1..=600_000).contains(&ms) => Some(Duration::from_millis(ms)),
        Some(ms) => {
            return Err(bad(format!(
                "the time limit is 1 to 600000 milliseconds, not {ms}"
            )))
        }
    };
    let player = state.current_player();
    if player < 0 {
        return Err(EngineError::InvalidState(format!(
            "lookahead searches a player's decision, not {}",
            if state.phase == Phase::Over {
                "the end of the game"
            } else {
                "a chance node"
            }
        )));
    }
    let seat = player as usize;
    let actions = state.legal_actions();
    let mut lookahead = Lookahead::new(state, seat, options, time_limit);
    let (values, depth, unfinished_best) = if actions.len() == 1 {
        (vec![(actions[0], 0.0)], 0, None)
    } else {
        lookahead.values(&actions)
    };
    let best = values
        .iter()
        .map(|&(_, v)| v)
        .fold(f64::NEG_INFINITY, f64::max);
    let action = match unfinished_best {
        Some(action) => action,
        None => {
            // Ties broken by the seed, as the Python bot breaks them by its generator.
            let tied: Vec<Action> = values
                .iter()
                .filter(|&&(_, v)| v >= best - 1e-9)
                .map(|&(a, _)| a)
                .collect();
            let mut rng = SmallRng::seed_from_u64(request.seed);
            *tied.choose(&mut rng).unwrap_or(&actions[0])
        }
    };
    let mut seat_values = vec![0.0; 2];
    seat_values[seat] = best;
    seat_values[1 - seat] = -best;
    Ok(SearchOutcome {
        action,
        values: seat_values,
        visits: values
            .iter()
            .map(|&(a, _)| {
                let weighed = lookahead.visits.iter().find(|(b, _)| *b == a);
                (a, weighed.map_or(0, |&(_, n)| n))
            })
            .collect(),
        iterations: u64::from(depth),
        elapsed_ms: started.elapsed().as_millis() as u64,
        action_values: values,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use std::sync::Arc;

    use rand::{Rng, SeedableRng};

    use super::super::rules::Config;
    use super::*;

    /// A state of a seeded game of random moves, `decisions` decisions in, at a cone move.
    pub(in crate::games::bondo_cones) fn mid_game(seed: u64, decisions: usize) -> BondoConesRules {
        let config = Arc::new(Config {
            target: 12,
            max_turns: 1000,
            setup: "choose".to_string(),
            random_setup: false,
        });
        let mut state = BondoConesRules::new(config);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut made = 0;
        loop {
            let player = state.current_player();
            assert!(player != crate::core::TERMINAL, "the game ended first");
            if player == crate::core::CHANCE {
                let outcomes = state.chance_outcomes();
                state.apply_action(outcomes[rng.random_range(0..outcomes.len())].0);
                continue;
            }
            let legal = state.legal_actions();
            if made >= decisions && state.phase == Phase::Act && legal.len() > 1 {
                return state;
            }
            state.apply_action(legal[rng.random_range(0..legal.len())]);
            made += 1;
        }
    }

    fn request(options: Value) -> SearchRequest {
        SearchRequest {
            search: NAME.to_string(),
            options,
            time_limit_ms: None,
            iterations: None,
            seed: 5,
        }
    }

    #[test]
    fn worlds_the_seat_cannot_tell_apart_get_the_same_values() {
        let state = mid_game(3, 60);
        let seat = state.actor;
        let mut rng = SmallRng::seed_from_u64(1);
        let worlds = [
            state.clone(),
            state.resample(seat, &mut rng).unwrap(),
            state.resample(seat, &mut rng).unwrap(),
        ];
        // The worlds differ in the opponent's values, which the seat does not see.
        assert!(worlds[0].value != worlds[1].value && worlds[1].value != worlds[2].value);
        for depth in [0, 1] {
            let found: Vec<SearchOutcome> = worlds
                .iter()
                .map(|world| {
                    search(world, &request(serde_json::json!({ "depth": depth }))).unwrap()
                })
                .collect();
            for other in &found[1..] {
                assert_eq!(other.action_values, found[0].action_values);
                assert_eq!(other.action, found[0].action);
            }
        }
    }

    #[test]
    fn a_deeper_search_reports_its_depth_and_changes_values() {
        let state = mid_game(8, 50);
        let shallow = search(&state, &request(serde_json::json!({ "depth": 0 }))).unwrap();
        let deep = search(&state, &request(serde_json::json!({ "depth": 1 }))).unwrap();
        assert_eq!((shallow.iterations, deep.iterations), (0, 1));
        assert_ne!(shallow.action_values, deep.action_values);
        assert!(state.legal_actions().contains(&deep.action));
    }

    #[test]
    fn bad_options_are_refused_naming_what_is_allowed() {
        let state = mid_game(3, 40);
        for (options, words) in [
            (serde_json::json!({ "deep": 1 }), "no option deep"),
            (serde_json::json!({ "depth": 9 }), "from 0 to 8"),
            (serde_json::json!({ "move_width": 0 }), "from 1 to 100"),
            (serde_json::json!([1]), "a JSON object"),
        ] {
            let error = search(&state, &request(options)).unwrap_err().to_string();
            assert!(error.contains(words), "{error}");
        }
    }
}
