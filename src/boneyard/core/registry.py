"""The registry of games: every package under ``boneyard.games`` registers its games on import."""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from typing import Any, TypeVar

from boneyard.core.errors import UnknownGameError
from boneyard.core.game import Game

_GAMES: dict[str, type[Game]] = {}
_discovered = False

GameClass = TypeVar("GameClass", bound=type[Game])


def register(game_class: GameClass) -> GameClass:
    """Class decorator: make ``game_class`` loadable by its ``name``."""
    name = game_class.name
    if name in _GAMES and _GAMES[name] is not game_class:
        raise ValueError(f"two games registered under the name '{name}'")
    _GAMES[name] = game_class
    return game_class


def _discover() -> None:
    """Import every game package once, so each registers itself."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    import boneyard.games

    for module in pkgutil.iter_modules(boneyard.games.__path__):
        if module.ispkg:
            importlib.import_module(f"boneyard.games.{module.name}")


def list_games() -> list[str]:
    """The registered game names, sorted."""
    _discover()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The class registered as ``name``; an unknown name raises UnknownGameError."""
    _discover()
    if not isinstance(name, str) or name not in _GAMES:
        close = difflib.get_close_matches(str(name), _GAMES, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise UnknownGameError(f"unknown game {name!r}{hint} games: {', '.join(sorted(_GAMES))}")
    return _GAMES[name]


def load_game(name: str, **params: Any) -> Game:
    """The game ``name`` with ``params``; bad names and values raise ValueError subclasses."""
    return game_class(name)(**params)
