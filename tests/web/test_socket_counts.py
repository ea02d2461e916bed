"""Every socket is counted once in and once out, whatever ends it (issue 33, item 4).

The app's socket route is driven here by hand, in the app's own event loop, through ASGI: a
``HandDriven`` client decides when it reads (a client that stops reading makes the server's
sends wait, as a full TCP window does under uvicorn), when it sends, and how it ends (a close,
or a lost connection: every send fails from then on, as uvicorn's do). Hypothesis opens, drops
and kills sockets (before or after they are accepted), stalls them (they fall behind and time
out) and sends them moves and binary frames, in random order while the game moves; then it
checks that every count (per address, server-wide, the memory budget) is back where it started
and that no socket's handler ended in an exception (which uvicorn would log as a traceback).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uvicorn.protocols.utils import ClientDisconnected

from boneyard.core.registry import list_games
from boneyard.web.errors import WebError
from boneyard.web.play import sockets
from boneyard.web.play.manager import GameManager
from tests.web.conftest import make_app

pytestmark = pytest.mark.skipif("obonto" not in list_games(), reason="obonto is needed")

ADDRESSES = ("127.0.3.1", "127.0.3.2")
WAIT_SECONDS = 20.0
"""How long one step may wait for the server (generous: a loaded machine; never reached when
the server does what it should)."""


class HandDriven:
    """One client of ``/ws/games/{id}``: its messages, its reading and its end are the test's."""

    def __init__(self, app: FastAPI, path: str, query: str, address: str) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.received: list[MutableMapping[str, Any]] = []
        self.reading = asyncio.Event()
        """Clear: the client reads nothing, and the server's sends wait."""
        self.reading.set()
        self.lost = False
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "scheme": "ws",
            "server": ("testserver", 80),
            "client": (address, 50000),
            "root_path": "",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "headers": [(b"host", b"testserver")],
            "subprotocols": [],
        }
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.get_running_loop().create_task(app(scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def _send(self, message: MutableMapping[str, Any]) -> None:
        await self.reading.wait()
        if self.lost:
            raise ClientDisconnected  # what uvicorn raises once the connection is gone
        self.received.append(message)

    def say(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    def say_binary(self) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "bytes": b"\x00\x01"})

    def stall(self) -> None:
        self.reading.clear()

    def end(self, code: int) -> None:
        """The connection ends: a close (1000) or a lost connection (1006)."""
        self.lost = True
        self.reading.set()
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": code})

    async def settled(self) -> None:
        """Wait until the server answered the opening (a view or a refusal) or ended."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_SECONDS
        while not self.task.done() and not any(
            m["type"] == "websocket.send" for m in self.received
        ):
            assert loop.time() < deadline, "the socket was neither answered nor closed"
            await asyncio.sleep(0.005)


OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["open", "open_seat", "open_lost", "close", "kill", "stall", "move", "act", "binary"]
        ),
        st.integers(0, 7),
    ),
    max_size=18,
)


CLIENT_STEPS = {
    "close": lambda client, _live: client.end(1000),
    "kill": lambda client, _live: client.end(1006),
    "stall": lambda client, _live: client.stall(),
    "act": lambda client, live: client.say({"type": "act", "seq": live.seq, "action": 0}),
    "binary": lambda client, _live: client.say_binary(),
}
"""What one client may do, by the name of the step."""


async def play_out(app: FastAPI, ops: list[tuple[str, int]]) -> tuple[GameManager, int]:
    """Run ``ops`` against a new game, end every socket, wait for every handler; answers the
    manager and the memory it held before the first socket."""
    manager: GameManager = app.state.manager
    live = await manager.create("obonto", {})
    token = live.stored.seats[0]["token"]
    held_before = manager.live_bytes
    clients: list[HandDriven] = []
    for op, number in ops:
        if op.startswith("open"):
            query = f"token={token}" if op == "open_seat" else ""
            opened = HandDriven(app, f"/ws/games/{live.id}", query, ADDRESSES[number % 2])
            clients.append(opened)
            if op == "open_lost":
                opened.end(1006)  # gone before the server accepts it
            await opened.settled()
        elif op == "move":
            with contextlib.suppress(WebError):  # the game is over
                await manager.act(live, live.to_move(), live.seq, live.state.legal_actions()[0])
        elif clients and not (client := clients[number % len(clients)]).lost:
            CLIENT_STEPS[op](client, live)
        await asyncio.sleep(0)
    for client in clients:
        if not client.lost:
            client.end(1006)
    if clients:
        _, pending = await asyncio.wait([c.task for c in clients], timeout=WAIT_SECONDS)
        assert not pending, f"{len(pending)} socket handlers never ended"
        failed = [repr(c.task.exception()) for c in clients if c.task.exception() is not None]
        assert failed == [], "handlers ended in an exception (a traceback in the log)"
    return manager, held_before


def test_socket_counts_return_to_zero_whatever_ends_the_sockets(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A client that reads nothing is given this long to take its close frame (1 s in service).
    monkeypatch.setattr(sockets, "CLOSE_SECONDS", 0.02)
    app = make_app(
        db_path,
        send_queue=2,  # falls behind after a few unread views
        sockets_per_client=3,
        max_sockets=5,
        live_idle_seconds=1e6,  # no game leaves memory while the counts are compared
        bot_delay=0.0,
    )
    with TestClient(app) as test_client:
        portal = test_client.portal
        assert portal is not None

        @settings(
            max_examples=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        )
        @given(OPS)
        def counts_return_to_zero(ops: list[tuple[str, int]]) -> None:
            manager, held_before = portal.call(play_out, app, ops)
            assert dict(manager.sockets_by_client) == {}, "sockets left counted per address"
            assert manager.open_sockets == 0, "sockets left counted server-wide"
            assert manager.live_bytes == held_before, "sockets left in the memory budget"
            assert all(not live.subscribers for live in manager.games.values())

        counts_return_to_zero()


def test_a_socket_that_falls_behind_is_counted_out(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The leak of issue 33 on its own: views the socket never reads, until it is dropped."""
    monkeypatch.setattr(sockets, "CLOSE_SECONDS", 0.02)
    app = make_app(db_path, send_queue=2, sockets_per_client=2, live_idle_seconds=1e6)
    with TestClient(app) as test_client:
        assert test_client.portal is not None

        async def fall_behind(times: int) -> list[int]:
            manager: GameManager = app.state.manager
            live = await manager.create("obonto", {})
            open_after: list[int] = []
            for _ in range(times):
                slow = HandDriven(app, f"/ws/games/{live.id}", "", ADDRESSES[0])
                await slow.settled()
                slow.stall()
                for _ in range(6):
                    await manager.act(live, live.to_move(), live.seq, live.state.legal_actions()[0])
                await asyncio.wait_for(slow.task, WAIT_SECONDS)
                assert slow.task.exception() is None
                open_after.append(manager.sockets_by_client[ADDRESSES[0]])
            return open_after

        # Three times: more than this address's two sockets would have leaked.
        assert test_client.portal.call(fall_behind, 3) == [0, 0, 0]
        assert app.state.manager.metrics.all_refusals()["socket_fell_behind"] == 3
        assert "\nboneyard_sockets 0.0\n" in app.state.manager.metrics.text().decode()
