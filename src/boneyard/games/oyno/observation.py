"""What an OYNO seat sees, declared once: ``DuelObservation`` (the two-player game) and
``PuzzleObservation`` (the puzzle). Every reader (drawing, heuristic, tensor, words) takes one of
them, or ``OynoObservation`` where it reads only what both share, so mypy checks each key it
reads against these declarations."""

from __future__ import annotations

from typing import Literal, TypedDict


class DuelObservation(TypedDict):
    game: Literal["oyno"]
    current_player: int
    player: int
    """The seat whose turn it is (also during a wild bone's roll)."""
    size: int
    position: str
    """The board as the ``start`` parameter writes it."""
    supply: list[int]
    bones_per_player: int
    rolling: str | None
    """The cell of a wild bone whose side is being rolled, or ``None``."""
    moves: int
    max_moves: int
    winner: int | None
    draw: bool
    repetitions: int


class PuzzleObservation(TypedDict):
    game: Literal["oyno_puzzle"]
    current_player: int
    size: int
    position: str
    bones: int
    dealt: int
    """Bones dealt so far (the deal is chance)."""
    pending: str | None
    """The cell of the bone whose side is being dealt, or ``None``."""
    up: int
    """How many bones show their up side."""
    moves: int
    max_moves: int
    solved: bool


OynoObservation = DuelObservation | PuzzleObservation
