"""Levels: each game's scale of levels, 1 (a beginner) to N, and the names easy/medium/hard.

The terminal and the web app offer these levels, not bot names. Each game's spec declares its
scale once (``GameSpec.levels``, a ``Scale``: a bot name and its options, its budget, a level);
a game that declares only the three names has three levels. easy, medium and hard are aliases
of numbers on each scale. The top level must answer within 2 seconds a move on the development
machine: its time limit stays below that, and its iteration budget keeps it reproducible where
the machine is fast enough. The ratings the arena measured (benchmarks/levels.py) are in
``ratings.json`` beside this module: ``rating_of`` reads them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from boneyard.core.game import Game
from boneyard.core.registry import game_spec
from boneyard.core.spec import (
    DEFAULT_LEVELS,
    HARD_SECONDS,
    LEVEL_NAMES,
    MAX_LEVEL,
    Level,
    Scale,
    check_level_name,
    is_level_name,
    spec_of,
)

AnyGame = Game | type[Game] | str
"""A game as the level functions take it: loaded, its class, or its registered name."""


def scale_for(game: AnyGame) -> Scale:
    """The scale of ``game`` (a loaded game, its class, or a registered game's name: an unknown
    name raises UnknownGameError naming the games)."""
    if isinstance(game, Game):
        return game.spec.scale
    if isinstance(game, type):
        return spec_of(game).scale
    return game_spec(game).scale


def level_for(game: AnyGame, level: str | int) -> Level:
    """The Level ``level`` (a number or easy/medium/hard) of ``game``; an unknown level raises
    ValueError naming the game's levels."""
    return scale_for(game).level(level)


def level_number(game: AnyGame, level: str | int) -> int:
    """The number on ``game``'s scale of ``level``; ValueError naming the levels otherwise."""
    return scale_for(game).number(level)


NETWORK_BOTS = frozenset({"expert", "native_expert"})
"""The bots guided by a trained network: where none fits a game they search with its heuristic
alone."""


def hint_level(game: Game) -> str:
    """The level a hint asks in ``game``: the top of its scale, or the strongest level below it
    where the top is the trained expert and no shipped network fits this game (Bon-Bon for more
    than two players): there the expert would search with the heuristic alone, weaker than the
    searches below it (in Bon-Bon the native ISMCTS, level 5)."""
    scale = game.spec.scale
    top = scale.level(scale.strongest)
    if top.bot in NETWORK_BOTS and "model" not in top.options:
        from boneyard.ai.network import fitting_network  # numpy only; read when asked

        if fitting_network(game) is None:
            searches = [n for n in scale.numbers if scale.level(n).bot not in NETWORK_BOTS]
            return str(searches[-1])
    return scale.strongest


def level_label(level: object) -> str:
    """A stored level in words: ``"level 3"`` for a number, the name itself for an alias."""
    text = str(level)
    return f"level {text}" if text.isdecimal() else text


@cache
def _ratings() -> dict[str, Any]:
    try:
        text = resources.files("boneyard.ai").joinpath("ratings.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data: dict[str, Any] = json.loads(text)
    return data


def rating_of(game: AnyGame, number: int) -> int | None:
    """The Elo rating the arena measured for level ``number`` of ``game`` (level 1 at 1000),
    rounded to tens, or ``None`` where it was not measured (or the level has changed since)."""
    levels = _ratings().get("games", {}).get(_name(game), {}).get("levels", {})
    entry = levels.get(str(number))
    if entry is None or entry.get("rating") is None:
        return None
    # A level changed since it was measured has no rating until it is measured again.
    scale = scale_for(game)
    if number not in scale.numbers or entry.get("bot") != scale.level(number).describe():
        return None
    return int(round(float(entry["rating"]) / 10.0) * 10)


def _name(game: AnyGame) -> str:
    return game if isinstance(game, str) else game.name


def level_choices(game: AnyGame) -> list[dict[str, Any]]:
    """The levels a player chooses from: number, measured rating (or ``None``), the aliases
    that name it, in words for a form."""
    scale = scale_for(game)
    choices = []
    for number in scale.numbers:
        aliases = [alias for alias in LEVEL_NAMES if scale.aliases[alias] == number]
        rating = rating_of(game, number)
        words = f"Level {number}"
        if rating is not None:
            words += f" · about {rating}"
        if aliases:
            words += f" · {'/'.join(aliases)}"
        choices.append({"number": number, "rating": rating, "aliases": aliases, "words": words})
    return choices


__all__ = [
    "DEFAULT_LEVELS",
    "HARD_SECONDS",
    "LEVEL_NAMES",
    "MAX_LEVEL",
    "Level",
    "Scale",
    "check_level_name",
    "hint_level",
    "is_level_name",
    "level_choices",
    "level_for",
    "level_label",
    "level_number",
    "rating_of",
    "scale_for",
]
