use rand::rngs::SmallRng;
use rand::Rng;
use serde_json::Value;

use super::{python_repr, Action, DynState, EngineError, Randomness, Rules, CHANCE, TERMINAL};

/// What the Python engine's `State.why_illegal` says where the game gives no reason of its own.
const NOT_ALLOWED: &str = "That move is not allowed now.";

/// A game's rules with the work every game shares, done once as `boneyard.core.game.State` does
/// it: the history, the legal actions cached until the next action, and the refusal of an
/// illegal action before the rules see it (so a refused action changes nothing).
#[derive(Clone)]
pub struct Played<R: Rules> {
    pub rules: R,
    history: Vec<Action>,
    legal: Option<Vec<Action>>,
}

impl<R: Rules> Played<R> {
    pub fn new(rules: R) -> Played<R> {
        Played {
            rules,
            history: Vec::new(),
            legal: None,
        }
    }

    /// A state whose history is given rather than played (a resampled or restored one).
    pub fn with_history(rules: R, history: Vec<Action>) -> Played<R> {
        Played {
            rules,
            history,
            legal: None,
        }
    }

    fn compute_legal(&self) -> Vec<Action> {
        match self.rules.current_player() {
            TERMINAL => Vec::new(),
            CHANCE => {
                let mut outcomes: Vec<Action> = self
                    .rules
                    .chance_outcomes()
                    .into_iter()
                    .map(|(a, _)| a)
                    .collect();
                outcomes.sort_unstable();
                outcomes
            }
            _ => self.rules.legal_actions(),
        }
    }

    fn legal(&mut self) -> &[Action] {
        if self.legal.is_none() {
            self.legal = Some(self.compute_legal());
        }
        self.legal.as_deref().unwrap_or(&[])
    }

    /// `illegal action 'x' in game: reason; legal: a, b`, worded as the Python engine words it.
    fn illegal_message(&mut self, action: i64) -> String {
        if self.rules.current_player() == TERMINAL {
            return self.message_for(&action.to_string(), None);
        }
        let (shown, reason) = match self.id_of(action) {
            Some(id) => match self.rules.action_to_string(id) {
                Ok(text) => (python_repr(&text), self.rules.why_illegal(id)),
                Err(_) => (action.to_string(), self.rules.why_illegal(id)),
            },
            None => (action.to_string(), self.rules.why_illegal_integer(action)),
        };
        self.message_for(&shown, reason)
    }

    fn message_for(&mut self, shown: &str, reason: Option<String>) -> String {
        if self.rules.current_player() == TERMINAL {
            return format!(
                "the {} game is over: no action is legal (got {shown})",
                R::NAME
            );
        }
        let legal: Vec<String> = self
            .legal()
            .to_vec()
            .into_iter()
            .map(|a| {
                self.rules
                    .action_to_string(a)
                    .unwrap_or_else(|_| a.to_string())
            })
            .collect();
        let because = reason.map(|r| format!(": {r}")).unwrap_or_default();
        format!(
            "illegal action {shown} in {}{because}; legal: {}",
            R::NAME,
            legal.join(", ")
        )
    }

    fn id_of(&self, action: i64) -> Option<Action> {
        Action::try_from(action).ok()
    }
}

/// A rule's reason as a sentence, as the Python engine makes it: a capital (unless its first word
/// holds a digit, like a square's name) and a full stop.
fn as_sentence(reason: &str) -> String {
    let first_word = reason.split(' ').next().unwrap_or("");
    let mut sentence = if first_word.chars().any(|c| c.is_ascii_digit()) {
        reason.to_string()
    } else {
        let mut chars = reason.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => String::new(),
        }
    };
    if !sentence.ends_with(['.', '!', '?']) {
        sentence.push('.');
    }
    sentence
}

fn fold_spaces(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

impl<R: Rules> DynState for Played<R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn num_players(&self) -> usize {
        self.rules.num_players()
    }

    fn current_player(&self) -> i32 {
        self.rules.current_player()
    }

    fn legal_actions(&mut self) -> &[Action] {
        self.legal()
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        if self.rules.current_player() != CHANCE {
            return Vec::new();
        }
        let mut outcomes = self.rules.chance_outcomes();
        outcomes.sort_by_key(|&(a, _)| a);
        outcomes
    }

    fn apply_action(&mut self, action: i64) -> Result<(), EngineError> {
        let legal_id = self
            .id_of(action)
            .filter(|id| self.legal().binary_search(id).is_ok());
        match legal_id {
            Some(id) => {
                self.rules.apply_action(id);
                self.history.push(id);
                self.legal = None;
                Ok(())
            }
            None => Err(EngineError::IllegalAction(self.illegal_message(action))),
        }
    }

    fn refusal(&mut self, shown: &str) -> EngineError {
        EngineError::IllegalAction(self.message_for(shown, None))
    }

    fn returns(&self) -> Vec<f64> {
        self.rules.returns()
    }

    fn history(&self) -> &[Action] {
        &self.history
    }

    fn action_to_string(&self, action: i64) -> Result<String, EngineError> {
        match self.id_of(action) {
            Some(id) => self.rules.action_to_string(id),
            None => Err(EngineError::InvalidActionString(format!(
                "no {} action {action}",
                R::NAME
            ))),
        }
    }

    fn string_to_action(&self, text: &str) -> Result<Action, EngineError> {
        self.rules.string_to_action(&fold_spaces(text))
    }

    fn action_string_for(&self, seat: Option<usize>, action: i64) -> Result<String, EngineError> {
        match self.id_of(action) {
            Some(id) => self.rules.action_string_for(seat, id),
            None => self.action_to_string(action),
        }
    }

    fn observation(&self, seat: Option<usize>) -> Result<Value, EngineError> {
        let players = self.rules.num_players();
        match seat {
            Some(s) if s >= players => Err(EngineError::BadSeat(format!(
                "bad seat {s} for {}: seats are 0 to {}, or None for a spectator",
                R::NAME,
                players - 1
            ))),
            _ => Ok(self.rules.observation(seat)),
        }
    }

    fn text_view(&self) -> Value {
        self.rules
            .text_view()
            .unwrap_or_else(|| self.rules.observation(None))
    }

    fn why_illegal(&mut self, action: i64) -> String {
        match self.rules.current_player() {
            TERMINAL => return "The game is over.".to_string(),
            CHANCE => return "Wait: the game is not waiting for a move now.".to_string(),
            _ => {}
        }
        // As Python's `_action_id`: an id past the game's, or one it has no notation for, gets
        // no rule's reason.
        let bound = self.rules.num_distinct_actions();
        let Some(id) = self
            .id_of(action)
            .filter(|&id| bound.is_none_or(|n| id < n) && self.rules.action_to_string(id).is_ok())
        else {
            return NOT_ALLOWED.to_string();
        };
        if self.legal().binary_search(&id).is_ok() {
            return String::new();
        }
        match self.rules.why_illegal(id) {
            Some(reason) if !reason.is_empty() => as_sentence(&reason),
            _ => NOT_ALLOWED.to_string(),
        }
    }

    fn resample(
        &self,
        seat: usize,
        rng: &mut dyn Randomness,
    ) -> Result<Box<dyn DynState>, EngineError> {
        if !R::HIDDEN_INFORMATION {
            return Ok(self.clone_box());
        }
        let rules = self.rules.resample(seat, rng)?;
        let history = if R::RESAMPLE_KEEPS_HISTORY {
            self.history.clone()
        } else {
            Vec::new()
        };
        Ok(Box::new(Played::with_history(rules, history)))
    }

    fn snapshot(&self) -> Option<Value> {
        self.rules.snapshot()
    }

    fn observation_tensor(&self, seat: Option<usize>, out: &mut [f32]) -> bool {
        self.rules.observation_tensor(seat, out)
    }

    fn heuristic(&self, seat: usize) -> Option<f64> {
        self.rules.heuristic(seat)
    }

    fn settle_chance(&mut self, rng: &mut SmallRng) {
        while self.rules.current_player() == CHANCE {
            let outcome = sample_outcome(&self.rules.chance_outcomes(), rng);
            self.rules.apply_action(outcome);
            self.history.push(outcome);
            self.legal = None;
        }
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn play_out(&mut self, rng: &mut SmallRng) -> usize {
        let mut steps = 0;
        loop {
            let action = match self.rules.current_player() {
                TERMINAL => return steps,
                CHANCE => sample_outcome(&self.rules.chance_outcomes(), rng),
                _ => {
                    let legal = self.rules.legal_actions();
                    legal[rng.random_range(0..legal.len())]
                }
            };
            self.rules.apply_action(action);
            self.history.push(action);
            self.legal = None;
            steps += 1;
        }
    }

    fn search(
        &self,
        request: &crate::search::SearchRequest,
    ) -> Result<crate::search::SearchOutcome, EngineError> {
        crate::search::run(self, request)
    }
}

/// A chance outcome drawn by its probability.
fn sample_outcome(outcomes: &[(Action, f64)], rng: &mut SmallRng) -> Action {
    let mut left = rng.random::<f64>() * outcomes.iter().map(|&(_, p)| p).sum::<f64>();
    for &(action, probability) in outcomes {
        if left < probability {
            return action;
        }
        left -= probability;
    }
    outcomes[outcomes.len() - 1].0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_start_with_a_capital_unless_a_square_leads() {
        assert_eq!(
            as_sentence("the lion moves 1 step"),
            "The lion moves 1 step."
        );
        assert_eq!(as_sentence("e5 is taken"), "e5 is taken.");
        assert_eq!(as_sentence("Stop!"), "Stop!");
    }

    #[test]
    fn strings_are_quoted_as_python_quotes_them() {
        assert_eq!(python_repr("d1-d2"), "'d1-d2'");
        assert_eq!(python_repr("it's"), "\"it's\"");
    }

    #[test]
    fn notation_is_read_without_case_or_extra_spaces() {
        assert_eq!(fold_spaces("  Coin   0 "), "coin 0");
    }
}
