"""The one guard every route passes: each request is charged to its client before it runs.

Every way in names what it spends: a ``Charge`` dependency on its route. Whatever creates or
changes something (a game, an open game, a ladder or daily puzzle, a rematch, a person, a
session event, a move, a socket) spends its own kind; a read of a game or of the store (a view,
a replay frame, the lobby, a session's view, a game's page) spends a ``READ``, and a replay
frame that has to walk a long game first spends more (its cost, ``Payer.charge``); a page or
document that costs the same whatever the games spends a ``PAGE``. The charge is taken from the
client's budget of that kind (a token bucket per address, ``Settings``' ``*_per_minute``) before
the route runs, and a client past its budget is refused with 429 and ``Retry-After``, with
nothing done.

A route cannot forget it: ``GuardedRouter`` refuses, when the app is built, any route (GET
included, and any WebSocket) that declares no ``Charge``; every router of the app is one.
(``tests/web/test_guard.py`` and ``tests/web/test_reads.py`` walk the app's routes as well.)

The client is the connection's address. Behind a reverse proxy the address the proxy names
(``X-Forwarded-For``) is taken only from the proxies ``boneyard serve --trusted-proxy`` names
(uvicorn's proxy headers); by default no proxy is trusted, so a header cannot rotate a budget.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import HTTPConnection

from boneyard.web.errors import WebError
from boneyard.web.guard.limits import RateLimit
from boneyard.web.settings import Settings
from boneyard.web.store.buckets import SharedBuckets

log = logging.getLogger("boneyard.web")


class Spend(StrEnum):
    """What a request spends: each kind has its own budget per client."""

    GAME = "game"
    """A new game: created, opened, joined, dealt from the ladder, a rematch."""
    PERSON = "person"
    """A light identity made or renamed (stored rows)."""
    SESSION = "session"
    """A web-layer request on a game: resign, offers, takeback, names, ... (stored events)."""
    MOVE = "move"
    """An action or a hint, asked over HTTP or a socket: one budget whatever the way in (a
    socket's own message rate comes on top)."""
    SOCKET = "socket"
    """A WebSocket opened."""
    LOOKUP = "lookup"
    """A request that reads little but computes (the daily puzzle's shortest solution) or
    looks a player up (ratings)."""
    READ = "read"
    """A read of a game or of the store: a view, a replay frame, the lobby, a game's page."""
    PAGE = "page"
    """A page or document that costs the same whatever the games (the home page, rules)."""
    SIGNUP = "signup"
    """An account made (a password hashed, rows stored)."""
    LOGIN = "login"
    """A log-in or recovery tried (a password hash checked); the name tried is charged as
    well (``Budgets.charge_name``). Log-ins are counted by ``client_key`` (an account, else a
    network), sign-ups by network (``clients.py``), not by the bare address."""


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_WORDS = {
    Spend.GAME: "new games",
    Spend.PERSON: "new or renamed people",
    Spend.SESSION: "requests on games (offers, names, takebacks)",
    Spend.MOVE: "moves and hints",
    Spend.SOCKET: "new sockets",
    Spend.LOOKUP: "look-ups",
    Spend.READ: "reads of games (views, replays, the lobby)",
    Spend.PAGE: "pages",
    Spend.SIGNUP: "new accounts",
    Spend.LOGIN: "log-in tries",
}


def per_minute(settings: Settings, spend: Spend) -> int:
    """How many ``spend`` requests one client may make a minute (bursts of as many)."""
    return {
        Spend.GAME: settings.games_per_minute,
        Spend.PERSON: settings.people_per_minute,
        Spend.SESSION: settings.session_requests_per_minute,
        Spend.MOVE: settings.moves_per_minute,
        Spend.SOCKET: settings.sockets_per_minute,
        Spend.LOOKUP: settings.lookups_per_minute,
        Spend.READ: settings.reads_per_minute,
        Spend.PAGE: settings.pages_per_minute,
        Spend.SIGNUP: settings.signups_per_minute,
        Spend.LOGIN: settings.logins_per_minute,
    }[spend]


SHARED = frozenset({Spend.SIGNUP, Spend.LOGIN})
"""The kinds whose budgets every process shares when the store is PostgreSQL (with the names'
budgets of log-in tries): those that guard costly work an attacker would multiply by the
processes (a password hashed). The others (a read, a move: a few milliseconds each, and far
more of them) stay each process's own, so that a request pays no round trip to the database
for its charge: N processes give a reader N budgets of them."""


class Budgets:
    """Every client's budget of every kind, for one app. ``shared``: the buckets every process
    takes from (``store/buckets.py``; PostgreSQL), for the ``SHARED`` kinds and the names."""

    def __init__(self, settings: Settings, shared: SharedBuckets | None = None) -> None:
        self.settings = settings
        self.shared = shared
        self._buckets = {
            spend: RateLimit(
                per_minute(settings, spend) / 60.0, max(1, per_minute(settings, spend))
            )
            for spend in Spend
        }
        self.refused: Counter[str] = Counter()
        """Refusals by kind (``budget_game``, ``budget_move``, ...), for ``/metrics``: a client
        past its budget is counted, not logged."""
        window = settings.login_window_seconds
        self._name_from_network = RateLimit(
            settings.logins_per_name / window, settings.logins_per_name
        )
        self._name_from_device = RateLimit(
            settings.logins_per_name / window, settings.logins_per_name
        )
        self._failures_by_network = RateLimit(
            settings.failed_logins_per_network / window, settings.failed_logins_per_network
        )
        self._name_everywhere = RateLimit(
            settings.logins_per_name_everywhere / window, settings.logins_per_name_everywhere
        )

    def charge_name(
        self, network: str, name: str, *, device: str | None = None, shared: bool = True
    ) -> None:
        """Charge a log-in try on account ``name`` (folded) from ``network`` (``client_key``'s
        network, whoever is signed in), or refuse (429).

        Each network has its own small budget per name, so one network guesses slowly, and its
        failed tries on any name are throttled (``charge_failure``); all the networks together
        share one more per name (``shared``), so many networks together guess slowly too. A
        try from a known ``device`` of the account (``signin.known_device``: a browser that
        logged in to it before) is charged to that device alone: whoever guesses elsewhere,
        from whatever network, the owner's own browser still gets in. ``shared=False`` for a
        try that cannot be guessed (a recovery code) or from an owner's network.
        """
        if device is not None:
            wait = self._take("name_device", self._name_from_device, f"{name}\n{device}")
        else:
            wait = self._failures_by_network.wait(network)
            if wait == 0:
                wait = self._take("name", self._name_from_network, f"{name}\n{network}")
            if wait == 0 and shared:
                wait = self._take("name_everywhere", self._name_everywhere, name)
        if wait > 0:
            self.refused["too_many_logins"] += 1
            raise WebError(
                429,
                "too_many_logins",
                f"too many log-in tries on this name; try again in {max(1, round(wait))} seconds",
                retry_after=wait,
            )

    async def charge_name_off_loop(
        self, network: str, name: str, *, device: str | None = None, shared: bool = True
    ) -> None:
        """``charge_name``, on a thread of its own where the buckets are the database's (a
        PostgreSQL round trip for each bucket it takes from, which on the event loop would
        stall every other request for as long: the rest of the store's calls run in threads
        too); in this process's memory (SQLite) it is a few dictionary look-ups, taken here."""
        if self.shared is None:
            self.charge_name(network, name, device=device, shared=shared)
        else:
            await asyncio.to_thread(
                functools.partial(self.charge_name, network, name, device=device, shared=shared)
            )

    def charge_failure(self, network: str) -> None:
        """A log-in try from ``network`` failed: counted against the network's failed tries
        (``Settings.failed_logins_per_network`` in ``login_window_seconds``)."""
        self._failures_by_network.take(network)

    def charge(self, client: str, spend: Spend, cost: int = 1) -> None:
        """Take ``cost`` ``spend`` from ``client``'s budget (at most a minute's worth), or
        refuse (429) with nothing taken."""
        limit = per_minute(self.settings, spend)
        cost = min(cost, max(1, limit))
        if spend in SHARED:
            wait = self._take(spend.value, self._buckets[spend], client, cost)
        else:
            wait = self._buckets[spend].take(client, cost)
        if wait > 0:
            self.refused[f"budget_{spend.value}"] += 1
            raise WebError(
                429,
                "too_many_requests",
                f"this address made {limit} {_WORDS[spend]} in the last minute, the most this "
                f"server allows; try again in {max(1, round(wait))} seconds",
                retry_after=wait,
            )

    def shares(self, spend: Spend) -> bool:
        """Whether a charge of ``spend`` is a round trip to the shared buckets (then it is
        taken off the event loop: ``Charge``)."""
        return self.shared is not None and spend in SHARED

    def _take(self, kind: str, limit: RateLimit, key: str, cost: float = 1.0) -> float:
        """Take from the shared bucket of ``kind`` and ``key`` where there is one, else from
        this process's own; a database away for a moment: from this process's own."""
        if self.shared is not None:
            try:
                return self.shared.take(f"{kind}\n{key}", limit.rate, limit.burst, cost)
            except SQLAlchemyError:
                self.refused["shared_budget_unreachable"] += 1
                log.warning("the shared budgets cannot be reached; this process counts alone")
        return limit.take(key, cost)


def client_address(connection: HTTPConnection) -> str:
    """The address a request came from (a trusted proxy's word for it, where one is named)."""
    return connection.client.host if connection.client else "unknown"


@dataclass(frozen=True)
class Payer:
    """The client a request is charged to: routes pass it on where work is done for it."""

    client: str
    budgets: Budgets
    refusal: WebError | None = None
    """A socket's refused charge: told to it once accepted (a socket gets no HTTP answer)."""

    def charge(self, spend: Spend, cost: int = 1) -> None:
        """A second charge for one request that also spends ``spend`` (a rematch: a game), or
        ``cost`` of it (a replay that walks a long game)."""
        self.budgets.charge(self.client, spend, cost)


class Charge:
    """A route's charge: ``Depends(Charge(Spend.GAME))`` takes one from the client's budget.
    The costly reads and the interactive requests take a turn besides (``TurnCharge``, in
    ``turns.py``, and the payers there)."""

    takes_turn = False
    """Whether the request then waits its client's turn (``turns.TurnCharge``)."""

    def __init__(self, spend: Spend) -> None:
        self.spend = spend

    async def __call__(self, request: Request) -> Payer:
        # async: FastAPI runs a plain function dependency in a worker thread, a hop per request
        budgets: Budgets = request.app.state.budgets
        if budgets.shares(self.spend):  # a round trip to the database: off the event loop
            return await asyncio.to_thread(_charged, request, self.spend)
        return _charged(request, self.spend)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spend.value})"


class SocketCharge(Charge):
    """The charge of a WebSocket route (FastAPI gives it the socket, not a request). A refusal
    is kept in the ``Payer``: the route tells it on the socket and closes it."""

    async def __call__(self, websocket: WebSocket) -> Payer:  # type: ignore[override]
        try:
            return _charged(websocket, self.spend)
        except WebError as error:
            budgets: Budgets = websocket.app.state.budgets
            return Payer(client_address(websocket), budgets, refusal=error)


def _charged(connection: Request | WebSocket, spend: Spend) -> Payer:
    budgets: Budgets = connection.app.state.budgets
    payer = Payer(client_address(connection), budgets)
    budgets.charge(payer.client, spend)
    return payer


def charges_of(dependencies: list[Any]) -> list[Charge]:
    """The ``Charge`` among a route's dependencies (``Depends`` objects or FastAPI's own)."""
    found = []
    for dependency in dependencies:
        call: Callable[..., Any] | None = getattr(dependency, "dependency", None)
        if call is None:
            call = getattr(dependency, "call", None)
        if isinstance(call, Charge):
            found.append(call)
    return found


class GuardedRouter(APIRouter):
    """An ``APIRouter`` on which every route must say what it spends."""

    def add_api_route(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        methods = {method.upper() for method in kwargs.get("methods") or ["GET"]}
        if not _declares_charge(endpoint, kwargs):
            raise TypeError(
                f"route {sorted(methods)} {path} declares no Charge: add "
                "dependencies=[Depends(Charge(Spend....))] or a Payer parameter (a read: "
                "Spend.READ; a page that costs the same whatever the games: Spend.PAGE)"
            )
        super().add_api_route(path, endpoint, **kwargs)

    def add_api_websocket_route(
        self, path: str, endpoint: Callable[..., Any], name: str | None = None, **kwargs: Any
    ) -> None:
        if not _declares_charge(endpoint, kwargs):
            raise TypeError(f"socket route {path} declares no SocketCharge")
        super().add_api_websocket_route(path, endpoint, name=name, **kwargs)


def _declares_charge(endpoint: Callable[..., Any], kwargs: dict[str, Any]) -> bool:
    """Whether the route charges: in ``dependencies=``, or a parameter's ``Depends`` (as its
    default or in its ``Annotated`` type, e.g. ``payer: GamePayer``)."""
    declared = list(kwargs.get("dependencies") or [])
    for parameter in inspect.signature(endpoint, eval_str=True).parameters.values():
        declared.append(parameter.default)
        declared.extend(getattr(parameter.annotation, "__metadata__", ()))
    return bool(charges_of(declared))


GamePayer = Annotated[Payer, Depends(Charge(Spend.GAME))]
"""A route parameter: the request is charged one game (``payer: GamePayer``)."""
PersonPayer = Annotated[Payer, Depends(Charge(Spend.PERSON))]
SessionPayer = Annotated[Payer, Depends(Charge(Spend.SESSION))]
HintPayer = Annotated[Payer, Depends(Charge(Spend.MOVE))]
"""A hint: a move's budget, but no turn (``turns.py``): it waits for the bot workers in their
own queue, and holding a turn meanwhile would keep everyone's reads waiting as long."""
SolvingPayer = Annotated[Payer, Depends(Charge(Spend.LOOKUP))]
"""A look-up that solves (the daily puzzle): no turn held while its work threads solve."""
PAGE = Depends(Charge(Spend.PAGE))
"""A page that costs the same whatever the games: ``@router.get(..., dependencies=[PAGE])``."""
SocketPayer = Annotated[Payer, Depends(SocketCharge(Spend.SOCKET))]


def unguarded_routes(routes: list[Any]) -> list[str]:
    """The routes (walked through included routers) that change something without a charge:
    ``create_app`` refuses to build an app with one. (Reads are charged too, by
    ``GuardedRouter``; the framework's own documents, /docs and /openapi.json, are not.)"""
    found = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:  # FastAPI keeps an included router as one entry
            found += unguarded_routes(list(inner.routes))
            continue
        dependant = getattr(route, "dependant", None)
        if dependant is None:
            continue  # Starlette's own: the OpenAPI document, static files
        methods = getattr(route, "methods", None)
        changes = methods is None or bool(set(methods) - SAFE_METHODS)  # None: a socket
        if changes and not charges_of(list(dependant.dependencies)):
            found.append(f"{sorted(methods or ['WEBSOCKET'])} {route.path}")
    return found
