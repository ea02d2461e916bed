"""Arena tournaments: the API, the socket of live standings, and the pages.

A signed-in account makes an arena (a two-player game, a clock, a start and a length in
minutes); accounts join it (and may withdraw) until its time is up; the server pairs and
scores (``tournament_director.py``, ``web/store/arena.py``, ``web/store/tournaments.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from typing import Any, Literal

from fastapi import Request, WebSocket
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.requests import HTTPConnection

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import GamePayer, GuardedRouter, SessionPayer, SocketPayer
from boneyard.web.guard.signin import in_store, signed_in
from boneyard.web.guard.turns import ReadPayer
from boneyard.web.pages.routes import templates
from boneyard.web.people.accounts import require_account
from boneyard.web.people.ratings import played_iso
from boneyard.web.people.standings import Reading, StandingsFeeds, StandingsSocket, Table
from boneyard.web.people.tournament_director import Director
from boneyard.web.play.manager import GameManager
from boneyard.web.play.routes import ERRORS
from boneyard.web.play.sockets import CLOSED
from boneyard.web.store.accounts import Account
from boneyard.web.store.tournaments import Tournament, TournamentStore

router = GuardedRouter(prefix="/api", responses=ERRORS)
pages = GuardedRouter(include_in_schema=False)
sockets = GuardedRouter()

PODIUM = 3


class ArenaClock(BaseModel):
    """An arena's clock: real time only, as a game's ``ClockSpec`` without correspondence (an
    arena is played in one sitting), at least 15 seconds a side."""

    model_config = ConfigDict(extra="forbid")

    initial: StrictInt = Field(ge=15, le=3 * 3600, description="Seconds each side starts with.")
    increment: StrictInt = Field(ge=0, le=180, description="Seconds added after each move.")


class TournamentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: StrictStr = Field(max_length=64, description="A two-player game's name.")
    kind: Literal["arena"] = Field(description="The kind of tournament: arena.")
    minutes: float = Field(ge=0.5, le=24 * 60, description="How long it runs, in minutes.")
    clock: ArenaClock = Field(
        default_factory=lambda: ArenaClock(initial=180, increment=2),
        description="Each game's clock (lichess's 3+2 unless given).",
    )
    starts_in: StrictInt = Field(
        default=60, ge=0, le=7 * 24 * 3600, description="Seconds from now to its start."
    )


def _store(connection: HTTPConnection) -> TournamentStore:
    store: TournamentStore = connection.app.state.tournaments
    return store


def _director(connection: HTTPConnection) -> Director:
    director: Director = connection.app.state.director
    return director


async def _tournament(connection: HTTPConnection, tournament_id: str) -> Tournament:
    manager: GameManager = connection.app.state.manager
    found = await manager.read_store(_store(connection).get, tournament_id[:64])
    if found is None:
        raise WebError(404, "no_tournament", "there is no tournament with that id")
    return found


@router.post("/tournaments", status_code=201, summary="Make an arena tournament")
async def create(body: TournamentRequest, request: Request, _payer: GamePayer) -> dict[str, Any]:
    """``{"id"}``; 401 unless signed in; 400 ``bad_game`` for a game that is not for two; 409
    ``too_many_tournaments`` past ``tournaments_per_account`` unfinished ones."""
    account = await require_account(request)
    manager: GameManager = request.app.state.manager
    game_class = manager.catalog.game_class(body.game)  # an unknown game: 404
    if game_class().info.num_players != 2:
        raise WebError(
            400,
            "bad_game",
            f"arena tournaments are for games of two: {game_class.title} is not one",
        )
    starts = time.time() + body.starts_in
    tournament = Tournament(
        secrets.token_urlsafe(9), body.game, body.kind, body.minutes, body.clock.model_dump(),
        account.name, starts, starts + body.minutes * 60, False, 0,
    )  # fmt: skip
    most = manager.settings.tournaments_per_account
    if not await in_store(request, _store(request).create, tournament, most):
        raise WebError(
            409,
            "too_many_tournaments",
            f"you have {most} tournaments not yet finished, the most one account may have: "
            "make another once one has ended",
        )
    _director(request).wake()
    return {"id": tournament.id, "url": f"/tournaments/{tournament.id}"}


@router.post("/tournaments/{tournament_id}/join", summary="Enter a tournament")
async def join(tournament_id: str, request: Request, _payer: SessionPayer) -> dict[str, Any]:
    """401 unless signed in; 409 ``tournament_over`` once its time is up."""
    account = await require_account(request)
    tournament = await _tournament(request, tournament_id)
    why = await in_store(request, _store(request).join, tournament.id, account.id, account.name)
    if why == "over":
        raise WebError(409, "tournament_over", "this tournament is over: join another")
    _director(request).wake()
    return {"joined": True}


@router.post("/tournaments/{tournament_id}/withdraw", summary="Leave a tournament")
async def withdraw(tournament_id: str, request: Request, _payer: SessionPayer) -> dict[str, Any]:
    """Paired no more (a game being played is played out; the points stay); 409 ``not_joined``."""
    account = await require_account(request)
    tournament = await _tournament(request, tournament_id)
    if not await in_store(request, _store(request).withdraw, tournament.id, account.id):
        raise WebError(409, "not_joined", "you are not in this tournament")
    return {"joined": False}


@router.get("/tournaments", summary="The tournaments: upcoming, running, finished")
async def listed(request: Request, _payer: ReadPayer) -> list[dict[str, Any]]:
    return [_summary(request, t, time.time()) for t in await _listed(request)]


@router.get("/tournaments/{tournament_id}", summary="A tournament and its standings")
async def view(tournament_id: str, request: Request, _payer: ReadPayer) -> dict[str, Any]:
    """``{"standings": [{"name", "score", ...}], "status", "podium", "me", ...}``; the same
    is pushed over ``/ws/tournaments/{id}`` whenever it changes."""
    return await _view(request, await _tournament(request, tournament_id))


async def _listed(connection: HTTPConnection) -> list[Tournament]:
    manager: GameManager = connection.app.state.manager
    found: list[Tournament] = await manager.read_store(_store(connection).listed)
    return found


def _summary(connection: HTTPConnection, tournament: Tournament, now: float) -> dict[str, Any]:
    return _summary_of(connection.app.state.manager, tournament, now)


def _summary_of(manager: GameManager, tournament: Tournament, now: float) -> dict[str, Any]:
    title = manager.catalog.game_class(tournament.game).title
    return {
        "id": tournament.id,
        "game": tournament.game,
        "title": title,
        "name": f"{title} arena by {tournament.creator}",
        "kind": tournament.kind,
        "minutes": tournament.minutes,
        "clock": tournament.clock,
        "creator": tournament.creator,
        "starts": tournament.starts,
        "ends": tournament.ends,
        "status": tournament.status(now),
        "url": f"/tournaments/{tournament.id}",
    }


async def _view(connection: HTTPConnection, tournament: Tournament) -> dict[str, Any]:
    manager: GameManager = connection.app.state.manager
    account = await signed_in(connection)
    table = await manager.read_store(_store(connection).standings, tournament.id)
    shared = _shared_view(manager, tournament, table)
    return {**shared, "me": _me(account, shared, table)}


def _shared_view(manager: GameManager, tournament: Tournament, table: Table) -> dict[str, Any]:
    """A tournament's view but for the reader's own place (``me``): the same for everyone."""
    now = time.time()
    status = tournament.status(now)
    over = status == "finished"  # nobody is paused in an arena that has ended
    standings = [
        {
            "rank": rank,
            "name": p["name"],
            "score": p["score"],
            "sheet": p["sheet"],
            "on_streak": p["streak"] >= 2,
            "playing": p["game"] is not None,
            "withdrawn": p["withdrawn"],
            "paused": p["withdrawn"] and not over,
        }
        for rank, p in enumerate(table, start=1)
    ]
    return {
        **_summary_of(manager, tournament, now),
        "now": now,
        "version": tournament.version,
        "standings": standings,
        "games": _being_played(table),
        "podium": [p["name"] for p in standings[:PODIUM]] if status == "finished" else [],
    }


def _me(account: Account | None, shared: dict[str, Any], table: Table) -> dict[str, Any] | None:
    """The reader's own place in a tournament (None: nobody signed in)."""
    if account is None:
        return None
    over = shared["status"] == "finished"
    mine = next((p for p in table if p["account"] == account.id), None)
    return {
        "name": account.name,
        "joined": mine is not None and not mine["withdrawn"],
        # paused (withdrawn, or a first move let lapse): paired again once they resume
        "paused": mine is not None and mine["withdrawn"] and not over,
        "game_url": (f"/game/{mine['game']}?t={mine['token']}" if mine and mine["token"] else None),
    }


def _being_played(table: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games being played, to watch: ``{"url", "names"}`` each, the best placed first."""
    games: dict[str, list[str]] = {}
    for player in table:
        if player["game"] is not None:
            games.setdefault(player["game"], []).append(player["name"])
    return [{"url": f"/game/{game_id}", "names": names} for game_id, names in games.items()]


@sockets.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(websocket: WebSocket, tournament_id: str, payer: SocketPayer) -> None:
    """Sends the tournament's view (as ``GET /api/tournaments/{id}``) at once, then what
    changed, coalesced (``web/people/standings.py``), until the socket closes."""
    try:
        await websocket.accept()
    except (*CLOSED, OSError):
        return
    manager: GameManager = websocket.app.state.manager
    counts = manager.sockets
    place = object()  # this socket's place in the counts (a share per address, as a game's)
    try:
        if payer.refusal is not None:
            raise payer.refusal
        tournament = await _tournament(websocket, tournament_id)
        counts.count_in(None, place, payer.client)
    except WebError as error:
        with contextlib.suppress(*CLOSED):
            await websocket.send_text(json.dumps({"error": error.code, "detail": error.detail}))
            await websocket.close(code=4000 + error.status)
        return
    account = await signed_in(websocket)
    store = _store(websocket)

    async def read() -> Reading:
        current = await manager.read_store(store.get, tournament.id)
        if current is None:
            raise LookupError(tournament.id)
        table = await manager.read_store(store.standings, tournament.id)
        return _shared_view(manager, current, table), table

    feeds: StandingsFeeds = websocket.app.state.standings
    socket = StandingsSocket(
        websocket, lambda shared, table: _me(account, shared, table), manager.settings.send_queue
    )
    gone = asyncio.ensure_future(websocket.receive())
    behind = asyncio.ensure_future(socket.gone.wait())
    try:
        feeds.join(tournament.id, read, socket)
        await asyncio.wait({gone, behind}, return_when=asyncio.FIRST_COMPLETED)
        if behind.done() and not gone.done():
            await socket.close_behind()
    except CLOSED:
        pass
    finally:
        gone.cancel()
        behind.cancel()
        feeds.leave(tournament.id, socket)
        counts.count_out(place)


@pages.get("/tournaments", response_class=HTMLResponse)
async def list_page(request: Request, _payer: ReadPayer) -> Any:
    manager: GameManager = request.app.state.manager
    now = time.time()
    found = [_summary(request, t, now) for t in await _listed(request)]
    for summary in found:  # when it starts or started, said in words by the reader's browser
        summary["starts_iso"] = played_iso(summary["starts"])
    games = []
    for name in manager.catalog.names():
        game_class = manager.catalog.game_class(name)
        if game_class().info.num_players == 2:
            games.append({"name": name, "title": game_class.title})
    groups = {
        status: [t for t in found if t["status"] in statuses]
        for status, statuses in (
            ("upcoming", {"upcoming"}),
            ("running", {"running", "ending"}),
            ("finished", {"finished"}),
        )
    }
    return templates.TemplateResponse(
        request, "tournaments.html", {"groups": groups, "games": games, "now": now}
    )


@pages.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(tournament_id: str, request: Request, _payer: ReadPayer) -> Any:
    tournament = await _tournament(request, tournament_id)
    shown = await _view(request, tournament)
    return templates.TemplateResponse(request, "tournament.html", {"t": shown})
