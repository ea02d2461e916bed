"""Every boneyard game as a PettingZoo AEC environment.

>>> from boneyard.interop import pettingzoo
>>> env = pettingzoo.env("obonto")                                    # doctest: +SKIP
>>> env.reset(seed=1)                                                 # doctest: +SKIP
>>> for agent in env.agent_iter():                                    # doctest: +SKIP
...     observation, reward, termination, truncation, info = env.last()
...     mask = observation["action_mask"]
...     action = None if termination or truncation else env.action_space(agent).sample(mask)
...     env.step(action)

- Agents are ``player_0``, ``player_1``, ... (seat ``i`` is ``player_i``).
- An observation is ``{"observation": float32 array, "action_mask": int8 array}``: the array is
  the game's ``observation_tensor`` of ``state.observation(seat)`` (built by the game's fast road,
  ``state_observation_tensor``, which gives the same numbers), so an agent sees exactly what its
  seat may know; the mask has one entry per action id (``num_distinct_actions``), ones for
  the legal actions of the agent to move and all zeros for everyone else.
- Chance nodes (dice, shuffles, draws) never reach the agents: the environment samples them
  with its own ``random.Random``, seeded by ``reset(seed=...)``.
- Rewards come at the end: each agent's game return (``state.returns()``).
- An illegal action raises ``boneyard.IllegalActionError`` and changes nothing
  (``illegal_action="raise"``, the default); ``illegal_action="penalty"`` ends the game as
  PettingZoo's classic environments do (their ``TerminateIllegalWrapper``): every agent is
  terminated, the offender's reward is the game's worst result (``info.min_utility``), the
  others' 0, and the offender's info says ``illegal_move``.
- Observation spaces are bounded by the game's ``tensor.observation_bounds``.
- Render modes: ``"human"`` (prints the game's text drawing), ``"ansi"`` (returns it) and
  ``"rgb_array"`` (its SVG drawing, rasterised by CairoSVG); all draw the spectator's view,
  which shows no secret.
"""

from __future__ import annotations

import io
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from boneyard.core.game import CHANCE, TERMINAL, Game, State
from boneyard.interop import (
    action_mask,
    action_mask_hook,
    agent_name,
    observation_bounds,
    require_observation_shape,
    resolve_game,
    state_observation_array,
)

__all__ = ["BoneyardAECEnv", "env", "raw_env", "sample_chance", "svg_to_rgb_array"]


def env(
    game: str | Game,
    render_mode: str | None = None,
    *,
    illegal_action: str = "raise",
    engine: str = "python",
    **params: Any,
) -> BoneyardAECEnv:
    """The AEC environment of ``game`` (a registry name or a loaded game) with ``params``, on
    ``engine`` (``"python"``, or ``"native"``: the Rust engine of ``boneyard.native``)."""
    return BoneyardAECEnv(
        game, render_mode=render_mode, illegal_action=illegal_action, engine=engine, **params
    )


_ILLEGAL_ACTION_MODES = ("raise", "penalty")


raw_env = env
"""PettingZoo's conventional name; this environment needs no wrappers."""


def sample_chance(state: State, rng: random.Random) -> int:
    """One chance outcome of ``state``, drawn from its probabilities with ``rng``."""
    outcomes = state.chance_outcomes()
    draw = rng.random()
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if draw < total:
            return outcome
    return outcomes[-1][0]


def svg_to_rgb_array(svg: str) -> Any:
    """An SVG document as an ``(height, width, 3)`` uint8 array, through CairoSVG."""
    try:
        import cairosvg
    except (ImportError, OSError) as error:
        raise RuntimeError(
            "render_mode 'rgb_array' needs CairoSVG and the cairo library "
            "(pip install 'boneyard[rl]'; on Debian/Ubuntu: apt-get install libcairo2); "
            f"import failed: {error}"
        ) from error
    from PIL import Image

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


class BoneyardAECEnv(AECEnv):
    """A boneyard game as an agent-environment-cycle (turn-based) environment."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game,
        render_mode: str | None = None,
        *,
        illegal_action: str = "raise",
        engine: str = "python",
        **params: Any,
    ) -> None:
        super().__init__()
        self.game = resolve_game(game, params, engine)
        if illegal_action not in _ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"unknown illegal_action {illegal_action!r}; allowed: "
                + ", ".join(repr(mode) for mode in _ILLEGAL_ACTION_MODES)
            )
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; allowed: None, "
                + ", ".join(repr(mode) for mode in self.metadata["render_modes"])
            )
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"boneyard_{self.game.name}_v0"}
        info = self.game.info
        self._shape = require_observation_shape(self.game, "the PettingZoo environment")
        self._num_actions = info.num_distinct_actions
        self._mask_hook = action_mask_hook(self.game)
        self.possible_agents = [agent_name(seat) for seat in range(info.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = observation_bounds(self.game)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, self._shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self.game_state: State = self.game.new_initial_state()
        EzPickle.__init__(self, game, render_mode, illegal_action=illegal_action, **params)

    # ----- spaces ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- the cycle ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._resolve_chance()
        self.agent_selection = self.possible_agents[max(self.game_state.current_player(), 0)]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        state = self.game_state
        if self.illegal_action == "penalty" and int(action) not in state.legal_actions():
            self._end_for_illegal_action(agent)
            return
        state.apply_action(int(action))
        player = state.current_player()
        while player == CHANCE:
            state.apply_action(sample_chance(state, self._rng))
            player = state.current_player()
        if player == TERMINAL:
            # Returns are zero until the end, so rewards stay zero (and need no accumulating)
            # on every step before this one.
            returns = state.returns()
            for other in self.agents:
                self.rewards[other] = float(returns[self._seat[other]])
                self.terminations[other] = True
            self._accumulate_rewards()
            player = (self._seat[agent] + 1) % len(self.possible_agents)
        self.agent_selection = self.possible_agents[player]

    def _end_for_illegal_action(self, agent: str) -> None:
        """End the game as PettingZoo's ``TerminateIllegalWrapper`` does: all terminated, the
        offender gets the worst result, the others nothing; the game state is left as it was."""
        for other in self.agents:
            self.rewards[other] = 0.0
            self.terminations[other] = True
        self.rewards[agent] = float(self.game.info.min_utility)
        self.infos[agent] = {**self.infos[agent], "illegal_move": True}
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        # New arrays at every call: an agent may keep them (a replay buffer), so nothing the
        # environment hands out is reused or changed later.
        seat = self._seat[agent]
        state = self.game_state
        if state.current_player() == seat:
            # state_action_mask, inlined (a Python call is a good part of a step's cost).
            hook = self._mask_hook
            marks = None if hook is None else hook(state)
            if marks is None:
                mask = action_mask(state.legal_actions(), self._num_actions)
            else:
                mask = np.frombuffer(marks, dtype=np.int8)
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {
            "observation": state_observation_array(self.game, state, seat, self._shape),
            "action_mask": mask,
        }

    def _resolve_chance(self) -> None:
        state = self.game_state
        while state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, self._rng))

    # ----- drawing --------------------------------------------------------------------------------

    def render(self) -> Any:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() was called without a render_mode; pass render_mode='ansi'")
            return None
        observation = self.game_state.observation(None)
        if self.render_mode == "human":
            print(self.game.render_text(observation))
            return None
        if self.render_mode == "ansi":
            return self.game.render_text(observation)
        return svg_to_rgb_array(self.game.render_svg(observation))

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""
