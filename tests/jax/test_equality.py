"""The batch engines equal the rules engines: the same random games, compared at every step."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

pytest.importorskip("jax")

import boneyard.jax
from boneyard.core.registry import load_game
from tests.jax.equality import Replay

QUICK_GAMES = 6
SLOW_GAMES = 200


def _variants() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for name in boneyard.jax.available_games():
        for params in load_game(name).conformance_variants:
            if params.get("difficulty"):
                continue  # difficulty deals need the solver's ticket table (see boneyard.jax.oyno)
            cases.append((name, params))
    return cases


VARIANTS = _variants()
IDS = [name + "".join(f"-{k}={v}" for k, v in params.items()) for name, params in VARIANTS]


@cache
def _replay(name: str, frozen: tuple[tuple[str, Any], ...]) -> Replay:
    params = dict(frozen)
    return Replay(boneyard.jax.make(name, **params), load_game(name, **params))


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=IDS)
def test_quick_random_games_equal(name: str, params: dict[str, Any]) -> None:
    replay = _replay(name, tuple(sorted(params.items())))
    assert replay.run(QUICK_GAMES, seed=1) >= QUICK_GAMES


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=IDS)
def test_200_random_games_equal(name: str, params: dict[str, Any]) -> None:
    replay = _replay(name, tuple(sorted(params.items())))
    assert replay.run(SLOW_GAMES, seed=2) >= SLOW_GAMES
