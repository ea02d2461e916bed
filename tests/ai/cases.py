"""The games the bot tests run over: every registered game and conformance variant, plus toys."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard import Game, State

from .toy_games import TOY_GAMES


def _variant_cases() -> list[Any]:
    cases = []
    for name in boneyard.list_games():
        cls = type(boneyard.load_game(name))
        for number, variant in enumerate(cls.conformance_variants):
            cases.append(pytest.param(name, dict(variant), id=f"{name}-{number}"))
    return cases


VARIANT_CASES = _variant_cases()
GAME_NAMES = boneyard.list_games()
HIDDEN_GAMES = [name for name in GAME_NAMES if not boneyard.load_game(name).perfect_information]
TOY_CASES = [pytest.param(game, id=f"{game.name}-{i}") for i, game in enumerate(TOY_GAMES)]


def random_step(state: State, rng: random.Random) -> None:
    """Play one random action or chance outcome (by its probability)."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def decision_states(game: Game, count: int, seed: int, spread: int = 6) -> list[State]:
    """Up to ``count`` player-node states of random games, a few random steps apart."""
    rng = random.Random(seed)
    found: list[State] = []
    state = game.new_initial_state()
    while len(found) < count:
        for _ in range(rng.randrange(spread)):
            if state.is_terminal():
                break
            random_step(state, rng)
        while state.is_chance_node():
            random_step(state, rng)
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        found.append(state.clone())
        random_step(state, rng)
    return found


BONES_CYCLE = (
    "f5-g5 e5-f5 d5-e5 c5-d5 b5-c5 g5-h5 f5-g5 f5-f6 a4-a5 a5-a6 a4-a5 a5-a6 a4-a5 a5-a6 h5-i5 "
    "h5-h6 d4-e4 e4-e5 e5-f5 f5-g5 g5-h5 h4-h5 h5-h6 g5-h5 f5-g5 e5-f5 e4-e5 d4-e4 d4-d5 d5-e5"
)
"""The first 30 placements of a drawn arena game (native alpha-beta, white, against hard): from
here white's e4-e5 and d4-d5 and black's replies brought back the same tops every four plies
until the pieces ran out."""


def bones_cycle() -> State:
    """Bones after ``BONES_CYCLE``: white to move, with moves that bring back a seen position."""
    state = boneyard.load_game("bones").new_initial_state()
    for text in BONES_CYCLE.split():
        state.apply_action(state.string_to_action(text))
    return state
