"""What a Bond O Cones seat sees: the shape of ``BondoConesState.observation(seat)``, declared
once. Every reader (drawing, heuristic, tensor, search, resampling) takes a
``BondoObservation``, so mypy checks each key it reads against this declaration."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

if TYPE_CHECKING:
    from boneyard.core.game import State


class BondoStatus(TypedDict):
    """The public facts of a position (the status line under the board reads these)."""

    current_player: int
    phase: str
    """``setup_put``, ``setup_ring``, ``first``, ``decide``, ``battle``, ``take``, ``punish``,
    ``roll``, ``act`` or ``over``."""
    turn: int
    max_turns: int
    target: int
    next_value: int | None
    """The value the seat setting up places next (``setup_put`` only)."""
    die: str | None
    """The face rolled this turn, or ``None``."""
    scores: list[int]
    battle_windows: list[int]
    set_aside_ring: bool
    winner: int | str | None
    """A seat, ``"draw"``, or ``None`` while the game runs."""


class BondoObservation(BondoStatus):
    seat: int | None
    """The observing seat (``None``: a spectator)."""
    actor: int
    turn_player: int
    setup: str
    setup_progress: list[int]
    first_player: int | None
    captured: list[list[int]]
    cones: dict[str, str]
    """Square -> the token of the cone there, as this seat sees it (``notation``)."""
    last_move: list[str] | None
    last_peek: str | None


def observe(state: State, seat: int | None) -> BondoObservation:
    """``state.observation(seat)`` as its declared type."""
    return cast(BondoObservation, state.observation(seat))
