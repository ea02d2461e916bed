"""Bots whose search runs in Rust (``native/engine/src/search``), the GIL released.

Each takes a Python or a native state (a Python one is rebuilt natively from its document, a
replay of its history), asks ``State.search`` of the native engine, and answers an action id,
as every bot does. The Python bots of the same algorithms (``ai/mcts.py``) stay the readable
references; the native ones are held to them by tests/native/test_search_mcts.py.

``boneyard.native`` is imported when a bot is made, not with this module, so ``boneyard.ai``
still loads in a source tree whose Rust was never built.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from boneyard import solvers
from boneyard.ai.base import Bot, Budget
from boneyard.core.game import Game, State

# ----- MCTS and information-set MCTS (search/mcts.rs, search/ismcts.rs) -------------------------


class NativeMctsBot(Bot):
    """UCT with chance nodes, in Rust: ``mcts``'s algorithm (``ai/mcts.py``) at native speed.

    Budget: ``iterations`` and/or ``time_limit`` seconds a move (whichever ends first; an
    iteration budget alone gives the same move twice for the same seed). ``rollout_depth`` cuts
    rollouts after that many moves, scored by the game's native heuristic (``None``: play to the
    end). ``max_nodes`` bounds the tree (the search goes on without adding nodes past it). In a
    hidden-information game every iteration searches a fresh resample of the bot's seat's
    information, as the Python bots do. No tree is kept between moves (search/mcts.rs says why).
    """

    name = "native_mcts"
    search = "mcts"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        iterations: int | None = 20000,
        time_limit: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | None = 10,
        max_nodes: int | None = None,
    ) -> None:
        from boneyard.native import NativeGame, has_native_engine

        python_game = getattr(game, "python_game", game)
        if not has_native_engine(python_game.name):
            raise ValueError(
                f"{self.name} plays the games with a native engine, not {python_game.name}"
            )
        super().__init__(python_game, seat, seed=seed, use_solver=use_solver)
        self.native_game = game if isinstance(game, NativeGame) else NativeGame(python_game)
        self.budget = Budget(iterations, time_limit)
        options: dict[str, Any] = {
            "exploration": exploration,
            "rollout_depth": rollout_depth,
            "utility_range": [python_game.info.min_utility, python_game.info.max_utility],
        }
        if max_nodes is not None:
            options["max_nodes"] = max_nodes
        self.options_json = json.dumps(options)
        self.last_search: dict[str, Any] = {}
        """What the last move's search reported: ``action``, ``values`` (per seat),
        ``visits`` (per root action), ``iterations``, ``elapsed_ms``."""
        self.last_iterations = 0
        # A bad option is refused now, by the search itself, not at the first move.
        self._check_options()

    def _check_options(self) -> None:
        from boneyard.core.errors import InvalidStateError

        probe = self.native_game.new_initial_state()
        # At a first state that is chance's the options are still read (and refused) first.
        with contextlib.suppress(InvalidStateError):
            probe.search(self.search, self.options_json, None, 1, 0)

    def step(self, state: Any) -> int:
        """The search's action for this bot's seat in ``state`` (Python or native), unchanged."""
        native_state = self._native_state(state)
        player = native_state.current_player()
        if player != self.seat:
            raise ValueError(
                f"{self.name} bot plays seat {self.seat} of {self.game.name}, but the state "
                f"asks for {'nobody (the game is over)' if native_state.is_terminal() else player}"
            )
        if self.use_solver and self.game.perfect_information:
            python_state = (
                state if isinstance(state, State) else self.native_game.python_state(state)
            )
            action = solvers.best_action(python_state)
            if action is not None:
                return action
        return self._search(native_state)

    def _choose(self, state: State) -> int:
        return self._search(self._native_state(state))

    def _native_state(self, state: Any) -> Any:
        from boneyard.native import NativeState

        if state.game.name != self.game.name:
            raise ValueError(f"this bot plays {self.game.name}, not {state.game.name}")
        if isinstance(state, NativeState):
            return state
        return self.native_game.state_from_json(state.to_json())

    def _search(self, native_state: Any) -> int:
        budget = self.budget
        time_limit_ms = (
            None if budget.time_limit is None else max(1, round(budget.time_limit * 1000))
        )
        found = native_state.search(
            self.search,
            self.options_json,
            time_limit_ms,
            budget.iterations,
            self.rng.getrandbits(64),
        )
        self.last_search = found
        self.last_iterations = int(found["iterations"])
        return int(found["action"])


class NativeIsmctsBot(NativeMctsBot):
    """Single-observer information-set MCTS in Rust (``ismcts``'s algorithm): every iteration
    resamples the world from the bot's seat's information alone, and chance edges are keyed by
    what that seat sees of the outcome, so the tree is over its information sets."""

    name = "native_ismcts"
    search = "ismcts"
