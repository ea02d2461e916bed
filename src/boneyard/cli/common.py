"""Pieces the commands share: game-name arguments, parameters from the command line, errors."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from boneyard.core.errors import BoneyardError
from boneyard.core.game import Game
from boneyard.core.parameters import parse_assignments
from boneyard.core.registry import list_games, load_game

Command = TypeVar("Command", bound=Callable[..., Any])


class GameName(click.ParamType):
    """A registered game name; the error lists the games."""

    name = "game"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        games = list_games()
        if value not in games:
            self.fail(f"unknown game {value!r}; games: {', '.join(games)}", param, ctx)
        return str(value)


GAME_NAME = GameName()

LOG_FORMAT = click.option(
    "--log-format",
    default="text",
    show_default=True,
    type=click.Choice(["text", "json"]),
    help="Logs on standard error as text or as JSON lines (one object a line).",
)
"""The ``--log-format`` of the long-running commands (``serve``, ``bots``)."""

DB = click.option(
    "--db",
    default="sqlite:///boneyard.db",
    show_default=True,
    envvar="BONEYARD_DB",
    help="The web app's database (SQLAlchemy URL; env BONEYARD_DB).",
)
"""The ``--db`` of the database commands (``boneyard db ...``, ``boneyard admin ...``)."""

MIGRATE = click.option(
    "--migrate",
    default="auto",
    show_default=True,
    envvar="BONEYARD_MIGRATE",
    type=click.Choice(["auto", "manual"]),
    help="auto: bring an older database's schema up to this version at start; manual: refuse "
    "to start until `boneyard db upgrade` has (env BONEYARD_MIGRATE).",
)
"""The ``--migrate`` of the commands that open the web's database at start (``serve``, ``bots``)."""


def fail_on_bad_input(command: Command) -> Command:
    """Turn the project's ValueErrors into a one-line error and exit status 2, no traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BoneyardError as error:
            raise click.UsageError(str(error)) from None

    return wrapper  # type: ignore[return-value]


def game_from_options(name: str, assignments: tuple[str, ...], extra: list[str]) -> Game:
    """Load ``name`` with ``-p name=value`` assignments and ``--name value`` extras."""
    values: dict[str, Any] = parse_assignments(assignments)
    values.update(parse_extra_options(extra))
    return load_game(name, **values)


def parse_extra_options(extra: list[str]) -> dict[str, str]:
    """``["--games", "3", "--target=10"]`` -> ``{"games": "3", "target": "10"}``."""
    values: dict[str, str] = {}
    words = list(extra)
    while words:
        word = words.pop(0)
        if not word.startswith("--") or len(word) < 3:
            raise click.UsageError(
                f"unexpected argument {word!r}: game parameters go as --name value"
            )
        name, sep, value = word[2:].partition("=")
        if not sep:
            if not words:
                raise click.UsageError(f"parameter --{name} needs a value")
            value = words.pop(0)
        values[name.replace("-", "_")] = value
    return values
