"""The registry of games: every package under ``boneyard.games`` registers its spec on import.

The core sits below the games, so it finds them without importing upward: it lists the
packages in the ``boneyard.games`` folder and imports each by name the first time a game is
asked for. A game outside boneyard's own packages registers the same way (``register(SPEC)`` in
its package), found through an entry point in the group ``boneyard.games`` (or once its package
is imported); everything that lists games (the terminal, the arena, the web) reads this
registry, so a registered game appears in all of them.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import importlib.util
import pkgutil
from typing import TYPE_CHECKING, Any

from boneyard.core.errors import UnknownGameError
from boneyard.core.spec import GameSpec, declare, undeclare

if TYPE_CHECKING:
    from boneyard.core.game import Game

_SPECS: dict[str, GameSpec] = {}
_discovered = False


def register(spec: GameSpec) -> GameSpec:
    """Make the game ``spec`` declares loadable by its name (and ``spec`` its class's, see
    ``core.spec.declare``); returns ``spec``."""
    name = spec.name
    if name in _SPECS and _SPECS[name] is not spec:
        raise ValueError(f"two games registered under the name '{name}'")
    spec.check_references()
    declare(spec)
    _SPECS[name] = spec
    return spec


def unregister(name: str) -> None:
    """Forget the game ``name`` (a test's temporary game); unknown names are ignored."""
    spec = _SPECS.pop(name, None)
    if spec is not None:
        undeclare(spec.game)


GAMES_PACKAGE = "boneyard.games"
"""The package whose sub-packages are boneyard's own games."""

ENTRY_POINT_GROUP = "boneyard.games"
"""The entry point group through which an installed distribution names its game packages."""


def _discover() -> None:
    """Import every game package once, so each registers itself."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    found = importlib.util.find_spec(GAMES_PACKAGE)
    folders = [] if found is None else list(found.submodule_search_locations or [])
    for module in pkgutil.iter_modules(folders):
        if module.ispkg:
            importlib.import_module(f"{GAMES_PACKAGE}.{module.name}")
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        entry_point.load()


def list_games() -> list[str]:
    """The registered game names, sorted."""
    _discover()
    return sorted(_SPECS)


def game_specs() -> list[GameSpec]:
    """The registered games' specs, sorted by name."""
    _discover()
    return [_SPECS[name] for name in sorted(_SPECS)]


def game_spec(name: str) -> GameSpec:
    """The spec registered as ``name``; an unknown name raises UnknownGameError."""
    _discover()
    if not isinstance(name, str) or name not in _SPECS:
        close = difflib.get_close_matches(str(name), _SPECS, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise UnknownGameError(f"unknown game {name!r}{hint} games: {', '.join(sorted(_SPECS))}")
    return _SPECS[name]


def game_class(name: str) -> type[Game]:
    """The class registered as ``name``; an unknown name raises UnknownGameError."""
    return game_spec(name).game


def load_game(name: str, **params: Any) -> Game:
    """The game ``name`` with ``params``; bad names and values raise ValueError subclasses."""
    return game_class(name)(**params)
