"""Levels: what ``easy``, ``medium`` and ``hard`` mean in a game.

The terminal and the web app offer these levels, not bot names. Each game's spec says what its
levels are (``GameSpec.levels``: a bot name and its options, its budget); a level it leaves out
is ``DEFAULT_LEVELS``'s. ``hard`` must answer within 2 seconds a move on the development
machine: its time limit stays below that, and its iteration budget keeps it reproducible where
the machine is fast enough.
"""

from __future__ import annotations

from boneyard.core.errors import UnknownGameError
from boneyard.core.game import Game
from boneyard.core.registry import game_spec
from boneyard.core.spec import (
    DEFAULT_LEVELS,
    HARD_SECONDS,
    LEVEL_NAMES,
    Level,
    check_level_name,
)


def level_for(game: Game | str, level: str) -> Level:
    """The Level ``level`` of ``game`` (a loaded game, or a game's name: one the registry does
    not know has the default levels); an unknown level raises ValueError."""
    if isinstance(game, Game):
        return game.spec.level(level)
    check_level_name(level)
    try:
        return game_spec(game).level(level)
    except UnknownGameError:
        return DEFAULT_LEVELS[level]


__all__ = ["DEFAULT_LEVELS", "HARD_SECONDS", "LEVEL_NAMES", "Level", "level_for"]
