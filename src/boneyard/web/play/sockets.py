"""WebSockets: one per seat (or spectator) of a game, for live views and actions.

Client to server (JSON): ``{"type": "act", "seq": 12, "action": 34}`` (or ``"action_string"``),
``{"type": "hint"}`` (a page playing every person's seat adds ``"tokens"``: the others'),
``{"type": "sync"}``, ``{"type": "why", "action_string": ...}`` (a short reason, for a click
that is no legal move), ``{"type": "quick_setup"}`` (a random set-up for the seat,
where the game has a set-up), ``{"type": "watching"}`` (a page that is seen says so every few
seconds: a game of computers alone thinks only while watched; no answer); an optional
``"request"`` value is echoed back.
``?draw=false`` in the socket's address leaves the board drawings out of its views.

Server to client: ``{"type": "view", ...}`` on connecting, on ``sync`` and after every change
(the fields of ``GET /api/games/{id}``: the log's latest lines, from ``log_from``; after a
change, ``log_update``, ``log`` holds only the new lines from ``log_from`` on, and ``drawing``
replaces ``svg``: what changed in the board's drawing since the
last view this socket was sent, see ``play/drawing.py``), ``{"type": "ack", "seq": n}`` once
an action is stored, ``{"type": "hint", ...}``, and ``{"type": "error", "status": 409,
"error": "stale", "detail": ...}``.

Limits (``Settings``): a message is a text frame (a binary frame closes the socket with 1003 and
a reason) of at most ``socket_message_bytes`` of flat JSON; a socket may send
``socket_messages_per_second`` (a burst of twice that; far beyond, it is closed with 1008);
``act``, ``hint`` and ``quick_setup`` are each charged one move to the client's budget, the
one HTTP's moves spend (``moves_per_minute``: past it, an ``error`` with status 429); ``sync``
is answered at most once per ``sync_interval`` (the last one asked is answered when the interval
ends). Every message out goes through the socket's own queue of ``send_queue`` messages: a
socket that does not read falls behind, is closed (code 1013) and resyncs when it reconnects.
Refusals are counted in ``/metrics`` (``boneyard_refusals_total``), not logged; a socket that
closes, however it closes, is counted out of its address's, the server's and the memory's
counts once (``GameManager.unsubscribe``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import GuardedRouter, Payer, SocketPayer, Spend
from boneyard.web.guard.limits import RateLimit
from boneyard.web.guard.signin import require_seat_holder
from boneyard.web.play import drawing, words
from boneyard.web.play.drawing import Lines
from boneyard.web.play.live import LiveGame
from boneyard.web.play.manager import GameManager
from boneyard.web.play.views import seat_view
from boneyard.web.settings import Settings

router = GuardedRouter()

MAX_DEPTH = 4
"""Messages are flat objects: deeper JSON is refused."""
CLOSE_TOO_SLOW = 1013
CLOSE_POLICY = 1008
CLOSE_UNSUPPORTED = 1003
BINARY_REFUSED = "this socket reads JSON text messages, not binary frames"
CLOSE_SECONDS = 1.0
"""How long closing may wait on a client that reads nothing."""
CHARGED_AS_MOVES = frozenset({"act", "hint", "quick_setup"})
"""Messages charged one move to the socket's client: the budget HTTP's moves and hints spend
(``moves_per_minute``), whatever the way in."""
CLOSED = (WebSocketDisconnect, WebSocketDisconnected)
"""What a socket raises once its client is gone (``WebSocketDisconnected``: a receive or send
after the close)."""


class SocketSubscriber:
    """One socket's side of a game: its seat, its queue of messages out and its limits."""

    def __init__(
        self, websocket: WebSocket, seat: int | None, draw: bool, settings: Settings, payer: Payer
    ) -> None:
        self.websocket = websocket
        self.payer = payer
        """Who moves and hints are charged to (the same budget as over HTTP)."""
        self.seat = seat
        self.draw = draw
        self.drawing: Lines | None = None
        self.settings = settings
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=settings.send_queue)
        self.gone = asyncio.Event()
        """Set when the socket fell behind (its queue was full) or its sender failed."""
        rate = settings.socket_messages_per_second
        self.limit = RateLimit(rate, 2 * rate)
        self.refused = 0
        self.last_sync = -1e9
        self.sync_pending: asyncio.Task[None] | None = None
        self.sender = asyncio.get_running_loop().create_task(self._send_forever())

    def offer(self, text: str) -> bool:
        if self.gone.is_set():
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.gone.set()
            return False
        return True

    def send(self, message: dict[str, Any]) -> None:
        self.offer(json.dumps(message, separators=(",", ":")))

    def send_view(self, view: dict[str, Any]) -> None:
        """A whole view, its drawing included: the next views carry what changed since it."""
        self.drawing = drawing.lines_of(view["svg"])
        self.send({"type": "view", **view})

    async def _send_forever(self) -> None:
        try:
            while True:
                await self.websocket.send_text(await self.queue.get())
        except asyncio.CancelledError:
            raise
        except Exception:
            self.gone.set()

    def stop(self) -> None:
        self.sender.cancel()
        if self.sync_pending is not None:
            self.sync_pending.cancel()


def _error(error: WebError, request: Any) -> dict[str, Any]:
    return {
        "type": "error",
        "request": request,
        "status": error.status,
        "error": error.code,
        "detail": error.detail,
    }


def _depth(value: Any, limit: int) -> int:
    """How deep ``value`` nests (counting stops past ``limit``)."""
    if limit < 0 or not isinstance(value, dict | list):
        return 0
    children = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(child, limit - 1) for child in children), default=0)


@router.websocket("/ws/games/{game_id}")
async def game_socket(
    websocket: WebSocket,
    game_id: str,
    payer: SocketPayer,
    token: str | None = None,
    draw: bool = True,
) -> None:
    """``draw=false`` leaves the board drawings out of the views (for programs)."""
    manager: GameManager = websocket.app.state.manager
    try:
        await websocket.accept()
    except (*CLOSED, OSError):  # OSError: uvicorn's ClientDisconnected, before the accept
        return  # gone before it was accepted: nothing counted yet
    joined = await _join(manager, websocket, payer, game_id, token, draw)
    if joined is None:
        return
    # From here on the socket is counted (its address's, the server's, the memory budget):
    # whatever ends it (a close, a lost connection, falling behind, a flood, the server
    # stopping), ``finally`` counts it out.
    live, subscriber = joined
    try:
        if subscriber.seat is not None:
            await manager.seat_opened(live, subscriber.seat)
        subscriber.send_view(seat_view(live, subscriber.seat, draw))
        await _serve(manager, live, subscriber)
    except CLOSED:
        pass  # the other side went away: nothing to tell anyone
    finally:
        subscriber.stop()
        manager.unsubscribe(subscriber)


async def _join(
    manager: GameManager,
    websocket: WebSocket,
    payer: Payer,
    game_id: str,
    token: str | None,
    draw: bool,
) -> tuple[LiveGame, SocketSubscriber] | None:
    """The game and the socket's subscription to it; None when refused (told and closed)."""
    try:
        if payer.refusal is not None:
            raise payer.refusal  # counted by the budgets
        live = await manager.get(game_id)
        seat = live.seat_of(token)
        await require_seat_holder(websocket, live.id, seat)
        subscriber = SocketSubscriber(websocket, seat, draw, manager.settings, payer)
        try:
            manager.subscribe(live, subscriber, payer.client)
        except WebError:
            subscriber.stop()
            raise
    except WebError as error:
        if error is not payer.refusal:
            manager.metrics.refuse(f"socket_{error.code}")
        await _refuse(websocket, error)
        return None
    return live, subscriber


async def _serve(manager: GameManager, live: LiveGame, subscriber: SocketSubscriber) -> None:
    """Answer the socket's messages until it closes, floods or falls behind."""
    websocket = subscriber.websocket
    gone = asyncio.ensure_future(subscriber.gone.wait())
    try:
        while True:
            receive = asyncio.ensure_future(websocket.receive())
            await asyncio.wait({receive, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not receive.done():
                receive.cancel()
                manager.metrics.refuse("socket_fell_behind")
                await _close(websocket, CLOSE_TOO_SLOW, "this socket fell behind; reconnect")
                return
            message = receive.result()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                manager.metrics.refuse("socket_binary_frame")
                await _close(websocket, CLOSE_UNSUPPORTED, BINARY_REFUSED)
                return
            if not await _handle(manager, live, subscriber, text):
                manager.metrics.refuse("socket_flood")
                await _close(websocket, CLOSE_POLICY, "far too many messages; slow down")
                return
    finally:
        gone.cancel()


async def _refuse(websocket: WebSocket, error: WebError) -> None:
    """Tell a socket why it is refused, then close it (4000 + the HTTP status)."""

    async def tell() -> None:
        await websocket.send_text(json.dumps(_error(error, None)))
        await websocket.close(code=4000 + error.status)

    with contextlib.suppress(*CLOSED, TimeoutError):
        await asyncio.wait_for(tell(), timeout=CLOSE_SECONDS)


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    """Close with ``code`` and a reason in words; a client that neither reads nor answers is
    given ``CLOSE_SECONDS``."""
    with contextlib.suppress(*CLOSED, TimeoutError):
        await asyncio.wait_for(websocket.close(code=code, reason=reason), timeout=CLOSE_SECONDS)


def _parse(text: str, settings: Settings) -> dict[str, Any]:
    if len(text) > settings.socket_message_bytes:
        raise WebError(
            413,
            "too_large",
            f"a message is at most {settings.socket_message_bytes} characters; "
            f"this one has {len(text)}",
        )
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise WebError(400, "bad_json", "a message is a JSON object") from None
    if not isinstance(message, dict):
        raise WebError(400, "bad_json", "a message is a JSON object")
    if _depth(message, MAX_DEPTH) > MAX_DEPTH:
        raise WebError(400, "bad_json", f"a message nests at most {MAX_DEPTH} levels deep")
    return message


# Over the complexity limit on purpose: one branch per kind of socket message.
async def _handle(  # noqa: C901
    manager: GameManager, live: LiveGame, subscriber: SocketSubscriber, text: str
) -> bool:
    """Answer one message; False when the socket is to be closed (far past its rate)."""
    request: Any = None
    try:
        if subscriber.limit.take("") > 0:
            subscriber.refused += 1
            if subscriber.refused > 4 * subscriber.limit.burst:
                return False
            if subscriber.refused == 1:
                raise WebError(429, "too_many_messages", "too many messages; slow down")
            return True
        subscriber.refused = 0
        message = _parse(text, manager.settings)
        request = message.get("request")
        kind = message.get("type")
        if kind in CHARGED_AS_MOVES:
            subscriber.payer.charge(Spend.MOVE)
        if kind == "act":
            seq = message.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool):
                raise WebError(422, "bad_request", "'seq' (an integer) is required")
            action = message.get("action", message.get("action_string"))
            if not isinstance(action, int | str):
                raise WebError(422, "bad_action", "send 'action' (id) or 'action_string'")
            await manager.act_as_person(live, subscriber.seat, seq, action)
            subscriber.send({"type": "ack", "request": request, "seq": live.seq})
        elif kind == "hint":
            others = message.get("tokens", [])
            if not isinstance(others, list) or not all(isinstance(t, str) for t in others):
                raise WebError(422, "bad_request", "'tokens' is a list of the page's other tokens")
            hint = await manager.hint(live, subscriber.seat, others)
            subscriber.send({"type": "hint", "request": request, **hint})
        elif kind in ("why", "quick_setup"):
            await _words_message(manager, live, subscriber, kind, message, request)
        elif kind == "sync":
            _sync(manager, live, subscriber)
        elif kind == "watching":
            manager.watching(live)
        else:
            known = "act, hint, sync, why, quick_setup, watching"
            raise WebError(400, "bad_request", f"unknown message type {kind!r}: {known}")
    except WebError as error:
        subscriber.send(_error(error, request))
    return True


def _sync(manager: GameManager, live: LiveGame, subscriber: SocketSubscriber) -> None:
    """Send the whole view now, or once the sync interval ends (asked again meanwhile: once)."""
    if subscriber.sync_pending is not None and not subscriber.sync_pending.done():
        return
    wait = subscriber.last_sync + manager.settings.sync_interval - time.monotonic()

    async def answer() -> None:
        if wait > 0:
            await asyncio.sleep(wait)
        subscriber.last_sync = time.monotonic()
        with contextlib.suppress(WebError):  # the store is slow: answer from memory
            await manager.freshen(live)
        subscriber.send_view(seat_view(live, subscriber.seat, subscriber.draw))

    subscriber.sync_pending = asyncio.get_running_loop().create_task(answer())


async def _words_message(
    manager: GameManager,
    live: LiveGame,
    subscriber: SocketSubscriber,
    kind: str,
    message: dict[str, Any],
    request: Any,
) -> None:
    """The socket messages put in words (``words.py``): ``why`` (answered ``{"type": "why",
    "reason"}``) and ``quick_setup`` (plays random set-up actions for the seat until its set-up
    is done)."""
    seat = subscriber.seat
    if kind == "why":
        reason = words.why_illegal(live, seat, str(message.get("action_string", "")))
        subscriber.send({"type": "why", "request": request, "reason": reason})
        return
    if seat is None:
        raise WebError(403, "spectator", "a spectator cannot act: open an invite link")
    for _ in range(live.game.info.max_game_length):
        action = words.random_setup_action(live, seat)
        if action is None:
            break
        await manager.act_as_person(live, seat, live.seq, action)
    subscriber.send({"type": "ack", "request": request, "seq": live.seq})
