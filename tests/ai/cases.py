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
