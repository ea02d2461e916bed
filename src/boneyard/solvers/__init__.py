"""Exact solvers, and a registry that finds the one for a game.

Each solver module exposes ``best_action(state) -> int | None``: the exact best action where it
can decide the position (the Obonto solo phase, an OYNO puzzle), ``None`` where it cannot. The
table below maps a game name to its module; modules are imported on first use, so a missing or
half-built solver only means "no exact answer" and never breaks the bots.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boneyard.core.game import State

BestAction = Callable[["State"], "int | None"]

SOLVER_MODULES: dict[str, str] = {
    "obonto": "boneyard.solvers.obonto_solo",
    "oyno_puzzle": "boneyard.solvers.oyno_puzzle",
    "oyno": "boneyard.solvers.oyno_duel",  # small duels only (3x3 boards; 5x5 with one bone)
}
"""Game name -> module exposing ``best_action(state)``."""

_loaded: dict[str, BestAction | None] = {}


def solver_for(game_name: str) -> BestAction | None:
    """The ``best_action`` function of ``game_name``'s solver, or ``None`` if it has none."""
    if game_name not in _loaded:
        module_name = SOLVER_MODULES.get(game_name)
        function: BestAction | None = None
        if module_name is not None:
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                module = None
            candidate = getattr(module, "best_action", None)
            if callable(candidate):
                function = candidate
        _loaded[game_name] = function
    return _loaded[game_name]


def best_action(state: State) -> int | None:
    """The exact best action for the player to move, or ``None`` where no solver decides.

    An answer that is not a legal action of ``state`` is ignored (treated as ``None``), so a
    faulty solver can make a bot weaker but never make it play an illegal move.
    """
    function = solver_for(state.game.name)
    if function is None or state.is_terminal() or state.is_chance_node():
        return None
    action = function(state.clone())
    if action is None or action not in state.legal_actions():
        return None
    return int(action)
