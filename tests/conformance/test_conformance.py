"""Every registered game and variant keeps the engine contract (boneyard.testing)."""

from __future__ import annotations

from typing import Any

import pytest

from boneyard import list_games, load_game
from boneyard.testing import check_game, check_parameter_errors, variants

VARIANTS = variants()
PLAYOUTS = 6
LONG_GAME = 2000
"""Games that may run past this many actions get fewer playouts: every step is checked anyway."""
LONG_GAME_PLAYOUTS = 2


def _id(variant: tuple[str, dict[str, Any]]) -> str:
    name, params = variant
    return name + "".join(f"-{k}={v}" for k, v in sorted(params.items()))


@pytest.mark.parametrize("variant", VARIANTS, ids=[_id(v) for v in VARIANTS])
def test_conformance(variant: tuple[str, dict[str, Any]]) -> None:
    name, params = variant
    game = load_game(name, **params)
    long = game.info.max_game_length > LONG_GAME
    check_game(game, playouts=LONG_GAME_PLAYOUTS if long else PLAYOUTS, seed=1)


@pytest.mark.parametrize("name", list_games())
def test_parameter_errors(name: str) -> None:
    check_parameter_errors(name)


def test_every_game_has_variants() -> None:
    names = {name for name, _ in VARIANTS}
    assert names == set(list_games())
