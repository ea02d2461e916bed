"""Which games the web offers, and the checking of the parameters a person sends."""

from __future__ import annotations

from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.core.game import Game
from boneyard.core.registry import game_class as registry_game_class
from boneyard.core.registry import list_games as registry_list_games
from boneyard.web.errors import WebError


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


def parse_params(game_cls: type[Game], given: dict[str, Any]) -> dict[str, Any]:
    """Check parameters (text from a form, or JSON values) with each Parameter's ``validate``.

    Empty text means the default. Returns the full parameter dict, JSON-safe.
    """
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
        try:
            params[name] = specs[name].validate(value)
        except BoneyardError as error:
            raise WebError(400, "bad_parameter", str(error)) from None
    try:
        game = game_cls(**params)
    except BoneyardError as error:
        raise WebError(400, "bad_parameter", str(error)) from None
    return dict(game.params)
