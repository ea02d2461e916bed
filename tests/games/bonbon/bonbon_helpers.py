"""Helpers for the Bon-Bon tests: play scripted action strings, write small decks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boneyard import load_game
from boneyard.games.bonbon.rules import BonBonGame, BonBonState


def game(**params: Any) -> BonBonGame:
    loaded = load_game("bonbon", **params)
    assert isinstance(loaded, BonBonGame)
    return loaded


def play(state: BonBonState, *moves: str) -> BonBonState:
    """Apply each action string in turn (chance outcomes too); returns the state."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def new(*moves: str, **params: Any) -> BonBonState:
    """A new game of ``params`` after ``moves``."""
    return play(game(**params).new_initial_state(), *moves)


def strings(state: BonBonState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def run_of(state: BonBonState, seat: int) -> list[str]:
    """A run as the spectator-free truth: ``3`` face up, ``(3)`` face down."""
    labels = state.game.labels
    return [labels[k] if up else f"({labels[k]})" for k, up, _ in state.runs[seat]]


CARD = """
[[card]]
name = "{name}"
value = {value}
count = {count}
face_up_only = {face_up_only}
effect = "{effect}"
"""


def write_deck(path: Path, *cards: tuple[str, int, int, bool, str]) -> str:
    """Write a deck of (name, value, count, face_up_only, effect) cards; returns its path."""
    text = "".join(
        CARD.format(
            name=name, value=value, count=count, face_up_only=str(up).lower(), effect=effect
        )
        for name, value, count, up, effect in cards
    )
    path.write_text(text)
    return str(path)
