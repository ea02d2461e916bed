"""Helpers for the Bond O Cones tests: games, hand-built positions, playing by notation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from boneyard import load_game
from boneyard.games.bondo_cones.board import START_FIELDS
from boneyard.games.bondo_cones.notation import NAMES
from boneyard.games.bondo_cones.rules import BondoConesGame, BondoConesState


def new_game(**params: Any) -> BondoConesGame:
    built = load_game("bondo_cones", **params)
    assert isinstance(built, BondoConesGame)
    return built


def play(state: BondoConesState, *moves: str) -> BondoConesState:
    """Apply actions (and chance outcomes) written in notation."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def legal(state: BondoConesState) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def setup_puts(seat: int) -> list[str]:
    """Sixteen `put` actions filling a seat's first start fields in square order."""
    return [f"put {NAMES[sq]}" for sq in START_FIELDS[seat][:16]]


def set_up(game: BondoConesGame, puts: Iterable[Iterable[str]] | None = None) -> BondoConesState:
    """A chosen set-up for both seats (rings on d4 and g9), up to the first-player event."""
    state = game.new_initial_state()
    seat_puts = list(puts) if puts is not None else [setup_puts(0), setup_puts(1)]
    play(state, *seat_puts[0], "ring d4")
    play(state, *seat_puts[1], "ring g9")
    return state
