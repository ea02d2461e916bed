"""The batch agent loop: many games stepped as one, with auto-reset, per-game seeds and opponents.

``BatchLoop`` keeps ``num_envs`` games of one batch engine going. The agent plays ``seat`` (or
every seat with ``seat=None``, self-play); the other seats play inside the loop's step
(``opponent="random"``: a uniformly random legal action) until the agent is to move again. A
game that ends is started again in the same call (auto-reset) and the step reports its end:
the agent's reward, ``done``, and the final observation. Game ``i`` draws all its chance from
its own seed: the key of its ``episode``-th game is ``fold_in(PRNGKey(seed_i), episode)``, and
a step's chance ``fold_in`` of that with the step count, so the same seeds and actions replay
the same games.

Everything in ``step`` is one jitted call over the batch: the agent reads ``observation`` and
``legal_action_mask`` from the loop state and hands back one action per game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from boneyard.jax.core import Array, Env, random_legal_action, reset_ended

SKIPPED_GAMES = 16
"""Games in a row that may end before the agent's first turn before one is handed over ended."""


class LoopState(NamedTuple):
    """The games and their seeds."""

    games: Any
    """The batch engine's states, batched."""
    seeds: Array
    """Per game: its base key."""
    episodes: Array
    """Per game: how many of its games have begun."""


class StepResult(NamedTuple):
    """What one loop step tells the agent, per game."""

    reward: Array
    """The agent's reward (its seat's; with self-play the seat that just acted)."""
    done: Array
    final_observation: Array
    """For a game that just ended, its last observation from the agent's seat (with self-play
    the seat that acted); for a game that goes on, its new observation (the seat to act's)."""


class BatchLoop:
    """Auto-resetting batch of games of one engine, for an agent that plays ``seat``."""

    def __init__(
        self, env: Env, num_envs: int, seat: int | None = 0, opponent: str = "random"
    ) -> None:
        if opponent != "random":
            raise ValueError(f"unknown opponent {opponent!r}: the batch loop offers 'random'")
        if seat is not None and not 0 <= seat < env.num_players:
            raise ValueError(
                f"seat {seat} is not a seat of {env.id}: seats are 0 to {env.num_players - 1}, "
                "or None for self-play"
            )
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        self.env = env
        self.num_envs = num_envs
        self.seat = seat
        self.reset = jax.jit(self._reset)
        self.step = jax.jit(self._step)

    # ----- one game ---------------------------------------------------------------------------

    def _agent_view(self, state: Any, key: Array) -> tuple[Any, Array]:
        """Let the opponents move until the agent is to move or the game is over; return the
        state and every seat's rewards on the way."""
        env, seat = self.env, self.seat
        gained = jnp.zeros(env.num_players, jnp.float32)
        if seat is None:
            return state, gained

        def waiting(carry: tuple[Any, Array, Array]) -> Array:
            s = carry[0]
            return ~s.terminated & ~s.truncated & (s.current_player != seat)

        def move(carry: tuple[Any, Array, Array]) -> tuple[Any, Array, Array]:
            s, total, key = carry
            key, pick, chance = jax.random.split(key, 3)
            s = env.step(s, random_legal_action(pick, s.legal_action_mask), chance)
            return s, total + s.rewards, key

        state, gained, _ = jax.lax.while_loop(waiting, move, (state, gained, key))
        return state, gained

    def _begin(self, seed: Array, episode: Array) -> tuple[Any, Array]:
        """A new game at the agent's first turn, and its episode number. A game that ends
        before the agent's first turn (the opponents' first moves can win some small variants)
        gives the agent nothing to decide: the next episode is begun instead, up to
        ``SKIPPED_GAMES`` times."""

        def one(episode: Array) -> Any:
            deal, opponents = jax.random.split(jax.random.fold_in(seed, episode))
            state, _ = self._agent_view(self.env.init(deal), opponents)
            return state

        def ended(carry: tuple[Any, Array, Array]) -> Array:
            state, _, tries = carry
            return state.terminated & (tries < SKIPPED_GAMES)

        def next_game(carry: tuple[Any, Array, Array]) -> tuple[Any, Array, Array]:
            _, episode, tries = carry
            return one(episode + 1), episode + 1, tries + 1

        state, episode, _ = jax.lax.while_loop(
            ended, next_game, (one(episode), episode, jnp.int32(0))
        )
        return state, episode

    def _one_step(
        self, state: Any, action: Array, seed: Array, episode: Array
    ) -> tuple[Any, Array, Array, Array]:
        """One game's step and the opponents' replies: the state, the agent's reward, whether the
        game ended, and the agent's seat (with self-play the seat that acted). A game that ends is
        restarted after, for the ended games only (``_step``)."""
        env = self.env
        mover = state.current_player
        key = jax.random.fold_in(jax.random.fold_in(seed, episode), state._step_count)
        chance, opponents = jax.random.split(key)
        state = env.step(state, action, chance)
        total = state.rewards
        state, gained = self._agent_view(state, opponents)
        total = total + gained
        seat = mover if self.seat is None else jnp.int32(self.seat)
        done = state.terminated | state.truncated
        return state, total[seat], done, seat

    # ----- the batch --------------------------------------------------------------------------

    def _reset(self, seeds: Array) -> LoopState:
        keys = jax.vmap(jax.random.PRNGKey)(seeds)
        games, episodes = jax.vmap(self._begin)(keys, jnp.zeros(self.num_envs, jnp.int32))
        return LoopState(games, keys, episodes)

    def _step(self, loop: LoopState, actions: Array) -> tuple[LoopState, StepResult]:
        games, reward, done, seats = jax.vmap(self._one_step)(
            loop.games, actions, loop.seeds, loop.episodes
        )
        # the ended games' last observations, seen from the agent's seat, are made for those
        # games only: an observation of every game a step would cost more than the agent's
        # reading (for Bones, most of the loop's cost over the bare step); a game that goes on
        # shows its new observation
        final = reset_ended(
            games.observation,
            done,
            lambda i: self.env.observe(jax.tree_util.tree_map(lambda x: x[i], games), seats[i]),
        )
        # only the games that ended are begun again and written: a select of a fresh game for
        # every game would make and copy the whole batch's states on every step
        games, episodes = reset_ended(
            (games, loop.episodes),
            done,
            lambda i: self._begin(loop.seeds[i], loop.episodes[i] + 1),
        )
        return LoopState(games, loop.seeds, episodes), StepResult(reward, done, final)

    def seeds(self, seed: int | Sequence[int]) -> Array:
        """Per-game seeds: ``seed, seed + 1, ...`` from one number, or one number a game."""
        if isinstance(seed, int):
            return jnp.arange(self.num_envs, dtype=jnp.uint32) + jnp.uint32(seed)
        if len(seed) != self.num_envs:
            raise ValueError(f"{len(seed)} seeds for {self.num_envs} games: give one a game")
        return jnp.asarray(seed, dtype=jnp.uint32)
