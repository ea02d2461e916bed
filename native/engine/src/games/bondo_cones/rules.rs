//! Bond O Cones' rules, as `boneyard/games/bondo_cones/rules.py` states them (RULINGS.md,
//! "Bond O Cones").
//!
//! Two players, 26 cones each on a 10x12 board. Under each cone is a value only its owner knows.
//! Every turn a die decides what the player does: move a cone 1-4 steps, peek at an own cone, or
//! move a ring. A cone carrying a ring (a BondO cone) walks king steps and may turn; a cone
//! carrying both rings (a Double BondO) walks twice as far. Capturing a cone scores its value;
//! the first player to `target` points wins. A player who lost its rings may fight a BondO battle
//! to win one back.

use std::sync::Arc;

use serde_json::Value;

use super::board::{squares_of, ConeBoards, RED_FIELDS, SQUARES, START_FIELDS};
use super::notation::{self as nt, square_name};
use super::observation::{self, Viewer};
use super::tensor;
use crate::core::{
    python_shuffle, Action, DynState, EngineError, NativeGame, Params, Played, Randomness, Rules,
    CHANCE, TERMINAL,
};

/// The values a player places one by one, in value order; the ten 0s fill the fields left.
pub const SETUP_ORDER: [u8; 16] = [8, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1];
/// All 26 values of one side (41 points), highest first.
pub const VALUES: [u8; 26] = [
    8, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
/// The cones a player places itself; the rest are zeros.
pub const PUTS: usize = SETUP_ORDER.len();
/// `setup_progress` of a seat that has placed all its cones and its ring.
pub const SETUP_DONE: u8 = PUTS as u8 + 1;
/// Turns a battle window stays open.
pub const WINDOW: u8 = 3;
/// Cone flag: its owner has looked at it (public: the peek is seen).
pub const PEEKED: u8 = 1;
/// Cone flag: the opponent learned its value after a lost battle (public; the value is not).
pub const SPIED: u8 = 2;
/// `winner` of a game ended by the turn cap.
pub const DRAW: u8 = 2;

/// What the state waits for; the observation names it in lower case (`"setup_put"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    SetupPut,
    SetupRing,
    First,
    Decide,
    Battle,
    Take,
    Punish,
    Roll,
    Act,
    Over,
}

impl Phase {
    const ALL: [Phase; 10] = [
        Phase::SetupPut,
        Phase::SetupRing,
        Phase::First,
        Phase::Decide,
        Phase::Battle,
        Phase::Take,
        Phase::Punish,
        Phase::Roll,
        Phase::Act,
        Phase::Over,
    ];
    pub const NAMES: [&'static str; 10] = [
        "setup_put",
        "setup_ring",
        "first",
        "decide",
        "battle",
        "take",
        "punish",
        "roll",
        "act",
        "over",
    ];

    pub fn name(self) -> &'static str {
        Phase::NAMES[self as usize]
    }

    pub fn named(name: &str) -> Option<Phase> {
        Phase::NAMES
            .iter()
            .position(|&known| known == name)
            .map(|index| Phase::ALL[index])
    }

    /// What a phase that asks one thing asks for: the reason any other action is refused.
    fn asks(self) -> Option<&'static str> {
        match self {
            Phase::SetupRing => Some("put the ring on one of the cones on your red fields"),
            Phase::Decide => Some("declare a BondO battle or roll the die"),
            Phase::Take => {
                Some("you won the battle: take a ring of your opponent's and put it on your cone")
            }
            Phase::Punish => Some("your opponent lost the battle: pick one of their cones"),
            _ => None,
        }
    }
}

/// A game's parameters, read once and shared by all its states.
#[derive(Debug, PartialEq)]
pub struct Config {
    pub target: u32,
    pub max_turns: u32,
    /// `"choose"` (each player places its cones) or `"random"` (a chance event places them).
    pub setup: String,
    pub random_setup: bool,
}

pub struct BondoConesGame {
    params: Params,
    config: Arc<Config>,
}

pub fn load(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    let setup = params.text("setup")?.to_string();
    let whole = |name: &str| -> Result<u32, EngineError> {
        u32::try_from(params.int(name)?).map_err(|_| {
            EngineError::InvalidParameter(format!("parameter '{name}' is out of range"))
        })
    };
    let config = Config {
        target: whole("target")?,
        max_turns: whole("max_turns")?,
        random_setup: setup == "random",
        setup,
    };
    Ok(Box::new(BondoConesGame {
        params: params.clone(),
        config: Arc::new(config),
    }))
}

impl NativeGame for BondoConesGame {
    fn name(&self) -> &'static str {
        BondoConesRules::NAME
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(Played::new(BondoConesRules::new(self.config.clone())))
    }

    fn state_from_snapshot(
        &self,
        snapshot: &Value,
        history: Vec<Action>,
    ) -> Result<Box<dyn DynState>, EngineError> {
        let rules = BondoConesRules::restore(self.config.clone(), snapshot).map_err(|error| {
            EngineError::InvalidState(format!("bad bondo_cones state snapshot: {error}"))
        })?;
        Ok(Box::new(Played::with_history(rules, history)))
    }

    fn observation_tensor_shape(&self) -> Option<Vec<usize>> {
        Some(tensor::SHAPE.to_vec())
    }
}

/// A Bond O Cones position: where the cones stand and how they move are its bitboards
/// (`boards`); the per-square arrays beside them are what each cone carries (its value, who has
/// seen it) and, with the fields below, the saved record of the Python engine's snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct BondoConesRules {
    pub config: Arc<Config>,
    pub boards: ConeBoards,
    /// Per square the seat of the cone on it, or -1.
    pub owner: [i8; SQUARES],
    /// Per square the value of the cone on it, or -1.
    pub value: [i8; SQUARES],
    pub rings: [u8; SQUARES],
    /// Per square `PEEKED` and `SPIED` bits.
    pub flags: [u8; SQUARES],
    pub scores: [u32; 2],
    /// Per seat the values it captured, in order.
    pub captured: [Vec<u8>; 2],
    pub phase: Phase,
    /// Who acts at a player node: during set-up the seat setting up; else the turn's player,
    /// except in `punish` where the opponent of the turn's player chooses.
    pub actor: usize,
    pub turn_player: usize,
    pub setup_progress: [u8; 2],
    /// The face rolled this turn (an index of `FACES`).
    pub die: Option<usize>,
    pub windows: [u8; 2],
    pub set_aside: bool,
    pub turns: u32,
    pub first: Option<u8>,
    /// A seat, or `DRAW`.
    pub winner: Option<u8>,
    pub last_move: Option<(u8, u8)>,
    pub last_peek: Option<u8>,
}

impl BondoConesRules {
    pub fn new(config: Arc<Config>) -> BondoConesRules {
        BondoConesRules {
            config,
            boards: ConeBoards::default(),
            owner: [-1; SQUARES],
            value: [-1; SQUARES],
            rings: [0; SQUARES],
            flags: [0; SQUARES],
            scores: [0, 0],
            captured: [Vec::new(), Vec::new()],
            phase: Phase::SetupPut,
            actor: 0,
            turn_player: 0,
            setup_progress: [0, 0],
            die: None,
            windows: [0, 0],
            set_aside: false,
            turns: 0,
            first: None,
            winner: None,
            last_move: None,
            last_peek: None,
        }
    }

    // ----- board helpers ----------------------------------------------------------------------

    pub(super) fn place(&mut self, square: usize, seat: usize, value: u8, rings: u8) {
        self.boards.put_cone(seat, square, rings);
        self.owner[square] = seat as i8;
        self.value[square] = value as i8;
        self.rings[square] = rings;
        self.flags[square] = 0;
    }

    fn remove(&mut self, square: usize) {
        self.boards.lift_cone(self.owner[square] as usize, square);
        self.clear(square);
    }

    /// The per-square record of an empty `square`.
    fn clear(&mut self, square: usize) {
        self.owner[square] = -1;
        self.value[square] = -1;
        self.rings[square] = 0;
        self.flags[square] = 0;
    }

    /// The per-square record of rings follows the bitboards on `square` (of `seat`).
    fn rings_changed(&mut self, seat: usize, square: usize) {
        self.rings[square] = self.boards.rings_on(seat, square);
    }

    fn free_start_fields(&self, seat: usize) -> impl Iterator<Item = usize> + '_ {
        START_FIELDS[seat]
            .iter()
            .map(|&sq| sq as usize)
            .filter(move |&sq| self.owner[sq] < 0)
    }

    // ----- legal actions ----------------------------------------------------------------------

    fn act_actions(&self, me: usize, die: usize) -> Vec<Action> {
        let cones = self.boards.cones[me];
        let ringed = self.boards.ringed[me];
        let found: Vec<Action> = if die < nt::FACE_EYE {
            self.boards.cone_moves(me, die + 1)
        } else if die == nt::FACE_EYE {
            squares_of(cones)
                .map(|sq| nt::PEEK_BASE + sq as Action)
                .collect()
        } else if self.set_aside {
            squares_of(cones & !ringed)
                .map(|sq| nt::SET_ASIDE_BASE + sq as Action)
                .collect()
        } else {
            squares_of(ringed)
                .flat_map(|x| {
                    squares_of(cones & !ringed)
                        .map(move |y| nt::RING_MOVE_BASE + (x * SQUARES + y) as Action)
                })
                .collect()
        };
        if found.is_empty() {
            vec![nt::PASS]
        } else {
            found
        }
    }

    // ----- playing ----------------------------------------------------------------------------

    fn put(&mut self, square: usize) {
        let seat = self.actor;
        let done = self.setup_progress[seat] as usize;
        self.place(square, seat, SETUP_ORDER[done], 0);
        self.setup_progress[seat] += 1;
        if done + 1 == PUTS {
            // The ten zeros fill the start fields left.
            let free: Vec<usize> = self.free_start_fields(seat).collect();
            for square in free {
                self.place(square, seat, 0, 0);
            }
            self.phase = Phase::SetupRing;
        }
    }

    fn setup_ring(&mut self, square: usize) {
        let seat = self.actor;
        self.boards.set_rings(seat, square, 1);
        self.rings_changed(seat, square);
        self.setup_progress[seat] = SETUP_DONE;
        if seat == 0 {
            self.actor = 1;
            self.phase = Phase::SetupPut;
        } else {
            self.phase = Phase::First;
        }
    }

    /// A turn begins: a player who lost its last ring, while its window is open and the
    /// opponent holds one, may declare a battle before rolling; each turn uses up the window.
    fn start_turn(&mut self, seat: usize) {
        self.turns += 1;
        self.turn_player = seat;
        self.actor = seat;
        self.die = None;
        let may_battle = self.windows[seat] > 0
            && self.boards.ringed[seat] == 0
            && self.boards.ringed[1 - seat] != 0;
        self.windows[seat] = self.windows[seat].saturating_sub(1);
        self.phase = if may_battle {
            Phase::Decide
        } else {
            Phase::Roll
        };
    }

    /// The turn ends: the game with it where someone reached the target or the turn cap came.
    fn end_turn(&mut self) {
        if self.winner.is_some() {
            self.phase = Phase::Over;
        } else if self.turns >= self.config.max_turns {
            self.winner = Some(DRAW);
            self.phase = Phase::Over;
        } else {
            self.start_turn(1 - self.turn_player);
        }
    }

    fn score(&mut self, seat: usize, value: u8) {
        self.scores[seat] += u32::from(value);
        self.captured[seat].push(value);
        if self.scores[seat] >= self.config.target {
            self.winner = Some(seat as u8);
        }
    }

    fn act(&mut self, action: Action) {
        let me = self.actor;
        if action < nt::RING_MOVE_BASE {
            let (origin, target) = split_pair(action - nt::MOVE_BASE);
            self.move_cone(origin, target);
        } else if action < nt::TAKE_BASE {
            let (origin, target) = split_pair(action - nt::RING_MOVE_BASE);
            self.boards.move_rings(me, Some(origin), target);
            self.rings_changed(me, origin);
            self.rings_changed(me, target);
        } else if action == nt::PASS {
        } else if action >= nt::PEEK_BASE {
            let square = (action - nt::PEEK_BASE) as usize;
            self.flags[square] |= PEEKED;
            self.last_peek = Some(square as u8);
        } else {
            // The ring set aside after a won battle against a Double.
            let square = (action - nt::SET_ASIDE_BASE) as usize;
            self.boards.move_rings(me, None, square);
            self.rings_changed(me, square);
            self.set_aside = false;
        }
        self.end_turn();
    }

    /// A cone moves; landing on an opponent's cone captures it (its value scores, its rings
    /// pass to the mover), and an opponent who so loses its last ring gets a battle window.
    fn move_cone(&mut self, origin: usize, target: usize) {
        let me = self.owner[origin] as usize;
        let them = 1 - me;
        let had_rings = self.boards.ringed[them] != 0;
        let captured_value = self.value[target];
        if self.boards.move_cone(me, origin, target) {
            self.score(me, captured_value as u8);
            if had_rings && self.boards.ringed[them] == 0 {
                self.windows[them] = WINDOW;
            }
        }
        self.owner[target] = me as i8;
        self.value[target] = self.value[origin];
        self.flags[target] = self.flags[origin];
        self.rings_changed(me, target);
        self.clear(origin);
        self.last_move = Some((origin as u8, target as u8));
    }

    /// A battle won closes the window and takes a ring; one lost opens a new window and lets
    /// the opponent pick one of the loser's cones.
    fn battle_result(&mut self, won: bool) {
        let me = self.turn_player;
        if won {
            self.windows[me] = 0;
            self.phase = Phase::Take;
        } else {
            self.windows[me] = WINDOW;
            self.actor = 1 - me;
            self.phase = Phase::Punish;
        }
    }

    fn take(&mut self, origin: usize, target: usize) {
        let me = self.actor;
        let them = 1 - me;
        if self.boards.take_ring(me, origin, target) {
            self.set_aside = true;
        }
        self.rings_changed(them, origin);
        self.rings_changed(me, target);
        if self.boards.ringed[them] == 0 {
            self.windows[them] = WINDOW;
        }
        self.phase = Phase::Roll;
    }

    /// After a lost battle: against a Double the winner seizes a cone (and scores it), else it
    /// spies one's value.
    fn punish(&mut self, action: Action) {
        if (nt::SEIZE_BASE..nt::BATTLE).contains(&action) {
            let square = (action - nt::SEIZE_BASE) as usize;
            self.score(self.actor, self.value[square] as u8);
            self.remove(square);
        } else if (nt::SPY_BASE..nt::SEIZE_BASE).contains(&action) {
            self.flags[(action - nt::SPY_BASE) as usize] |= SPIED;
        }
        self.end_turn();
    }

    // ----- illegal actions --------------------------------------------------------------------

    /// Why `action` is not a move the rolled die allows: the cone or ring it names, else what
    /// the die asks for.
    fn why_not_acted(&self, action: Action, die: usize) -> String {
        let face = nt::FACES[die];
        let me = self.actor as i8;
        if die < nt::FACE_EYE && action < nt::RING_MOVE_BASE {
            let (origin, target) = split_pair(action);
            if self.owner[origin] != me {
                return format!("there is no cone of yours on {}", square_name(origin));
            }
            if self.owner[target] == me {
                return format!(
                    "{} holds a cone of yours: no cone lands on its own side",
                    square_name(target)
                );
            }
        }
        if die == nt::FACE_RING && (nt::RING_MOVE_BASE..nt::TAKE_BASE).contains(&action) {
            let (origin, _) = split_pair(action - nt::RING_MOVE_BASE);
            if self.owner[origin] != me || self.rings[origin] == 0 {
                return format!(
                    "the cone on {} carries no ring of yours",
                    square_name(origin)
                );
            }
        }
        if die < nt::FACE_EYE {
            let plural = if face == "1" { "" } else { "s" };
            format!(
                "the die shows {face}: move one cone exactly {face} step{plural} in a straight \
                 line (a BondO cone may turn), never over another cone"
            )
        } else if die == nt::FACE_EYE {
            "the die shows the eye: peek at one of your cones".to_string()
        } else {
            "the die shows a ring: move a ring to one of your cones without a ring".to_string()
        }
    }

    // ----- resampling -------------------------------------------------------------------------

    /// A full state that looks exactly like `observation(seat)` to `seat`, unknown values drawn
    /// from `rng` as `resample_from_observation` draws them: the opponent's hidden values are a
    /// random arrangement of the values it has left (its 26 values minus those captured from it
    /// and those the seat has spied), and during the opponent's secret set-up its placed cones go
    /// on random start fields.
    fn resampled(&self, seat: usize, rng: &mut dyn Randomness) -> Result<Self, EngineError> {
        let them = 1 - seat;
        // The public record, as both seats see it.
        let mut state = BondoConesRules {
            boards: ConeBoards::default(),
            owner: [-1; SQUARES],
            value: [-1; SQUARES],
            rings: [0; SQUARES],
            flags: [0; SQUARES],
            ..self.clone()
        };
        let mut left = VALUES.to_vec();
        for &taken in &self.captured[seat] {
            take_value(&mut left, taken)?;
        }
        let mut hidden = Vec::new();
        for sq in squares_of(self.boards.cones[0] | self.boards.cones[1]) {
            let who = self.owner[sq] as usize;
            if who != seat && (self.setup_progress[who] as usize) < PUTS {
                continue; // a secret set-up: not in the seat's view
            }
            let flag = self.flags[sq];
            let known = who == seat || (flag & SPIED != 0 && who == them);
            let value = if known { self.value[sq] as u8 } else { 0 };
            state.place(sq, who, value, self.rings[sq]);
            state.flags[sq] = flag;
            if who == them {
                if known {
                    take_value(&mut left, value)?;
                } else {
                    hidden.push(sq);
                }
            }
        }
        let placed = self.setup_progress[them] as usize;
        if placed < PUTS {
            let fields = python_sample(rng, &START_FIELDS[them], placed);
            for (square, &value) in fields.into_iter().zip(SETUP_ORDER.iter()) {
                state.place(square as usize, them, value, 0);
            }
        } else {
            python_shuffle(rng, &mut left);
            for (&square, &value) in hidden.iter().zip(left.iter()) {
                state.value[square] = value as i8;
            }
        }
        Ok(state)
    }
}

/// `(origin, target)` of a pair id's offset (`origin * 120 + target`).
fn split_pair(offset: Action) -> (usize, usize) {
    let offset = offset as usize;
    (offset / SQUARES % SQUARES, offset % SQUARES)
}

/// One `value` off the values left (`list.remove`: the first of its kind).
fn take_value(left: &mut Vec<u8>, value: u8) -> Result<(), EngineError> {
    match left.iter().position(|&v| v == value) {
        Some(index) => {
            left.remove(index);
            Ok(())
        }
        None => Err(EngineError::InvalidState(format!(
            "the cones of this state hold more {value}s than a side has"
        ))),
    }
}

/// Python's `rng.sample(population, k)` (CPython 3.11), draw for draw: a pool for small
/// populations, else a set of drawn indices, chosen by the same size rule.
fn python_sample(rng: &mut dyn Randomness, population: &[u8], k: usize) -> Vec<u8> {
    let n = population.len();
    let k = k.min(n);
    let mut set_size = 21usize;
    if k > 5 {
        let exponent = ((k * 3) as f64).ln() / 4f64.ln();
        set_size += 4usize.pow(exponent.ceil() as u32);
    }
    let mut result = Vec::with_capacity(k);
    if n <= set_size {
        let mut pool = population.to_vec();
        for i in 0..k {
            let j = rng.below((n - i) as u64) as usize;
            result.push(pool[j]);
            pool[j] = pool[n - i - 1];
        }
    } else {
        let mut selected = Vec::with_capacity(k);
        for _ in 0..k {
            let mut j = rng.below(n as u64) as usize;
            while selected.contains(&j) {
                j = rng.below(n as u64) as usize;
            }
            selected.push(j);
            result.push(population[j]);
        }
    }
    result
}

impl Rules for BondoConesRules {
    const NAME: &'static str = "bondo_cones";
    const HIDDEN_INFORMATION: bool = true;
    /// The Python engine's resample builds a new state from an observation: no history.
    const RESAMPLE_KEEPS_HISTORY: bool = false;

    fn num_players(&self) -> usize {
        2
    }

    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }

    fn current_player(&self) -> i32 {
        match self.phase {
            Phase::Over => TERMINAL,
            Phase::First | Phase::Battle | Phase::Roll => CHANCE,
            Phase::SetupPut | Phase::SetupRing if self.config.random_setup => CHANCE,
            _ => self.actor as i32,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let me = self.actor;
        match self.phase {
            Phase::Act => self
                .die
                .map_or_else(Vec::new, |die| self.act_actions(me, die)),
            Phase::Decide => vec![nt::BATTLE, nt::ROLL],
            Phase::SetupPut => self
                .free_start_fields(me)
                .map(|sq| nt::PUT_BASE + sq as Action)
                .collect(),
            Phase::SetupRing => RED_FIELDS[me]
                .iter()
                .map(|&sq| nt::SETUP_RING_BASE + Action::from(sq))
                .collect(),
            Phase::Take => {
                let mine = self.boards.cones[me];
                squares_of(self.boards.ringed[1 - me])
                    .flat_map(|x| {
                        squares_of(mine).map(move |y| nt::TAKE_BASE + (x * SQUARES + y) as Action)
                    })
                    .collect()
            }
            Phase::Punish => {
                // The actor picks one cone of the player who lost the battle.
                let base = if self.boards.has_double(me) {
                    nt::SEIZE_BASE
                } else {
                    nt::SPY_BASE
                };
                let victims: Vec<Action> = squares_of(self.boards.cones[1 - me])
                    .map(|sq| base + sq as Action)
                    .collect();
                if victims.is_empty() {
                    vec![nt::PASS]
                } else {
                    victims
                }
            }
            Phase::First | Phase::Battle | Phase::Roll | Phase::Over => Vec::new(),
        }
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        match self.phase {
            Phase::Roll => (0..6).map(|face| (face, 1.0 / 6.0)).collect(),
            Phase::Battle => vec![(nt::BATTLE_WON, 0.5), (nt::BATTLE_LOST, 0.5)],
            Phase::First => vec![(nt::FIRST_BASE, 0.5), (nt::FIRST_BASE + 1, 0.5)],
            Phase::SetupPut => {
                let free: Vec<usize> = self.free_start_fields(self.actor).collect();
                let odds = 1.0 / free.len() as f64;
                free.into_iter()
                    .map(|sq| (nt::CHANCE_PUT_BASE + sq as Action, odds))
                    .collect()
            }
            Phase::SetupRing => RED_FIELDS[self.actor]
                .iter()
                .map(|&sq| (nt::CHANCE_RING_BASE + Action::from(sq), 0.5))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn apply_action(&mut self, action: Action) {
        match self.phase {
            Phase::Roll => {
                self.die = Some(action as usize);
                self.phase = Phase::Act;
            }
            Phase::Act => self.act(action),
            Phase::Decide => {
                self.phase = if action == nt::BATTLE {
                    Phase::Battle
                } else {
                    Phase::Roll
                };
            }
            Phase::Battle => self.battle_result(action == nt::BATTLE_WON),
            Phase::Take => {
                let (origin, target) = split_pair(action - nt::TAKE_BASE);
                self.take(origin, target);
            }
            Phase::Punish => self.punish(action),
            Phase::SetupPut => {
                let base = if self.config.random_setup {
                    nt::CHANCE_PUT_BASE
                } else {
                    nt::PUT_BASE
                };
                self.put((action - base) as usize);
            }
            Phase::SetupRing => {
                let base = if self.config.random_setup {
                    nt::CHANCE_RING_BASE
                } else {
                    nt::SETUP_RING_BASE
                };
                self.setup_ring((action - base) as usize);
            }
            Phase::First => {
                let first = (action - nt::FIRST_BASE) as u8;
                self.first = Some(first);
                self.start_turn(usize::from(first));
            }
            Phase::Over => {}
        }
    }

    fn returns(&self) -> Vec<f64> {
        match self.winner {
            Some(0) => vec![1.0, -1.0],
            Some(1) => vec![-1.0, 1.0],
            _ => vec![0.0, 0.0],
        }
    }

    fn action_to_string(&self, action: Action) -> Result<String, EngineError> {
        if self.current_player() == CHANCE {
            nt::chance_outcome_to_string(action)
        } else {
            nt::player_action_to_string(action)
        }
    }

    fn string_to_action(&self, text: &str) -> Result<Action, EngineError> {
        if self.current_player() == CHANCE {
            nt::string_to_chance_outcome(text)
        } else {
            nt::string_to_player_action(text)
        }
    }

    /// During a set-up only the seat setting up sees where its cone goes.
    fn action_string_for(
        &self,
        seat: Option<usize>,
        action: Action,
    ) -> Result<String, EngineError> {
        let text = self.action_to_string(action)?;
        if self.phase == Phase::SetupPut && seat != Some(self.actor) && text.starts_with("put ") {
            return Ok("put ?".to_string());
        }
        Ok(text)
    }

    fn observation(&self, seat: Option<usize>) -> Value {
        observation::observe(self, Viewer::of(seat))
    }

    fn observation_tensor(&self, seat: Option<usize>, out: &mut [f32]) -> bool {
        tensor::write(self, seat, out)
    }

    fn text_view(&self) -> Option<Value> {
        Some(observation::observe(self, Viewer::Everything))
    }

    /// The rule `action` breaks: what this phase asks for, in the rule text's words.
    fn why_illegal(&self, action: Action) -> Option<String> {
        match self.phase {
            Phase::SetupPut => SETUP_ORDER
                .get(self.setup_progress[self.actor] as usize)
                .map(|value| {
                    format!("put your cone of value {value} on one of your free start fields")
                }),
            Phase::Act => self.die.map(|die| self.why_not_acted(action, die)),
            phase => phase.asks().map(str::to_string),
        }
    }

    fn resample(&self, seat: usize, rng: &mut dyn Randomness) -> Result<Self, EngineError> {
        self.resampled(seat, rng)
    }

    fn heuristic(&self, seat: usize) -> Option<f64> {
        Some(super::heuristic::evaluate(self, seat))
    }

    fn snapshot(&self) -> Option<Value> {
        Some(self.saved_record())
    }

    fn own_search(
        &self,
        request: &crate::search::SearchRequest,
    ) -> Option<Result<crate::search::SearchOutcome, EngineError>> {
        match request.search.as_str() {
            super::lookahead::NAME => Some(super::lookahead::search(self, request)),
            super::rollouts::NAME => Some(super::rollouts::search(self, request)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;
    use std::collections::BTreeSet;

    fn config(target: u32, max_turns: u32, setup: &str) -> Arc<Config> {
        Arc::new(Config {
            target,
            max_turns,
            setup: setup.to_string(),
            random_setup: setup == "random",
        })
    }

    fn new_game(target: u32, setup: &str) -> Box<dyn DynState> {
        let params = Params::from_json(&format!(
            "{{\"target\": {target}, \"max_turns\": 1000, \"setup\": \"{setup}\"}}"
        ))
        .unwrap();
        load(&params).unwrap().new_initial_state()
    }

    /// A state mid-game from a hand-built position (`BondoConesGame.position`): `cones` as
    /// square and token (`b8`, `w4+`, `b0#`), at the start of `to_move`'s turn, or just after
    /// the roll of `die` (`"3"`, `"eye"`, `"ring"`).
    struct Position<'a> {
        cones: &'a [(&'a str, &'a str)],
        to_move: usize,
        die: Option<&'a str>,
        scores: [u32; 2],
        windows: [u8; 2],
        set_aside: bool,
        target: u32,
        max_turns: u32,
    }

    impl Default for Position<'_> {
        fn default() -> Self {
            Position {
                cones: &[],
                to_move: 0,
                die: None,
                scores: [0, 0],
                windows: [0, 0],
                set_aside: false,
                target: 28,
                max_turns: 1000,
            }
        }
    }

    impl Position<'_> {
        fn state(&self) -> Played<BondoConesRules> {
            let mut state = BondoConesRules::new(config(self.target, self.max_turns, "choose"));
            for &(name, token) in self.cones {
                let seat = usize::from(token.starts_with('w'));
                let value = token[1..2].parse::<u8>().unwrap();
                let rings = match token.chars().nth(2) {
                    Some('+') => 1,
                    Some('#') => 2,
                    _ => 0,
                };
                state.place(nt::parse_square(name).unwrap(), seat, value, rings);
            }
            state.setup_progress = [SETUP_DONE, SETUP_DONE];
            state.scores = self.scores;
            state.first = Some(0);
            state.windows = self.windows;
            state.set_aside = self.set_aside;
            state.start_turn(self.to_move);
            if let Some(die) = self.die {
                state.phase = Phase::Act;
                state.die = nt::FACES.iter().position(|&face| face == die);
            }
            Played::new(state)
        }
    }

    fn play(state: &mut dyn DynState, moves: &[&str]) {
        for text in moves {
            let action = state.string_to_action(text).unwrap();
            state.apply_action(i64::from(action)).unwrap();
        }
    }

    fn legal(state: &mut dyn DynState) -> BTreeSet<String> {
        let actions = state.legal_actions().to_vec();
        actions
            .into_iter()
            .map(|a| state.action_to_string(i64::from(a)).unwrap())
            .collect()
    }

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn setup_places_values_in_order_and_fills_zeros() {
        let mut state = new_game(28, "choose");
        assert_eq!(state.current_player(), 0);
        assert_eq!(state.legal_actions().len(), 26);
        play(
            state.as_mut(),
            &["put e3", "put a1", "put b1", "put c1", "put d1"],
        );
        assert!(!legal(state.as_mut()).contains("put e3"));
        let rest: Vec<String> = legal(state.as_mut()).into_iter().take(11).collect();
        for text in &rest {
            play(state.as_mut(), &[text]);
        }
        assert_eq!(legal(state.as_mut()), set(&["ring d4", "ring g4"]));
        play(state.as_mut(), &["ring g4"]);
        assert_eq!(state.current_player(), 1);
    }

    #[test]
    fn ordinary_cone_moves_exactly_n_in_one_direction() {
        let mut state = Position {
            cones: &[("e5", "b1"), ("a12", "w0")],
            die: Some("3"),
            ..Position::default()
        }
        .state();
        let expected = [
            "e5-e8", "e5-h8", "e5-h5", "e5-h2", "e5-e2", "e5-b2", "e5-b5", "e5-b8",
        ];
        assert_eq!(legal(&mut state), set(&expected));
    }

    #[test]
    fn worked_example_the_edge_is_a_barrier() {
        // A cone two steps from the right border cannot go four steps right.
        let mut state = Position {
            cones: &[("h5", "b2"), ("a12", "w0")],
            die: Some("4"),
            ..Position::default()
        }
        .state();
        let destinations: BTreeSet<String> = legal(&mut state)
            .iter()
            .map(|m| m.split('-').nth(1).unwrap().to_string())
            .collect();
        assert_eq!(destinations, set(&["h9", "d9", "d5", "d1", "h1"]));
    }

    #[test]
    fn worked_example_bondo_two_forward_then_two_aside() {
        // With a 4, a BondO cone may go two steps forward, then two to the side.
        let bondo = &[("e3", "b2+"), ("j12", "w0")];
        let mut state = Position {
            cones: bondo,
            die: Some("4"),
            ..Position::default()
        }
        .state();
        assert!(legal(&mut state).contains("e3-g5"));
        let mut plain = Position {
            cones: &[("e3", "b2"), ("j12", "w0")],
            die: Some("4"),
            ..Position::default()
        }
        .state();
        assert!(!legal(&mut plain).contains("e3-g5"));
    }

    #[test]
    fn no_jumping_and_capture_on_the_last_step_scores() {
        let cones = [
            ("e5", "b1"),
            ("e6", "b0"),
            ("f6", "w0"),
            ("h5", "w2"),
            ("j12", "w0"),
        ];
        let mut state = Position {
            cones: &cones,
            die: Some("3"),
            ..Position::default()
        }
        .state();
        let moves = legal(&mut state);
        assert!(!moves.contains("e5-e8") && !moves.contains("e5-h8"));
        assert!(moves.contains("e5-h5"));
        play(&mut state, &["e5-h5"]);
        assert_eq!(state.rules.scores, [2, 0]);
        assert_eq!(state.rules.captured, [vec![2], vec![]]);
    }

    #[test]
    fn double_bondo_moves_twice_the_roll() {
        let mut state = Position {
            cones: &[("a1", "b0#"), ("j12", "w0")],
            die: Some("1"),
            ..Position::default()
        }
        .state();
        let moves = legal(&mut state);
        assert!(moves.contains("a1-a3") && moves.contains("a1-c3") && !moves.contains("a1-a4"));
    }

    #[test]
    fn rings_pass_to_the_capturer() {
        let mut state = Position {
            cones: &[("e5", "b1+"), ("e7", "w4+"), ("j12", "w0")],
            die: Some("2"),
            ..Position::default()
        }
        .state();
        play(&mut state, &["e5-e7"]);
        assert_eq!(state.rules.rings[nt::parse_square("e7").unwrap()], 2);
        assert_eq!(state.rules.scores, [4, 0]);
    }

    #[test]
    fn pass_when_no_move_exists() {
        let cones = [("a1", "b0"), ("a2", "w0"), ("b1", "w0"), ("b2", "w0")];
        let mut state = Position {
            cones: &cones,
            die: Some("2"),
            ..Position::default()
        }
        .state();
        assert_eq!(legal(&mut state), set(&["pass"]));
        play(&mut state, &["pass"]);
        assert_eq!(state.rules.turn_player, 1);
    }

    #[test]
    fn losing_the_last_ring_opens_a_three_turn_window() {
        let cones = [
            ("e5", "b2+"),
            ("a1", "b4"),
            ("b1", "b1"),
            ("e7", "w0"),
            ("j12", "w8+"),
        ];
        let mut state = Position {
            cones: &cones,
            to_move: 1,
            die: Some("2"),
            ..Position::default()
        }
        .state();
        play(&mut state, &["e7-e5"]);
        let turn = ["roll", "roll eye", "peek a1", "roll eye", "peek j12"];
        for _ in 0..3 {
            assert_eq!(legal(&mut state), set(&["battle", "roll"]));
            play(&mut state, &turn);
        }
        assert_eq!(state.current_player(), CHANCE);
        assert_eq!(state.rules.windows[0], 0);
    }

    #[test]
    fn battles_take_a_ring_or_let_the_opponent_spy_or_seize() {
        let double = [("a1", "b4"), ("b1", "b2"), ("j12", "w8#")];
        let mut state = Position {
            cones: &double,
            windows: [3, 0],
            ..Position::default()
        }
        .state();
        play(&mut state, &["battle", "battle won", "take j12>a1"]);
        assert!(state.rules.set_aside && state.rules.windows[1] == 3);
        let mut state = Position {
            cones: &double,
            windows: [3, 0],
            scores: [0, 24],
            ..Position::default()
        }
        .state();
        play(&mut state, &["battle", "battle lost"]);
        assert_eq!(legal(&mut state), set(&["seize a1", "seize b1"]));
        play(&mut state, &["seize a1"]);
        assert!(state.is_terminal() && state.returns() == vec![-1.0, 1.0]);
        let mut state = Position {
            cones: &[("a1", "b4"), ("j12", "w8+")],
            windows: [3, 0],
            ..Position::default()
        }
        .state();
        play(&mut state, &["battle", "battle lost", "spy a1"]);
        let seen = |state: &Played<BondoConesRules>, seat| {
            state.rules.observation(seat)["cones"]["a1"].clone()
        };
        assert_eq!(seen(&state, Some(1)), json!("b4s"));
        assert_eq!(seen(&state, None), json!("b?s"));
    }

    #[test]
    fn the_turn_cap_is_a_draw() {
        let mut state = Position {
            cones: &[("a1", "b4"), ("a12", "w0")],
            max_turns: 2,
            ..Position::default()
        }
        .state();
        play(&mut state, &["roll eye", "peek a1"]);
        assert!(!state.is_terminal());
        play(&mut state, &["roll eye", "peek a12"]);
        assert!(state.is_terminal() && state.returns() == vec![0.0, 0.0]);
        assert_eq!(state.rules.observation(Some(0))["winner"], json!("draw"));
    }

    #[test]
    fn illegal_actions_are_refused_with_the_rule() {
        let mut state = Position {
            cones: &[("e5", "b1"), ("j12", "w0")],
            die: Some("3"),
            ..Position::default()
        }
        .state();
        let elsewhere = i64::from(state.string_to_action("f1-e1").unwrap());
        let error = state.apply_action(elsewhere).unwrap_err();
        assert!(error.to_string().contains("no cone of yours"), "{error}");
        let step = i64::from(state.string_to_action("e5-e6").unwrap());
        assert!(state.why_illegal(step).contains("exactly 3 steps"));
        let mut fresh = new_game(28, "choose");
        let error = fresh
            .apply_action(i64::from(nt::PUT_BASE + 44))
            .unwrap_err();
        assert!(error.to_string().contains("value 8"), "{error}");
    }

    #[test]
    fn snapshots_restore_the_same_state() {
        let mut state = new_game(10, "random");
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        state.play_out(&mut rng);
        let saved = state.snapshot().unwrap();
        let again = BondoConesRules::restore(config(10, 1000, "random"), &saved).unwrap();
        assert_eq!(again.saved_record(), saved);
        let mut broken = saved.clone();
        broken["rings"][0] = json!(3);
        assert!(BondoConesRules::restore(config(10, 1000, "random"), &broken).is_err());
    }

    use rand::SeedableRng;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Any sequence of integers, legal or not, never panics, and a refused one changes
        /// nothing; legal moves are drawn often enough to reach every phase.
        #[test]
        fn arbitrary_actions_never_panic(
            steps in proptest::collection::vec((any::<bool>(), any::<i64>(), 0usize..64), 0..400),
            random_setup in any::<bool>(),
        ) {
            let mut state = new_game(10, if random_setup { "random" } else { "choose" });
            for (pick_legal, raw, index) in steps {
                let legal = state.legal_actions().to_vec();
                let action = if pick_legal && !legal.is_empty() {
                    i64::from(legal[index % legal.len()])
                } else {
                    raw
                };
                let before = state.snapshot();
                let history = state.history().to_vec();
                let _ = state.why_illegal(action);
                let _ = state.action_to_string(action);
                let _ = state.action_string_for(None, action);
                if state.apply_action(action).is_err() {
                    prop_assert_eq!(state.history(), &history[..]);
                    prop_assert_eq!(state.snapshot(), before);
                }
            }
        }
    }
}
