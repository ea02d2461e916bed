"""WebSockets: one per seat (or spectator) of a game, for live views and actions.

Client to server (JSON): ``{"type": "act", "seq": 12, "action": 34}`` (or ``"action_string"``),
``{"type": "hint"}``, ``{"type": "sync"}``, ``{"type": "why", "action_string": ...}`` (a short
reason, for a click that is no legal move), ``{"type": "quick_setup"}`` (a random set-up for the
seat, where the game has a set-up); an optional ``"request"`` value is echoed back.
``?draw=false`` in the socket's address leaves the board drawings out of its views.

Server to client: ``{"type": "view", ...}`` on connecting, on ``sync`` and after every change
(the fields of ``GET /api/games/{id}``; after a change ``log`` holds only the lines from
``log_from`` on), ``{"type": "ack", "seq": n}`` once an action is stored, ``{"type": "hint",
...}``, and ``{"type": "error", "status": 409, "error": "stale", "detail": ...}``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from boneyard.web.live import GameManager, LiveGame, WebError
from boneyard.web.words import words_message

router = APIRouter()


class SocketSubscriber:
    def __init__(self, websocket: WebSocket, seat: int | None, draw: bool = True) -> None:
        self.websocket = websocket
        self.seat = seat
        self.draw = draw
        self._lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(json.dumps(message, separators=(",", ":")))

    async def send_text(self, text: str) -> None:
        async with self._lock:
            await self.websocket.send_text(text)


def _error(error: WebError, request: Any) -> dict[str, Any]:
    return {
        "type": "error",
        "request": request,
        "status": error.status,
        "error": error.code,
        "detail": error.detail,
    }


@router.websocket("/ws/games/{game_id}")
async def game_socket(
    websocket: WebSocket, game_id: str, token: str | None = None, draw: bool = True
) -> None:
    """``draw=false`` leaves the board drawings out of the views (for programs)."""
    manager: GameManager = websocket.app.state.manager
    await websocket.accept()
    try:
        live = await manager.get(game_id)
        seat = live.seat_of(token)
    except WebError as error:
        await websocket.send_text(json.dumps(_error(error, None)))
        await websocket.close(code=4000 + error.status)
        return
    subscriber = SocketSubscriber(websocket, seat, draw)
    live.subscribers.add(subscriber)
    try:
        await subscriber.send({"type": "view", **live.view(seat, draw)})
        while True:
            text = await websocket.receive_text()
            await _handle(manager, live, subscriber, text)
    except WebSocketDisconnect:
        pass
    finally:
        live.subscribers.discard(subscriber)


async def _handle(
    manager: GameManager, live: LiveGame, subscriber: SocketSubscriber, text: str
) -> None:
    request: Any = None
    try:
        try:
            message = json.loads(text)
        except ValueError:
            raise WebError(400, "bad_json", "a message is a JSON object") from None
        if not isinstance(message, dict):
            raise WebError(400, "bad_json", "a message is a JSON object")
        request = message.get("request")
        kind = message.get("type")
        if kind == "act":
            seq = message.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool):
                raise WebError(422, "bad_request", "'seq' (an integer) is required")
            action = message.get("action", message.get("action_string"))
            if not isinstance(action, int | str):
                raise WebError(422, "bad_action", "send 'action' (id) or 'action_string'")
            await manager.act(live, subscriber.seat, seq, action)
            await subscriber.send({"type": "ack", "request": request, "seq": live.seq})
        elif kind == "hint":
            hint = await manager.hint(live, subscriber.seat)
            await subscriber.send({"type": "hint", "request": request, **hint})
        elif kind in ("why", "quick_setup"):
            await words_message(manager, live, subscriber, kind, message, request)
        elif kind == "sync":
            await subscriber.send({"type": "view", **live.view(subscriber.seat, subscriber.draw)})
        else:
            known = "act, hint, sync, why, quick_setup"
            raise WebError(400, "bad_request", f"unknown message type {kind!r}: {known}")
    except WebError as error:
        await subscriber.send(_error(error, request))
