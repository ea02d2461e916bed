"""Bots whose whole search runs in Rust over the native engines (``native/engine/src/search``).

The Python bots stay the readable references and the yardstick; these are new bots under their
own names. A native bot takes a Python or a native state: a Python one is rebuilt natively from
its document (its history, or its snapshot), the search runs with the GIL released
(``State.search``), and the chosen action is the same id in both engines.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from boneyard.ai.base import Bot
from boneyard.core.game import Game, State

if TYPE_CHECKING:
    from boneyard.native.game import NativeGame, NativeState


def _native_engine(game: Game) -> NativeGame:
    """The native twin of ``game`` with the same parameters (an error where there is none)."""
    from boneyard import native

    return native.load_game(game.name, **game.params)


class NativeAlphaBetaBot(Bot):
    """The native alpha-beta / expectiminimax search (``search/alphabeta.rs``): the Python
    ``alphabeta`` bot's values at a fixed depth, many times faster.

    ``max_depth`` plies (an exact, reproducible search: the same value as ``alphabeta`` at that
    depth), or iterative deepening within ``time_limit`` seconds (the deepest finished iteration
    answers), or both (whichever ends first). With neither, depth 3, as ``alphabeta``.
    """

    name = "native_alphabeta"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        max_depth: int | None = None,
        time_limit: float | None = None,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        if max_depth is not None and (
            not isinstance(max_depth, int)
            or isinstance(max_depth, bool)
            or not 1 <= max_depth <= 64
        ):
            raise ValueError(
                f"max_depth is a whole number of plies from 1 to 64, not {max_depth!r}"
            )
        if time_limit is not None and (
            isinstance(time_limit, bool)
            or not isinstance(time_limit, int | float)
            or not math.isfinite(time_limit)
            or time_limit <= 0
        ):
            raise ValueError(f"time_limit must be positive seconds, not {time_limit!r}")
        if max_depth is None and time_limit is None:
            max_depth = 3
        self.max_depth = max_depth
        self.time_limit = time_limit
        self._native_game = _native_engine(game)
        self.last_value = 0.0
        """The root's value for this bot's seat at the last move searched (``alphabeta``'s)."""
        self.last_depth = 0
        """The deepest iteration the last search finished."""
        self.last_result: dict[str, Any] = {}
        """What the native search said the last time (action, values, visits, ...)."""

    def step(self, state: State) -> int:
        from boneyard.native.game import NativeState

        if isinstance(state, NativeState) and self.use_solver and self.game.perfect_information:
            # The exact solvers read Python states: the position is rebuilt for them.
            return super().step(self.game.state_from_json(state.to_json()))
        return super().step(state)

    def native_state(self, state: State | NativeState) -> NativeState:
        """``state`` in the native engine: itself, or rebuilt from its document."""
        from boneyard.native.game import NativeState

        if isinstance(state, NativeState):
            return state
        return self._native_game.state_from_json(state.to_json())

    def _choose(self, state: State) -> int:
        root = self.native_state(state)
        options: dict[str, Any] = {}
        if self.max_depth is not None:
            options["depth"] = self.max_depth
        if self.avoid:
            options["avoid"] = sorted(a for a in self.avoid if a in root.legal_actions())
        time_limit_ms = None
        if self.time_limit is not None:
            time_limit_ms = max(1, round(self.time_limit * 1000))
        result = root.search(
            "alphabeta", json.dumps(options), time_limit_ms, None, self.rng.getrandbits(64)
        )
        self.last_result = result
        self.last_depth = int(result["iterations"])
        value = result["values"][self.seat]
        if not math.isnan(value):
            self.last_value = float(value)
        return int(result["action"])
