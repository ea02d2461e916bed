"""A seat's own view of its game is interactive work: the read a player's page makes after every
move (a game's view, its log, its page, by the seat's token) is served in the moves' class of
request turns (``web/guard/turns.py``), never behind a crowd's costly reads, while the same read
without a token (a spectator's) waits its client's turn with the other costly ones.

Which class a read is in depends on the game: whether its token names a seat of a game in
memory. The live games are this room's, so the charge that decides is here, above the guard,
and the guard's turns never call up to ask."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import Charge, Payer, Spend
from boneyard.web.guard.turns import TurnCharge, Work, turn
from boneyard.web.play.manager import GameManager

TOKENS_LOOKED_AT = 8
"""A page's ``t`` lists the tokens of the seats one screen holds; more than a table seats are
not looked at (each is a constant-time comparison with every seat's token)."""


def names_a_seat(manager: GameManager, connection: HTTPConnection) -> bool:
    """Whether the read names a seat of a game in memory by its token (a view's ``token``, a
    page's comma-separated ``t``). A game not in memory is read as a spectator's would be:
    finding out would cost the store read the turn is there to share."""
    live = manager.games.get(connection.path_params.get("game_id", ""))
    if live is None:
        return False
    query = connection.query_params
    tokens = [query.get("token", ""), *query.get("t", "").split(",")]
    for token in tokens[:TOKENS_LOOKED_AT]:
        if token:
            with contextlib.suppress(WebError):  # a wrong token: the route refuses it
                if live.seat_of(token) is not None:
                    return True
    return False


class OwnViewCharge(TurnCharge):
    """A read's charge whose turn is interactive when it is a seat's own view (``names_a_seat``),
    costly otherwise."""

    def __init__(self) -> None:
        super().__init__(Spend.READ)

    async def __call__(self, request: Request) -> AsyncIterator[Payer]:  # type: ignore[override]
        payer = await Charge.__call__(self, request)
        manager: GameManager = request.app.state.manager
        work = Work.INTERACTIVE if names_a_seat(manager, request) else self.work
        async with turn(request, work):
            yield payer


OwnViewPayer = Annotated[Payer, Depends(OwnViewCharge(), scope="function")]
"""A read of one game that a seat makes with its token (its view, its log, its page): a read's
budget, and an interactive turn where the token is a seat's."""
