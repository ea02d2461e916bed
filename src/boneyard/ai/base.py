"""The bot contract: ``Bot.step(state) -> action``.

A bot plays one seat of one game. ``step`` chooses an action for the state it is given and never
changes that state. In a hidden-information game a bot sees the game only through
``state.observation(seat)`` and ``state.resample(seat, rng)``: it searches resampled states, never
the true one, so it cannot cheat.
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from boneyard import solvers
from boneyard.core.game import Game, State


class Bot(ABC):
    """A computer player for one seat of one game.

    ``seed`` makes its choices reproducible (with an iteration budget; a time budget depends on
    the machine). ``use_solver`` lets an exact solver answer where one exists for the position
    (the Obonto solo phase, the OYNO puzzle).
    """

    name: ClassVar[str] = "bot"
    reads_native_states: ClassVar[bool] = False
    """Whether ``step`` takes a native state (``boneyard.native``) as it is; the arena shows the
    other bots the same position in the Python engine."""

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
    ) -> None:
        players = game.info.num_players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ValueError(f"bad seat {seat!r} for {game.name}: seats are 0 to {players - 1}")
        self.game = game
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)
        self.use_solver = use_solver
        self.avoid: frozenset[int] = frozenset()
        """Actions to play only when clearly better than the rest (a hint's repetitions:
        ``ai/repetition.py``); the searches that value every move keep to it (``alphabeta``)."""

    def step(self, state: State) -> int:
        """Choose an action for this bot's seat in ``state``; ``state`` is left unchanged."""
        self.check_turn(state)
        if (
            self.use_solver
            and self.game.perfect_information
            and solvers.solver_for(self.game) is not None
        ):
            # The exact solvers read Python states: a native one is rebuilt for them.
            python_state = (
                state if isinstance(state, State) else self.game.state_from_json(state.to_json())
            )
            action = solvers.best_action(python_state)
            if action is not None:
                return action
        return self._choose(state)

    def check_turn(self, state: Any) -> None:
        """Refuse ``state`` (a Python or a native one) unless it is this bot's game with this
        bot's seat to move, saying what it is instead."""
        if state.game.name != self.game.name:
            raise ValueError(f"this bot plays {self.game.name}, not {state.game.name}")
        player = state.current_player()
        if player != self.seat:
            raise ValueError(
                f"{self.name} bot plays seat {self.seat} of {self.game.name}, but the state "
                f"asks for {'nobody (the game is over)' if state.is_terminal() else player}"
            )

    @abstractmethod
    def _choose(self, state: State) -> int:
        """Choose for ``state`` (the bot's seat is to move); must not change ``state``."""

    def reset(self) -> None:
        """Forget whatever was kept between moves (a search tree); a new game starts."""

    def view(self, state: State) -> State:
        """A state the bot may look at: a copy, or a resample in a hidden-information game."""
        if self.game.perfect_information:
            return state.clone()
        return state.resample(self.seat, self.rng)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seat {self.seat} of {self.game!r}>"


def whole_number(
    name: str, value: object, low: int, high: int | None = None, *, unit: str = ""
) -> int:
    """``value``, a bot's option ``name``, where it is a whole number from ``low`` to ``high``
    (no upper end where ``high`` is None); else a ValueError naming the option and the range.

    ``unit`` names what is counted, in the message: ``"plies"`` reads "a whole number of plies".
    A bool is refused, though Python counts it an int: ``max_depth=True`` is a slip, not 1.
    """
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        counted = f" of {unit}" if unit else ""
        span = f"from {low} up" if high is None else f"from {low} to {high}"
        raise ValueError(f"{name} is a whole number{counted} {span}, not {value!r}")
    return value


def time_limit_seconds(time_limit: object) -> float | None:
    """``time_limit`` (seconds a move, or None for none) where it is a finite positive number;
    else a ValueError saying so. Every bot with a time budget reads it through here."""
    if time_limit is None:
        return None
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not math.isfinite(time_limit)
        or time_limit <= 0
    ):
        raise ValueError(f"time_limit must be positive seconds, not {time_limit!r}")
    return time_limit


class Budget:
    """An iteration budget, a time budget, or both (whichever ends first)."""

    def __init__(self, iterations: int | None = None, time_limit: float | None = None) -> None:
        if iterations is None and time_limit is None:
            raise ValueError("a budget needs iterations, a time limit, or both")
        self.iterations = None if iterations is None else whole_number("iterations", iterations, 1)
        self.time_limit = time_limit_seconds(time_limit)
        self._deadline = 0.0
        self.used = 0

    def start(self) -> None:
        self.used = 0
        self._deadline = (
            time.perf_counter() + self.time_limit if self.time_limit is not None else 0.0
        )

    def spent(self) -> bool:
        """Count one iteration and say whether the budget is gone."""
        self.used += 1
        if self.iterations is not None and self.used >= self.iterations:
            return True
        return self.time_limit is not None and time.perf_counter() >= self._deadline

    def out_of_time(self) -> bool:
        return self.time_limit is not None and time.perf_counter() >= self._deadline

    def __repr__(self) -> str:
        return f"Budget(iterations={self.iterations}, time_limit={self.time_limit})"
