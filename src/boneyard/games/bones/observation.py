"""What a Bones seat sees: the shape of ``BonesState.observation(seat)``, declared once.

Every reader (drawing, tensor, words) takes a ``BonesObservation``, so mypy checks each key it
reads against this declaration: a key renamed here and not in a reader fails the type check.
"""

from __future__ import annotations

from typing import TypedDict


class BonesObservation(TypedDict):
    current_player: int
    """The seat to move, or ``TERMINAL`` (-4)."""
    seat: int | None
    """The observing seat (``None``: a spectator)."""
    width: int
    height: int
    start_area: list[str]
    """The start squares (``e5``, ``f5`` on the default board)."""
    supply: list[int]
    """Pieces each seat has still to place."""
    pieces: list[str]
    """Every placement so far, in order (``e5-f5``)."""
    top: list[str]
    """Per rank, from rank 1, the colour shown on each square: ``.``, ``W`` or ``B``."""
    heights: list[list[int]]
    """Per rank, from rank 1, the stack height of each square."""
    winner: int | None
    winning_squares: list[str]
