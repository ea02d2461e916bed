"""The web app: ``create_app(db_url)`` builds the FastAPI app that ``boneyard serve`` runs."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import math
import multiprocessing
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from boneyard.core.rules_pages import rules_folder
from boneyard.core.version import __version__
from boneyard.web import ops
from boneyard.web.errors import WebError
from boneyard.web.guard import connections
from boneyard.web.guard.budgets import Budgets, unguarded_routes
from boneyard.web.guard.middleware import DOCS_STATIC, Guard
from boneyard.web.guard.passwords import PasswordPool
from boneyard.web.guard.signin import remember_account
from boneyard.web.guard.turns import RequestTurns
from boneyard.web.pages import api_docs
from boneyard.web.pages import routes as pages
from boneyard.web.people import (
    account_pages,
    accounts,
    challenges,
    ladder,
    lobby,
    mine,
    pairing,
    passkeys,
    ratings,
    tournaments,
)
from boneyard.web.people.settling import SettleSweep
from boneyard.web.people.standings import StandingsFeeds
from boneyard.web.people.tournament_director import Director
from boneyard.web.play import routes, sockets, turns
from boneyard.web.play.catalog import Catalog
from boneyard.web.play.events import GameChanged, GameEnded, GameLoaded, SeatOpened
from boneyard.web.play.manager import GameManager
from boneyard.web.schemas import validation_words
from boneyard.web.settings import Settings
from boneyard.web.store.accounts import AccountStore
from boneyard.web.store.admin import NOTICE_SECONDS, AdminStore
from boneyard.web.store.buckets import SharedBuckets
from boneyard.web.store.challenges import ChallengeStore
from boneyard.web.store.clocks import ClockStore
from boneyard.web.store.games import Store
from boneyard.web.store.pairing import PairingStore
from boneyard.web.store.passkeys import PasskeyStore
from boneyard.web.store.ratings import RatingStore
from boneyard.web.store.sessions import SessionStore
from boneyard.web.store.tournaments import TournamentStore
from boneyard.web.table import routes as session_routes
from boneyard.web.table.clocks import ClockKeeper
from boneyard.web.table.session import SessionSettings
from boneyard.web.table.sessions import SessionManager

HERE = Path(__file__).resolve().parent
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
"""The error codes of the answers Starlette gives before a route runs."""
DEFAULT_DB = "sqlite:///boneyard.db"
log = logging.getLogger("boneyard.web")


async def read_notice(app: FastAPI) -> None:
    """The maintenance notice every page shows (``boneyard admin notice``), read off the loop."""
    manager: GameManager = app.state.manager
    try:
        app.state.notice = await asyncio.get_running_loop().run_in_executor(
            manager.reader, app.state.admin.notice
        )
    except Exception:  # the database is away: the notice stays as it was
        log.warning("reading the maintenance notice failed", exc_info=True)


async def keep_notice(app: FastAPI) -> None:
    """Read the notice again every ``NOTICE_SECONDS`` (posted from any process, or the shell)."""
    while True:
        await asyncio.sleep(NOTICE_SECONDS)
        await read_notice(app)


def create_app(
    db_url: str = DEFAULT_DB,
    *,
    catalog: Catalog | None = None,
    settings: Settings | None = None,
    manager: GameManager | None = None,
    session_settings: SessionSettings | None = None,
    upgrade: bool = True,
) -> FastAPI:
    """A new app on the database at ``db_url`` (created if missing; its schema upgraded if
    older, unless ``upgrade`` is False: then refused, ``store/schema.py``)."""
    store = Store(db_url, upgrade=upgrade)
    game_manager = manager or GameManager(store, catalog=catalog, settings=settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        game_manager.warm_up()
        await app.state.clocks.start()
        app.state.director.start()
        app.state.settle_sweep.start()
        await read_notice(app)
        keeping_notice = asyncio.create_task(keep_notice(app))
        yield
        keeping_notice.cancel()
        await app.state.settle_sweep.stop()
        await app.state.director.stop()
        app.state.clocks.stop()
        game_manager.shutdown()
        store.close()

    # FastAPI with its API pages' scripts served from the package, so /docs works offline
    app = FastAPIOffline(
        static_url=DOCS_STATIC,
        redoc_url=None,  # served by pages/api_docs.py: its script's logo kept under the policy
        title="boneyard",
        summary="Play Obonto, OYNO, Bones, Bond O Cones and Bon-Bon in the browser.",
        description=(
            "Create a game (`POST /api/games`), then act for a seat with its secret token, by "
            "HTTP (`POST /api/games/{id}/actions`) or over the seat's WebSocket "
            "(`/ws/games/{id}?token=...`, messages described in `boneyard.web.play.sockets`). "
            "Every action names the move number (`seq`) it is played on; a stale one is refused "
            "with 409. A seat only ever receives its own observation."
        ),
        version=__version__,
        lifespan=lifespan,
        # who is signed in (a request with the session cookie): pages show it in their header
        dependencies=[Depends(remember_account)],
    )
    app.state.manager = game_manager
    # The one guard every route passes: each route's Charge is taken from these (budgets.py).
    # On PostgreSQL the budgets of costly work are shared by every process (store/buckets.py).
    shared = None if game_manager.store.is_sqlite else SharedBuckets(game_manager.store)
    app.state.budgets = Budgets(game_manager.settings, shared)
    # Password hashing: a few slots, a short queue served in turn by client (passwords.py).
    policy = game_manager.settings
    app.state.passwords = PasswordPool(
        policy.password_slots,
        policy.password_queue,
        policy.password_wait_seconds,
        policy.password_nice,
    )
    game_manager.metrics.count_refusals(
        lambda: {f"password_{why}": n for why, n in app.state.passwords.refused.items()}
    )
    # Costly and interactive requests: a few at once, in turns by client, moves first (turns.py).
    app.state.turns = RequestTurns(
        policy.request_slots, policy.request_queue, policy.request_wait_seconds
    )
    game_manager.metrics.count_refusals(
        lambda: {f"request_{why}": n for why, n in app.state.turns.refused.items()}
    )
    # Refusals are counted in /metrics, not logged one by one: the budgets' and this process's
    # connections' (the manager counts its sockets' own).
    game_manager.metrics.count_refusals(lambda: app.state.budgets.refused)
    game_manager.metrics.count_refusals(lambda: connections.REFUSED)
    # The services around the games' owner: each is given what it calls (downwards), and hears
    # the games' news from the owner's events (play/events.py), subscribed here, in this order.
    events = game_manager.events
    # The session of play (resign, draws, takeback, rematch, ...): web/table/sessions.py.
    sessions = SessionManager(game_manager, SessionStore(game_manager.store), session_settings)
    events.subscribe(GameLoaded, sessions.attach)
    # Clocks kept from the store's times, ended once across processes: web/table/clocks.py.
    clocks = ClockKeeper(game_manager, sessions, ClockStore(game_manager.store))
    events.subscribe(GameLoaded, clocks.attach)
    events.subscribe(GameChanged, clocks.changed)
    events.subscribe(SeatOpened, clocks.arrived)
    app.state.sessions, app.state.clocks = sessions, clocks
    app.state.rules_dir = rules_folder()
    # Accounts and their ratings (web/people/accounts.py, ratings.py): tables of the same store.
    app.state.accounts = AccountStore(game_manager.store)
    app.state.ratings = RatingStore(game_manager.store, ratings.rate)
    sessions.ratings = app.state.ratings
    app.state.pairing = PairingStore(game_manager.store)
    app.state.challenges = ChallengeStore(game_manager.store)
    app.state.passkeys = PasskeyStore(game_manager.store)
    # Arena tournaments (web/people/tournaments.py): paired and ended by this process's director.
    app.state.tournaments = TournamentStore(game_manager.store)
    app.state.admin = AdminStore(game_manager.store)
    app.state.notice = None
    app.state.director = Director(
        game_manager, app.state.tournaments, app.state.accounts, app.state.ratings, clocks
    )
    events.subscribe(GameEnded, app.state.director.game_ended)
    app.state.standings = StandingsFeeds(
        app.state.director.watch,
        app.state.director.unwatch,
        game_manager.settings.standings_send_seconds,
    )
    # Results stored without their settling (an older process, one killed): caught up here.
    app.state.settle_sweep = SettleSweep(game_manager)

    _answer_errors(app)
    app.add_middleware(
        Guard,
        max_body_bytes=game_manager.settings.max_body_bytes,
        allowed_origins=game_manager.settings.allowed_origins,
        allowed_hosts=game_manager.settings.allowed_hosts,
    )
    app.add_middleware(ops.AccessLog)  # outermost: it sees the guard's refusals too
    app.include_router(routes.router)
    app.include_router(session_routes.router)
    app.include_router(ladder.router)
    app.include_router(lobby.router)
    app.include_router(ops.router)
    app.include_router(sockets.router)
    app.include_router(turns.router)
    app.include_router(pages.router)
    app.include_router(api_docs.router)
    app.include_router(mine.router)
    app.include_router(ladder.pages)
    app.include_router(lobby.pages)
    app.include_router(accounts.router)
    app.include_router(ratings.router)
    app.include_router(pairing.router)
    app.include_router(challenges.router)
    app.include_router(passkeys.router)
    app.include_router(ratings.pages)
    app.include_router(account_pages.pages)
    app.include_router(tournaments.router)
    app.include_router(tournaments.sockets)
    app.include_router(tournaments.pages)
    app.mount("/static", StaticFiles(directory=HERE / "pages" / "static"), name="static")
    unguarded = unguarded_routes(list(app.routes))
    if unguarded:
        raise TypeError(f"routes that change something must declare a Charge: {unguarded}")
    return app


def _answer_errors(app: FastAPI) -> None:
    """Every refusal in the API's words: ``{"error": code, "detail": words}`` (pages: a page)."""

    @app.exception_handler(WebError)
    async def web_error(request: Request, error: WebError) -> Response:
        return _refusal(request, error)

    @app.exception_handler(DBAPIError)
    @app.exception_handler(PoolTimeout)
    async def database_error(request: Request, error: Exception) -> Response:
        # A database that went away (an outage, a restart, a full pool) is a 503 the client
        # may retry, in the API's words: one log line (limited, ``ops.py``), no traceback per
        # request. Any other database error is a bug: a 500, still JSON, with its traceback.
        if isinstance(error, (OperationalError, InterfaceError, PoolTimeout)) or getattr(
            error, "connection_invalidated", False
        ):
            log.warning("the database does not answer: %s", type(error).__name__)
            return _refusal(
                request, WebError(503, "database_unavailable", DATABASE_WORDS, retry_after=5)
            )
        log.error("a database error on %s", request.url.path, exc_info=error)
        return _refusal(request, WebError(500, "internal_error", INTERNAL_WORDS))

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> Response:
        # Starlette logs the traceback itself (once: the log's repeat limit, ops.py) after
        # this answer; the client gets the API's words, never a text/plain "Internal Server Error".
        return _refusal(request, WebError(500, "internal_error", INTERNAL_WORDS))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        if any(item.get("type") == "json_invalid" for item in error.errors()):
            return JSONResponse(
                {"error": "bad_json", "detail": "the body is not valid JSON"}, status_code=400
            )
        detail = "bad request: " + validation_words(error.errors())
        return JSONResponse({"error": "bad_request", "detail": detail}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        if pages.wants_html(request):
            return pages.error_page(request, error.status_code, str(error.detail))
        code = HTTP_CODES.get(error.status_code, "http")
        return JSONResponse(
            {"error": code, "detail": str(error.detail)},
            status_code=error.status_code,
            headers=error.headers,  # a 405's Allow
        )


DATABASE_WORDS = "the database does not answer this server now; try again in a moment"
INTERNAL_WORDS = "the server failed on this request (it is logged); try again later"


def _refusal(request: Request, error: WebError) -> Response:
    """``error`` as a page (pages) or ``{"error": code, "detail": words}`` (the API)."""
    response: Response
    if pages.wants_html(request):
        response = pages.error_page(request, error.status, error.detail)
    else:
        body = {"error": error.code, "detail": error.detail}
        response = JSONResponse(body, status_code=error.status)
    if error.retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(error.retry_after)))
    return response


def settings_to_environment(settings: Settings) -> str:
    """``settings`` as the BONEYARD_SETTINGS value ``app_from_environment`` reads."""
    return json.dumps(dataclasses.asdict(settings))


def several_processes_warning(db_url: str, workers: int) -> str | None:
    """The warning for several processes on one SQLite file (None when there is nothing to say)."""
    if workers <= 1 or not db_url.startswith("sqlite"):
        return None
    return (
        f"several server processes share the SQLite database {db_url}: SQLite is meant for "
        "one process. Every move is still stored once, but a move made through one process "
        "reaches the others' players only on their next request, and writers wait for each "
        "other. For several processes use PostgreSQL: --db postgresql+psycopg://USER@HOST/DB."
    )


def configure_connections(settings: Settings) -> int:
    """This process's connection limits (``connections.py``); answers the cap that fits."""
    return connections.configure(
        settings.max_connections,
        settings.header_seconds,
        settings.body_seconds,
        settings.connection_share,
        settings.trusted_proxies,
        settings.connection_reserve,
    )


def app_from_environment() -> FastAPI:
    """For ``uvicorn --factory boneyard.web.app:app_from_environment [--workers N]``: the
    database from BONEYARD_DB, the settings from BONEYARD_SETTINGS (JSON, optional), JSON-line
    logs when BONEYARD_LOG_FORMAT=json, an access log when BONEYARD_ACCESS_LOG=1. Warns when
    it runs as one of several worker processes on SQLite."""
    db_url = os.environ.get("BONEYARD_DB", DEFAULT_DB)
    style = os.environ.get("BONEYARD_LOG_FORMAT")
    if style:
        ops.setup_logging(style)
    ops.hide_secrets_in_uvicorn_lines()  # uvicorn's own lines, however it was started
    ops.keep_access_log(os.environ.get("BONEYARD_ACCESS_LOG", "") not in ("", "0"))
    given = json.loads(os.environ.get("BONEYARD_SETTINGS") or "{}")
    for name in ("allowed_origins", "allowed_hosts", "trusted_proxies"):  # JSON lists: tuples
        if name in given:
            given[name] = tuple(given[name])
    settings = Settings(**given)
    # uvicorn starts its workers with multiprocessing; WEB_CONCURRENCY is its --workers default.
    workers = int(os.environ.get("WEB_CONCURRENCY") or "1")
    if multiprocessing.parent_process() is not None:
        workers = max(workers, 2)
    warning = several_processes_warning(db_url, workers)
    if warning and not os.environ.get("BONEYARD_WARNED"):
        log.warning("%s", warning)
    configure_connections(settings)
    upgrade = os.environ.get("BONEYARD_MIGRATE", "auto") != "manual"
    return create_app(db_url, settings=settings, upgrade=upgrade)
