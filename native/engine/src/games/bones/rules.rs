//! Bones's rules, as `boneyard/games/bones/rules.py` and RULINGS.md state them: two players lay
//! dominoes of their colour, overlapping, until one shows five in a line.
//!
//! * The board is `width` x `height`; each player has `pieces` dominoes. Seat 0 is white and
//!   places first; the players alternate.
//! * A turn places one piece on two orthogonally adjacent squares of the board. The first piece
//!   of the game covers at least one square of the start area.
//! * A piece may cover empty squares and earlier pieces of either colour at any height, except
//!   that it may not lie exactly on one earlier piece that is still completely visible.
//! * A square shows the colour of its top piece. If, after a placement, the mover's colour shows
//!   on five or more consecutive squares of one rank or file, the mover wins. (A placement turns
//!   only the squares it covers, and only to the mover's colour, so only the mover can gain a
//!   line, and only through the placed piece.)
//! * When both players have placed all their pieces without a win, the game is a draw.
//!
//! How the state keeps it fast (as the Python does): per square the top piece, top colour and
//! stack height. A piece is completely visible exactly when it is the top piece of both its
//! squares, and then the one placement it forbids is the one on its own two squares. So the
//! state keeps the sorted list of legal placements and patches it a move at a time: the new
//! piece's own placement leaves it, and that of each piece it half covers comes back (one
//! deletion and at most two insertions, where the Python keeps an `allowed` byte per id beside
//! its list; a binary search answers the same here). A win is looked for only along the three
//! lines through the new piece.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde_json::Value;

use super::notation::{self, DominoTable, Square, LINE};
use super::{heuristic, observation, tensor};
use crate::core::{
    Action, DynState, EngineError, NativeGame, Params, Played, PositionHasher, Rules, TERMINAL,
};

pub const WHITE: u8 = 0;
pub const BLACK: u8 = 1;

/// A loaded Bones game: its parameters and the placement table its states share.
pub struct BonesGame {
    params: Params,
    table: Arc<DominoTable>,
    pieces: usize,
}

/// A board side: 2 to 26, as the Python parameters allow (checked there; kept in range here so
/// that no input can make a table the squares' type cannot hold).
fn board_side(params: &Params, name: &str) -> Result<usize, EngineError> {
    let side = params.int(name)?;
    if (2..=26).contains(&side) {
        Ok(side as usize)
    } else {
        Err(EngineError::InvalidParameter(format!(
            "parameter '{name}' is 2 to 26, not {side}"
        )))
    }
}

pub fn load(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    let width = board_side(params, "width")?;
    let height = board_side(params, "height")?;
    let pieces = params.int("pieces")?;
    if !(1..=500).contains(&pieces) {
        return Err(EngineError::InvalidParameter(format!(
            "parameter 'pieces' is 1 to 500, not {pieces}"
        )));
    }
    Ok(Box::new(BonesGame {
        params: params.clone(),
        table: Arc::new(DominoTable::new(width, height)),
        pieces: pieces as usize,
    }))
}

impl NativeGame for BonesGame {
    fn name(&self) -> &'static str {
        BonesRules::NAME
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(Played::new(BonesRules::new(
            Arc::clone(&self.table),
            self.pieces,
        )))
    }

    fn observation_tensor_shape(&self) -> Option<Vec<usize>> {
        Some(tensor::shape(self.table.width, self.table.height))
    }
}

/// A Bones position.
#[derive(Clone, Debug)]
pub struct BonesRules {
    pub(super) table: Arc<DominoTable>,
    /// Pieces each player has at the start.
    pub(super) pieces_each: usize,
    /// The seat to move, or `TERMINAL`.
    player: i32,
    pub(super) winner: Option<u8>,
    /// Index into `placed` of each square's top piece.
    pub(super) top_piece: Vec<Option<u16>>,
    pub(super) top_colour: Vec<Option<u8>>,
    pub(super) heights: Vec<u16>,
    /// The action id of every piece placed, in order (piece `n` is seat `n % 2`'s).
    pub(super) placed: Vec<Action>,
    /// The legal placements, sorted: after the first move every placement but those exactly on a
    /// completely visible piece.
    legal: Vec<Action>,
}

impl BonesRules {
    pub(super) fn new(table: Arc<DominoTable>, pieces_each: usize) -> BonesRules {
        let squares = table.width * table.height;
        BonesRules {
            player: WHITE as i32,
            winner: None,
            top_piece: vec![None; squares],
            top_colour: vec![None; squares],
            heights: vec![0; squares],
            placed: Vec::with_capacity(2 * pieces_each),
            legal: table.start_actions.clone(),
            pieces_each,
            table,
        }
    }

    /// The legal placements once `action` (on `first` and `second`) is placed: it is no longer
    /// legal (it lies exactly on the new, completely visible piece), and a piece it half covers
    /// may be placed on again.
    fn update_legal(&mut self, action: Action, first: Square, second: Square) {
        if self.placed.is_empty() {
            // After the first piece only the start area's bond is gone: every placement but the
            // one on the new piece.
            self.legal = (0..self.table.count as Action)
                .filter(|&a| a != action)
                .collect();
        } else {
            for under in [
                self.top_piece[first as usize],
                self.top_piece[second as usize],
            ]
            .into_iter()
            .flatten()
            {
                let freed = self.placed[under as usize];
                if let Err(at) = self.legal.binary_search(&freed) {
                    self.legal.insert(at, freed);
                }
            }
            if let Ok(at) = self.legal.binary_search(&action) {
                self.legal.remove(at);
            }
        }
    }

    /// Whether `action`, just placed by `colour`, completes a line of `LINE` or more of its
    /// colour through either of its squares.
    fn makes_line(&self, action: Action, colour: u8) -> bool {
        let shows = |square: &Square| self.top_colour[*square as usize] == Some(colour);
        self.table.lines[action as usize].iter().any(|line| {
            let back = line.back.squares().iter().take_while(|s| shows(s)).count();
            let forward = line
                .forward
                .squares()
                .iter()
                .take_while(|s| shows(s))
                .count();
            line.covered as usize + back + forward >= LINE
        })
    }

    /// Whether `action` may be placed now by whichever side is to move (the Python
    /// `is_legal_placement`).
    pub(super) fn is_legal_placement(&self, action: Action) -> bool {
        self.player != TERMINAL && self.legal.binary_search(&action).is_ok()
    }

    /// How many pieces `seat` still has to place.
    pub fn supply(&self, seat: usize) -> usize {
        let placed = (self.placed.len() + 1 - seat) / 2;
        self.pieces_each - placed
    }

    /// The squares of every line of five or more of the winner's colour (empty if none), sorted.
    pub fn winning_squares(&self) -> Vec<usize> {
        let Some(winner) = self.winner else {
            return Vec::new();
        };
        let (width, height) = (self.table.width, self.table.height);
        let mut found = vec![false; width * height];
        let ranks = (0..height).map(|r| (0..width).map(|f| r * width + f).collect::<Vec<_>>());
        let files = (0..width).map(|f| (0..height).map(|r| r * width + f).collect::<Vec<_>>());
        for line in ranks.chain(files) {
            for run in line.split(|&s| self.top_colour[s] != Some(winner)) {
                if run.len() >= LINE {
                    run.iter().for_each(|&s| found[s] = true);
                }
            }
        }
        (0..width * height).filter(|&s| found[s]).collect()
    }
}

impl Rules for BonesRules {
    const NAME: &'static str = "bones";

    fn num_players(&self) -> usize {
        2
    }

    fn current_player(&self) -> i32 {
        self.player
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.legal.clone()
    }

    fn apply_action(&mut self, action: Action) {
        let (first, second) = (
            self.table.first[action as usize],
            self.table.second[action as usize],
        );
        self.update_legal(action, first, second);
        let number = self.placed.len() as u16;
        let colour = (self.placed.len() % 2) as u8;
        self.placed.push(action);
        for square in [first as usize, second as usize] {
            self.heights[square] += 1;
            self.top_piece[square] = Some(number);
            self.top_colour[square] = Some(colour);
        }
        if self.makes_line(action, colour) {
            self.winner = Some(colour);
            self.player = TERMINAL;
        } else if self.placed.len() >= 2 * self.pieces_each {
            self.player = TERMINAL;
        } else {
            self.player = 1 - colour as i32;
        }
    }

    fn returns(&self) -> Vec<f64> {
        match (self.player, self.winner) {
            (TERMINAL, Some(WHITE)) => vec![1.0, -1.0],
            (TERMINAL, Some(_)) => vec![-1.0, 1.0],
            _ => vec![0.0, 0.0],
        }
    }

    fn action_to_string(&self, action: Action) -> Result<String, EngineError> {
        notation::action_to_string(&self.table, action)
    }

    fn string_to_action(&self, text: &str) -> Result<Action, EngineError> {
        notation::string_to_action(&self.table, text)
    }

    fn observation(&self, seat: Option<usize>) -> Value {
        observation::observe(self, seat)
    }

    fn observation_tensor(&self, seat: Option<usize>, out: &mut [f32]) -> bool {
        tensor::write(self, seat, out)
    }

    fn num_distinct_actions(&self) -> Option<Action> {
        Action::try_from(self.table.count).ok()
    }

    fn heuristic(&self, seat: usize) -> Option<f64> {
        Some(heuristic::evaluate(self, seat))
    }

    fn forcing_moves(&self) -> Option<Vec<Action>> {
        heuristic::forcing_moves(self)
    }

    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }

    fn transposition_key(&self) -> Option<u64> {
        // The legal placements follow from which piece tops each square; the heights are only
        // shown.
        let mut hasher = PositionHasher::new();
        (self.player, self.winner, self.placed.len()).hash(&mut hasher);
        for (top, colour) in self.top_piece.iter().zip(&self.top_colour) {
            let piece = top.map_or(Action::MAX, |index| self.placed[index as usize]);
            (piece, *colour).hash(&mut hasher);
        }
        Some(hasher.finish())
    }

    fn why_illegal_integer(&self, _action: i64) -> Option<String> {
        self.why_illegal(Action::MAX) // no id at all: the reason of any id past the board's
    }

    fn why_illegal(&self, action: Action) -> Option<String> {
        let table = &self.table;
        if action as usize >= table.count {
            return Some(format!(
                "placement ids on this board are 0 to {}",
                table.count - 1
            ));
        }
        if self.placed.is_empty() {
            let [one, two] = table
                .start_squares
                .map(|s| table.names[s as usize].as_str());
            return Some(format!(
                "the first piece must cover at least one start-area square ({one} and {two})"
            ));
        }
        let on = |square: Square| self.top_piece[square as usize];
        let under = on(table.first[action as usize]);
        if under.is_some() && under == on(table.second[action as usize]) {
            return Some(format!(
                "it would lie exactly on the piece at {}, which is still completely visible",
                table.strings[action as usize]
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::CHANCE;
    use proptest::prelude::*;

    fn game(width: usize, height: usize, pieces: usize) -> Box<dyn NativeGame> {
        let params = Params::from_json(&format!(
            "{{\"width\": {width}, \"height\": {height}, \"pieces\": {pieces}}}"
        ))
        .unwrap();
        load(&params).unwrap()
    }

    /// A state of a `width` x `height` board after the placements in `text`.
    fn play_on(text: &str, width: usize, height: usize, pieces: usize) -> Box<dyn DynState> {
        let mut state = game(width, height, pieces).new_initial_state();
        for word in text.split_whitespace() {
            let action = state.string_to_action(word).unwrap();
            state.apply_action(action.into()).unwrap();
        }
        state
    }

    fn play(text: &str) -> Box<dyn DynState> {
        play_on(text, 10, 9, 30)
    }

    fn is_legal(state: &mut Box<dyn DynState>, text: &str) -> bool {
        let action = state.string_to_action(text).unwrap();
        state.legal_actions().contains(&action)
    }

    fn place(state: &mut Box<dyn DynState>, text: &str) -> Result<(), EngineError> {
        let action = state.string_to_action(text).unwrap();
        state.apply_action(action.into())
    }

    /// (top letter `.`/`W`/`B`, stack height) of a square, read from the observation.
    fn square_top(state: &dyn DynState, name: &str) -> (char, i64) {
        let view = state.observation(None).unwrap();
        let file = (name.as_bytes()[0] - b'a') as usize;
        let rank: usize = name[1..].parse::<usize>().unwrap() - 1;
        let letter = view["top"][rank].as_str().unwrap().as_bytes()[file] as char;
        (letter, view["heights"][rank][file].as_i64().unwrap())
    }

    fn winning_squares(state: &dyn DynState) -> Vec<String> {
        let view = state.observation(None).unwrap();
        serde_json::from_value(view["winning_squares"].clone()).unwrap()
    }

    #[test]
    fn the_first_piece_must_touch_the_start_area() {
        let mut state = play("");
        let legal: Vec<String> = state
            .legal_actions()
            .to_vec()
            .into_iter()
            .map(|a| state.action_to_string(a.into()).unwrap())
            .collect();
        assert_eq!(
            legal,
            ["d5-e5", "e5-f5", "f5-g5", "e4-e5", "f4-f5", "e5-e6", "f5-f6"]
        );
        for text in ["c5-d5", "e4-f4", "e6-f6", "a1-b1", "g5-h5"] {
            let error = place(&mut state, text).unwrap_err().to_string();
            assert!(error.contains("start-area square (e5 and f5)"), "{error}");
        }
        assert!(state.history().is_empty());
        let refused = state.string_to_action("a1-b1").unwrap();
        assert_eq!(
            state.why_illegal(refused.into()),
            "The first piece must cover at least one start-area square (e5 and f5)."
        );
    }

    #[test]
    fn only_the_first_piece_is_bound_to_the_start_area() {
        let mut state = play("e5-f5");
        assert!(is_legal(&mut state, "a1-b1") && is_legal(&mut state, "j8-j9"));
        assert_eq!(state.legal_actions().len(), 161 - 1);
        assert_eq!(state.current_player(), 1);
    }

    #[test]
    fn a_piece_may_cover_pieces_of_either_colour_at_any_height() {
        let state = play("e5-f5 f5-f6 f6-g6");
        assert_eq!(square_top(&*state, "f5"), ('B', 2));
        assert_eq!(square_top(&*state, "e5"), ('W', 1));
        assert_eq!(square_top(&*state, "f6"), ('W', 2));
        let mut state = play("e5-f5 f5-f6 f4-f5 f5-g5");
        assert_eq!(square_top(&*state, "f5"), ('B', 4));
        place(&mut state, "f5-f6").unwrap();
        assert_eq!(square_top(&*state, "f5"), ('W', 5));
        assert_eq!(square_top(&*state, "f6"), ('W', 2));
    }

    #[test]
    fn not_exactly_on_top_of_one_completely_visible_piece() {
        let mut state = play("e5-f5 a1-b1");
        for target in ["e5-f5", "a1-b1"] {
            assert!(!is_legal(&mut state, target));
            let error = place(&mut state, target).unwrap_err().to_string();
            assert!(
                error.contains(&format!(
                    "it would lie exactly on the piece at {target}, which is still completely visible"
                )),
                "{error}"
            );
        }
        let mut state = play("e5-e6 c3-c4");
        assert!(!is_legal(&mut state, "e5-e6") && !is_legal(&mut state, "c3-c4"));
        assert!(is_legal(&mut state, "e6-e7") && is_legal(&mut state, "c4-d4"));
    }

    #[test]
    fn exactly_on_top_of_a_partly_covered_piece_is_allowed() {
        let mut state = play("e5-f5 f5-f6");
        assert!(is_legal(&mut state, "e5-f5"));
        place(&mut state, "e5-f5").unwrap();
        assert_eq!(square_top(&*state, "e5"), ('W', 2));
        assert_eq!(square_top(&*state, "f5"), ('W', 3));
        assert!(!is_legal(&mut state, "e5-f5"));
        let mut state = play("e5-f5 f5-f6 a1-b1 a9-b9 c1-c2 h9-i9");
        assert!(is_legal(&mut state, "e5-f5"));
    }

    #[test]
    fn across_two_completely_visible_pieces_is_allowed() {
        let mut state = play("e5-f5 e6-f6");
        assert!(is_legal(&mut state, "e5-e6") && is_legal(&mut state, "f5-f6"));
        let mut state = play("e5-f5 g5-h5");
        assert!(is_legal(&mut state, "f5-g5"));
        let mut state = play("e5-f5 a1-b1 c7-c8");
        assert_eq!(state.legal_actions().len(), 161 - 3);
    }

    #[test]
    fn five_in_a_rank_wins_for_the_mover() {
        let mut state = play("e5-f5 a1-b1 c5-d5 a9-b9");
        assert!(!state.is_terminal());
        place(&mut state, "g5-g6").unwrap();
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![1.0, -1.0]);
        assert_eq!(winning_squares(&*state), ["c5", "d5", "e5", "f5", "g5"]);
        let error = place(&mut state, "a3-a4").unwrap_err().to_string();
        assert!(error.contains("the bones game is over"), "{error}");
    }

    #[test]
    fn five_in_a_file_wins_for_the_mover() {
        let mut state = play("e5-f5 b2-b3 h1-i1 b4-b5 h9-i9");
        place(&mut state, "b6-c6").unwrap();
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![-1.0, 1.0]);
        assert_eq!(winning_squares(&*state), ["b2", "b3", "b4", "b5", "b6"]);
    }

    #[test]
    fn four_a_gap_or_a_diagonal_do_not_win() {
        assert!(!play("e5-f5 a1-b1 c5-d5").is_terminal());
        assert!(!play("e5-f5 a1-b1 b5-c5 a9-b9").is_terminal());
        assert!(!play("e5-f5 d5-d6 b5-c5").is_terminal());
        let mut state = play("e5-e6 a1-a2 f6-f7 a9-b9 g7-g8 j1-j2 h8-h9 c1-d1");
        place(&mut state, "d4-d3").unwrap();
        assert!(!state.is_terminal());
    }

    #[test]
    fn six_in_a_line_wins_and_covering_the_opponent_completes_one() {
        let mut state = play("e5-f5 a1-b1 c5-d5 a9-b9 h5-i5 j1-j2");
        place(&mut state, "g5-g6").unwrap();
        assert!(state.is_terminal() && state.returns() == vec![1.0, -1.0]);
        assert_eq!(winning_squares(&*state).len(), 7);
        let mut state = play("e5-f5 g5-g6 c5-d5 b5-b6");
        assert!(!state.is_terminal());
        place(&mut state, "g5-h5").unwrap();
        assert!(state.is_terminal() && state.returns() == vec![1.0, -1.0]);
        assert_eq!(square_top(&*state, "g5"), ('W', 2));
    }

    #[test]
    fn a_line_counts_squares_not_pieces() {
        let mut state = play("d5-e5 a1-b1 e5-e6 a9-b9 f5-g5 j1-j2");
        assert_eq!(square_top(&*state, "e5"), ('W', 2));
        place(&mut state, "c4-c5").unwrap();
        assert!(state.is_terminal() && state.returns() == vec![1.0, -1.0]);
    }

    #[test]
    fn both_supplies_empty_without_a_win_is_a_draw() {
        let state = play_on("b2-c2 a1-a2 d1-d2", 4, 4, 2);
        assert_eq!(state.current_player(), 1);
        assert_eq!(
            state.observation(Some(0)).unwrap()["supply"],
            serde_json::json!([0, 1])
        );
        let mut state = play_on("b2-c2 a1-a2 d1-d2 a3-a4", 4, 4, 2);
        assert_eq!(state.current_player(), TERMINAL);
        assert_eq!(state.returns(), vec![0.0, 0.0]);
        assert!(state.legal_actions().is_empty());
        assert_eq!(state.observation(Some(0)).unwrap()["winner"], Value::Null);
    }

    #[test]
    fn a_win_with_the_very_last_piece_is_a_win() {
        let mut state = play_on("e5-f5 a1-b1 a9-b9 c1-d1 h9-i9", 10, 9, 3);
        place(&mut state, "e1-e2").unwrap();
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![-1.0, 1.0]);
    }

    #[test]
    fn out_of_range_ids_are_refused_with_the_range() {
        let mut state = play("e5-f5");
        let error = state.apply_action(161).unwrap_err().to_string();
        assert!(error.starts_with("illegal action 161 in bones: placement ids on this board are 0 to 160; legal: a1-b1, "), "{error}");
        for action in [-1, i64::MAX] {
            let error = state.apply_action(action).unwrap_err().to_string();
            let expected = format!("illegal action {action} in bones: placement ids on this board are 0 to 160; legal: a1-b1, ");
            assert!(error.starts_with(&expected), "{error}");
        }
        // A person is told the rule only for an id the board has.
        assert_eq!(state.why_illegal(161), "That move is not allowed now.");
        assert_eq!(state.why_illegal(-1), "That move is not allowed now.");
        assert_eq!(state.why_illegal(3), "");
        let on_the_piece = state.string_to_action("e5-f5").unwrap();
        assert_eq!(
            state.why_illegal(on_the_piece.into()),
            "It would lie exactly on the piece at e5-f5, which is still completely visible."
        );
        assert_eq!(state.history().len(), 1);
        assert_ne!(state.current_player(), CHANCE);
    }

    /// The smallest board never runs out of legal placements: completely visible pieces are
    /// disjoint, so they can never forbid every placement (every game of 2x2 with four each).
    #[test]
    fn some_placement_is_always_legal_on_the_smallest_board() {
        let mut frontier = vec![game(2, 2, 4).new_initial_state()];
        let mut seen = 0;
        while let Some(mut state) = frontier.pop() {
            seen += 1;
            if state.is_terminal() {
                continue;
            }
            let legal = state.legal_actions().to_vec();
            assert!(!legal.is_empty());
            for action in legal {
                let mut child = state.clone_box();
                child.apply_action(action.into()).unwrap();
                frontier.push(child);
            }
        }
        assert!(seen > 1000);
    }

    /// A plain reference: stacks of piece numbers per square, legality and wins worked out the
    /// slow, obvious way from them, checked against the state after every placement.
    fn reference_game(width: usize, height: usize, pieces: usize, seed: u64) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let table = DominoTable::new(width, height);
        let mut state = game(width, height, pieces).new_initial_state();
        let mut stacks: Vec<Vec<usize>> = vec![Vec::new(); width * height];
        let mut placed: Vec<(usize, usize)> = Vec::new();
        while !state.is_terminal() {
            let legal: Vec<Action> = (0..table.count)
                .filter(|&a| {
                    let (one, two) = (table.first[a] as usize, table.second[a] as usize);
                    if placed.is_empty() {
                        return table.start_squares.contains(&(one as Square))
                            || table.start_squares.contains(&(two as Square));
                    }
                    !placed.iter().enumerate().any(|(k, &(p, q))| {
                        (p, q) == (one, two)
                            && stacks[one].last() == Some(&k)
                            && stacks[two].last() == Some(&k)
                    })
                })
                .map(|a| a as Action)
                .collect();
            assert_eq!(state.legal_actions(), &legal[..]);
            let mover = state.current_player() as usize;
            let action = legal[rng.random_range(0..legal.len())];
            let (one, two) = (
                table.first[action as usize] as usize,
                table.second[action as usize] as usize,
            );
            stacks[one].push(placed.len());
            stacks[two].push(placed.len());
            placed.push((one, two));
            state.apply_action(action.into()).unwrap();
            let colour = |s: usize| stacks[s].last().map(|k| k % 2);
            let ranks = (0..height).map(|r| {
                (0..width)
                    .map(|f| colour(r * width + f))
                    .collect::<Vec<_>>()
            });
            let files = (0..width).map(|f| {
                (0..height)
                    .map(|r| colour(r * width + f))
                    .collect::<Vec<_>>()
            });
            let won = ranks.chain(files).any(|line| {
                line.windows(LINE)
                    .any(|w| w.iter().all(|&c| c == Some(mover)))
            });
            if won {
                let mut expected = vec![0.0, 0.0];
                expected[mover] = 1.0;
                expected[1 - mover] = -1.0;
                assert_eq!(state.returns(), expected);
            } else if placed.len() == 2 * pieces {
                assert!(state.is_terminal() && state.returns() == vec![0.0, 0.0]);
            } else {
                assert_eq!(state.current_player(), 1 - mover as i32);
            }
        }
    }

    #[test]
    fn matches_a_plain_reference() {
        for (width, height, pieces) in [
            (10, 9, 30),
            (6, 5, 15),
            (5, 7, 10),
            (3, 3, 12),
            (2, 2, 6),
            (7, 2, 8),
        ] {
            for seed in 0..4 {
                reference_game(width, height, pieces, seed);
            }
        }
    }

    proptest! {
        /// Any sequence of integers, legal or not, never panics, and a refused one changes
        /// nothing.
        #[test]
        fn arbitrary_actions_never_panic(
            actions in proptest::collection::vec(
                prop_oneof![0i64..30, any::<i64>()], 0..60),
        ) {
            let mut state = game(5, 5, 5).new_initial_state();
            for action in actions {
                let before = (state.history().to_vec(), state.observation(None).unwrap());
                if state.apply_action(action).is_err() {
                    prop_assert_eq!(state.history(), &before.0[..]);
                    prop_assert_eq!(state.observation(None).unwrap(), before.1);
                }
                let _ = state.why_illegal(action);
                let _ = state.action_to_string(action);
                let mut out = vec![0.0; 11 * 25];
                for seat in [Some(0), Some(1), None] {
                    prop_assert!(state.observation_tensor(seat, &mut out));
                }
            }
        }

        /// Any text parses or is refused with an error, never a panic.
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,12}") {
            let state = game(10, 9, 30).new_initial_state();
            let _ = state.string_to_action(&text);
        }
    }
}
