//! Many games stepped at once in Rust threads, for learning loops on the CPU: the arrays of the
//! JAX batch engines (`boneyard.jax`, after pgx) — the legal-action masks, whose turn, the
//! rewards, the ended flags and the observation tensors — for every game in one call.

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::{DynState, EngineError, NativeGame, TERMINAL};

/// The batch's arrays, one row a game, written by every `reset` and `step`.
#[derive(Debug, Clone, Default)]
pub struct BatchArrays {
    /// `[games, num_actions]`: 1 where the action is legal for the player to move.
    pub legal_action_mask: Vec<u8>,
    /// `[games]`: the seat to move, or `TERMINAL`.
    pub current_player: Vec<i32>,
    /// `[games, players]`: the returns of a game that ended with this step, else zeros.
    pub rewards: Vec<f32>,
    /// `[games]`: 1 once the game is over.
    pub terminated: Vec<u8>,
    /// `[games, tensor size]`: what the player to move sees (a spectator's view at the end);
    /// empty when the batch was made without observations.
    pub observation: Vec<f32>,
}

/// `games` states of one game with a generator each (chance is drawn inside, by its odds).
pub struct Batch {
    states: Vec<Box<dyn DynState>>,
    rngs: Vec<SmallRng>,
    num_actions: usize,
    players: usize,
    tensor_size: usize,
}

/// One game's rows of the arrays.
struct Rows<'a> {
    mask: &'a mut [u8],
    player: &'a mut i32,
    rewards: &'a mut [f32],
    terminated: &'a mut u8,
    observation: &'a mut [f32],
}

impl Batch {
    /// `games` new games; `tensor_size` 0 leaves the observations out.
    pub fn new(
        game: &dyn NativeGame,
        games: usize,
        seed: u64,
        num_actions: usize,
        players: usize,
        tensor_size: usize,
    ) -> Result<Batch, EngineError> {
        if tensor_size > 0 && game.observation_tensor_shape().is_none() {
            return Err(EngineError::NotSupported(format!(
                "{} has no native observation tensor yet: make the batch without observations",
                game.name()
            )));
        }
        let mut batch = Batch {
            states: (0..games).map(|_| game.new_initial_state()).collect(),
            rngs: Vec::new(),
            num_actions,
            players,
            tensor_size,
        };
        batch.reseed(seed);
        for (state, rng) in batch.states.iter_mut().zip(&mut batch.rngs) {
            state.settle_chance(rng);
        }
        Ok(batch)
    }

    fn reseed(&mut self, seed: u64) {
        self.rngs = (0..self.states.len())
            .map(|i| SmallRng::seed_from_u64(seed.wrapping_add(i as u64)))
            .collect();
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn state(&self, index: usize) -> Option<&dyn DynState> {
        self.states.get(index).map(|state| state.as_ref())
    }

    /// A uniformly random legal action of each game (0 for a game that has ended), drawn from
    /// each game's own generator: the random player of a benchmark or a baseline, without a pass
    /// over the masks in Python.
    pub fn random_actions(&mut self, out: &mut Vec<i64>) {
        out.clear();
        for (state, rng) in self.states.iter_mut().zip(&mut self.rngs) {
            let legal = state.legal_actions();
            out.push(if legal.is_empty() {
                0
            } else {
                i64::from(legal[rand::Rng::random_range(rng, 0..legal.len())])
            });
        }
    }

    /// Every game new again, game `i` drawing from seed `seed + i`.
    pub fn reset(
        &mut self,
        game: &dyn NativeGame,
        seed: u64,
        threads: usize,
        out: &mut BatchArrays,
    ) {
        self.reseed(seed);
        for state in &mut self.states {
            *state = game.new_initial_state();
        }
        let actions = vec![None; self.states.len()];
        // Nothing is played, so nothing can be refused.
        let _ = self.run(game, &actions, threads, out);
    }

    /// Play `actions[i]` in game `i`; a game that had ended starts again instead (its action is
    /// not read). An illegal action changes nothing in any game and names the first one.
    pub fn step(
        &mut self,
        game: &dyn NativeGame,
        actions: &[i64],
        threads: usize,
        out: &mut BatchArrays,
    ) -> Result<(), EngineError> {
        if actions.len() != self.states.len() {
            return Err(EngineError::IllegalAction(format!(
                "{} actions for {} games: one action a game",
                actions.len(),
                self.states.len()
            )));
        }
        for (index, (state, &action)) in self.states.iter_mut().zip(actions).enumerate() {
            if state.is_terminal() {
                continue;
            }
            let legal = state.legal_actions();
            if !u32::try_from(action).is_ok_and(|a| legal.binary_search(&a).is_ok()) {
                return Err(EngineError::IllegalAction(format!(
                    "game {index} of the batch: action {action} is not legal; legal: {legal:?}"
                )));
            }
        }
        let planned: Vec<Option<i64>> = actions.iter().map(|&a| Some(a)).collect();
        self.run(game, &planned, threads, out)
    }

    fn run(
        &mut self,
        game: &dyn NativeGame,
        actions: &[Option<i64>],
        threads: usize,
        out: &mut BatchArrays,
    ) -> Result<(), EngineError> {
        let games = self.states.len();
        let (num_actions, players, tensor_size) =
            (self.num_actions, self.players, self.tensor_size);
        out.legal_action_mask.resize(games * num_actions, 0);
        out.current_player.resize(games, 0);
        out.rewards.resize(games * players, 0.0);
        out.terminated.resize(games, 0);
        out.observation.resize(games * tensor_size, 0.0);
        let per_thread = games.div_ceil(threads.max(1)).max(1);
        let mut work: Vec<_> = self
            .states
            .chunks_mut(per_thread)
            .zip(self.rngs.chunks_mut(per_thread))
            .zip(actions.chunks(per_thread))
            .zip(
                out.legal_action_mask
                    .chunks_mut(per_thread * num_actions.max(1)),
            )
            .zip(out.current_player.chunks_mut(per_thread))
            .zip(out.rewards.chunks_mut(per_thread * players.max(1)))
            .zip(out.terminated.chunks_mut(per_thread))
            .collect();
        let mut observation_chunks: Vec<&mut [f32]> = if tensor_size == 0 {
            (0..work.len()).map(|_| &mut [][..]).collect()
        } else {
            out.observation
                .chunks_mut(per_thread * tensor_size)
                .collect()
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = work
                .drain(..)
                .zip(observation_chunks.drain(..))
                .map(
                    |(((((((states, rngs), actions), mask), player), rewards), ended), obs)| {
                        scope.spawn(move || {
                            for (i, state) in states.iter_mut().enumerate() {
                                let rows = Rows {
                                    mask: &mut mask[i * num_actions..(i + 1) * num_actions],
                                    player: &mut player[i],
                                    rewards: &mut rewards[i * players..(i + 1) * players],
                                    terminated: &mut ended[i],
                                    observation: if tensor_size == 0 {
                                        &mut []
                                    } else {
                                        &mut obs[i * tensor_size..(i + 1) * tensor_size]
                                    },
                                };
                                advance(game, state, &mut rngs[i], actions[i], rows);
                            }
                        })
                    },
                )
                .collect();
            for handle in handles {
                // A game's rules never panic (their tests hold it); if one did, say where.
                if handle.join().is_err() {
                    return Err(EngineError::InvalidState(
                        "a game of the batch failed while stepping".to_string(),
                    ));
                }
            }
            Ok(())
        })
    }
}

/// One game's step: a new game where the last one ended, else the action, then chance by its
/// odds; then its rows of the arrays.
fn advance(
    game: &dyn NativeGame,
    state: &mut Box<dyn DynState>,
    rng: &mut SmallRng,
    action: Option<i64>,
    rows: Rows<'_>,
) {
    match action {
        Some(_) if state.is_terminal() => *state = game.new_initial_state(),
        // Checked legal by `Batch::step` before any game moved.
        Some(action) => {
            let _ = state.apply_action(action);
        }
        None => {}
    }
    state.settle_chance(rng);
    let player = state.current_player();
    *rows.player = player;
    *rows.terminated = u8::from(player == TERMINAL);
    rows.mask.fill(0);
    for &legal in state.legal_actions() {
        if let Some(mark) = rows.mask.get_mut(legal as usize) {
            *mark = 1;
        }
    }
    rows.rewards.fill(0.0);
    if player == TERMINAL {
        for (reward, value) in rows.rewards.iter_mut().zip(state.returns()) {
            *reward = value as f32;
        }
    }
    if !rows.observation.is_empty() {
        let seat = usize::try_from(player).ok();
        state.observation_tensor(seat, rows.observation);
    }
}
