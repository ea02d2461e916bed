"""Exact solvers, found through each game's spec.

Each solver module exposes ``best_action(state) -> int | None``: the exact best action where it
can decide the position (the Obonto solo phase, an OYNO puzzle), ``None`` where it cannot. A
module that solves from the start (``Solver.solves_from_start``) also gives
``solve(state) -> list[int] | None``, a whole fewest-move line. A game's spec names its module
(``GameSpec.solver``), checked when the game registers (``core/registry.py``); modules are
imported on first use, and one that fails to import is an error, not a quiet "no answer".
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
        module = game.spec.load_solver()
        _loaded[game.name] = None if module is None else module.best_action
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


def solve(state: State) -> list[int] | None:
    """A fewest-move line of actions from ``state`` (``[]`` at the end), or ``None`` where there
    is none; ValueError for a game whose solver does not solve from the start."""
    solver = state.game.spec.solver
    if solver is None or not solver.solves_from_start:
        raise ValueError(f"{state.game.info.title} has no solver that plays a whole line")
    actions: list[int] | None = state.game.spec.load_solver().solve(state.clone())
    return actions


def shortest_line(state: State) -> list[str] | None:
    """``solve(state)`` in the game's notation (``['b2-d4', ...]``)."""
    actions = solve(state)
    if actions is None:
        return None
    probe = state.clone()
    moves = []
    for action in actions:
        moves.append(probe.action_to_string(action))
        probe.apply_action(action)
    return moves
