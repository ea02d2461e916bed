"""The API of the session of play: resign, draws, abort, takeback, rematch, stand-in, names."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from boneyard.web.guard.budgets import GuardedRouter, SessionPayer, Spend
from boneyard.web.guard.signin import (
    refuse_account_names,
    refuse_renaming_an_account,
    require_seat_holder,
)
from boneyard.web.play.manager import GameManager
from boneyard.web.play.own_views import OwnViewPayer
from boneyard.web.play.replays import walk_cost
from boneyard.web.play.routes import ERRORS
from boneyard.web.play.views import seat_view
from boneyard.web.table.session import session_of
from boneyard.web.table.sessions import SessionManager

router = GuardedRouter(prefix="/api", responses=ERRORS)

Request_ = Literal[
    "resign",
    "offer_draw",
    "accept_draw",
    "decline_draw",
    "abort",
    "takeback",
    "accept_takeback",
    "decline_takeback",
    "rematch",
    "stand_in",
    "claim_victory",
    "call_off",
    "name",
]


class SessionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: StrictStr = Field(description="The asking seat's secret token.")
    do: Request_ = Field(description="What the seat asks for.")
    seat: StrictInt | None = Field(
        default=None, description="For stand_in: the absent seat (default: the seat to move)."
    )
    name: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="For name: the asking seat's display name: one line of visible text, "
        "trimmed to 30 characters (a seat renames itself at most once in the server's "
        "rename_seconds).",
    )


def sessions_of(request: Request) -> SessionManager:
    sessions: SessionManager = request.app.state.sessions
    return sessions


def _manager(request: Request) -> GameManager:
    manager: GameManager = request.app.state.manager
    return manager


TAKEBACKS = frozenset({"takeback", "accept_takeback"})
"""The requests that may take moves back: the game's log is replayed (in the work pool)."""


@router.post("/games/{game_id}/session", summary="Resign, offer a draw, take back, rematch, ...")
async def session_request(
    game_id: str, body: SessionRequest, request: Request, payer: SessionPayer
) -> dict[str, Any]:
    """Web-layer actions, stored with the game: ``resign``; ``offer_draw`` (between people, in
    games that can be drawn) and ``accept_draw`` / ``decline_draw``; ``abort`` before the first
    move; ``takeback`` of one's last move (against the computer at once, refused after a chance
    event or a reveal; against a person a request to ``accept_takeback`` /
    ``decline_takeback``); ``rematch`` once the game is over; ``stand_in``: the computer takes
    over the seat to move once it has been silent for the set time (not in a rated game: there
    ``claim_victory`` wins a game of two and ``call_off`` ends it for nobody, after the same
    silence, in a game without a clock); ``name``: the seat's display
    name (a friend opening an invite link names their own seat). Answers the seat's view."""
    if body.do == "rematch":
        payer.charge(Spend.GAME)  # the next game is made by this request
    live = await _manager(request).get(game_id, payer=payer)
    if body.do in TAKEBACKS and walk_cost(live.seq):
        payer.charge(Spend.READ, walk_cost(live.seq))  # the game is walked again to take back
    seat = live.seat_of(body.token)
    await require_seat_holder(request, live.id, seat)
    if body.do == "name":
        await refuse_renaming_an_account(request, live.id, seat)
        await refuse_account_names(request, body.name)
    await sessions_of(request).request(live, seat, body.do, body.seat, body.name, payer.client)
    return seat_view(live, seat, draw=False)


@router.get("/games/{game_id}/session", summary="The session of play, as one seat sees it")
async def session_view(
    game_id: str, request: Request, payer: OwnViewPayer, token: str | None = None
) -> dict[str, Any]:
    """How the game ended, offers waiting, web-layer actions in words (all of them: a view
    carries the latest few), the series score and (for a seat) its link into the next game."""
    live = await _manager(request).get(game_id, payer=payer)
    seat = live.seat_of(token)
    await require_seat_holder(request, live.id, seat)
    return session_of(live).view(live, seat, every_event=True)
