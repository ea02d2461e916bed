//! `greedy`: one ply, the expectation over the chance right after it, the game's heuristic. The
//! twin of `boneyard/ai/greedy.py`'s `GreedyBot`, step for step:
//!
//! * Every legal action is tried on a world the seat may look at (a copy of the state, or in a
//!   hidden-information game a fresh `Rules::resample(seat, ..)`), the chance outcomes right
//!   after it averaged by their odds, and the position reached scored for the seat: the game's
//!   heuristic (`Rules::heuristic`; 0 where the game has none), or at the end the seat's return,
//!   shifted by the utility range's width up for a win over every other seat and down for a loss.
//! * A budget of about `evaluations` positions a world: past it (`evaluations / actions` leaves
//!   an action), chance outcomes are sampled by their odds instead of enumerated.
//! * In a hidden-information game the values of `iterations` worlds are summed (fewer once the
//!   time limit has passed; never none); a perfect-information game looks at its one state.
//! * The best total wins, ties (within 1e-12) broken by the seeded generator.
//!
//! Options: `evaluations` (1 to `MAX_EVALUATIONS`) and `utility_range` (`[low, high]`, the
//! Python game's `min_utility`, `max_utility`). Iterations count the worlds looked at.
//!
//! It is here, not only in Python, because greedy is what the exhaustive analyses
//! (`boneyard analyze`) play most, and one ply of Python costs more than a whole random game.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::mcts::{check_budget, mover, sample_outcome};
use super::{known_options, whole_option, SearchOutcome, SearchRequest};
use crate::core::{Action, EngineError, Played, Rules, CHANCE, TERMINAL};

pub const NAME: &str = "greedy";

/// `greedy.EVALUATIONS`: about how many positions one world's look costs.
pub const DEFAULT_EVALUATIONS: u64 = 60;
/// The most `evaluations` one call may ask for.
pub const MAX_EVALUATIONS: u64 = 1_000_000;
/// The Python bot's tie margin.
const TIE: f64 = 1e-12;

struct GreedyOptions {
    evaluations: u64,
    utility_range: (f64, f64),
}

fn parse(options: &Value) -> Result<GreedyOptions, String> {
    let map = known_options(options, &["evaluations", "utility_range"])?;
    let evaluations = whole_option(map, "evaluations", 1..=MAX_EVALUATIONS, DEFAULT_EVALUATIONS)?;
    let utility_range = match map.get("utility_range") {
        None => (-1.0, 1.0),
        Some(value) => {
            let pair = value.as_array().and_then(|items| match items.as_slice() {
                [low, high] => Some((low.as_f64()?, high.as_f64()?)),
                _ => None,
            });
            match pair {
                Some((low, high)) if low.is_finite() && high.is_finite() && low < high => {
                    (low, high)
                }
                _ => {
                    return Err(format!(
                        "option \"utility_range\" is [low, high] with low < high, not {value}"
                    ))
                }
            }
        }
    };
    Ok(GreedyOptions {
        evaluations,
        utility_range,
    })
}

/// The greedy choice from `state` (a player's turn).
pub fn search<R: Rules>(
    state: &Played<R>,
    request: &SearchRequest,
) -> Result<SearchOutcome, EngineError> {
    let options = parse(&request.options)
        .map_err(|message| EngineError::InvalidParameter(format!("{NAME}: {message}")))?;
    check_budget(NAME, request)?;
    let seat = mover(NAME, &state.rules)?;
    let started = Instant::now();
    let mut rng = SmallRng::seed_from_u64(request.seed);
    let actions = state.rules.legal_actions();
    if actions.len() == 1 {
        return Ok(SearchOutcome {
            action: actions[0],
            values: Vec::new(),
            visits: vec![(actions[0], 0)],
            iterations: 0,
            elapsed_ms: started.elapsed().as_millis() as u64,
            action_values: Vec::new(),
        });
    }
    let worlds = if R::HIDDEN_INFORMATION {
        request.iterations.unwrap_or(u64::MAX)
    } else {
        1
    };
    let deadline = request
        .time_limit_ms
        .map(|ms| started + std::time::Duration::from_millis(ms));
    let look = Look {
        seat,
        range: options.utility_range,
    };
    let leaves = (options.evaluations / actions.len() as u64).max(1);
    let mut totals = vec![0.0f64; actions.len()];
    let mut looked = 0u64;
    while looked < worlds {
        if looked > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break; // one world is always looked at; then as many as time allows
        }
        let world = if R::HIDDEN_INFORMATION {
            state.rules.resample(seat, &mut rng)?
        } else {
            state.rules.clone()
        };
        // A resample's legal actions may differ from the true state's (the seat's own are the
        // same, but an action only legal in some worlds is skipped, as in Python).
        for action in world.legal_actions() {
            let Ok(index) = actions.binary_search(&action) else {
                continue;
            };
            let mut child = world.clone();
            child.apply_action(action);
            totals[index] += look.expected(&mut child, leaves, &mut rng);
        }
        looked += 1;
    }
    let best = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<Action> = actions
        .iter()
        .zip(&totals)
        .filter(|&(_, &total)| total >= best - TIE)
        .map(|(&action, _)| action)
        .collect();
    let action = tied[rng.random_range(0..tied.len())];
    Ok(SearchOutcome {
        action,
        // Greedy values its own seat's moves only (`action_values`), not every seat's.
        values: Vec::new(),
        visits: actions.iter().map(|&action| (action, looked)).collect(),
        iterations: looked,
        elapsed_ms: started.elapsed().as_millis() as u64,
        action_values: actions
            .iter()
            .zip(&totals)
            .map(|(&action, &total)| (action, total / looked as f64))
            .collect(),
    })
}

struct Look {
    seat: usize,
    range: (f64, f64),
}

impl Look {
    fn width(&self) -> f64 {
        self.range.1 - self.range.0
    }

    /// `GreedyBot._expected`: the chance right after a move averaged, then `value`.
    fn expected<R: Rules>(&self, state: &mut R, leaves: u64, rng: &mut SmallRng) -> f64 {
        if state.current_player() != CHANCE {
            return self.value(state);
        }
        let outcomes = state.chance_outcomes();
        if outcomes.len() as u64 > leaves {
            // Too many outcomes to enumerate: the mean of `leaves` samples.
            let mut total = 0.0;
            for _ in 0..leaves {
                let mut child = state.clone();
                child.apply_action(sample_outcome(&outcomes, rng));
                total += self.expected(&mut child, 1, rng);
            }
            return total / leaves as f64;
        }
        let share = (leaves / outcomes.len() as u64).max(1);
        let mut total = 0.0;
        for &(outcome, probability) in &outcomes {
            let mut child = state.clone();
            child.apply_action(outcome);
            total += probability * self.expected(&mut child, share, rng);
        }
        total
    }

    /// `greedy.action_value`: the heuristic, or at the end the return shifted for a win or loss.
    fn value<R: Rules>(&self, state: &R) -> f64 {
        if state.current_player() != TERMINAL {
            return state.heuristic(self.seat).unwrap_or(0.0);
        }
        let returns = state.returns();
        let mine = returns[self.seat];
        let best_other = super::best_other_return(&returns, self.seat);
        if best_other.is_finite() {
            if mine > best_other {
                mine + self.width()
            } else if mine < best_other {
                mine - self.width()
            } else {
                mine
            }
        } else if mine >= self.range.1 {
            mine + self.width() // one player: a win is reaching the top of the range
        } else {
            mine
        }
    }
}

#[cfg(test)]
mod tests {
    //! Greedy in Race (two players add 1 or 2, a coin after each move, no heuristic): its values
    //! by hand. The Python bot's values in the real games: tests/ai/test_native_greedy_bot.py.
    use serde_json::json;

    use super::super::SearchRequest;
    use crate::core::{DynState, Params};
    use crate::games::race;

    fn request(options: serde_json::Value) -> SearchRequest {
        SearchRequest {
            search: "greedy".to_string(),
            options,
            time_limit_ms: None,
            iterations: Some(1),
            seed: 3,
        }
    }

    #[test]
    fn a_win_at_once_is_worth_the_width_more_and_the_coin_is_averaged() {
        let params = Params::from_json("{\"goal\": 3, \"coin\": true}").unwrap();
        let mut state: Box<dyn DynState> = race::load(&params).unwrap().new_initial_state();
        for action in [0, 0] {
            state.apply_action(action).unwrap(); // seat 0 adds 1; the coin adds nothing
        }
        assert_eq!(state.current_player(), 1);
        let found = state
            .search(&request(json!({"utility_range": [-1, 1]})))
            .unwrap();
        // Adding 2 reaches the goal: a win, 1 + the range's width 2. Adding 1 leaves 2: the coin
        // then ends it drawn (0) three times in four, else seat 0 moves (no heuristic: 0).
        assert_eq!(found.action_values, vec![(0, 0.0), (1, 3.0)]);
        assert_eq!(found.action, 1);
        assert_eq!(found.iterations, 1);
    }

    #[test]
    fn options_are_refused_with_what_is_allowed() {
        let params = Params::from_json("{\"goal\": 5, \"coin\": false}").unwrap();
        let state = race::load(&params).unwrap().new_initial_state();
        for (options, words) in [
            (
                json!({"depth": 2}),
                "its options: evaluations, utility_range",
            ),
            (json!({"evaluations": 0}), "from 1 to 1000000"),
            (json!({"utility_range": [1, 1]}), "low < high"),
        ] {
            let error = state.search(&request(options)).unwrap_err().to_string();
            assert!(error.contains("greedy") && error.contains(words), "{error}");
        }
    }
}
