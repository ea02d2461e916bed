"""A rated game's start: who may ask for one, and its note in the store.

A rated game is between people with accounts: its creator is signed in, every seat is a
person's (no computer), and it counts once each seat is owned by a different account
(``web/store/ratings.py`` settles it when it ends; ``web/people/ratings.py`` rates it).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection

from boneyard.web.errors import WebError
from boneyard.web.guard.signin import in_store, signed_in
from boneyard.web.play.live import LiveGame
from boneyard.web.store.ratings import RatingStore

RATED_SEATS = "a rated game is between people: every seat is a person's"


async def check_rated(request: HTTPConnection, seats: list[dict[str, Any]] | None) -> None:
    """Refuse (nothing made) a rated game its creator may not ask for."""
    if await signed_in(request) is None:
        raise WebError(401, "not_signed_in", "a rated game is between accounts: log in first")
    if seats is not None and any(seat.get("kind") != "human" for seat in seats):
        raise WebError(400, "bad_seats", RATED_SEATS)


async def start_rated(request: HTTPConnection, live: LiveGame) -> None:
    """Note ``live`` as rated (after ``check_rated`` and its creation)."""
    if live.num_seats < 2 or any(seat["kind"] != "human" for seat in live.stored.seats):
        raise WebError(400, "bad_seats", RATED_SEATS)
    ratings: RatingStore = request.app.state.ratings
    await in_store(request, ratings.note_rated, live.id, live.game.name)
    live.rated = True
