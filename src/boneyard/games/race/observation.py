"""What a Race seat sees: the shape of ``RaceState.observation(seat)``, declared once.

Every reader takes a ``RaceObservation``, so mypy checks each key it reads against this
declaration: a key renamed here and not in a reader fails the type check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

if TYPE_CHECKING:
    from boneyard.core.game import State


class RaceObservation(TypedDict):
    seat: int | None
    """The observing seat (``None``: a spectator)."""
    current_player: int
    """The seat to move, ``CHANCE`` (-1) for the coin or ``TERMINAL`` (-4)."""
    total: int
    goal: int
    winner: int | None


def observe(state: State, seat: int | None) -> RaceObservation:
    """``state.observation(seat)`` as its declared type."""
    return cast(RaceObservation, state.observation(seat))
