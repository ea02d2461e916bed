"""Hand-built Obonto positions for the tests."""

from __future__ import annotations

from typing import Any

import boneyard
from boneyard.games.obonto import notation
from boneyard.games.obonto.rules import ObontoState


def position(
    animals: str = notation.START_PLACEMENT,
    dark: tuple[str, ...] = notation.START_DARK,
    to_move: int = 0,
) -> str:
    """A position string from a placement and the names of the dark squares."""
    mask = 0
    for name in dark:
        mask |= 1 << notation.square_index(name)
    return notation.format_position(
        mask, notation.parse_placement(animals, start_squares_only=False), to_move
    )


def state_at(
    animals: str = notation.START_PLACEMENT,
    dark: tuple[str, ...] = notation.START_DARK,
    to_move: int = 0,
    **params: Any,
) -> ObontoState:
    game = boneyard.load_game("obonto", **params)
    return game.new_state_from_position(position(animals, dark, to_move))  # type: ignore[attr-defined, no-any-return]


def moves(state: boneyard.State) -> set[str]:
    return {state.action_to_string(action) for action in state.legal_actions()}


def moves_from(state: boneyard.State, square: str) -> set[str]:
    return {move for move in moves(state) if move.startswith(square + "-")}


def all_but(*light: str) -> tuple[str, ...]:
    """Every square dark except ``light``."""
    return tuple(name for name in notation.NAMES if name not in light)
