"""The games every interop test runs over: each registered game, plus the toy games.

A registered game without an observation tensor yet is skipped with the reason; the toy games
(``toygames.py``) cover the adapters' branches (chance, hidden information, one player) even
before the real games land.
"""

from __future__ import annotations

from typing import Any

import pytest

import boneyard
from boneyard import Game
from boneyard.interop import observation_shape

from .toygames import TOY_GAMES

GAME_CASES: list[Any] = [pytest.param(name, id=name) for name in boneyard.list_games()] + [
    pytest.param(game, id=game.name) for game in TOY_GAMES
]


def quick_params(name: str) -> dict[str, Any]:
    """A small variant of a registered game, so a whole random game is quick on shared cores.

    Generic, no per-game table: the conformance variant with the shortest ``max_game_length``,
    with every move cap (a parameter named ``max_...``, see RULINGS: every game has one) set
    down to 30 where the parameter allows it.
    """
    from boneyard.core.registry import game_class

    cls = game_class(name)
    variants = [dict(variant) for variant in cls.conformance_variants]
    params = min(variants, key=lambda v: boneyard.load_game(name, **v).info.max_game_length)
    for parameter in cls.parameters:
        if parameter.name.startswith("max_") and parameter.type is int:
            try:
                boneyard.load_game(name, **{**params, parameter.name: 30})
            except ValueError:
                continue
            params[parameter.name] = 30
    return params


def load(case: str | Game) -> Game:
    """The game of a case; skip when it has no observation tensor (the adapters need one)."""
    game = boneyard.load_game(case) if isinstance(case, str) else case
    if observation_shape(game) is None:
        pytest.skip(f"{game.name} has no observation_tensor yet (the game owns its encoding)")
    return game
