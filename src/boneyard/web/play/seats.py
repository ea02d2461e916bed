"""The seats of a new game as stored: who sits where (a person or the computer at a level),
each with its secret token, checked against the game's scale of levels and the name rule."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from boneyard.ai.levels import LEVEL_NAMES, scale_for
from boneyard.core.game import Game
from boneyard.web import names
from boneyard.web.errors import WebError

Seats = list[dict[str, Any]] | Callable[[int], list[dict[str, Any]]] | None
"""Seats of a new game: a list, a function of the seat count, or None (every seat a person)."""


def _level_name(game_class: type[Game], number: int, level: Any) -> str:
    """A computer seat's level as stored: an alias (easy, medium, hard) as it is, a number
    on the game's scale as its digits; anything else is refused naming what is allowed."""
    name = game_class.name
    scale = scale_for(game_class)
    if isinstance(level, (str, int)) and not isinstance(level, bool):
        text = str(level).strip().lower()
        try:
            scale.number(text)
        except ValueError:
            pass
        else:
            return text if text in LEVEL_NAMES else str(int(text))
    raise WebError(
        400,
        "bad_seats",
        f"seat {number}: a computer level of {name} is {scale.allowed()}, not {level!r}",
    )


def rows_for_seats(game_class: type[Game], count: int, seats: Seats) -> list[dict[str, Any]]:
    """The stored rows of ``count`` seats of a game of ``game_class``: refused (400) when the
    seats given do not fit the game, a level is not on its scale or a name is not a name."""
    if seats is None:
        seats = [{"kind": "human"} for _ in range(count)]
    elif callable(seats):
        seats = seats(count)
    if len(seats) != count:
        raise WebError(
            400,
            "bad_seats",
            f"{game_class.name} with these parameters has {count} seats; {len(seats)} were given",
        )
    rows: list[dict[str, Any]] = []
    for number, seat in enumerate(seats):
        kind = seat.get("kind", "human")
        level = seat.get("level")
        if kind not in ("human", "computer"):
            raise WebError(
                400, "bad_seats", f"seat {number}: kind is 'human' or 'computer', not {kind!r}"
            )
        if kind == "computer":
            level = _level_name(game_class, number, level)
        rows.append(
            {
                "token": secrets.token_urlsafe(24),
                "kind": kind,
                "level": level if kind == "computer" else None,
                "name": _seat_name(seat.get("name")) if kind == "human" else None,
            }
        )
    for number, row in enumerate(rows):
        if row["name"] is not None:
            names.distinct_name(row["name"], (other["name"] for other in rows[:number]))
    return rows


def _seat_name(name: object) -> str | None:
    """A person's name given with a new game: refused (400) when given but not a name."""
    if name is None or (isinstance(name, str) and not name.strip()):
        return None
    return names.given_name(name)
