"""Every boneyard game as a Gymnasium environment for one learning agent.

>>> from boneyard.interop import gymnasium as boneyard_gym
>>> env = boneyard_gym.make("obonto", opponent="random", seat=0)       # doctest: +SKIP
>>> observation, info = env.reset(seed=1)                              # doctest: +SKIP
>>> action = env.action_space.sample(info["action_mask"])               # doctest: +SKIP
>>> observation, reward, terminated, truncated, info = env.step(action)  # doctest: +SKIP

Importing this module also registers every game as ``boneyard/<Game>-v0`` (``boneyard/Obonto-v0``,
``boneyard/OynoPuzzle-v0``, ...), so ``gymnasium.make("boneyard/Obonto-v0", opponent="easy")``
works too.

- The agent plays ``seat``; a one-player game (``oyno_puzzle``) is played directly, and in every
  other game each other seat is a fixed opponent bot, ``boneyard.ai.make_bot(opponent, ...)``
  (a level such as ``"easy"``/``"hard"`` or a bot name such as ``"random"``/``"mcts"``), seeded
  from ``reset(seed=...)``. ``opponent`` may also be a callable ``(game, seat, seed) -> bot``
  for any object with ``step(state) -> action``.
- Observation: a float32 ``Box`` shaped like the game's ``observation_tensor_shape()``, encoding
  ``state.observation(seat)`` only, bounded by the game's ``tensor.observation_bounds``.
  Action space: ``Discrete(num_distinct_actions)``; the legal actions are the ones in
  ``info["action_mask"]`` (int8, one entry per action id) and ``env.action_masks()`` (bool), the
  method sb3-contrib's ``MaskablePPO`` reads, so it takes the environment unchanged.
- Render modes: ``"human"`` prints the text board, ``"ansi"`` returns it, ``"rgb_array"`` the
  SVG drawing rasterised; all show the spectator's view.
- Chance nodes and opponent turns are played inside ``step`` until it is the agent's turn again
  or the game is over; the reward is the change of the agent's return (so, the game's result on
  the last step, zero before). Episodes end only by the game's own end (``terminated``); no
  truncation (every boneyard game has a move cap).
- Illegal actions: by default (``illegal_action="penalty"``) an illegal action ends the episode
  at once, ``terminated=True`` with reward ``game.info.min_utility`` (the worst result the game
  has) and ``info["illegal_action"] = True``; the game state is left as it was.
  ``illegal_action="raise"`` raises ``boneyard.IllegalActionError`` instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces

from boneyard.core.game import CHANCE, TERMINAL, Game, State
from boneyard.core.registry import list_games
from boneyard.interop import (
    action_mask,
    env_id,
    observation_bounds,
    require_observation_shape,
    resolve_game,
    state_observation_array,
)
from boneyard.interop.pettingzoo import sample_chance, svg_to_rgb_array

__all__ = ["BoneyardEnv", "make", "register"]


class _Bot(Protocol):
    def step(self, state: State) -> int: ...


OpponentFactory = Callable[[Game, int, int], _Bot]
"""``(game, seat, seed) -> bot``: how a custom opponent is made at each reset."""

_ILLEGAL_ACTION_MODES = ("penalty", "raise")


def make(
    game: str | Game,
    opponent: str | OpponentFactory = "random",
    seat: int = 0,
    *,
    render_mode: str | None = None,
    illegal_action: str = "penalty",
    time_limit: float | None = None,
    engine: str = "python",
    **params: Any,
) -> BoneyardEnv:
    """The environment of ``game`` (a name or a loaded game) played from ``seat``.

    ``opponent``: a level or bot name for ``boneyard.ai.make_bot`` (ignored by one-player
    games), or a factory ``(game, seat, seed) -> bot``. ``time_limit``: seconds a move for
    bots with a time budget (leave it ``None`` for reproducible episodes). ``engine``:
    ``"native"`` plays the game on its Rust engine (``boneyard.native``), ``"python"`` on the
    Python rules.
    """
    return BoneyardEnv(
        game,
        opponent=opponent,
        seat=seat,
        render_mode=render_mode,
        illegal_action=illegal_action,
        time_limit=time_limit,
        engine=engine,
        **params,
    )


class BoneyardEnv(gymnasium.Env):
    """One seat of a boneyard game; the other seats are played by fixed bots."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: str | Game,
        opponent: str | OpponentFactory = "random",
        seat: int = 0,
        *,
        render_mode: str | None = None,
        illegal_action: str = "penalty",
        time_limit: float | None = None,
        engine: str = "python",
        **params: Any,
    ) -> None:
        self.game = resolve_game(game, params, engine)
        info = self.game.info
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < info.num_players:
            raise ValueError(
                f"bad seat {seat!r} for {self.game.name}: seats are 0 to {info.num_players - 1}"
            )
        if illegal_action not in _ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"unknown illegal_action {illegal_action!r}; allowed: "
                + ", ".join(repr(mode) for mode in _ILLEGAL_ACTION_MODES)
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; allowed: None, "
                + ", ".join(repr(mode) for mode in self.metadata["render_modes"])
            )
        if isinstance(opponent, str) and info.num_players > 1:
            from boneyard.ai import make_bot

            # Fail now, not at the first reset, on an unknown bot or level name.
            make_bot(opponent, self.game, (seat + 1) % info.num_players, seed=0)
        self.seat = seat
        self.opponent = opponent
        self.time_limit = time_limit
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self._shape = require_observation_shape(self.game, "the Gymnasium environment")
        self._num_actions = info.num_distinct_actions
        low, high = observation_bounds(self.game)
        self.observation_space = spaces.Box(low, high, self._shape, np.float32)
        self.action_space = spaces.Discrete(self._num_actions)
        self._rng = random.Random()
        self._bots: dict[int, _Bot] = {}
        self.game_state: State = self.game.new_initial_state()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._bots = {
            other: self._make_opponent(other, self._rng.getrandbits(32))
            for other in range(self.game.info.num_players)
            if other != self.seat
        }
        self.game_state = self.game.new_initial_state()
        self._advance()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self.game_state
        if state.is_terminal():
            raise RuntimeError("step() after the episode ended: call reset()")
        action = int(action)
        if action not in state.legal_actions():
            if self.illegal_action == "raise":
                state.apply_action(action)  # raises IllegalActionError with the reason
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), float(self.game.info.min_utility), True, False, info
        before = state.returns()[self.seat]
        state.apply_action(action)
        self._advance()
        reward = float(state.returns()[self.seat] - before)
        return self._observe(), reward, state.is_terminal(), False, self._info()

    def action_masks(self) -> Any:
        """The legal actions of the agent now, as bools (sb3-contrib's ``MaskablePPO`` reads
        this method; ``info["action_mask"]`` holds the same as int8)."""
        return self._info()["action_mask"].astype(bool)

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass 'ansi'")
            return None
        observation = self.game_state.observation(None)
        if self.render_mode == "human":
            print(self.game.render_text(observation))
            return None
        if self.render_mode == "ansi":
            return self.game.render_text(observation)
        return svg_to_rgb_array(self.game.render_svg(observation))

    # ----- inside ---------------------------------------------------------------------------

    def _make_opponent(self, seat: int, seed: int) -> _Bot:
        if callable(self.opponent):
            return self.opponent(self.game, seat, seed)
        from boneyard.ai import make_bot

        bot: _Bot = make_bot(self.opponent, self.game, seat, seed=seed, time_limit=self.time_limit)
        return bot

    def _advance(self) -> None:
        """Play chance and opponents until the agent is to move or the game is over."""
        state = self.game_state
        while True:
            player = state.current_player()
            if player == self.seat or player == TERMINAL:
                return
            if player == CHANCE:
                state.apply_action(sample_chance(state, self._rng))
            else:
                state.apply_action(self._bots[player].step(state))

    def _observe(self) -> Any:
        return state_observation_array(self.game, self.game_state, self.seat, self._shape)

    def _info(self) -> dict[str, Any]:
        state = self.game_state
        if state.current_player() == self.seat:
            return {"action_mask": action_mask(state.legal_actions(), self._num_actions)}
        return {"action_mask": np.zeros(self._num_actions, dtype=np.int8)}


def register(games: list[str] | None = None) -> list[str]:
    """Register ``boneyard/<Game>-v0`` for ``games`` (default: every game); return the ids.

    Keyword arguments of ``gymnasium.make`` (``opponent``, ``seat``, game parameters) reach
    the environment. Registering twice is harmless.
    """
    ids = []
    for name in list_games() if games is None else games:
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(
                id=ident,
                entry_point="boneyard.interop.gymnasium:BoneyardEnv",
                kwargs={"game": name},
            )
        ids.append(ident)
    return ids


register()
