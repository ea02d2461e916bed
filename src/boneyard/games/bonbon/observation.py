"""What a Bon-Bon seat sees: the shape of ``BonBonState.observation(seat)``, declared once.

Every reader (drawing, heuristic, tensor, resampling, words) takes a ``BonBonObservation``, so
mypy checks each key it reads, down to a card's, against these declarations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

if TYPE_CHECKING:
    from boneyard.core.game import State


class CardView(TypedDict):
    """A card in a run."""

    card: str | None
    """Its label, or ``None`` where this seat does not know it."""
    up: bool
    seen_by: list[int]
    """The seats that know its kind."""


class DrawnView(TypedDict):
    """The card being played."""

    by: int
    card: str | None
    seen_by: list[int]


class PeekView(TypedDict):
    """The card a peek showed its peeker (it stays in the deck)."""

    by: int
    card: str | None


class LastRound(TypedDict):
    scores: list[int | None]
    """Each seat's score (``None``: eliminated)."""
    cards: list[int]
    winners: list[int]


class BonBonObservation(TypedDict):
    seat: int | None
    """The observing seat (``None``: a spectator)."""
    players: int
    current_player: int
    phase: str
    """``tiles``, ``turn``, ``draw``, ``place``, ``gift``, ``catch``, ``wrapper``, ``peek`` or
    ``over``."""
    turn: int | None
    round: int
    max_rounds: int
    wins: list[int]
    personal_limits: list[int]
    collective_limit: int
    marker: int
    up_totals: list[int]
    status: list[str]
    """Per seat ``in play``, ``passed`` or ``eliminated``."""
    tiles: list[int]
    tiles_open: bool
    tile_taken: list[int | None]
    runs: list[list[CardView]]
    drawn: DrawnView | None
    peek: PeekView | None
    deck_left: int
    values: dict[str, int]
    """Label -> printed value."""
    unseen: dict[str, int]
    """Label -> how many cards of it this seat has not seen (the deck and hidden cards)."""
    round_starter: int
    last_drawer: int | None
    last_round: LastRound
    winners: list[int]


def observe(state: State, seat: int | None) -> BonBonObservation:
    """``state.observation(seat)`` as its declared type."""
    return cast(BonBonObservation, state.observation(seat))
