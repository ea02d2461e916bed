//! Race's rules, as `boneyard/games/race/rules.py` states them: two players add 1 or 2 to one
//! total; after every move a coin adds 1 three times in four (unless `coin` is off). Whoever
//! brings the total to the goal wins; a coin that gets there ends the game drawn.

use serde_json::Value;

use super::{notation, observation};
use crate::core::{
    Action, DynState, EngineError, NativeGame, Params, Played, Rules, CHANCE, TERMINAL,
};

/// The coin's outcomes and their probabilities.
const COIN_ODDS: [(Action, f64); 2] = [(0, 0.25), (1, 0.75)];

pub struct RaceGame {
    params: Params,
    goal: u32,
    coin: bool,
}

pub fn load(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    Ok(Box::new(RaceGame {
        params: params.clone(),
        goal: params.int("goal")? as u32,
        coin: params.flag("coin")?,
    }))
}

impl NativeGame for RaceGame {
    fn name(&self) -> &'static str {
        RaceRules::NAME
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(Played::new(RaceRules {
            goal: self.goal,
            coin: self.coin,
            total: 0,
            to_move: 0,
            coin_due: false,
            winner: None,
            over: false,
        }))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct RaceRules {
    pub goal: u32,
    coin: bool,
    pub total: u32,
    to_move: i32,
    coin_due: bool,
    pub winner: Option<i32>,
    over: bool,
}

impl Rules for RaceRules {
    const NAME: &'static str = "race";

    fn num_players(&self) -> usize {
        2
    }

    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }

    fn current_player(&self) -> i32 {
        if self.over {
            TERMINAL
        } else if self.coin_due {
            CHANCE
        } else {
            self.to_move
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        vec![0, 1]
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        COIN_ODDS.to_vec()
    }

    fn apply_action(&mut self, action: Action) {
        if self.coin_due {
            self.total += action;
            self.coin_due = false;
            self.over = self.total >= self.goal;
            return;
        }
        self.total += action + 1;
        if self.total >= self.goal {
            self.winner = Some(self.to_move);
            self.over = true;
            return;
        }
        self.to_move = 1 - self.to_move;
        self.coin_due = self.coin;
    }

    fn returns(&self) -> Vec<f64> {
        match self.winner {
            None => vec![0.0, 0.0],
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
        }
    }

    fn action_to_string(&self, action: Action) -> Result<String, EngineError> {
        notation::action_to_string(action, self.coin_due)
    }

    fn string_to_action(&self, text: &str) -> Result<Action, EngineError> {
        notation::string_to_action(text, self.coin_due)
    }

    fn observation(&self, seat: Option<usize>) -> Value {
        observation::observe(self, seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn race(goal: i64, coin: bool) -> Box<dyn DynState> {
        let params = Params::from_json(&format!("{{\"goal\": {goal}, \"coin\": {coin}}}")).unwrap();
        load(&params).unwrap().new_initial_state()
    }

    #[test]
    fn a_move_that_reaches_the_goal_wins() {
        let mut state = race(2, false);
        state.apply_action(1).unwrap();
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![1.0, -1.0]);
    }

    #[test]
    fn a_coin_that_reaches_the_goal_draws() {
        let mut state = race(2, true);
        state.apply_action(0).unwrap(); // total 1, the coin is due
        assert_eq!(state.current_player(), CHANCE);
        state.apply_action(1).unwrap();
        assert!(state.is_terminal());
        assert_eq!(state.returns(), vec![0.0, 0.0]);
    }

    proptest! {
        /// Any sequence of integers, legal or not, never panics, and a refused one changes nothing.
        #[test]
        fn arbitrary_actions_never_panic(actions in proptest::collection::vec(-3i64..5, 0..40)) {
            let mut state = race(7, true);
            for action in actions {
                let before = state.history().to_vec();
                if state.apply_action(action).is_err() {
                    prop_assert_eq!(state.history(), &before[..]);
                }
            }
        }
    }
}
