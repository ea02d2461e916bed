"""What an Obonto seat sees: the shape of ``ObontoState.observation(seat)``, declared once.

Every reader (drawing, heuristic, tensor, words) takes an ``ObontoObservation``, so mypy checks
each key it reads against this declaration: a key renamed here and not in a reader fails the
type check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

if TYPE_CHECKING:
    from boneyard.core.game import State


class ObontoResult(TypedDict):
    winner: int
    score: int


class ObontoObservation(TypedDict):
    seat: int | None
    """The observing seat (``None``: a spectator)."""
    current_player: int
    to_move: int
    phase: str
    """``play``, ``solo`` or ``over``."""
    loser: int | None
    """The seat stuck first in the game under way (the solo phase follows), or ``None``."""
    solo_moves: int
    dark: list[str]
    """The dark squares."""
    animals: list[dict[str, str]]
    """Per seat, kind (``lion``, ``zebra``, ``camel``) -> square."""
    game: int
    """The number of the game under way, from 1."""
    games: int
    target: int
    first: int
    results: list[ObontoResult]
    totals: list[int]
    last_move: str | None


def observe(state: State, seat: int | None) -> ObontoObservation:
    """``state.observation(seat)`` as its declared type."""
    return cast(ObontoObservation, state.observation(seat))
