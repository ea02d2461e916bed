//! Obonto's rules, as `boneyard/games/obonto/rules.py` and RULINGS.md state them:
//!
//! * At the start of every game all 81 squares are light except c3, g3, c7 and g7.
//! * A move takes one of the mover's animals exactly 1 (lion), 2 (zebra) or 3 (camel)
//!   orthogonal steps. The path may turn corners, never visits a square twice (the start square
//!   included), enters only light squares, may pass over animals of either side and ends on a
//!   square with no animal. All paths to one square are the same move.
//! * The square the animal left turns dark.
//! * A player with no legal move on their turn has lost the game; the winner then moves alone
//!   (the solo phase) until stuck too, and scores 1 + the number of solo moves.
//! * A match of `games` games (ended early once a total reaches `target`) keeps the animals where
//!   they stand, resets the squares and lets the loser of a game move first in the next. The
//!   match returns are the difference of the totals.
//!
//! The board is a `u128` bitboard (bit = square index), as the Python masks are.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use serde_json::Value;

use super::notation::{self, KINDS, NUM_ACTIONS, SIZE, SQUARES, STEPS};
use super::{heuristic, observation, tensor};

use crate::core::{
    Action, DynState, EngineError, NativeGame, Params, Played, PositionHasher, Rules, TERMINAL,
};

/// The seats as the Python game names them (`ObontoGame.seat_names`), for the reasons of refusals.
const SEAT_NAMES: [&str; 2] = ["South", "North"];

/// One destination of an animal on one square: the squares each path to it enters are
/// `PathTable::paths[first_path..end_path]` (the target included, the start square not).
struct Destination {
    square: u8,
    first_path: u32,
    end_path: u32,
}

/// Where each kind of animal may go from each square, and by which paths: Python's `PATHS`,
/// built once for the process (it depends on the board alone, never on a game's parameters)
/// and flattened so that a move generation walks two arrays.
struct PathTable {
    /// `destinations[starts[slot]..starts[slot + 1]]` for `slot = kind * 81 + square`, sorted by
    /// destination square (so one animal's moves come out sorted).
    starts: Vec<u32>,
    destinations: Vec<Destination>,
    paths: Vec<u128>,
    /// Per `kind * 81 + square`: every square the animal could reach on an empty, light board
    /// (the "moves exactly k steps" rule, for the reason of a refusal).
    reach: Vec<u128>,
}

fn path_table() -> &'static PathTable {
    static TABLE: OnceLock<PathTable> = OnceLock::new();
    TABLE.get_or_init(PathTable::build)
}

impl PathTable {
    fn build() -> PathTable {
        let mut table = PathTable {
            starts: vec![0],
            destinations: Vec::new(),
            paths: Vec::new(),
            reach: Vec::new(),
        };
        for steps in STEPS {
            for start in 0..SQUARES {
                let mut by_target: Vec<Vec<u128>> = vec![Vec::new(); SQUARES];
                walk(start, 1 << start, 0, steps, &mut by_target);
                let mut reach = 0u128;
                for (target, masks) in by_target.iter_mut().enumerate() {
                    if masks.is_empty() {
                        continue;
                    }
                    reach |= 1 << target;
                    keep_least(masks);
                    let first_path = table.paths.len() as u32;
                    table.paths.extend_from_slice(masks);
                    table.destinations.push(Destination {
                        square: target as u8,
                        first_path,
                        end_path: table.paths.len() as u32,
                    });
                }
                table.starts.push(table.destinations.len() as u32);
                table.reach.push(reach);
            }
        }
        table
    }

    fn destinations(&self, kind: usize, square: usize) -> &[Destination] {
        let slot = kind * SQUARES + square;
        &self.destinations[self.starts[slot] as usize..self.starts[slot + 1] as usize]
    }

    /// Whether some path to `destination` enters no dark square.
    fn open(&self, destination: &Destination, dark: u128) -> bool {
        self.paths[destination.first_path as usize..destination.end_path as usize]
            .iter()
            .any(|&entered| entered & dark == 0)
    }
}

/// Every path of `left` more steps from `square` that never comes back to a visited square,
/// recorded under its last square as the mask of the squares it entered.
fn walk(square: usize, visited: u128, entered: u128, left: usize, by_target: &mut [Vec<u128>]) {
    if left == 0 {
        by_target[square].push(entered);
        return;
    }
    for next in orthogonal_neighbours(square) {
        let bit = 1u128 << next;
        if visited & bit == 0 {
            walk(next, visited | bit, entered | bit, left - 1, by_target);
        }
    }
}

fn orthogonal_neighbours(square: usize) -> impl Iterator<Item = usize> {
    let (file, rank) = (square % SIZE, square / SIZE);
    [
        (file > 0).then(|| square - 1),
        (file + 1 < SIZE).then(|| square + 1),
        (rank > 0).then(|| square - SIZE),
        (rank + 1 < SIZE).then(|| square + SIZE),
    ]
    .into_iter()
    .flatten()
}

/// Drop the paths that enter all the squares of another path and more: whenever such a path is
/// open, the smaller one is open too, so the move's legality never depends on them.
fn keep_least(masks: &mut Vec<u128>) {
    masks.sort_unstable();
    masks.dedup();
    let all = masks.clone();
    masks.retain(|&mask| {
        !all.iter()
            .any(|&other| other != mask && other & mask == other)
    });
}

/// The match's settings, from the parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchRules {
    pub games: u32,
    /// End the match once a total reaches this (0: never).
    pub target: u32,
}

/// The most moves one seat can have: in the open its lion reaches 4 squares, its zebra 8 and
/// its camel 16.
const MOST_MOVES: usize = 28;

/// A seat's legal moves, sorted, kept in the state (as Python keeps `_moves`) without a heap
/// allocation, so that a clone and a step stay cheap.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Moves {
    ids: [u16; MOST_MOVES],
    count: u8,
}

impl Moves {
    const NONE: Moves = Moves {
        ids: [0; MOST_MOVES],
        count: 0,
    };

    fn push(&mut self, action: Action) {
        if let (Some(slot), Ok(id)) = (
            self.ids.get_mut(usize::from(self.count)),
            u16::try_from(action),
        ) {
            *slot = id;
            self.count += 1;
        }
    }

    fn as_slice(&self) -> &[u16] {
        &self.ids[..usize::from(self.count)]
    }
}

/// One finished game: who won and the points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    pub winner: u8,
    pub score: u32,
}

pub struct ObontoGame {
    params: Params,
    match_rules: MatchRules,
    start: [u8; 6],
    first: u8,
}

pub fn load(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    let number = |name: &str, most: i64| {
        let value = params.int(name)?;
        u32::try_from(value)
            .ok()
            .filter(|&n| i64::from(n) <= most)
            .ok_or_else(|| {
                EngineError::InvalidParameter(format!("parameter '{name}' is 0 to {most}"))
            })
    };
    let games = number("games", 1000)?;
    let target = number("target", 100_000)?;
    let first = number("first", 1)? as u8;
    let start = notation::parse_placement(params.text("start")?)?;
    Ok(Box::new(ObontoGame {
        params: params.clone(),
        match_rules: MatchRules { games, target },
        start,
        first,
    }))
}

impl ObontoGame {
    /// The match's first game from any board (Python's `new_state_from_position`): `dark` a mask
    /// of the dark squares, `animals` seat 0's lion, zebra, camel then seat 1's.
    pub fn state_at(
        &self,
        dark: u128,
        animals: [u8; 6],
        to_move: u8,
    ) -> Result<ObontoRules, EngineError> {
        let on_board = animals.iter().all(|&square| usize::from(square) < SQUARES);
        let apart = (0..6).all(|slot| !animals[..slot].contains(&animals[slot]));
        if !on_board || !apart || to_move > 1 || dark >> SQUARES != 0 {
            return Err(EngineError::InvalidState(format!(
                "bad obonto position: animals {animals:?}, seat {to_move} to move"
            )));
        }
        Ok(ObontoRules::new(self.match_rules, dark, animals, to_move))
    }
}

impl NativeGame for ObontoGame {
    fn name(&self) -> &'static str {
        ObontoRules::NAME
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        let rules = ObontoRules::new(
            self.match_rules,
            notation::start_dark_mask(),
            self.start,
            self.first,
        );
        Box::new(Played::new(rules))
    }

    fn observation_tensor_shape(&self) -> Option<Vec<usize>> {
        Some(tensor::SHAPE.to_vec())
    }
}

/// A position of an Obonto match: the board, whose turn, the phase and the scores.
#[derive(Clone, Debug, PartialEq)]
pub struct ObontoRules {
    pub(super) match_rules: MatchRules,
    pub(super) dark: u128,
    /// Square of seat 0's lion, zebra, camel, then seat 1's.
    pub(super) animals: [u8; 6],
    occupied: u128,
    pub(super) to_move: u8,
    /// The seat that moved first in the game under way.
    pub(super) first: u8,
    /// The seat stuck first in the game under way: the other one moves alone.
    pub(super) loser: Option<u8>,
    pub(super) solo_moves: u32,
    pub(super) game_index: u32,
    pub(super) totals: [u32; 2],
    pub(super) results: Vec<GameResult>,
    over: bool,
    pub(super) last_move: Option<Action>,
    /// The legal moves of the player to move (none once the match is over).
    moves: Moves,
}

impl ObontoRules {
    fn new(match_rules: MatchRules, dark: u128, animals: [u8; 6], to_move: u8) -> ObontoRules {
        let mut state = ObontoRules {
            match_rules,
            dark,
            animals,
            occupied: animals.iter().fold(0, |mask, &square| mask | 1 << square),
            to_move,
            first: to_move,
            loser: None,
            solo_moves: 0,
            game_index: 0,
            totals: [0, 0],
            results: Vec::new(),
            over: false,
            last_move: None,
            moves: Moves::NONE,
        };
        state.settle();
        state
    }

    /// `"play"` (both move), `"solo"` (the winner moves alone) or `"over"`.
    pub fn phase(&self) -> &'static str {
        if self.over {
            "over"
        } else if self.loser.is_none() {
            "play"
        } else {
            "solo"
        }
    }

    /// How many moves `seat` has now (the heuristic's mobility).
    pub(super) fn mobility(&self, seat: u8) -> usize {
        if seat == self.to_move {
            usize::from(self.moves.count)
        } else {
            usize::from(self.moves_of(seat).count)
        }
    }

    /// Whether an animal may end its move on `destination` now.
    fn can_reach(&self, table: &PathTable, destination: &Destination) -> bool {
        self.occupied >> destination.square & 1 == 0 && table.open(destination, self.dark)
    }

    /// `seat`'s moves, sorted: the animals taken in the order of their squares, each one's
    /// destinations in order, is the order of the ids (`origin * 81 + target`).
    fn moves_of(&self, seat: u8) -> Moves {
        let table = path_table();
        let mut origins = [0, 1, 2].map(|kind| (self.animals[usize::from(seat) * 3 + kind], kind));
        origins.sort_unstable();
        let mut moves = Moves::NONE;
        for (origin, kind) in origins {
            let origin = usize::from(origin);
            for destination in table.destinations(kind, origin) {
                if self.can_reach(table, destination) {
                    moves.push(notation::action_id(origin, destination.square.into()));
                }
            }
        }
        moves
    }

    /// Make sure the player to move has a move: a stuck player loses, a stuck winner ends the
    /// game, and a game that ends starts the next one (or ends the match). A loop, as in Python:
    /// a long match of games that end at once must not grow the stack.
    fn settle(&mut self) {
        loop {
            let moves = self.moves_of(self.to_move);
            if moves.count > 0 {
                self.moves = moves;
                return;
            }
            match self.loser {
                None => {
                    self.loser = Some(self.to_move);
                    self.to_move = 1 - self.to_move;
                }
                Some(loser) => {
                    if self.end_game(loser) {
                        self.moves = Moves::NONE;
                        return;
                    }
                }
            }
        }
    }

    /// Score the game that just ended; start the next one. True when the match is over.
    fn end_game(&mut self, loser: u8) -> bool {
        let winner = 1 - loser;
        let score = 1 + self.solo_moves;
        self.totals[usize::from(winner)] += score;
        self.results.push(GameResult { winner, score });
        let rules = self.match_rules;
        let reached = rules.target > 0 && self.totals.iter().any(|&total| total >= rules.target);
        if self.results.len() >= rules.games as usize || reached {
            self.over = true;
            return true;
        }
        self.game_index += 1;
        self.dark = notation::start_dark_mask();
        self.to_move = loser;
        self.first = loser;
        self.loser = None;
        self.solo_moves = 0;
        false
    }

    /// The rule `action` (an id of a move) breaks now, in the Python engine's words.
    fn broken_rule(&self, action: Action) -> String {
        let (origin, target) = notation::squares_of(action);
        let name = notation::square_name;
        let Some(slot) = self
            .animals
            .iter()
            .position(|&square| usize::from(square) == origin)
        else {
            return format!("no animal stands on {}", name(origin));
        };
        let (owner, kind, seat) = (slot / 3, slot % 3, usize::from(self.to_move));
        if owner != seat {
            return format!(
                "that is {}'s {}: it is {}'s turn",
                SEAT_NAMES[owner], KINDS[kind], SEAT_NAMES[seat]
            );
        }
        if self.occupied >> target & 1 == 1 {
            return format!(
                "{} is taken: a move must end on a square with no animal",
                name(target)
            );
        }
        if self.dark >> target & 1 == 1 {
            return format!(
                "{} is dark: animals never land on dark squares",
                name(target)
            );
        }
        if path_table().reach[kind * SQUARES + origin] >> target & 1 == 0 {
            let steps = STEPS[kind];
            let plural = if steps > 1 { "s" } else { "" };
            let turning = if steps == 1 {
                ""
            } else {
                ", turning if it likes but never back"
            };
            return format!(
                "the {} moves exactly {steps} step{plural}, up, down, left or right{turning}",
                KINDS[kind]
            );
        }
        format!(
            "every way from {} to {} crosses a dark square",
            name(origin),
            name(target)
        )
    }
}

fn out_of_range() -> String {
    format!("action ids are 0 to {}", NUM_ACTIONS - 1)
}

impl Rules for ObontoRules {
    const NAME: &'static str = "obonto";

    fn num_players(&self) -> usize {
        2
    }

    fn current_player(&self) -> i32 {
        if self.over {
            TERMINAL
        } else {
            i32::from(self.to_move)
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.moves
            .as_slice()
            .iter()
            .map(|&id| Action::from(id))
            .collect()
    }

    fn apply_action(&mut self, action: Action) {
        let (origin, target) = notation::squares_of(action);
        if let Some(slot) = self
            .animals
            .iter()
            .position(|&square| usize::from(square) == origin)
        {
            self.animals[slot] = target as u8;
        }
        self.dark |= 1 << origin;
        self.occupied ^= 1 << origin | 1 << target;
        self.last_move = Some(action);
        if self.loser.is_none() {
            self.to_move = 1 - self.to_move;
        } else {
            self.solo_moves += 1;
        }
        self.settle();
    }

    fn returns(&self) -> Vec<f64> {
        if !self.over {
            return vec![0.0, 0.0];
        }
        let difference = f64::from(self.totals[0]) - f64::from(self.totals[1]);
        vec![difference, -difference]
    }

    fn action_to_string(&self, action: Action) -> Result<String, EngineError> {
        notation::action_to_string(action)
    }

    fn string_to_action(&self, text: &str) -> Result<Action, EngineError> {
        notation::string_to_action(text)
    }

    fn observation(&self, seat: Option<usize>) -> Value {
        observation::observe(self, seat)
    }

    fn observation_tensor(&self, seat: Option<usize>, out: &mut [f32]) -> bool {
        tensor::write(self, seat, out)
    }

    fn why_illegal(&self, action: Action) -> Option<String> {
        if action >= NUM_ACTIONS {
            return Some(out_of_range());
        }
        Some(self.broken_rule(action))
    }

    fn why_illegal_integer(&self, _action: i64) -> Option<String> {
        Some(out_of_range())
    }

    fn num_distinct_actions(&self) -> Option<Action> {
        Some(NUM_ACTIONS)
    }

    fn heuristic(&self, seat: usize) -> Option<f64> {
        Some(heuristic::evaluate(self, seat))
    }

    fn utility_range(&self) -> Option<(f64, f64)> {
        Some(heuristic::utility_range(
            self.match_rules.games,
            self.match_rules.target,
        ))
    }

    fn transposition_key(&self) -> Option<u64> {
        // Everything the rest of the match depends on; the last move and the list of results
        // are only shown (the totals hold the score).
        let mut hasher = PositionHasher::new();
        (
            self.dark,
            self.animals,
            self.to_move,
            self.first,
            self.loser,
        )
            .hash(&mut hasher);
        (self.solo_moves, self.game_index, self.totals, self.over).hash(&mut hasher);
        Some(hasher.finish())
    }
}

#[cfg(test)]
mod tests {
    //! The worked examples of the rule page and of `tests/games/obonto/test_obonto_rules.py`.

    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn game(games: u32, target: u32) -> ObontoGame {
        let params = Params::from_json(&format!(
            r#"{{"games": {games}, "target": {target}, "start": "d1,e1,f1,f9,e9,d9", "first": 0}}"#
        ))
        .unwrap();
        ObontoGame {
            params: params.clone(),
            match_rules: MatchRules { games, target },
            start: notation::parse_placement("d1,e1,f1,f9,e9,d9").unwrap(),
            first: 0,
        }
    }

    fn new_state() -> Played<ObontoRules> {
        let game = game(1, 0);
        Played::new(ObontoRules::new(
            game.match_rules,
            notation::start_dark_mask(),
            game.start,
            game.first,
        ))
    }

    fn mask(names: &[&str]) -> u128 {
        names.iter().fold(0, |mask, name| {
            mask | 1 << notation::square_index(name).unwrap()
        })
    }

    fn all_but(light: &[&str]) -> u128 {
        ((1u128 << SQUARES) - 1) & !mask(light)
    }

    fn state_at(animals: &str, dark: u128, to_move: u8, games: u32) -> Played<ObontoRules> {
        let animals = notation::parse_placement(animals).unwrap();
        Played::new(game(games, 0).state_at(dark, animals, to_move).unwrap())
    }

    fn moves(state: &mut Played<ObontoRules>) -> BTreeSet<String> {
        state
            .legal_actions()
            .to_vec()
            .into_iter()
            .map(|a| notation::action_to_string(a).unwrap())
            .collect()
    }

    fn moves_from(state: &mut Played<ObontoRules>, square: &str) -> BTreeSet<String> {
        moves(state)
            .into_iter()
            .filter(|m| m.starts_with(&format!("{square}-")))
            .collect()
    }

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn play(state: &mut Played<ObontoRules>, moves: &[&str]) -> Result<(), EngineError> {
        for text in moves {
            let action = state.string_to_action(text)?;
            state.apply_action(action.into())?;
        }
        Ok(())
    }

    fn obs(state: &Played<ObontoRules>) -> Value {
        state.observation(None).unwrap()
    }

    #[test]
    fn the_start_darkens_the_third_and_seventh_squares_of_both_diagonals() {
        assert_eq!(
            obs(&new_state())["dark"],
            serde_json::json!(["c3", "g3", "c7", "g7"])
        );
    }

    #[test]
    fn the_animals_stand_left_to_right_from_each_seat() {
        assert_eq!(
            obs(&new_state())["animals"],
            serde_json::json!([
                {"lion": "d1", "zebra": "e1", "camel": "f1"},
                {"lion": "f9", "zebra": "e9", "camel": "d9"},
            ])
        );
    }

    #[test]
    fn the_lion_moves_exactly_one_step() {
        assert_eq!(moves_from(&mut new_state(), "d1"), set(&["d1-c1", "d1-d2"]));
    }

    #[test]
    fn the_zebra_moves_two_steps_turning_and_passing_over_own_animals() {
        assert_eq!(
            moves_from(&mut new_state(), "e1"),
            set(&["e1-c1", "e1-g1", "e1-d2", "e1-f2", "e1-e3"])
        );
    }

    #[test]
    fn the_camel_moves_three_steps_never_onto_a_dark_square() {
        // g3 is three steps from f1 but dark; e1 is one step away (around a corner) but taken.
        let expected = set(&[
            "f1-c1", "f1-i1", "f1-g1", "f1-f2", "f1-d2", "f1-e3", "f1-f4", "f1-h2",
        ]);
        assert_eq!(moves_from(&mut new_state(), "f1"), expected);
    }

    #[test]
    fn a_camel_on_an_open_board_reaches_every_square_three_or_one_step_away() {
        let mut state = state_at("a1,b1,e5,a9,b9,c9", 0, 0, 1);
        let mut expected = BTreeSet::new();
        for df in -3i32..=3 {
            for dr in -3i32..=3 {
                let (file, rank) = (4 + df, 4 + dr);
                if matches!(df.abs() + dr.abs(), 1 | 3)
                    && (0..9).contains(&file)
                    && (0..9).contains(&rank)
                {
                    let square = notation::square_name((rank * 9 + file) as usize);
                    expected.insert(format!("e5-{square}"));
                }
            }
        }
        assert_eq!(moves_from(&mut state, "e5"), expected);
    }

    #[test]
    fn a_camel_may_turn_two_corners() {
        // e5 to g6 over g5 or e6 is dark; only e5-f5-f6-g6 is left.
        let mut state = state_at("a1,b1,e5,a9,b9,c9", mask(&["e6", "g5"]), 0, 1);
        assert!(moves(&mut state).contains("e5-g6"));
        let mut blocked = state_at("a1,b1,e5,a9,b9,c9", mask(&["e6", "g5", "f6"]), 0, 1);
        assert!(!moves(&mut blocked).contains("e5-g6"));
    }

    #[test]
    fn a_dark_square_mid_path_blocks_the_move() {
        let mut open = state_at("a1,b1,e5,a9,b9,c9", 0, 0, 1);
        assert!(moves(&mut open).contains("e5-e8"));
        let mut state = state_at("a1,b1,e5,a9,b9,c9", mask(&["e7"]), 0, 1);
        assert!(!moves(&mut state).contains("e5-e8"));
        let error = play(&mut state, &["e5-e8"]).unwrap_err();
        assert!(error
            .message()
            .contains("every way from e5 to e8 crosses a dark square"));
    }

    #[test]
    fn a_zebra_is_blocked_by_the_dark_squares_between() {
        let dark = notation::start_dark_mask() | mask(&["e2", "d2", "f2"]);
        let mut state = state_at("d1,e1,f1,f9,e9,d9", dark, 0, 1);
        assert_eq!(moves_from(&mut state, "e1"), set(&["e1-c1", "e1-g1"]));
    }

    #[test]
    fn a_path_never_visits_a_square_twice() {
        let mut state = state_at("a1,b1,e5,a9,b9,c9", mask(&["d5", "f5"]), 0, 1);
        assert!(!moves(&mut state).contains("e5-e6"));
        let mut one_detour = state_at("a1,b1,e5,a9,b9,c9", mask(&["d5"]), 0, 1);
        assert!(moves(&mut one_detour).contains("e5-e6"));
        let mut zebra = state_at("a1,e5,i1,a9,b9,c9", 0, 0, 1);
        let error = play(&mut zebra, &["e5-e5"]).unwrap_err();
        assert!(error.message().contains("e5 is taken"), "{error}");
    }

    #[test]
    fn animals_of_either_side_may_be_passed_over() {
        let mut state = state_at("d1,e1,f1,f9,e2,d9", notation::start_dark_mask(), 0, 1);
        assert!(moves(&mut state).contains("e1-e3"));
    }

    #[test]
    fn no_move_ends_on_an_animal_and_a_refusal_changes_nothing() {
        let mut state = state_at("d1,e1,f1,f9,d2,d9", notation::start_dark_mask(), 0, 1);
        assert_eq!(moves_from(&mut state, "d1"), set(&["d1-c1"]));
        let before = state.rules.clone();
        let error = play(&mut state, &["d1-d2"]).unwrap_err();
        assert!(error.message().contains("d2 is taken"), "{error}");
        assert_eq!(state.rules, before);
        assert!(state.history().is_empty());
    }

    #[test]
    fn only_the_player_to_move_moves_own_animals() {
        let error = play(&mut new_state(), &["f9-f8"]).unwrap_err();
        assert_eq!(
            error.message(),
            "illegal action 'f9-f8' in obonto: that is North's lion: it is South's turn; legal: \
             d1-c1, d1-d2, e1-c1, e1-g1, e1-d2, e1-f2, e1-e3, f1-c1, f1-g1, f1-i1, f1-d2, f1-f2, \
             f1-h2, f1-e3, f1-f4"
        );
    }

    #[test]
    fn refusals_name_the_rule_broken() {
        let mut state = new_state();
        let why = |state: &mut Played<ObontoRules>, text: &str| {
            let action = state.string_to_action(text).unwrap();
            state.why_illegal(action.into())
        };
        assert_eq!(why(&mut state, "a5-a6"), "No animal stands on a5.");
        assert_eq!(
            why(&mut state, "d1-d3"),
            "The lion moves exactly 1 step, up, down, left or right."
        );
        assert_eq!(
            why(&mut state, "e1-e2"),
            "The zebra moves exactly 2 steps, up, down, left or right, turning if it likes but \
             never back."
        );
        assert_eq!(
            why(&mut state, "f1-g3"),
            "g3 is dark: animals never land on dark squares."
        );
        assert_eq!(why(&mut state, "d1-d2"), "");
        assert_eq!(state.why_illegal(-1), "That move is not allowed now.");
        assert_eq!(state.why_illegal(6561), "That move is not allowed now.");
        for action in [-1, 6561, i64::MAX] {
            let error = state.apply_action(action).unwrap_err();
            assert!(
                error.message().starts_with(&format!(
                    "illegal action {action} in obonto: action ids are 0 to 6560; legal: d1-c1"
                )),
                "{error}"
            );
        }
    }

    #[test]
    fn the_square_left_turns_dark_and_squares_passed_over_stay_light() {
        let mut state = new_state();
        play(&mut state, &["d1-d2"]).unwrap();
        assert_eq!(
            obs(&state)["dark"],
            serde_json::json!(["d1", "c3", "g3", "c7", "g7"])
        );
        assert_eq!(state.current_player(), 1);
        let mut over = new_state();
        play(&mut over, &["e1-c1"]).unwrap();
        assert_eq!(
            obs(&over)["dark"],
            serde_json::json!(["e1", "c3", "g3", "c7", "g7"])
        );
    }

    /// Seat 1's animals stand on isolated squares; seat 0's lion has e4 and e3 ahead of it.
    fn boxed(to_move: u8) -> Played<ObontoRules> {
        let light = ["e5", "e4", "e3", "a1", "i1", "a9", "i9", "e9"];
        state_at("e5,a1,i1,a9,i9,e9", all_but(&light), to_move, 1)
    }

    #[test]
    fn a_player_with_no_move_has_lost_and_the_winner_moves_alone() {
        let mut state = boxed(1);
        assert_eq!(state.rules.phase(), "solo");
        assert_eq!(state.current_player(), 0);
        assert_eq!(obs(&state)["loser"], 1);
        assert_eq!(moves(&mut state), set(&["e5-e4"]));
    }

    #[test]
    fn the_solo_phase_scores_one_plus_the_solo_moves() {
        let mut state = boxed(1);
        play(&mut state, &["e5-e4"]).unwrap();
        assert_eq!(state.current_player(), 0);
        assert_eq!(state.returns(), vec![0.0, 0.0]);
        play(&mut state, &["e4-e3"]).unwrap();
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![3.0, -3.0]);
        assert_eq!(
            obs(&state)["results"],
            serde_json::json!([{"winner": 0, "score": 3}])
        );
    }

    fn facing_lions(games: u32) -> Played<ObontoRules> {
        let light = ["e4", "e5", "e6", "e7", "a1", "i1", "a9", "i9"];
        state_at("e5,a1,i1,e7,i9,a9", all_but(&light), 0, games)
    }

    #[test]
    fn the_move_that_leaves_the_opponent_stuck_scores_one() {
        let mut state = facing_lions(1);
        assert_eq!(moves(&mut state), set(&["e5-e4", "e5-e6"]));
        play(&mut state, &["e5-e6"]).unwrap();
        // Seat 1 is stuck, and so is seat 0 (e5 turned dark): the game ends at 1 point.
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![1.0, -1.0]);
        let mut other = facing_lions(1);
        play(&mut other, &["e5-e4"]).unwrap();
        assert_eq!(other.current_player(), 1);
        assert_eq!(moves(&mut other), set(&["e7-e6"]));
    }

    #[test]
    fn a_player_stuck_before_any_move_loses_and_the_next_game_follows() {
        let light = ["e5", "a1", "i1", "a9", "i9", "e9"];
        let state = state_at("e5,a1,i1,a9,i9,e9", all_but(&light), 1, 1);
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![1.0, -1.0]);
        let state = state_at("e5,a1,i1,a9,i9,e9", all_but(&light), 1, 3);
        let seen = obs(&state);
        assert_eq!(
            seen["results"],
            serde_json::json!([{"winner": 0, "score": 1}])
        );
        assert_eq!(
            (seen["game"].clone(), seen["first"].clone()),
            (2.into(), 1.into())
        );
        assert_eq!(state.current_player(), 1);
        assert_eq!(seen["dark"], serde_json::json!(["c3", "g3", "c7", "g7"]));
        assert!(state.history().is_empty());
    }

    #[test]
    fn a_new_game_keeps_the_animals_and_the_loser_starts() {
        let mut state = facing_lions(2);
        play(&mut state, &["e5-e6"]).unwrap();
        let seen = obs(&state);
        assert!(!state.is_terminal());
        assert_eq!(seen["game"], 2);
        assert_eq!(seen["dark"], serde_json::json!(["c3", "g3", "c7", "g7"]));
        assert_eq!(
            seen["animals"],
            serde_json::json!([
                {"lion": "e6", "zebra": "a1", "camel": "i1"},
                {"lion": "e7", "zebra": "i9", "camel": "a9"},
            ])
        );
        assert_eq!(state.current_player(), 1);
        assert_eq!(seen["first"], 1);
        assert_eq!(seen["totals"], serde_json::json!([1, 0]));
    }

    #[test]
    fn the_target_ends_the_match_once_a_total_reaches_it() {
        let game = game(50, 6);
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(2);
        for _ in 0..5 {
            let mut state = game.new_initial_state();
            state.play_out(&mut rng);
            let seen = state.observation(None).unwrap();
            let mut totals = [0u64, 0];
            let results = seen["results"].as_array().unwrap();
            for result in results {
                assert!(
                    totals.iter().all(|&t| t < 6),
                    "the match went on past the target"
                );
                totals[result["winner"].as_u64().unwrap() as usize] +=
                    result["score"].as_u64().unwrap();
            }
            assert!(totals.iter().any(|&t| t >= 6) || results.len() == 50);
            assert_eq!(seen["totals"], serde_json::json!(totals));
            let difference = totals[0] as f64 - totals[1] as f64;
            assert_eq!(state.returns(), vec![difference, -difference]);
        }
    }

    #[test]
    fn every_game_ends_within_71_moves() {
        let game = game(3, 0);
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(8);
        for _ in 0..50 {
            let mut state = game.new_initial_state();
            let mut per_game = 0;
            let mut games_done = 0;
            while !state.is_terminal() {
                let legal = state.legal_actions().to_vec();
                let action = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
                state.apply_action(action.into()).unwrap();
                per_game += 1;
                let done = state.observation(None).unwrap()["results"]
                    .as_array()
                    .unwrap()
                    .len();
                if done != games_done {
                    assert!(per_game <= 71);
                    games_done = done;
                    per_game = 0;
                }
            }
            assert!(state.history().len() <= 3 * 71);
        }
    }

    #[test]
    fn all_paths_to_one_square_are_one_move() {
        let mut state = state_at("a1,b1,e5,a9,b9,c9", 0, 0, 1);
        let legal = state.legal_actions().to_vec();
        let unique: BTreeSet<_> = legal.iter().collect();
        assert_eq!(unique.len(), legal.len());
        assert!(legal.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn the_path_table_keeps_the_python_destinations() {
        // Lion 1, zebra 2, camel 3 steps from a corner and from the middle.
        let table = path_table();
        let count = |kind, square| table.destinations(kind, square).len();
        assert_eq!((count(0, 0), count(1, 0), count(2, 0)), (2, 3, 6));
        assert_eq!((count(0, 40), count(1, 40), count(2, 40)), (4, 8, 16));
        let most = |kind| {
            (0..SQUARES)
                .map(|square| count(kind, square))
                .max()
                .unwrap()
        };
        assert_eq!(most(0) + most(1) + most(2), MOST_MOVES);
    }

    proptest! {
        /// Any sequence of integers, legal or not, never panics, and a refused one changes
        /// nothing; a sequence of legal picks always ends the match within its length.
        #[test]
        fn arbitrary_actions_never_panic(
            actions in proptest::collection::vec(any::<i64>(), 0..60),
            picks in proptest::collection::vec(any::<u16>(), 0..300),
        ) {
            let mut state = game(3, 0).new_initial_state();
            for action in actions {
                let before = state.clone_box();
                if state.apply_action(action).is_err() {
                    prop_assert_eq!(state.history(), before.history());
                    prop_assert_eq!(state.observation(Some(0)).unwrap(), before.observation(Some(0)).unwrap());
                }
                let _ = state.why_illegal(action);
                let _ = state.action_to_string(action);
            }
            let mut state = game(3, 0).new_initial_state();
            for pick in picks {
                let legal = state.legal_actions().to_vec();
                if legal.is_empty() {
                    break;
                }
                let action = legal[usize::from(pick) % legal.len()];
                prop_assert!(state.apply_action(action.into()).is_ok());
                prop_assert!(state.history().len() <= 3 * 71);
            }
        }
    }
}
