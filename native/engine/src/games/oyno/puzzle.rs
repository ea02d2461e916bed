//! The OYNO puzzle (`oyno_puzzle`), as `boneyard/games/oyno/puzzle.py` states it (RULINGS.md,
//! "OYNO puzzle"): make every bone stand up.
//!
//! - Set-up, a chance process: the bones are dealt one at a time, first the cell (uniform among
//!   the empty resting cells: `bone b2`), then the side (`up` / `down`). The rule text redraws a
//!   set-up with no up bone, and with two or more bones one with no down bone; instead of
//!   redrawing, each side is dealt with the probability the redrawn process gives it (its allowed
//!   completions over all allowed completions). A single bone is dealt up. `start` gives a fixed
//!   set-up; `difficulty=K` deals one of 1024 tickets, each a set-up solved in exactly K moves at
//!   best (`generator`).
//! - A move (`b2-d4`): an up bone on X goes to the center; the bones beside X are reversed; the
//!   bone goes up onto the empty resting cell Y; the bones beside Y are reversed.
//! - Every bone up: solved, return 1. `max_moves` moves without that: return 0.

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::board::{parse_position, ranks_of, Board, CellMask};
use super::duel::count;
use super::notation::{self, DIFFICULTY_TICKETS, ROLL_DOWN, ROLL_UP};
use super::{generator, observation, tensor};
use crate::core::{
    Action, DynState, EngineError, NativeGame, Params, Played, Rules, CHANCE, TERMINAL,
};

/// A loaded puzzle: its parameters and what every state shares.
pub struct PuzzleGame<M> {
    params: Params,
    setup: Arc<PuzzleSetup<M>>,
}

/// What the parameters fix for a whole game.
#[derive(Debug)]
pub struct PuzzleSetup<M> {
    pub board: Board<M>,
    pub bones: u32,
    /// As large as Python allows (no upper bound): the moves made are compared with it.
    pub max_moves: u64,
    /// `0`: a random deal; `K`: a ticket of the set-ups solved in exactly K moves.
    difficulty: u32,
    /// `start`: the occupied cells and the up bones.
    start: Option<(M, M)>,
    /// The set-up of each difficulty ticket, found the first time it is dealt (a search), then
    /// shared by every state of the game.
    tickets: Vec<OnceLock<(M, M)>>,
}

impl<M: CellMask> PuzzleSetup<M> {
    /// The set-up of `ticket`; one whose search fails deals ticket 0's, as the Python
    /// generator does (ticket 0 was found when the game was loaded).
    fn ticket(&self, ticket: usize) -> (M, M) {
        let first = || {
            self.tickets[0]
                .get()
                .copied()
                .unwrap_or((M::EMPTY, M::EMPTY))
        };
        match self.tickets.get(ticket) {
            Some(cell) => *cell.get_or_init(|| {
                generator::ticket_setup(&self.board, self.bones, self.difficulty, ticket as u32)
                    .unwrap_or_else(|_| first())
            }),
            None => first(),
        }
    }
}

pub fn load<M: CellMask>(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    let size = params.int("size")? as usize;
    let board = Board::<M>::new(size)?;
    let difficulty = count(params, "difficulty")?;
    let (start, bones) = match params.optional("start") {
        Some(Value::String(text)) if ranks_of(text) == size => {
            let mut occupied = M::EMPTY;
            let mut up = M::EMPTY;
            for (cell, char) in parse_position(text, size, "UD")? {
                occupied = occupied | M::bit(cell);
                if char == 'U' {
                    up = up | M::bit(cell);
                }
            }
            (Some((occupied, up)), occupied.count())
        }
        Some(other) => {
            return Err(EngineError::InvalidParameter(format!(
                "bad value {other} for parameter 'start' on a {size}x{size} board"
            )))
        }
        None => (None, count(params, "bones")?),
    };
    let resting = board.cells as u32 - 1;
    if !(1..resting).contains(&bones) {
        return Err(EngineError::InvalidParameter(format!(
            "bad value {bones} for parameter 'bones': allowed on {size}x{size} is an integer \
             from 1 to {}",
            resting - 1
        )));
    }
    let tickets = if difficulty > 0 {
        (0..DIFFICULTY_TICKETS).map(|_| OnceLock::new()).collect()
    } else {
        Vec::new()
    };
    let setup = PuzzleSetup {
        board,
        bones,
        max_moves: u64::try_from(params.int("max_moves")?).unwrap_or(0),
        difficulty,
        start,
        tickets,
    };
    if difficulty > 0 {
        let first = generator::ticket_setup(&setup.board, bones, difficulty, 0)?;
        let _ = setup.tickets[0].set(first);
    }
    Ok(Box::new(PuzzleGame {
        params: params.clone(),
        setup: Arc::new(setup),
    }))
}

impl<M: CellMask> NativeGame for PuzzleGame<M> {
    fn name(&self) -> &'static str {
        "oyno_puzzle"
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(Played::new(PuzzleRules::new(self.setup.clone())))
    }

    fn observation_tensor_shape(&self) -> Option<Vec<usize>> {
        Some(tensor::puzzle_shape(self.setup.board.size))
    }
}

/// A puzzle position: the occupied cells, the up bones, and the deal's progress.
#[derive(Clone, Debug)]
pub struct PuzzleRules<M> {
    pub setup: Arc<PuzzleSetup<M>>,
    pub occupied: M,
    pub up: M,
    pub moves: u32,
    pub dealt: u32,
    /// The cell of the bone whose side is being dealt.
    pub pending: Option<usize>,
    ups_dealt: u32,
    player: i32,
}

impl<M: CellMask> PuzzleRules<M> {
    fn new(setup: Arc<PuzzleSetup<M>>) -> PuzzleRules<M> {
        let mut state = PuzzleRules {
            occupied: M::EMPTY,
            up: M::EMPTY,
            moves: 0,
            dealt: 0,
            pending: None,
            ups_dealt: 0,
            player: CHANCE,
            setup,
        };
        if let Some((occupied, up)) = state.setup.start {
            state.occupied = occupied;
            state.up = up;
            state.dealt = state.setup.bones;
            state.settle();
        }
        state
    }

    /// Whose turn it is, after the deal or a move.
    fn settle(&mut self) {
        self.player = if self.dealt < self.setup.bones {
            CHANCE
        } else if self.up == self.occupied || u64::from(self.moves) >= self.setup.max_moves {
            TERMINAL
        } else {
            0
        };
    }

    pub fn is_solved(&self) -> bool {
        self.dealt == self.setup.bones && self.up == self.occupied
    }

    /// The position in notation (a bone whose side is still being dealt is not shown).
    pub fn position(&self) -> String {
        self.setup.board.format_position(|cell| {
            self.occupied
                .has(cell)
                .then(|| if self.up.has(cell) { 'U' } else { 'D' })
        })
    }

    /// The side outcomes of the bone being dealt, with the redrawn process's odds.
    fn side_outcomes(&self) -> Vec<(Action, f64)> {
        let bones = self.setup.bones;
        let need_down = bones >= 2;
        let has_up = self.ups_dealt > 0;
        let has_down = self.dealt > self.ups_dealt;
        let remaining = bones - self.dealt - 1;
        let total = Completions::count(has_up, has_down, remaining + 1, need_down);
        let up_ways = Completions::count(true, has_down, remaining, need_down);
        let down_ways = Completions::count(has_up, true, remaining, need_down);
        let n = self.setup.board.cells as Action;
        [(ROLL_DOWN, down_ways), (ROLL_UP, up_ways)]
            .into_iter()
            .filter(|(_, ways)| !ways.is_none())
            .map(|(side, ways)| (n + side, ways.share_of(total)))
            .collect()
    }
}

/// How many side patterns of the bones still to deal give an allowed set-up: `2^free` less the
/// one with no up bone (when none is up yet) and the one with no down bone (when one is needed
/// and none is down yet), never below 0. With up to 622 bones to come the count is kept as its
/// power of two and what it lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Completions {
    power: u32,
    less: u32,
}

impl Completions {
    fn count(has_up: bool, has_down: bool, free: u32, need_down: bool) -> Completions {
        Completions {
            power: free,
            less: u32::from(!has_up) + u32::from(need_down && !has_down),
        }
    }

    fn is_none(self) -> bool {
        self.power < 2 && (1u32 << self.power) <= self.less
    }

    /// `self / total` as Python's `int / int` gives it: the float nearest the exact quotient.
    /// `total` has one bone more to deal, so the share is within `2^-power` of one half.
    fn share_of(self, total: Completions) -> f64 {
        const EXACT: u32 = 120;
        if total.power > EXACT {
            // nearer one half than half the spacing of the floats there
            return 0.5;
        }
        let value = |c: Completions| (1u128 << c.power).saturating_sub(u128::from(c.less));
        nearest_float(value(self), value(total))
    }
}

/// The float nearest `num / den` (ties to even), for `0 < num <= den < 2^127`: the quotient's
/// bits by long division, 53 of them from the first one, then the rounding bit and whether
/// anything is left.
fn nearest_float(num: u128, den: u128) -> f64 {
    if num == 0 || den == 0 {
        return 0.0;
    }
    if num >= den {
        return 1.0;
    }
    let mut rest = num;
    let mut next_bit = || {
        rest <<= 1;
        let bit = rest >= den;
        if bit {
            rest -= den;
        }
        bit
    };
    let mut exponent = 1; // num / den lies in [2^-exponent, 2^(1-exponent))
    while !next_bit() {
        exponent += 1;
    }
    let mut mantissa: u64 = 1;
    for _ in 0..52 {
        mantissa = (mantissa << 1) | u64::from(next_bit());
    }
    let round = next_bit();
    let sticky = rest != 0;
    if round && (sticky || mantissa & 1 == 1) {
        mantissa += 1;
    }
    // mantissa * 2^-(exponent + 52); both factors are exact floats
    let scale = f64::from_bits(((1023 - exponent - 52) as u64) << 52);
    mantissa as f64 * scale
}

impl<M: CellMask> Rules for PuzzleRules<M> {
    const NAME: &'static str = "oyno_puzzle";

    fn num_players(&self) -> usize {
        1
    }

    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn current_player(&self) -> i32 {
        self.player
    }

    fn legal_actions(&self) -> Vec<Action> {
        let board = &self.setup.board;
        let n = board.cells;
        let targets = board.resting & !self.occupied;
        let mut actions = Vec::with_capacity((self.up.count() * targets.count()) as usize);
        for from in self.up.cells() {
            let row = from * n;
            actions.extend(targets.cells().map(|to| (row + to) as Action));
        }
        actions
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        if self.setup.difficulty > 0 {
            let p = 1.0 / DIFFICULTY_TICKETS as f64;
            return (0..DIFFICULTY_TICKETS as Action).map(|t| (t, p)).collect();
        }
        if self.pending.is_some() {
            return self.side_outcomes();
        }
        let free = self.setup.board.resting & !self.occupied;
        let p = 1.0 / f64::from(free.count());
        free.cells().map(|cell| (cell as Action, p)).collect()
    }

    fn apply_action(&mut self, action: Action) {
        let setup = &self.setup;
        let n = setup.board.cells;
        if self.player == CHANCE {
            if setup.difficulty > 0 {
                (self.occupied, self.up) = setup.ticket(action as usize);
                self.dealt = setup.bones;
                self.ups_dealt = self.up.count();
            } else if let Some(cell) = self.pending.take() {
                self.occupied = self.occupied | M::bit(cell);
                if action as usize == n + ROLL_UP as usize {
                    self.up = self.up | M::bit(cell);
                    self.ups_dealt += 1;
                }
                self.dealt += 1;
            } else {
                self.pending = Some(action as usize);
            }
            self.settle();
            return;
        }
        let (from, to) = (action as usize / n, action as usize % n);
        let neighbours = &setup.board.neighbours;
        let occupied = self.occupied & !M::bit(from);
        // the bone goes to the center; the bones beside the cell it left are reversed
        let up = (self.up & !M::bit(from)) ^ (neighbours[from] & occupied);
        // it comes down up on the new cell; the bones beside that cell are reversed
        self.up = (up | M::bit(to)) ^ (neighbours[to] & occupied);
        self.occupied = occupied | M::bit(to);
        self.moves += 1;
        self.settle();
    }

    fn returns(&self) -> Vec<f64> {
        if self.player == TERMINAL && self.up == self.occupied {
            vec![1.0]
        } else {
            vec![0.0]
        }
    }

    fn action_to_string(&self, action: Action) -> Result<String, EngineError> {
        let board = &self.setup.board;
        if self.player == CHANCE {
            notation::puzzle_chance_to_string(board, action, self.setup.difficulty > 0)
        } else {
            notation::puzzle_action_to_string(board, action)
        }
    }

    fn string_to_action(&self, text: &str) -> Result<Action, EngineError> {
        let board = &self.setup.board;
        if self.player == CHANCE {
            notation::puzzle_string_to_chance(board, text, self.setup.difficulty > 0)
        } else {
            notation::puzzle_string_to_action(board, text)
        }
    }

    fn observation(&self, _seat: Option<usize>) -> Value {
        observation::puzzle(self)
    }

    fn observation_tensor(&self, seat: Option<usize>, out: &mut [f32]) -> bool {
        tensor::write_puzzle(self, seat, out)
    }

    fn why_illegal(&self, action: Action) -> Option<String> {
        if self.player != 0 {
            return None;
        }
        let board = &self.setup.board;
        let (from, to) = (action as usize / board.cells, action as usize % board.cells);
        if from >= board.cells {
            return None;
        }
        let reason = if from == board.center || to == board.center {
            format!(
                "{} is the center: no bone rests there",
                board.name(board.center)
            )
        } else if !self.occupied.has(from) {
            format!("{} has no bone", board.name(from))
        } else if !self.up.has(from) {
            format!(
                "the bone on {} is down: only up bones may be taken",
                board.name(from)
            )
        } else if from == to {
            "the bone must go to another cell".to_string()
        } else if self.occupied.has(to) {
            format!("{} is not empty", board.name(to))
        } else {
            return None;
        };
        Some(reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn game(params: &str) -> Box<dyn NativeGame> {
        let mut all = serde_json::json!({
            "size": 5, "bones": 8, "max_moves": 200, "start": null, "difficulty": 0,
        });
        let extra: Value = serde_json::from_str(params).unwrap();
        for (key, value) in extra.as_object().unwrap() {
            all[key] = value.clone();
        }
        let params = Params::from_json(&all.to_string()).unwrap();
        super::super::load_puzzle(&params).unwrap()
    }

    fn puzzle(start: &str) -> Box<dyn DynState> {
        game(&format!("{{\"start\": \"{start}\"}}")).new_initial_state()
    }

    fn play(state: &mut Box<dyn DynState>, moves: &[&str]) {
        for text in moves {
            let id = state.string_to_action(text).unwrap();
            state.apply_action(i64::from(id)).unwrap();
        }
    }

    fn position(state: &dyn DynState) -> String {
        state.observation(Some(0)).unwrap()["position"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn a_move_reverses_the_neighbours_of_both_cells_and_puts_the_bone_up() {
        // a1 (up) goes to e5. Beside a1: a2 (down -> up), b1 (up -> down).
        // Beside e5: d5 (up -> down), e4 (down -> up). Far away bones stay.
        let mut state = puzzle("...U./D...D/..o../D...U/UU..U");
        play(&mut state, &["a1-e5"]);
        assert_eq!(position(&*state), "...DU/D...U/..o../U...U/.D..U");
    }

    #[test]
    fn a_bone_beside_both_cells_is_reversed_twice() {
        let mut state = puzzle("...../...../D.o../.D.../DUD..");
        play(&mut state, &["b1-a2"]);
        assert_eq!(position(&*state), "...../...../U.o../UD.../D.U..");
    }

    #[test]
    fn the_cell_left_is_empty_when_the_bone_lands_beside_it() {
        let mut state = puzzle("...../...../..o../D..../U.D..");
        play(&mut state, &["a1-b1"]);
        assert_eq!(position(&*state), "...../...../..o../U..../.UU..");
    }

    #[test]
    fn only_up_bones_may_be_taken_to_empty_resting_cells() {
        let mut state = puzzle("...../...../..o../...../U...D");
        let refuse = |state: &mut Box<dyn DynState>, text: &str| {
            let id = state.string_to_action(text).unwrap();
            state.why_illegal(i64::from(id))
        };
        assert_eq!(
            refuse(&mut state, "e1-a5"),
            "The bone on e1 is down: only up bones may be taken."
        );
        assert_eq!(refuse(&mut state, "a1-e1"), "e1 is not empty.");
        assert_eq!(
            refuse(&mut state, "a1-a1"),
            "The bone must go to another cell."
        );
        assert_eq!(refuse(&mut state, "b1-a5"), "b1 has no bone.");
        let legal = state.legal_actions().len();
        assert_eq!(legal, 22); // a1 to each of the 22 empty resting cells
    }

    #[test]
    fn a_solved_puzzle_returns_one_and_an_unsolved_one_zero_at_max_moves() {
        let mut state = puzzle("...../...../..o../...../U.D..");
        play(&mut state, &["a1-d1"]); // landing on d1 turns c1 (down) up: all up
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![1.0]);
        let mut state = game(r#"{"start": "...../...../..o../...../U...D", "max_moves": 1}"#)
            .new_initial_state();
        play(&mut state, &["a1-a5"]);
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![0.0]);
    }

    #[test]
    fn a_single_bone_is_dealt_up() {
        let mut state = game(r#"{"size": 3, "bones": 1}"#).new_initial_state();
        state.apply_action(0).unwrap();
        assert_eq!(state.chance_outcomes(), vec![(10, 1.0)]);
        state.apply_action(10).unwrap();
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![1.0]);
    }

    #[test]
    fn the_last_bone_must_be_down_when_all_others_are_up() {
        let mut state = game(r#"{"size": 3, "bones": 2}"#).new_initial_state();
        // the first side: of the patterns UU, UD, DU, DD only UD and DU are allowed: 1/2 each
        state.apply_action(0).unwrap();
        assert_eq!(state.chance_outcomes(), vec![(9, 0.5), (10, 0.5)]);
        state.apply_action(10).unwrap();
        state.apply_action(1).unwrap();
        assert_eq!(state.chance_outcomes(), vec![(9, 1.0)]);
    }

    #[test]
    fn side_odds_are_the_nearest_floats_of_the_exact_shares() {
        // values from Python's int / int
        assert_eq!(nearest_float(1, 3), 1.0 / 3.0);
        assert_eq!(nearest_float((1 << 60) - 1, (1 << 61) - 2), 0.5);
        assert_eq!(
            nearest_float((1 << 53) - 1, (1 << 54) - 1).to_bits(),
            0.49999999999999994f64.to_bits()
        );
        assert_eq!(
            nearest_float(1 << 60, (1 << 61) - 1).to_bits(),
            0.5f64.to_bits()
        );
        assert_eq!(nearest_float(127, 255), 127.0 / 255.0);
        let share = Completions {
            power: 300,
            less: 1,
        }
        .share_of(Completions {
            power: 301,
            less: 2,
        });
        assert_eq!(share, 0.5);
    }

    #[test]
    fn every_difficulty_ticket_deals_a_puzzle_of_that_length() {
        let state = game(r#"{"size": 3, "bones": 5, "difficulty": 2}"#).new_initial_state();
        assert_eq!(state.chance_outcomes().len(), DIFFICULTY_TICKETS);
        let board = Board::<u64>::new(3).unwrap();
        for ticket in (0..DIFFICULTY_TICKETS as i64).step_by(31) {
            let mut dealt = state.clone_box();
            dealt.apply_action(ticket).unwrap();
            assert_eq!(dealt.current_player(), 0);
            let position = dealt.observation(Some(0)).unwrap()["position"].clone();
            let bones = parse_position(position.as_str().unwrap(), 3, "UD").unwrap();
            let mask = |up_only: bool| {
                bones
                    .iter()
                    .filter(|&&(_, char)| !up_only || char == 'U')
                    .fold(0u64, |mask, &(cell, _)| mask | 1 << cell)
            };
            assert_eq!(bones.len(), 5);
            let length = super::super::search::optimal_length(&board, mask(false), mask(true), 2);
            assert_eq!(length, Some(2));
        }
    }

    proptest! {
        /// Any sequence of integers never panics, and a refused one changes nothing.
        #[test]
        fn arbitrary_actions_never_panic(
            actions in proptest::collection::vec(prop_oneof![0i64..30, 0i64..700, any::<i64>()], 0..80),
        ) {
            let mut state = game(r#"{"bones": 5}"#).new_initial_state();
            for action in actions {
                let before = (state.history().to_vec(), state.observation(None).unwrap());
                if state.apply_action(action).is_err() {
                    prop_assert_eq!(&before.0[..], state.history());
                    prop_assert_eq!(before.1, state.observation(None).unwrap());
                }
                let _ = state.why_illegal(action);
                let _ = state.action_to_string(action);
            }
        }
    }
}
