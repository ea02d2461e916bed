"""Exact solvers, found through each game's spec.

Each solver module exposes ``best_action(state) -> int | None``: the exact best action where it
can decide the position (the Obonto solo phase, an OYNO puzzle), ``None`` where it cannot. A
game's spec names its module (``GameSpec.solver``); modules are imported on first use, so a
missing or half-built solver only means "no exact answer" and never breaks the bots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boneyard.core.game import Game, State

BestAction = Callable[["State"], "int | None"]

_loaded: dict[str, BestAction | None] = {}
"""Game name -> its solver's ``best_action`` (``None``: none), once looked up."""


def solver_for(game: Game) -> BestAction | None:
    """The ``best_action`` function of ``game``'s solver, or ``None`` if it has none."""
    if game.name not in _loaded:
        function: BestAction | None = None
        try:
            module = game.spec.load_solver()
        except ImportError:
            module = None
        candidate = getattr(module, "best_action", None)
        if callable(candidate):
            function = candidate
        _loaded[game.name] = function
    return _loaded[game.name]


def best_action(state: State) -> int | None:
    """The exact best action for the player to move, or ``None`` where no solver decides.

    An answer that is not a legal action of ``state`` is ignored (treated as ``None``), so a
    faulty solver can make a bot weaker but never make it play an illegal move.
    """
    function = solver_for(state.game)
    if function is None or state.is_terminal() or state.is_chance_node():
        return None
    action = function(state.clone())
    if action is None or action not in state.legal_actions():
        return None
    return int(action)
