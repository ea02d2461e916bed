"""Which games the web offers, and the checking of the parameters a person sends."""

from __future__ import annotations

import re
from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.core.game import Game
from boneyard.core.registry import game_class as registry_game_class
from boneyard.core.registry import list_games as registry_list_games
from boneyard.web.errors import WebError
from boneyard.web.settings import MAX_WEB_INTEGER


class Catalog:
    """Which games the app offers. The default is the registry; tests may pass their own."""

    def __init__(self, classes: dict[str, type[Game]] | None = None) -> None:
        self._classes = classes

    def names(self) -> list[str]:
        if self._classes is not None:
            return sorted(self._classes)
        return registry_list_games()

    def game_class(self, name: str) -> type[Game]:
        if self._classes is not None:
            if name not in self._classes:
                known = ", ".join(sorted(self._classes))
                raise WebError(404, "unknown_game", f"unknown game {name!r}; games: {known}")
            return self._classes[name]
        try:
            return registry_game_class(name)
        except BoneyardError as error:
            raise WebError(404, "unknown_game", str(error)) from None


def seat_count_for(game_cls: type[Game], params: dict[str, Any]) -> int:
    """How many seats a game with ``params`` has (loads it: the game decides)."""
    return game_cls(**params).info.num_players


NUMBER_TEXT = {int: re.compile(r"-?[0-9]+"), float: re.compile(r"-?[0-9]+(\.[0-9]+)?")}
"""Numbers as text (a form's fields): ASCII digits only. Python's ``int`` also reads "1_2" and
other scripts' digits ("١٢"): a person never means those."""

MAX_WEB_TEXT = 400
"""The longest text parameter the web accepts (a 17x17 OYNO position is 306 characters)."""


def parse_params(
    game_cls: type[Game], given: dict[str, Any], limits: dict[str, int] | None = None
) -> dict[str, Any]:
    """Check parameters (text from a form, or JSON values) with each Parameter's ``validate``.

    Empty text means the default. ``limits`` (the server's ``param_limits`` for this game) caps
    integer parameters below the game's own ranges; an integer parameter it does not name is
    capped at ``MAX_WEB_INTEGER``. Returns the full parameter dict, JSON-safe.
    """
    limits = limits or {}
    specs = {spec.name: spec for spec in game_cls.parameters}
    params: dict[str, Any] = {}
    for name, value in given.items():
        if name not in specs:
            known = ", ".join(sorted(specs)) or "none"
            raise WebError(
                400,
                "bad_parameter",
                f"unknown parameter '{name}' for game '{game_cls.name}'; parameters: {known}",
            )
        if isinstance(value, str) and value.strip() == "" and specs[name].type is not str:
            continue
        if specs[name].local_only and value != specs[name].default:
            raise WebError(
                400,
                "bad_parameter",
                f"parameter '{name}' names a file on the server, which web players cannot choose; "
                f"leave it at {specs[name].default!r}",
            )
        if isinstance(value, str) and len(value) > MAX_WEB_TEXT:
            raise WebError(
                400,
                "bad_parameter",
                f"parameter '{name}' is {len(value)} characters long; this server accepts at "
                f"most {MAX_WEB_TEXT}",
            )
        number = NUMBER_TEXT.get(specs[name].type)
        if isinstance(value, str) and number is not None and not number.fullmatch(value.strip()):
            raise WebError(
                400,
                "bad_parameter",
                f"bad value {value!r} for parameter '{name}': write a number in the digits "
                "0-9 (e.g. 12 or -3)",
            )
        try:
            params[name] = specs[name].validate(value)
        except BoneyardError as error:
            raise WebError(400, "bad_parameter", str(error)) from None
        _check_limit(name, params[name], limits)
    try:
        game = game_cls(**params)
    except BoneyardError as error:
        raise WebError(400, "bad_parameter", str(error)) from None
    resolved = dict(game.params)
    for name, value in resolved.items():  # a set-up given as text may imply a size
        _check_limit(name, value, limits)
    return resolved


def _check_limit(name: str, value: Any, limits: dict[str, int]) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        return
    largest = limits.get(name, MAX_WEB_INTEGER)
    if value > largest:
        raise WebError(
            400,
            "bad_parameter",
            f"bad value {value} for parameter '{name}': this server offers at most {largest}",
        )
