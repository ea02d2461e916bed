"""Levels as data: for each game, what ``easy``, ``medium`` and ``hard`` mean.

The terminal and the web app offer these levels, not bot names. Each entry names a bot and its
options (its budget). ``hard`` must answer within 2 seconds a move on the development machine:
its time limit stays below that, and its iteration budget keeps it reproducible where the
machine is fast enough. Games without an entry use ``DEFAULT_LEVELS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

LEVEL_NAMES: tuple[str, ...] = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Level:
    """One level of one game: a bot name, its options, and whether exact solvers may answer."""

    bot: str
    options: Mapping[str, Any] = field(default_factory=dict)
    use_solver: bool = True

    def describe(self) -> str:
        options = ", ".join(f"{key}={value}" for key, value in self.options.items())
        solver = "" if self.use_solver else ", no solver"
        return f"{self.bot}({options}{solver})"


HARD_SECONDS = 1.0
"""The hard levels' time cap a move: even on a loaded machine it answers within 2 seconds."""

DEFAULT_LEVELS: Mapping[str, Level] = {
    "easy": Level("greedy", use_solver=False),
    "medium": Level("mcts", {"iterations": 300, "time_limit": 0.3}),
    "hard": Level("mcts", {"iterations": 5000, "time_limit": HARD_SECONDS}),
}

_PERFECT_TWO_PLAYER: Mapping[str, Level] = {
    "easy": Level("greedy", use_solver=False),
    "medium": Level("alphabeta", {"max_depth": 2, "time_limit": 0.3}),
    "hard": Level("alphabeta", {"time_limit": HARD_SECONDS}),
}

_HIDDEN: Mapping[str, Level] = {
    "easy": Level("greedy", use_solver=False),
    "medium": Level("ismcts", {"iterations": 200, "time_limit": 0.3}),
    "hard": Level("ismcts", {"iterations": 5000, "time_limit": HARD_SECONDS}),
}

GAME_LEVELS: dict[str, Mapping[str, Level]] = {
    # In Obonto short random rollouts judged by the mobility heuristic beat alpha-beta over the
    # same heuristic, which lost to greedy at depth 2 (arena, docs/ai.md). medium is hard's bot
    # with a third of its time: capped at 300 iterations it lost to greedy (easy).
    "obonto": {
        "easy": Level("greedy", use_solver=False),
        "medium": Level("mcts", {"iterations": 2000, "rollout_depth": 6, "time_limit": 0.3}),
        "hard": Level(
            "mcts", {"iterations": 20000, "rollout_depth": 6, "time_limit": HARD_SECONDS}
        ),
    },
    "bones": _PERFECT_TWO_PLAYER,
    # OYNO: exact solutions of the small duels (solvers/oyno_duel.py) show perfect play cannot
    # beat greedy there at all, so hard stays alpha-beta (it beats random; docs/ai.md).
    "oyno": _PERFECT_TWO_PLAYER,
    # The puzzle solver answers every solvable deal; greedy covers anything it cannot.
    "oyno_puzzle": {
        "easy": Level("greedy", use_solver=False),
        "medium": Level("greedy"),
        "hard": Level("greedy"),
    },
    # Bond O Cones: ISMCTS and alpha-beta over the rules scored about even with greedy (the
    # rules cost ~1 ms a node). hard plays the game's own three-ply lookahead on a compact
    # model of its observation (games/bondo_cones/search.py, the ``lookahead`` bot; docs/ai.md).
    "bondo_cones": {
        "easy": Level("greedy", {"samples": 1}, use_solver=False),
        "medium": Level("greedy", {"samples": 4}),
        "hard": Level("lookahead", {"time_limit": HARD_SECONDS}),
    },
    # Bon-Bon rounds are long: rollouts of 30 moves scored hard's wins against random better
    # than 10 (19/20 against 18/20; docs/ai.md).
    "bonbon": {
        **_HIDDEN,
        "hard": Level(
            "ismcts", {"iterations": 5000, "rollout_depth": 30, "time_limit": HARD_SECONDS}
        ),
    },
}
"""Game name -> level name -> Level; a game listed here may leave some levels to the default."""


def level_for(game_name: str, level: str) -> Level:
    """The Level ``level`` of ``game_name``; an unknown level raises ValueError."""
    if level not in LEVEL_NAMES:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVEL_NAMES)}")
    table = GAME_LEVELS.get(game_name, {})
    return table.get(level, DEFAULT_LEVELS[level])
