//! Bond O Cones' lookahead improved by rollouts: the lookahead's best few actions, each played
//! on in many resampled worlds by the lookahead itself (both seats), and the one whose games
//! go best on average chosen.
//!
//! Why: one more depth of the lookahead on its own model plays no better than depth 0
//! (docs/ai.md), as it plans against a model opponent (a one-ply or a minimising one) and the
//! model's leaf. A rollout instead plays the real rules a few turns on, with each seat choosing
//! as the depth-0 lookahead chooses from that seat's view of the world, and scores the position
//! it reaches with the lookahead's leaf; averaged over worlds this is one step of policy
//! improvement over the lookahead (Tesauro and Galperin's rollouts of a backgammon player).
//!
//! Each world is `Rules::resample(seat, ..)` from the search's seeded generator, so the search
//! reads nothing the seat may not know; every candidate is played on in the same world with
//! the same dice (common random numbers), so their difference is the candidates' and not the
//! dice's. Only worlds every candidate finished count.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::lookahead::{depth_zero_values, position_value, WIN};
use super::rules::{BondoConesRules, Phase};
use crate::core::{Action, EngineError, Randomness, Rules, CHANCE, TERMINAL};
use crate::search::{known_options, whole_option, SearchOutcome, SearchRequest};

/// The search's name in `search::run`.
pub const NAME: &str = "lookahead_rollouts";
/// The options this search reads.
const OPTIONS: &[&str] = &["candidates", "turns", "width", "policy_width", "margin"];
/// The most turns a rollout plays past the opponent's answer.
pub const MOST_TURNS: u64 = 20;
/// The most worlds an iteration budget asks for.
const MOST_WORLDS: u64 = 1_000_000;

/// The search's options, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// How many of the depth-0 lookahead's best actions are played on.
    pub candidates: usize,
    /// How many of the seat's own turns a rollout plays after the opponent's answer to the
    /// candidate (0: the opponent's turn alone) before the leaf scores it.
    pub turns: u64,
    /// The depth-0 lookahead's `width` at the root (which actions it searches in full).
    pub width: usize,
    /// The depth-0 lookahead's `width` inside the rollouts (cheaper where smaller).
    pub policy_width: usize,
    /// How many standard errors of its paired difference (same world, same dice) another
    /// candidate's mean must beat the depth-0 lookahead's choice by to be played instead
    /// (0: the best mean): with a few hundred worlds the means differ by noise.
    pub margin: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            candidates: 4,
            turns: 1,
            width: 10,
            policy_width: 3,
            margin: 1.0,
        }
    }
}

fn bad(message: String) -> EngineError {
    EngineError::InvalidParameter(format!("{NAME}: {message}"))
}

/// The options of `value` (a JSON object or null), every key known and every value in range.
pub fn read_options(value: &Value) -> Result<Options, EngineError> {
    let map = known_options(value, OPTIONS).map_err(bad)?;
    let count = |name: &str, range: std::ops::RangeInclusive<u64>, default: u64| {
        whole_option(map, name, range, default).map_err(bad)
    };
    let defaults = Options::default();
    Ok(Options {
        candidates: count("candidates", 1..=20, defaults.candidates as u64)? as usize,
        turns: count("turns", 0..=MOST_TURNS, defaults.turns)?,
        width: count("width", 1..=100, defaults.width as u64)? as usize,
        policy_width: count("policy_width", 1..=100, defaults.policy_width as u64)? as usize,
        margin: match map.get("margin") {
            None => defaults.margin,
            Some(value) => match value.as_f64() {
                Some(m) if (0.0..=10.0).contains(&m) => m,
                _ => {
                    return Err(bad(format!(
                        "option \"margin\" is a number from 0 to 10, not {value}"
                    )))
                }
            },
        },
    })
}

/// The time limit passed in the middle of a world.
struct OutOfTime;

/// The depth-0 lookahead's choice for the player to act in `state` (the first best: a rollout
/// draws nothing but the dice, so every candidate meets the same answers to the same play).
fn policy_action(state: &BondoConesRules, width: usize) -> Action {
    let actions = state.legal_actions();
    if actions.len() == 1 {
        return actions[0];
    }
    let values = depth_zero_values(state, state.actor, &actions, width);
    values
        .iter()
        .copied()
        .reduce(|best, next| if next.1 > best.1 + 1e-9 { next } else { best })
        .map_or(actions[0], |(action, _)| action)
}

/// One chance outcome of `state`, drawn by its probability.
fn draw_outcome(state: &BondoConesRules, dice: &mut SmallRng) -> Action {
    let outcomes = state.chance_outcomes();
    let mut left = dice.unit();
    for &(action, chance) in &outcomes {
        left -= chance;
        if left < 0.0 {
            return action;
        }
    }
    outcomes[outcomes.len() - 1].0
}

/// `world` played on by the depth-0 lookahead for both seats, until `turns` of `seat`'s own
/// turns have passed after the opponent's next one (or the end), and scored for `seat` by the
/// lookahead's leaf at the start of its turn (`position_value`).
fn rollout(
    mut world: BondoConesRules,
    seat: usize,
    options: &Options,
    mut dice: SmallRng,
    deadline: Option<Instant>,
) -> Result<f64, OutOfTime> {
    let mut returns_to_seat = 0;
    let mut seat_has_turn = world.turn_player == seat;
    loop {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(OutOfTime);
        }
        let starts_seat_turn = world.turn_player == seat
            && !seat_has_turn
            && matches!(world.phase, Phase::Decide | Phase::Roll);
        seat_has_turn = world.turn_player == seat;
        if starts_seat_turn {
            if returns_to_seat == options.turns {
                return Ok(position_value(&world, seat));
            }
            returns_to_seat += 1;
        }
        let action = match world.current_player() {
            TERMINAL => return Ok(position_value(&world, seat)),
            CHANCE => draw_outcome(&world, &mut dice),
            _ => policy_action(&world, options.policy_width),
        };
        world.apply_action(action);
    }
}

/// The rollouts search from `state` (a seat's decision): worlds until the iteration budget
/// (worlds) or the time limit, at least one of which is given.
pub fn search(
    state: &BondoConesRules,
    request: &SearchRequest,
) -> Result<SearchOutcome, EngineError> {
    let started = Instant::now();
    let options = read_options(&request.options)?;
    let worlds_asked = match request.iterations {
        None => None,
        Some(n) if (1..=MOST_WORLDS).contains(&n) => Some(n),
        Some(n) => {
            return Err(bad(format!(
                "the iterations (worlds) are 1 to {MOST_WORLDS}, not {n}"
            )))
        }
    };
    let deadline = match request.time_limit_ms {
        None => None,
        Some(ms) if (1..=600_000).contains(&ms) => Some(started + Duration::from_millis(ms)),
        Some(ms) => {
            return Err(bad(format!(
                "the time limit is 1 to 600000 milliseconds, not {ms}"
            )))
        }
    };
    if worlds_asked.is_none() && deadline.is_none() {
        return Err(bad(
            "needs a budget: iterations (the worlds to play out) or a time limit".to_string(),
        ));
    }
    let player = state.current_player();
    if player < 0 {
        return Err(EngineError::InvalidState(format!(
            "{NAME} searches a player's decision, not {}",
            if state.phase == Phase::Over {
                "the end of the game"
            } else {
                "a chance node"
            }
        )));
    }
    let seat = player as usize;
    let actions = state.legal_actions();
    let mut values = if actions.len() == 1 {
        vec![(actions[0], 0.0)]
    } else {
        depth_zero_values(state, seat, &actions, options.width)
    };
    // The set-up is the lookahead's rule of thumb: a rollout would have to play a whole game.
    let set_up = matches!(state.phase, Phase::SetupPut | Phase::SetupRing);
    let mut ranked: Vec<usize> = (0..values.len()).collect();
    // Stable: equal values keep the actions' order.
    ranked.sort_by(|&a, &b| values[b].1.total_cmp(&values[a].1));
    let order: Vec<usize> = ranked.iter().copied().take(options.candidates).collect();
    // Depth 0's choice (its best, ties broken by the seed), unless a candidate's mean beats it
    // by `margin` standard errors.
    let zero_best = order.first().map_or(f64::NEG_INFINITY, |&i| values[i].1);
    let tied: Vec<Action> = order
        .iter()
        .map(|&i| values[i])
        .filter(|&(_, v)| v >= zero_best - 1e-9)
        .map(|(a, _)| a)
        .collect();
    let mut tie_breaker = SmallRng::seed_from_u64(request.seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut action = *tied.choose(&mut tie_breaker).unwrap_or(&actions[0]);
    // Where depth 0's choice stands among the candidates.
    let at = order
        .iter()
        .position(|&i| values[i].0 == action)
        .unwrap_or(0);
    let mut rng = SmallRng::seed_from_u64(request.seed);
    let mut sums = vec![0.0; order.len()];
    // Per candidate the sum of squares of its difference from depth 0's choice.
    let mut squares = vec![0.0; order.len()];
    let mut worlds: u64 = 0;
    if order.len() > 1 && !set_up {
        while worlds_asked.is_none_or(|asked| worlds < asked) {
            if deadline.is_some_and(|d| Instant::now() > d) {
                break;
            }
            let world = state.resample(seat, &mut rng)?;
            let dice_seed: u64 = rng.random();
            let mut found = Vec::with_capacity(order.len());
            for &index in &order {
                let mut child = world.clone();
                child.apply_action(values[index].0);
                match rollout(
                    child,
                    seat,
                    &options,
                    SmallRng::seed_from_u64(dice_seed),
                    deadline,
                ) {
                    Ok(value) => found.push(value),
                    Err(OutOfTime) => break,
                }
            }
            if found.len() < order.len() {
                break;
            }
            for (place, &value) in found.iter().enumerate() {
                sums[place] += value;
                squares[place] += (value - found[at]).powi(2);
            }
            worlds += 1;
        }
    }
    if worlds > 0 {
        let n = worlds as f64;
        let means: Vec<f64> = sums.iter().map(|&sum| sum / n).collect();
        let mut best_gain = 0.0;
        for place in 0..order.len() {
            let gain = means[place] - means[at];
            // The standard error of the paired difference (the same world and dice).
            let spread = (squares[place] / n - gain.powi(2)).max(0.0);
            let error = if worlds > 1 {
                (spread / (n - 1.0)).sqrt()
            } else {
                f64::INFINITY
            };
            if gain > best_gain + 1e-12 && gain > options.margin * error {
                best_gain = gain;
                action = values[order[place]].0;
            }
        }
        // The candidates by their mean; the rest below every candidate, in depth 0's order.
        let floor = means.iter().copied().fold(f64::INFINITY, f64::min);
        for (rank, &index) in ranked.iter().enumerate() {
            values[index].1 = match means.get(rank) {
                Some(&mean) => mean,
                None => floor - 10.0 * WIN - rank as f64,
            };
        }
    }
    let best = values
        .iter()
        .find(|&&(a, _)| a == action)
        .map_or(0.0, |&(_, v)| v);
    let mut seat_values = vec![0.0; 2];
    seat_values[seat] = best;
    seat_values[1 - seat] = -best;
    Ok(SearchOutcome {
        action,
        values: seat_values,
        visits: values
            .iter()
            .map(|&(a, _)| {
                let played = order.iter().any(|&i| values[i].0 == a);
                (a, if played { worlds } else { 0 })
            })
            .collect(),
        iterations: worlds,
        elapsed_ms: started.elapsed().as_millis() as u64,
        action_values: values,
    })
}

#[cfg(test)]
mod tests {
    use super::super::lookahead::tests::mid_game;
    use super::*;

    fn request(options: Value, iterations: Option<u64>, seed: u64) -> SearchRequest {
        SearchRequest {
            search: NAME.to_string(),
            options,
            time_limit_ms: None,
            iterations,
            seed,
        }
    }

    fn depth_zero(state: &BondoConesRules) -> SearchOutcome {
        let asked = SearchRequest {
            search: super::super::lookahead::NAME.to_string(),
            options: serde_json::json!({ "depth": 0 }),
            time_limit_ms: None,
            iterations: None,
            seed: 5,
        };
        super::super::lookahead::search(state, &asked).unwrap()
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
        assert!(worlds[0].value != worlds[1].value && worlds[1].value != worlds[2].value);
        let found: Vec<SearchOutcome> = worlds
            .iter()
            .map(|world| search(world, &request(Value::Null, Some(12), 9)).unwrap())
            .collect();
        assert_eq!(found[0].iterations, 12);
        for other in &found[1..] {
            assert_eq!(other.action_values, found[0].action_values);
            assert_eq!(other.action, found[0].action);
        }
    }

    #[test]
    fn a_seeded_budget_repeats_and_the_seed_changes_the_worlds() {
        let state = mid_game(8, 50);
        let options = serde_json::json!({ "turns": 2, "candidates": 3 });
        let first = search(&state, &request(options.clone(), Some(10), 4)).unwrap();
        let again = search(&state, &request(options.clone(), Some(10), 4)).unwrap();
        let other = search(&state, &request(options, Some(10), 5)).unwrap();
        assert_eq!(first.action_values, again.action_values);
        assert_eq!(first.action, again.action);
        assert_ne!(first.action_values, other.action_values);
        // Three candidates played on, the others kept below them in depth 0's order.
        let played = first.visits.iter().filter(|&&(_, n)| n == 10).count();
        assert_eq!(played, 3);
    }

    #[test]
    fn one_candidate_plays_the_depth_zero_lookahead_and_the_candidates_are_its_best() {
        for (seed, decisions) in [(3, 40), (8, 50), (11, 70)] {
            let state = mid_game(seed, decisions);
            let zero = depth_zero(&state);
            let alone = search(
                &state,
                &request(serde_json::json!({ "candidates": 1 }), Some(3), 1),
            )
            .unwrap();
            let best = zero
                .action_values
                .iter()
                .map(|&(_, v)| v)
                .fold(f64::NEG_INFINITY, f64::max);
            let best_actions: Vec<Action> = zero
                .action_values
                .iter()
                .filter(|&&(_, v)| v >= best - 1e-9)
                .map(|&(a, _)| a)
                .collect();
            assert!(best_actions.contains(&alone.action));
            // A margin no mean reaches keeps depth 0's choice too.
            let sure = search(
                &state,
                &request(serde_json::json!({ "margin": 10.0 }), Some(4), 1),
            )
            .unwrap();
            assert!(best_actions.contains(&sure.action));
            // With four candidates, each is among depth 0's four best.
            let four = search(&state, &request(Value::Null, Some(3), 1)).unwrap();
            let mut ranked: Vec<(Action, f64)> = zero.action_values.clone();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
            let fourth = ranked[ranked.len().min(4) - 1].1;
            let played: Vec<Action> = four
                .visits
                .iter()
                .filter(|&&(_, n)| n == 3)
                .map(|&(a, _)| a)
                .collect();
            assert_eq!(played.len(), ranked.len().min(4));
            for action in played {
                let value = ranked.iter().find(|&&(a, _)| a == action).unwrap().1;
                assert!(value >= fourth - 1e-9);
            }
        }
    }

    #[test]
    fn bad_options_and_budgets_are_refused_naming_what_is_allowed() {
        let state = mid_game(3, 40);
        for (options, iterations, words) in [
            (serde_json::json!({ "deep": 1 }), Some(1), "no option deep"),
            (serde_json::json!({ "turns": 21 }), Some(1), "from 0 to 20"),
            (
                serde_json::json!({ "candidates": 0 }),
                Some(1),
                "from 1 to 20",
            ),
            (serde_json::json!([1]), Some(1), "a JSON object"),
            (serde_json::json!({ "margin": -1 }), Some(1), "from 0 to 10"),
            (Value::Null, None, "needs a budget"),
            (Value::Null, Some(0), "1 to 1000000"),
        ] {
            let error = search(&state, &request(options, iterations, 0))
                .unwrap_err()
                .to_string();
            assert!(error.contains(words), "{error}");
        }
    }
}
