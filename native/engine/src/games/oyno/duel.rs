//! The two-player OYNO game (`oyno`), as `boneyard/games/oyno/duel.py` states it (RULINGS.md,
//! "OYNO two-player"): seat 0 plays red and moves first, seat 1 white; each has
//! `bones_per_player` bones in supply. One action a turn:
//!
//! - `place b2`: a bone from supply goes up on an empty resting cell; the bones beside it (either
//!   colour) are reversed. While every own bone on the board is up and the supply is not empty it
//!   is the only action; otherwise `place_rule` decides (`supply`: whenever the supply holds a
//!   bone; `all_up`: never).
//! - `move b2-d4`: an own bone goes to the center (the bones beside the cell it left are
//!   reversed), then up onto another empty resting cell (the bones beside that one are reversed).
//! - `flip b2`: an own down bone turns up.
//! - Wild variant: `place b2 wild` / `move b2-d4 wild` roll the bone (a chance event, up or down
//!   1/2 each) instead of putting it up; then its neighbours are reversed.
//!
//! After every action the mover wins if all its bones are on the board and up, else the opponent
//! if that holds for the opponent. The third time a position (board, supplies, player to move)
//! stands is a draw, and so is reaching `max_moves` actions.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

use serde_json::Value;

use super::board::{parse_position, Board, CellMask, WordHasher};
use super::notation::{self, DuelAction, ROLL_UP};
use super::{heuristic, observation, tensor};
use crate::core::{
    Action, DynState, EngineError, NativeGame, Params, Played, PositionHasher, Rules, CHANCE,
    TERMINAL,
};

/// The colour of each seat, as the rules' messages name it.
pub const SEAT_COLOURS: [&str; 2] = ["red", "white"];

/// A loaded two-player game: its parameters and the board every state shares.
pub struct DuelGame<M> {
    params: Params,
    setup: Arc<DuelSetup<M>>,
}

/// What the parameters fix for a whole game.
#[derive(Debug)]
pub struct DuelSetup<M> {
    pub board: Board<M>,
    pub bones_per_player: u32,
    pub wild: bool,
    /// `place_rule == "supply"`: a bone may be placed whenever the supply holds one.
    place_any_time: bool,
    /// As large as Python allows (no upper bound): the moves made are compared with it.
    pub max_moves: u64,
    /// `start`: red's bones, white's bones, the up bones and the player to move.
    start: Option<([M; 2], M, usize)>,
}

pub fn load<M: CellMask>(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    let size = params.int("size")? as usize;
    let board = Board::<M>::new(size)?;
    let start = match params.optional("start") {
        Some(Value::String(text)) => Some(parse_start(&board, text)?),
        Some(other) => {
            return Err(EngineError::InvalidParameter(format!(
                "parameter 'start' is text, not {other}"
            )))
        }
        None => None,
    };
    let setup = DuelSetup {
        board,
        bones_per_player: count(params, "bones_per_player")?,
        wild: params.flag("wild")?,
        place_any_time: params.text("place_rule")? == "supply",
        max_moves: u64::try_from(params.int("max_moves")?).unwrap_or(0),
        start,
    };
    Ok(Box::new(DuelGame {
        params: params.clone(),
        setup: Arc::new(setup),
    }))
}

/// A whole-number parameter the Python game has checked to be positive.
pub fn count(params: &Params, name: &str) -> Result<u32, EngineError> {
    u32::try_from(params.int(name)?)
        .map_err(|_| EngineError::InvalidParameter(format!("parameter '{name}' is out of range")))
}

/// A start as `duel.parse_duel_start` reads it: the board, then optionally `r` or `w` for the
/// player to move.
fn parse_start<M: CellMask>(
    board: &Board<M>,
    text: &str,
) -> Result<([M; 2], M, usize), EngineError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let player = match words[..] {
        [_] => 0,
        [_, "r"] => 0,
        [_, "w"] => 1,
        _ => {
            return Err(EngineError::InvalidParameter(format!(
                "bad position {text:?}"
            )))
        }
    };
    let mut occupied = [M::EMPTY; 2];
    let mut up = M::EMPTY;
    for (cell, char) in parse_position(words[0], board.size, "RrWw")? {
        let colour = usize::from(char.eq_ignore_ascii_case(&'w'));
        occupied[colour] = occupied[colour] | M::bit(cell);
        // the capitals are the up sides: R red up, W white up
        if char.is_ascii_uppercase() {
            up = up | M::bit(cell);
        }
    }
    Ok((occupied, up, player))
}

impl<M: CellMask> NativeGame for DuelGame<M> {
    fn name(&self) -> &'static str {
        "oyno"
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(Played::new(DuelRules::new(self.setup.clone())))
    }

    fn observation_tensor_shape(&self) -> Option<Vec<usize>> {
        Some(tensor::duel_shape(self.setup.board.cells))
    }
}

/// What makes a position the same for the repetition draw: both colours' bones, their sides,
/// both supplies and the player to move.
type PositionKey<M> = ([M; 2], M, [u32; 2], usize);

/// A two-player position.
#[derive(Clone, Debug)]
pub struct DuelRules<M> {
    pub setup: Arc<DuelSetup<M>>,
    /// The cells each colour occupies.
    pub occupied: [M; 2],
    pub up: M,
    pub supply: [u32; 2],
    /// The seat whose turn it is (also while its wild bone is rolled).
    pub player: usize,
    pub moves: u32,
    pub winner: Option<usize>,
    pub draw: bool,
    /// The cell of a wild bone whose side is being rolled.
    pub rolling: Option<usize>,
    /// How often each position has stood. A place empties a supply for good, so no position
    /// from before it can stand again: the count is kept only since the last place.
    seen: HashMap<PositionKey<M>, u32, BuildHasherDefault<WordHasher>>,
}

impl<M: CellMask> DuelRules<M> {
    fn new(setup: Arc<DuelSetup<M>>) -> DuelRules<M> {
        let bones = setup.bones_per_player;
        let mut state = DuelRules {
            occupied: [M::EMPTY; 2],
            up: M::EMPTY,
            supply: [bones, bones],
            player: 0,
            moves: 0,
            winner: None,
            draw: false,
            rolling: None,
            seen: HashMap::default(),
            setup,
        };
        if let Some((occupied, up, player)) = state.setup.start {
            state.occupied = occupied;
            state.up = up;
            state.supply = occupied.map(|mask| bones.saturating_sub(mask.count()));
            state.player = player;
            state.check_win(1 - player);
        }
        if state.winner.is_none() {
            state.seen.insert(state.key(), 1);
        }
        state
    }

    fn key(&self) -> PositionKey<M> {
        (self.occupied, self.up, self.supply, self.player)
    }

    fn everything(&self) -> M {
        self.occupied[0] | self.occupied[1]
    }

    fn empty(&self) -> M {
        self.setup.board.resting & !self.everything()
    }

    /// The player's own bones that are down.
    fn own_down(&self) -> M {
        self.occupied[self.player] & !self.up
    }

    /// Every own bone on the board is up and the supply is not empty: placing is forced.
    pub fn must_place(&self) -> bool {
        self.supply[self.player] > 0 && self.own_down().is_empty()
    }

    fn has_won(&self, seat: usize) -> bool {
        self.supply[seat] == 0 && (self.occupied[seat] & !self.up).is_empty()
    }

    /// The mover first: a reversal can complete the opponent's set too.
    fn check_win(&mut self, mover: usize) {
        if self.has_won(mover) {
            self.winner = Some(mover);
        } else if self.has_won(1 - mover) {
            self.winner = Some(1 - mover);
        }
    }

    /// A bone of `seat` comes down on `cell`: up, or rolled (a chance event) when wild.
    fn put(&mut self, seat: usize, cell: usize, wild: bool) {
        let everything = self.everything();
        self.occupied[seat] = self.occupied[seat] | M::bit(cell);
        if wild {
            self.rolling = Some(cell);
            return;
        }
        self.up = (self.up | M::bit(cell)) ^ (self.setup.board.neighbours[cell] & everything);
        self.finish(seat);
    }

    fn finish(&mut self, mover: usize) {
        self.moves += 1;
        self.check_win(mover);
        if self.winner.is_some() {
            return;
        }
        self.player = 1 - mover;
        let count = self.seen.entry(self.key()).or_insert(0);
        *count += 1;
        if *count >= 3 || u64::from(self.moves) >= self.setup.max_moves {
            self.draw = true;
        }
    }

    /// How often the current position has stood (none while a bone is rolled).
    pub fn repetitions(&self) -> u32 {
        if self.rolling.is_some() {
            return 0;
        }
        self.seen.get(&self.key()).copied().unwrap_or(0)
    }

    /// The board in notation (a bone being rolled is left out).
    pub fn position(&self) -> String {
        self.setup.board.format_position(|cell| {
            if self.rolling == Some(cell) {
                return None;
            }
            let up = self.up.has(cell);
            if self.occupied[0].has(cell) {
                Some(if up { 'R' } else { 'r' })
            } else if self.occupied[1].has(cell) {
                Some(if up { 'W' } else { 'w' })
            } else {
                None
            }
        })
    }

    fn push_places(&self, empty: M, actions: &mut Vec<Action>) {
        let n = self.setup.board.cells as Action;
        actions.extend(empty.cells().map(|c| c as Action));
        if self.setup.wild {
            actions.extend(empty.cells().map(|c| n + c as Action));
        }
    }

    /// Why the player to move may not place a new bone on `cell` (`None`: it may).
    fn why_not_placed(&self, cell: usize) -> Option<String> {
        let board = &self.setup.board;
        let colour = SEAT_COLOURS[self.player];
        if self.supply[self.player] == 0 {
            Some(format!("{colour} has no bone left in supply"))
        } else if !self.must_place() && !self.setup.place_any_time {
            Some(format!(
                "{colour} has a down bone on the board: a new bone may be placed only when all \
                 are up"
            ))
        } else if cell == board.center {
            Some(format!(
                "{} is the center: no bone rests there",
                board.name(cell)
            ))
        } else if self.everything().has(cell) {
            Some(format!("{} is not empty", board.name(cell)))
        } else {
            None
        }
    }

    /// Why the player to move may not move a bone from `from` to `to`.
    fn why_not_moved(&self, from: usize, to: usize) -> Option<String> {
        let board = &self.setup.board;
        if !self.occupied[self.player].has(from) {
            Some(format!(
                "{} holds no {} bone",
                board.name(from),
                SEAT_COLOURS[self.player]
            ))
        } else if to == board.center {
            Some(format!(
                "{} is the center: no bone rests there",
                board.name(to)
            ))
        } else if from == to {
            Some("the bone must go to another cell".to_string())
        } else if self.everything().has(to) {
            Some(format!("{} is not empty", board.name(to)))
        } else {
            None
        }
    }
}

impl<M: CellMask> Rules for DuelRules<M> {
    const NAME: &'static str = "oyno";

    fn num_players(&self) -> usize {
        2
    }

    fn current_player(&self) -> i32 {
        if self.winner.is_some() || self.draw {
            TERMINAL
        } else if self.rolling.is_some() {
            CHANCE
        } else {
            self.player as i32
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let board = &self.setup.board;
        let n = board.cells;
        let empty = self.empty();
        let spaces = empty.count() as usize;
        let wild_factor = if self.setup.wild { 2 } else { 1 };
        if self.must_place() {
            let mut actions = Vec::with_capacity(spaces * wild_factor);
            self.push_places(empty, &mut actions);
            return actions;
        }
        let own = self.occupied[self.player];
        let down = self.own_down();
        let may_place = self.setup.place_any_time && self.supply[self.player] > 0;
        let mut actions = Vec::with_capacity(
            wild_factor * (own.count() as usize + usize::from(may_place)) * spaces
                + down.count() as usize,
        );
        if may_place {
            self.push_places(empty, &mut actions);
        }
        // moves in id order: every own bone to every empty cell, then the same rolled
        let move_base = 2 * n;
        let kinds = if self.setup.wild { 2 } else { 1 };
        for kind in 0..kinds {
            let base = move_base + kind * n * n;
            for from in own.cells() {
                let row = base + from * n;
                actions.extend(empty.cells().map(|to| (row + to) as Action));
            }
        }
        let flip_base = 2 * n + 2 * n * n;
        actions.extend(down.cells().map(|c| (flip_base + c) as Action));
        actions
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        vec![(notation::ROLL_DOWN, 0.5), (ROLL_UP, 0.5)]
    }

    fn apply_action(&mut self, action: Action) {
        let mover = self.player;
        let neighbours = &self.setup.board.neighbours;
        if let Some(cell) = self.rolling.take() {
            if action == ROLL_UP {
                self.up = self.up | M::bit(cell);
            }
            self.up = self.up ^ (neighbours[cell] & self.everything());
            self.finish(mover);
            return;
        }
        match DuelAction::decode(action, self.setup.board.cells) {
            Some(DuelAction::Place { cell, wild }) => {
                self.supply[mover] -= 1;
                self.seen.clear();
                self.put(mover, cell, wild);
            }
            Some(DuelAction::Move { from, to, wild }) => {
                let bit = M::bit(from);
                self.occupied[mover] = self.occupied[mover] & !bit;
                self.up = self.up & !bit;
                self.up = self.up ^ (neighbours[from] & self.everything());
                self.put(mover, to, wild);
            }
            Some(DuelAction::Flip { cell }) => {
                self.up = self.up | M::bit(cell);
                self.finish(mover);
            }
            // `Played` only passes legal actions, and every legal id decodes
            None => {}
        }
    }

    fn returns(&self) -> Vec<f64> {
        match self.winner {
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
            None => vec![0.0, 0.0],
        }
    }

    fn action_to_string(&self, action: Action) -> Result<String, EngineError> {
        if self.rolling.is_some() {
            notation::roll_to_string(action)
        } else {
            notation::duel_action_to_string(&self.setup.board, action)
        }
    }

    fn string_to_action(&self, text: &str) -> Result<Action, EngineError> {
        if self.rolling.is_some() {
            notation::string_to_roll(text)
        } else {
            notation::duel_string_to_action(&self.setup.board, text)
        }
    }

    fn observation(&self, _seat: Option<usize>) -> Value {
        observation::duel(self)
    }

    fn heuristic(&self, seat: usize) -> Option<f64> {
        Some(heuristic::evaluate(self, seat))
    }

    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }

    fn transposition_key(&self) -> Option<u64> {
        let mut hasher = PositionHasher::new();
        (self.occupied, self.up, self.supply, self.player).hash(&mut hasher);
        (self.moves, self.winner, self.draw, self.rolling).hash(&mut hasher);
        // The positions seen since the last place decide a draw by repetition: their counts are
        // part of the key, summed so that the map's order does not matter.
        let seen = self.seen.iter().fold(0u64, |sum, entry| {
            let mut one = PositionHasher::new();
            entry.hash(&mut one);
            sum.wrapping_add(one.finish())
        });
        hasher.write_u64(seen);
        Some(hasher.finish())
    }

    fn observation_tensor(&self, seat: Option<usize>, out: &mut [f32]) -> bool {
        tensor::write_duel(self, seat, out)
    }

    /// The rule `action` breaks, in the rule text's order: placing, then moving.
    fn why_illegal(&self, action: Action) -> Option<String> {
        if self.current_player() < 0 {
            return None;
        }
        let decoded = DuelAction::decode(action, self.setup.board.cells)?;
        let colour = SEAT_COLOURS[self.player];
        match decoded {
            DuelAction::Place { wild: true, .. } | DuelAction::Move { wild: true, .. }
                if !self.setup.wild =>
            {
                Some("rolling a bone is only allowed in the wild variant".to_string())
            }
            DuelAction::Place { cell, .. } => self.why_not_placed(cell),
            _ if self.must_place() => Some(format!(
                "every {colour} bone on the board is up: {colour} must place a new bone"
            )),
            DuelAction::Flip { cell } => {
                let name = self.setup.board.name(cell);
                if self.occupied[self.player].has(cell) {
                    Some(format!("the bone on {name} is already up"))
                } else {
                    Some(format!("{name} holds no {colour} bone"))
                }
            }
            DuelAction::Move { from, to, .. } => self.why_not_moved(from, to),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A game of `params` (JSON, over the defaults) read as the Python game resolves them.
    fn game(params: &str) -> Box<dyn NativeGame> {
        let mut all = serde_json::json!({
            "size": 5, "bones_per_player": 8, "wild": false, "max_moves": 300,
            "place_rule": "all_up", "start": null,
        });
        let extra: serde_json::Value = serde_json::from_str(params).unwrap();
        for (key, value) in extra.as_object().unwrap() {
            all[key] = value.clone();
        }
        let params = Params::from_json(&all.to_string()).unwrap();
        super::super::load_duel(&params).unwrap()
    }

    fn duel(start: &str, bones: u32) -> Box<dyn DynState> {
        game(&format!(
            "{{\"start\": \"{start}\", \"bones_per_player\": {bones}}}"
        ))
        .new_initial_state()
    }

    fn play(state: &mut Box<dyn DynState>, actions: &[&str]) {
        for action in actions {
            let id = state.string_to_action(action).unwrap();
            state.apply_action(i64::from(id)).unwrap();
        }
    }

    fn position(state: &dyn DynState) -> String {
        state.observation(None).unwrap()["position"]
            .as_str()
            .unwrap()
            .to_string()
    }

    fn strings(state: &mut Box<dyn DynState>) -> Vec<String> {
        let legal = state.legal_actions().to_vec();
        legal
            .iter()
            .map(|&a| state.action_to_string(i64::from(a)).unwrap())
            .collect()
    }

    #[test]
    fn red_moves_first_on_an_empty_board_and_must_place() {
        let mut state = game("{}").new_initial_state();
        assert_eq!(state.current_player(), 0);
        assert_eq!(position(&*state), "...../...../..o../...../.....");
        let legal = strings(&mut state);
        assert_eq!(legal.len(), 24);
        assert!(
            legal.iter().all(|s| s.starts_with("place ")) && !legal.contains(&"place c3".into())
        );
    }

    #[test]
    fn place_puts_the_bone_up_and_reverses_neighbours_of_both_colours() {
        // red places on b2: a2 (white up) and b1 (red up) turn down, c2 (white down) turns up
        let mut state = duel("...../...../..o../W.w../.R...", 3);
        play(&mut state, &["place b2"]);
        assert_eq!(position(&*state), "...../...../..o../wRW../.r...");
        assert_eq!(
            state.observation(None).unwrap()["supply"],
            serde_json::json!([1, 1])
        );
        assert_eq!(state.current_player(), 1);
    }

    #[test]
    fn with_a_down_bone_no_place_but_moves_and_flips() {
        let mut state = duel("...../...../..o../...../r...W", 3);
        let legal = strings(&mut state);
        assert!(!legal.iter().any(|s| s.starts_with("place")));
        assert!(legal.contains(&"flip a1".into()) && legal.contains(&"move a1-b2".into()));
        let place = state.string_to_action("place b2").unwrap();
        let refused = state.apply_action(i64::from(place)).unwrap_err();
        assert!(refused.message().contains("down bone on the board"));
    }

    #[test]
    fn move_takes_a_down_bone_and_reverses_around_both_cells() {
        let mut state = duel("...../W..../.Ro../w..../rR...", 4);
        play(&mut state, &["move a1-a3"]);
        assert_eq!(position(&*state), "...../w..../Rro../w..../.r...");
    }

    #[test]
    fn the_mover_wins_first_when_a_move_completes_both_players() {
        let mut state = duel("w.r../...../..o.W/...../....R", 2);
        play(&mut state, &["move e1-b5"]);
        assert_eq!(state.returns(), vec![1.0, -1.0]);
        // and the opponent wins when the move completes only the opponent
        let mut state = duel("w..../...../..o.W/...../r...R", 2);
        play(&mut state, &["move e1-b5"]);
        assert_eq!(state.returns(), vec![-1.0, 1.0]);
    }

    #[test]
    fn the_third_repetition_is_a_draw() {
        let mut state = duel("r...w/...../..o../...../R...W", 2);
        let cycle = ["move a1-b1", "move e1-d1", "move b1-a1", "move d1-e1"];
        play(&mut state, &cycle);
        assert_eq!(state.observation(None).unwrap()["repetitions"], 2);
        play(&mut state, &cycle[..3]);
        assert!(!state.is_terminal());
        play(&mut state, &cycle[3..]);
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![0.0, 0.0]);
    }

    #[test]
    fn a_wild_place_rolls_then_reverses_the_neighbours() {
        let mut state = game(
            r#"{"wild": true, "bones_per_player": 3, "start": "...../...../..o../W..../....."}"#,
        )
        .new_initial_state();
        play(&mut state, &["place b2 wild"]);
        assert_eq!(state.current_player(), CHANCE);
        assert_eq!(state.chance_outcomes(), vec![(0, 0.5), (1, 0.5)]);
        play(&mut state, &["down"]);
        // b2 lands down, then its neighbour a2 (white up) is reversed
        assert_eq!(position(&*state), "...../...../..o../wr.../.....");
        assert_eq!(state.current_player(), 1);
    }

    #[test]
    fn reaching_max_moves_is_a_draw() {
        let mut state = game(r#"{"max_moves": 3}"#).new_initial_state();
        play(&mut state, &["place a1", "place e5", "place a5"]);
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![0.0, 0.0]);
    }

    #[test]
    fn a_wild_move_rolls_the_landing_side() {
        let mut state = game(
            r#"{"wild": true, "bones_per_player": 2, "start": "...../...../..o../...../r...W"}"#,
        )
        .new_initial_state();
        play(&mut state, &["move a1-a5 wild", "down"]);
        assert_eq!(position(&*state), "r..../...../..o../...../....W");
        assert_eq!(state.current_player(), 1);
    }

    #[test]
    fn a_start_may_give_white_the_move() {
        let state = duel("R...w/.W.../..o../...r./..... w", 4);
        assert_eq!(state.current_player(), 1);
        assert_eq!(
            state.observation(None).unwrap()["supply"],
            serde_json::json!([2, 2])
        );
    }

    #[test]
    fn the_supply_reading_places_beside_moves_and_flips_and_can_win() {
        let supply = |start: &str, bones: u32| {
            game(&format!(
                r#"{{"start": "{start}", "bones_per_player": {bones}, "place_rule": "supply"}}"#
            ))
            .new_initial_state()
        };
        let mut state = supply("...../...../..o../...../r...W", 3);
        let legal = strings(&mut state);
        assert_eq!(legal.iter().filter(|s| s.starts_with("place")).count(), 22);
        assert!(legal.contains(&"flip a1".into()) && legal.contains(&"move a1-b2".into()));
        // the place does what a forced one does: the bone up, a1 beside it reversed
        play(&mut state, &["place b1"]);
        assert_eq!(position(&*state), "...../...../..o../...../RR..W");
        // red's last bone on b1 turns a1 up: every red bone is up
        let mut state = supply("...../...../..o../...../r...W", 2);
        play(&mut state, &["place b1"]);
        assert_eq!(state.returns(), vec![1.0, -1.0]);
        // and an empty supply places nothing
        let mut state = supply("...../...../..o../...../Rr..W", 2);
        let place = state.string_to_action("place c1").unwrap();
        let refused = state.apply_action(i64::from(place)).unwrap_err();
        assert!(refused.message().contains("no bone left in supply"));
    }

    proptest! {
        /// Any sequence of integers never panics, and a refused one changes nothing.
        #[test]
        fn arbitrary_actions_never_panic(
            actions in proptest::collection::vec(prop_oneof![0i64..1300, any::<i64>()], 0..80),
            wild in any::<bool>(),
        ) {
            let mut state = game(&format!(r#"{{"wild": {wild}, "size": 3, "bones_per_player": 3, "place_rule": "supply"}}"#))
                .new_initial_state();
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
