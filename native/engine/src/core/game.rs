use serde_json::Value;

use super::{EngineError, Params, Randomness};

/// An action id: a player's action (`0..num_distinct_actions`) or a chance outcome
/// (`0..max_chance_outcomes`), whichever the state waits for, as in Python and OpenSpiel.
pub type Action = u32;

/// `current_player()` at a chance node.
pub const CHANCE: i32 = -1;
/// `current_player()` once the game is over.
pub const TERMINAL: i32 = -4;

/// One game's rules: what its Python `State` implements as hooks (`_legal_actions`,
/// `_apply_action`, ...). The shared work (the history, the legal-action cache, refusing illegal
/// actions) is `Played`'s, written once.
pub trait Rules: Clone + Send + Sync + 'static {
    /// The game's registered name (`boneyard.list_games()`).
    const NAME: &'static str;
    /// Whether some seat cannot see everything (then `resample` is the game's own).
    const HIDDEN_INFORMATION: bool = false;
    /// Whether a resampled state keeps the history of the state it was drawn from; a game
    /// whose resample deals a new state from a view (its snapshot, not a replay, is the state)
    /// gives it an empty one, as its Python engine does.
    const RESAMPLE_KEEPS_HISTORY: bool = true;

    fn num_players(&self) -> usize;
    /// A seat, `CHANCE` or `TERMINAL`.
    fn current_player(&self) -> i32;
    /// The sorted legal actions at a player node (never asked at a chance or terminal node).
    fn legal_actions(&self) -> Vec<Action>;
    /// `(outcome, probability)` sorted by outcome, at a chance node.
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        Vec::new()
    }
    /// Play a legal action or chance outcome (already checked).
    fn apply_action(&mut self, action: Action);
    /// One value per seat: the result at the end, zeros before it.
    fn returns(&self) -> Vec<f64>;
    /// The notation of `action` played from this state; an id the game has no notation for is
    /// an `InvalidActionString` error.
    fn action_to_string(&self, action: Action) -> Result<String, EngineError>;
    /// The id of `text`, already stripped, lower-cased and with its spaces folded.
    fn string_to_action(&self, text: &str) -> Result<Action, EngineError>;
    /// How `action` looks to `seat` (a secret one as `?`): the plain notation unless the game
    /// hides something.
    fn action_string_for(
        &self,
        _seat: Option<usize>,
        action: Action,
    ) -> Result<String, EngineError> {
        self.action_to_string(action)
    }
    /// All that `seat` may know (`None`: a spectator), equal as JSON to the Python engine's.
    fn observation(&self, seat: Option<usize>) -> Value;
    /// What `str(state)` draws where it shows more than a spectator sees (the Python `__str__`
    /// of a hidden-information game), shaped as an observation; `None`: the spectator's view.
    fn text_view(&self) -> Option<Value> {
        None
    }
    /// The rule an illegal action breaks, where the game can say (Python's `_why_illegal`).
    fn why_illegal(&self, _action: Action) -> Option<String> {
        None
    }
    /// The rule broken by an integer that is no id at all (a negative one), where the game can
    /// say: Python's `_why_illegal` sees every int the caller passed.
    fn why_illegal_integer(&self, _action: i64) -> Option<String> {
        None
    }
    /// `Game.num_distinct_actions()` where the game bounds its ids: `why_illegal` names a rule only
    /// for an id below it (Python's `_action_id`), the generic sentence otherwise.
    fn num_distinct_actions(&self) -> Option<Action> {
        None
    }
    /// A full state consistent with `observation(seat)`, the unknowns drawn from `rng` as the
    /// Python engine draws them (hidden-information games only).
    fn resample(&self, _seat: usize, _rng: &mut dyn Randomness) -> Result<Self, EngineError> {
        Err(EngineError::NotSupported(format!(
            "{} has no hidden information to resample",
            Self::NAME
        )))
    }
    /// The observation tensor of the Python game's `tensor` module for `seat` (`None`: the
    /// spectator), written into `out` (as long as the shape's product); `false` where this game
    /// has no native tensor yet.
    fn observation_tensor(&self, _seat: Option<usize>, _out: &mut [f32]) -> bool {
        false
    }
    /// The game's evaluation of an unfinished position for `seat`, inside the utility range: the
    /// Python `heuristic.evaluate(state, seat)` of its game, where it is ported (`None`: not yet,
    /// and a search then plays on to the end or scores such a state as unknown).
    fn heuristic(&self, _seat: usize) -> Option<f64> {
        None
    }
    /// Where the position is *forcing*, a few moves of the side to move that are as good as all
    /// of them (searching only these gives the value of searching every move), else `None`: the
    /// mover can win at once (its winning moves), or it must parry another player's immediate
    /// win (its parries; a single move where nothing parries, as every move then loses alike).
    /// A search may look on through such positions past its depth (alpha-beta's
    /// `threat_plies`); `None` where the position is quiet or the game does not say.
    fn forcing_moves(&self) -> Option<Vec<Action>> {
        None
    }
    /// `Game.utility_range()` of the Python game (the lowest and highest return), where the game
    /// states it natively: a search scales results and heuristic values into it.
    fn utility_range(&self) -> Option<(f64, f64)> {
        None
    }
    /// A key of the position for a search's transposition table: equal for states that a search
    /// may treat as one (the player to move and everything the rest of the game depends on
    /// included), different otherwise but for a 64-bit collision; `None`: no table.
    fn transposition_key(&self) -> Option<u64> {
        None
    }
    /// The saved fields of a state that is more than a replay of its history (a resampled one),
    /// in the Python engine's snapshot format (`to_json()["snapshot"]`); `None` otherwise.
    fn snapshot(&self) -> Option<Value> {
        None
    }
    /// A search of the game's own on its own model (Bond O Cones' `lookahead`), where
    /// `request` names one: `None` sends the request on to the generic searches.
    fn own_search(
        &self,
        _request: &crate::search::SearchRequest,
    ) -> Option<Result<crate::search::SearchOutcome, EngineError>> {
        None
    }
}

/// A loaded game (its parameters read): what `boneyard.native.load_game` holds.
pub trait NativeGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn params(&self) -> &Params;
    fn new_initial_state(&self) -> Box<dyn DynState>;
    /// The shape of `Rules::observation_tensor`, where the game has a native tensor.
    fn observation_tensor_shape(&self) -> Option<Vec<usize>> {
        None
    }
    /// A state from the Python engine's snapshot (`to_json()["snapshot"]`) and its history.
    fn state_from_snapshot(
        &self,
        _snapshot: &Value,
        _history: Vec<Action>,
    ) -> Result<Box<dyn DynState>, EngineError> {
        Err(EngineError::InvalidState(format!(
            "{} states are rebuilt from their history, not from a snapshot",
            self.name()
        )))
    }
}

/// A state of any game behind one object-safe face, for the bindings and game-agnostic code
/// (random playouts, batch stepping). `Played<R>` is the one implementation.
pub trait DynState: Send + Sync {
    fn name(&self) -> &'static str;
    fn num_players(&self) -> usize;
    fn current_player(&self) -> i32;
    fn is_terminal(&self) -> bool {
        self.current_player() == TERMINAL
    }
    fn is_chance_node(&self) -> bool {
        self.current_player() == CHANCE
    }
    /// Sorted legal actions (the chance outcomes at a chance node, none at the end), cached.
    fn legal_actions(&mut self) -> &[Action];
    fn chance_outcomes(&self) -> Vec<(Action, f64)>;
    /// Play `action` (any integer: an id out of range is illegal like any other); an illegal one
    /// is an `IllegalAction` error and changes nothing.
    fn apply_action(&mut self, action: i64) -> Result<(), EngineError>;
    /// The refusal of an action that is no integer at all (Python's `True`, `"0"`), `shown` as
    /// Python's `repr` shows it.
    fn refusal(&mut self, shown: &str) -> EngineError;
    fn returns(&self) -> Vec<f64>;
    fn history(&self) -> &[Action];
    fn action_to_string(&self, action: i64) -> Result<String, EngineError>;
    /// The id of `text` (case and spaces do not matter).
    fn string_to_action(&self, text: &str) -> Result<Action, EngineError>;
    fn action_string_for(&self, seat: Option<usize>, action: i64) -> Result<String, EngineError>;
    fn observation(&self, seat: Option<usize>) -> Result<Value, EngineError>;
    /// What `str(state)` draws (`Rules::text_view`, else the spectator's observation).
    fn text_view(&self) -> Value;
    /// One sentence for a person who tried `action` (an empty one when it is legal).
    fn why_illegal(&mut self, action: i64) -> String;
    fn resample(
        &self,
        seat: usize,
        rng: &mut dyn Randomness,
    ) -> Result<Box<dyn DynState>, EngineError>;
    fn snapshot(&self) -> Option<Value>;
    /// `Rules::heuristic` for `seat` (a seat of the game): `None` where it is not ported.
    fn heuristic(&self, seat: usize) -> Option<f64>;
    /// `Rules::observation_tensor`: `false` where the game has no native tensor.
    fn observation_tensor(&self, seat: Option<usize>, out: &mut [f32]) -> bool;
    /// Draw chance outcomes by their odds until a player is to move or the game is over.
    fn settle_chance(&mut self, rng: &mut rand::rngs::SmallRng);
    fn clone_box(&self) -> Box<dyn DynState>;
    /// Play uniformly random actions (chance by its odds) to the end; the number of actions.
    fn play_out(&mut self, rng: &mut rand::rngs::SmallRng) -> usize;
    /// Search for the mover's action (`crate::search::run`): the bindings call this with the GIL
    /// released.
    fn search(
        &self,
        request: &crate::search::SearchRequest,
    ) -> Result<crate::search::SearchOutcome, EngineError>;
}
