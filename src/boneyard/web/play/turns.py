"""Your turn, wherever you are: which of a browser's games wait for its move.

Every page of the site asks every so often (``static/turns.js``), for the header's count on
*My games*, the tab's title and the browser's notifications, as lichess's count of games
waiting for you. The browser sends the seats it keeps (guests' tokens in local storage); a
signed-in account's seats come from the store as well, so every device of the account counts
them. A seat that is an account's counts only for that account's session: a token copied out
of a shared browser tells nothing of it.

It costs a read, and a read more for each unfinished game it looks at (a finished one is
dropped by one query first): the same as the view of each game that *My games* would ask for.
"""

from __future__ import annotations

import secrets

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import GuardedRouter, Spend
from boneyard.web.guard.signin import account_store, signed_in
from boneyard.web.guard.turns import ReadPayer
from boneyard.web.play.live import LiveGame
from boneyard.web.play.manager import GameManager
from boneyard.web.store.accounts import Account

MOST_SEATS = 100
"""The most seats one request may ask about (what *My games* keeps is 200 games, the newest
first: a browser sends its newest)."""

router = GuardedRouter(prefix="/api")


class KeptSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game_id: StrictStr = Field(min_length=1, max_length=64, description="The game's id.")
    token: StrictStr = Field(min_length=1, max_length=200, description="The seat's secret token.")


class TurnsAsked(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: list[KeptSeat] = Field(
        default_factory=list,
        max_length=MOST_SEATS,
        description=f"The seats this browser keeps, at most {MOST_SEATS}.",
    )


class WaitingGame(BaseModel):
    game_id: str
    game: str = Field(description="The game's name, e.g. 'obonto'.")
    title: str = Field(description="The game's title, for people.")
    url: str = Field(description="The page of the game that opens the seat.")


class Turns(BaseModel):
    waiting: int = Field(description="How many games wait for this browser's move.")
    games: list[WaitingGame]


async def _seats_asked(
    request: Request, body: TurnsAsked, account: Account | None
) -> dict[str, list[str]]:
    """The tokens of each game: those the browser keeps, and the account's unfinished seats."""
    asked: dict[str, list[str]] = {}
    for kept in body.seats:
        asked.setdefault(kept.game_id, []).append(kept.token)
    if account is not None:
        manager: GameManager = request.app.state.manager
        owned = await manager.read_store(account_store(request).owned_seats, account.id)
        for seat in owned:
            if not seat.finished:
                asked.setdefault(seat.game_id, []).append(seat.token)
    return asked


def _waiting_for(live: LiveGame, tokens: list[str]) -> WaitingGame | None:
    """``live`` if its next move is a person's whose token is one of ``tokens``."""
    seat = live.running_seat()
    if seat is None:
        return None
    token = str(live.stored.seats[seat]["token"])
    if not any(secrets.compare_digest(token.encode(), given.encode()) for given in tokens):
        return None
    return WaitingGame(
        game_id=live.id,
        game=live.stored.name,
        title=str(live.game.title),
        url=f"/game/{live.id}?t={token}",
    )


@router.post("/turns", summary="The games that wait for your move")
async def my_turns(body: TurnsAsked, request: Request, payer: ReadPayer) -> Turns:
    """The games among the seats given (and the signed-in account's) whose next move is one
    of those seats', a person's move in a game that is on (not over, not waiting for a seat to
    be taken). A token that opens no seat is left out, not refused: a browser may keep a game
    the server has forgotten. A seat that is an account's counts only for its account."""
    manager: GameManager = request.app.state.manager
    account = await signed_in(request)
    asked = await _seats_asked(request, body, account)
    playing = sorted(await manager.read_store(manager.store.unfinished, list(asked)))
    if playing:
        payer.charge(Spend.READ, len(playing))
    owners = await manager.read_store(account_store(request).owners_of, playing)
    waiting: list[WaitingGame] = []
    for game_id in playing:
        try:
            live = await manager.get(game_id, payer=payer)
        except WebError as error:
            if error.status == 429:
                raise
            continue  # gone since the query: it waits for nobody
        seat = live.running_seat()
        owner = None if seat is None else owners.get((game_id, seat))
        if owner is not None and (account is None or owner != account.id):
            continue
        found = _waiting_for(live, asked[game_id])
        if found is not None:
            waiting.append(found)
    return Turns(waiting=len(waiting), games=waiting)
