"""A fair share of connections per address, one move budget for every transport, quiet logs
under attack (issue 33, items 3 and 7 and the smaller ones).

The servers run on 127.0.0.1 in a thread (uvicorn with ``BoundedHttp``, small limits); the
attacker connects from 127.0.3.x and the honest client from 127.0.0.2, each bounded in count.
"""

from __future__ import annotations

import contextlib
import logging
import re
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from boneyard.core.registry import list_games
from boneyard.web.guard import connections
from boneyard.web.networks import network_of
from boneyard.web.play import sockets
from tests.web.conftest import create, make_app, token, wait_for
from tests.web.test_guard import LimitedServer, ThreadedServer

pytestmark = pytest.mark.skipif("obonto" not in list_games(), reason="obonto is needed")

HONEST = "127.0.0.2"
SLOW_BODY = (
    b"POST /api/people HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
    b'content-length: 400\r\n\r\n{"name": '
)
"""A request head and the start of a body that never comes whole."""
UPGRADE = (
    b"GET /ws/games/x HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\n"
    b"connection: Upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"sec-websocket-version: 13\r\n\r\n"
)
QUIET_LOGGERS = ("asyncio", "uvicorn", "uvicorn.error", "boneyard")


class Collected(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def logged() -> Iterator[list[logging.LogRecord]]:
    """The warnings and errors the server logs meanwhile (uvicorn's logger at WARNING, as
    ``boneyard serve`` runs it)."""
    handler = Collected()
    levels = {}
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        levels[name] = logger.level
        logger.setLevel(logging.WARNING)
        logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        for name in QUIET_LOGGERS:
            logging.getLogger(name).removeHandler(handler)
            logging.getLogger(name).setLevel(levels[name])


def shown(records: list[logging.LogRecord]) -> list[str]:
    return [f"{r.name}: {r.getMessage()[:200]}" for r in records]


def refusals(text: str, reason: str) -> float:
    """The ``boneyard_refusals_total`` of ``reason`` in a ``/metrics`` text (0 when absent)."""
    found = re.search(rf'^boneyard_refusals_total{{reason="{reason}"}} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def connect_from(server: ThreadedServer, address: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), 5, source_address=(address, 0))


def answered_or_open(socks: list[socket.socket], closed_count: int, seconds: float) -> list[bytes]:
    """What each socket was answered before the server closed it (None: still open), once
    ``closed_count`` of them are closed."""
    answers: dict[socket.socket, bytes] = {sock: b"" for sock in socks}
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + seconds
    while len(closed) < closed_count:
        assert time.monotonic() < deadline, f"{len(closed)} of {len(socks)} closed"
        readable, _, _ = select.select([s for s in socks if s not in closed], [], [], 0.2)
        for sock in readable:
            try:
                chunk = sock.recv(4096)
            except ConnectionResetError:
                chunk = b""
            if chunk:
                answers[sock] += chunk
            else:
                closed.add(sock)
    return [answers[sock] if sock in closed else b"<open>" for sock in socks]


def honest_client(base: str) -> httpx2.Client:
    return httpx2.Client(base_url=base, transport=httpx2.HTTPTransport(local_address=HONEST))


def honest_reply(base: str) -> float:
    """Seconds of the honest player's reply, as a new visitor: a new connection, a game of
    Obonto against the computer and its first move answered (printed beside the attack, never
    asserted on: a loaded machine answers everyone late)."""
    start = time.monotonic()
    with honest_client(base) as honest:
        created = honest.post("/api/games", json={"game": "obonto"}, timeout=30).json()
        me = created["seats"][0]["token"]
        view = honest.get(f"/api/games/{created['id']}", params={"token": me}, timeout=30).json()
        moved = honest.post(
            f"/api/games/{created['id']}/actions",
            json={"token": me, "seq": view["seq"], "action": view["legal"][0]["id"]},
            timeout=30,
        )
        assert moved.status_code == 200, moved.text
    return time.monotonic() - start


def print_replies(before: list[float], during: list[float]) -> None:
    print(
        f"the honest player's reply: {1000 * min(before):.0f}-{1000 * max(before):.0f} ms "
        f"before the attack, {1000 * min(during):.0f}-{1000 * max(during):.0f} ms during it"
    )


def reopen_until(stop: threading.Event, server: ThreadedServer, address: str) -> None:
    """The attacker's loop: a new slow body as soon as the last one is closed (at most 500)."""
    for _ in range(500):
        if stop.is_set():
            return
        with contextlib.suppress(OSError), connect_from(server, address) as sock:
            sock.sendall(SLOW_BODY)
            sock.settimeout(10)
            while sock.recv(4096):
                pass


def in_background(work: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def test_one_address_holds_only_its_share_and_the_rest_stays_for_others(db_path: Path) -> None:
    app = make_app(db_path)
    # 40 connections, a tenth per address: 4.
    server = ThreadedServer(
        app, max_connections=40, header_seconds=60, body_seconds=60, connection_share=0.1
    )
    attacker = "127.0.3.60"
    held: list[socket.socket] = []
    try:
        with logged() as records:
            with httpx2.Client(base_url=f"http://127.0.0.1:{server.port}") as reader:
                before = refusals(reader.get("/metrics").text, "address_share")
            calm = [honest_reply(f"http://127.0.0.1:{server.port}") for _ in range(3)]
            for _ in range(30):  # slow bodies: each would hold its connection a minute
                sock = connect_from(server, attacker)
                sock.sendall(SLOW_BODY)
                held.append(sock)
            answers = answered_or_open(held, closed_count=26, seconds=30)
            assert answers.count(b"<open>") == 4, "the address's share, waiting for bodies"
            told = [a for a in answers if a not in (b"<open>", b"")]
            assert told, "a connection over the share is told why"
            assert all(a.startswith(b"HTTP/1.1 429") and b"retry-after: 5" in a for a in told)
            assert b"too_many_connections" in told[0]

            # The honest client, meanwhile, while the attacker reopens what is closed: new
            # connections, a game and its socket.
            stop = threading.Event()
            reopened = in_background(lambda: reopen_until(stop, server, attacker))
            base = f"http://127.0.0.1:{server.port}"
            try:
                for _ in range(10):
                    with honest_client(base) as honest:
                        assert honest.get("/api/kinds").status_code == 200
                with honest_client(base) as honest:
                    game = honest.post("/api/games", json={"game": "obonto"}).json()
                    raw = connect_from(server, HONEST)
                    path = f"ws://127.0.0.1:{server.port}/ws/games/{game['id']}"
                    with connect(path, sock=raw) as ws:
                        assert '"type":"view"' in str(ws.recv(timeout=10))
                        assert connections.OPEN[network_of(HONEST)] >= 1, "a socket counts"
                    after = refusals(honest.get("/metrics").text, "address_share")
                print_replies(calm, [honest_reply(base) for _ in range(3)])
            finally:
                stop.set()
                reopened.join(30)
            assert after - before >= 26, "each refusal counted in /metrics"
        assert shown(records) == [], "refusals are counted, not logged"
    finally:
        for sock in held:
            sock.close()
        try:
            wait_for(
                "every connection counted out",
                lambda: not {network_of(attacker), network_of(HONEST)} & set(connections.OPEN),
            )
        finally:
            server.stop()


def test_a_trusted_proxy_is_not_held_to_one_address_share(db_path: Path) -> None:
    server = ThreadedServer(
        make_app(db_path), max_connections=40, header_seconds=30, body_seconds=30,
        connection_share=0.1, trusted_proxies=("127.0.3.64/26",),
    )  # fmt: skip
    proxy = "127.0.3.70"  # every client comes through it: its connections are theirs
    socks: list[socket.socket] = []
    try:
        socks = [connect_from(server, proxy) for _ in range(8)]  # twice one address's share
        for sock in socks:
            sock.sendall(b"GET /api/kinds HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n")
        answers = answered_or_open(socks, closed_count=8, seconds=20)
        assert all(answer.startswith(b"HTTP/1.1 200") for answer in answers)
    finally:
        for sock in socks:
            sock.close()
        server.stop()


@pytest.mark.slow
def test_a_thousand_slow_bodies_from_one_address_leave_room_for_everyone(tmp_path: Path) -> None:
    """The attack of issue 33 at its size: 1,050 slow bodies from one address against
    ``boneyard serve`` and its default cap of 1,000 (under the usual limit of 1,024 files)."""
    server = LimitedServer(tmp_path / "web.db", "--bot-processes", "0", "--work-processes", "0")
    attacker = "127.0.3.64"
    held: list[socket.socket] = []
    try:
        calm = [honest_reply(server.base) for _ in range(3)]
        for _ in range(1050):
            with contextlib.suppress(OSError):  # closed at once, past the share
                sock = socket.create_connection(
                    ("127.0.0.1", server.port), 5, source_address=(attacker, 0)
                )
                held.append(sock)
                sock.sendall(SLOW_BODY)
        for _ in range(20):  # new visitors, each on a new connection
            with server.client(HONEST) as honest:
                assert honest.get("/api/kinds", timeout=10).status_code == 200
        with server.client(HONEST) as honest:
            game = honest.post("/api/games", json={"game": "obonto"}).json()
            with server.socket(f"/ws/games/{game['id']}", HONEST) as ws:
                assert '"type":"view"' in str(ws.recv(timeout=10))
            metrics = honest.get("/metrics").text
        print_replies(calm, [honest_reply(server.base) for _ in range(3)])
        assert refusals(metrics, "address_share") >= 900
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_refused_upgrades_slow_bodies_and_junk_leave_no_log_lines(db_path: Path) -> None:
    server = ThreadedServer(
        make_app(db_path), max_connections=2, header_seconds=30, body_seconds=30,
        connection_share=1.0,
    )  # fmt: skip
    silent: list[socket.socket] = []
    try:
        silent = [connect_from(server, "127.0.3.61") for _ in range(2)]  # the cap, held
        before = dict(connections.REFUSED)
        with logged() as records:
            upgrade = connect_from(server, "127.0.3.62")
            upgrade.sendall(UPGRADE)
            slow = connect_from(server, "127.0.3.62")
            slow.sendall(SLOW_BODY)
            answers = answered_or_open([upgrade, slow], closed_count=2, seconds=10)
            assert all(a.startswith(b"HTTP/1.1 503") for a in answers), answers
            for sock in silent:
                sock.close()
            state = server.server.server_state
            wait_for("room again", lambda: not state.connections)
            junk = connect_from(server, "127.0.3.63")
            junk.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
            (answer,) = answered_or_open([junk], closed_count=1, seconds=10)
            junk.close()
            assert answer.startswith(b"HTTP/1.1 400")
        assert shown(records) == [], "no traceback, no line per refusal"
        counted = {
            reason: connections.REFUSED[reason] - before.get(reason, 0)
            for reason in ("busy", "invalid_request")
        }
        assert counted == {"busy": 2, "invalid_request": 1}
    finally:
        for sock in silent:
            sock.close()
        server.stop()


def test_a_binary_frame_closes_the_socket_saying_why(db_path: Path) -> None:
    app = make_app(db_path)
    with TestClient(app) as client:
        created = create(client, "obonto")
        with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
            assert ws.receive_json()["type"] == "view"
            ws.send_bytes(b"\x00\x01")
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == sockets.CLOSE_UNSUPPORTED == 1003
        assert closed.value.reason == sockets.BINARY_REFUSED
        assert "JSON text" in closed.value.reason
        assert app.state.manager.open_sockets == 0
        metrics = client.get("/metrics").text
        assert refusals(metrics, "socket_binary_frame") == 1


def test_moves_over_sockets_and_http_spend_one_budget(db_path: Path) -> None:
    app = make_app(db_path, moves_per_minute=4)
    with TestClient(app) as client:
        created = create(client, "obonto")
        game = f"/api/games/{created['id']}"
        tokens = [token(created, 0), token(created, 1)]
        with contextlib.ExitStack() as stack:
            seat_sockets = []
            for seat_token in tokens:
                ws = stack.enter_context(
                    client.websocket_connect(f"/ws/games/{created['id']}?token={seat_token}")
                )
                assert ws.receive_json()["type"] == "view"
                seat_sockets.append(ws)

            def move(by_socket: bool, request: int) -> dict[str, object]:
                """A legal move of the seat to move; the answer (an ack or an error)."""
                mover = client.get(game).json()["current_player"]
                view = client.get(game, params={"token": tokens[mover]}).json()
                action = view["legal"][0]["id"]
                if not by_socket:
                    answer = client.post(
                        f"{game}/actions",
                        json={"token": tokens[mover], "seq": view["seq"], "action": action},
                    )
                    return {**answer.json(), "http": answer.status_code}
                ws = seat_sockets[mover]
                ws.send_json(
                    {"type": "act", "seq": view["seq"], "action": action, "request": request}
                )
                while True:
                    message = ws.receive_json()
                    if message.get("request") == request:
                        return dict(message)

            for number in range(4):  # HTTP, socket, HTTP, socket: the whole budget
                answer = move(by_socket=number % 2 == 1, request=number)
                assert answer.get("type") == "ack" or answer.get("http") == 200, answer
            seq = client.get(game).json()["seq"]
            refused = move(by_socket=True, request=99)
            assert refused["type"] == "error" and refused["status"] == 429
            assert refused["error"] == "too_many_requests"
            assert "moves and hints" in str(refused["detail"])
            assert move(by_socket=False, request=100)["http"] == 429
            assert client.get(game).json()["seq"] == seq, "nothing was played"
        assert refusals(client.get("/metrics").text, "budget_move") == 2


def test_a_start_picture_carries_one_cache_policy(db_path: Path) -> None:
    with TestClient(make_app(db_path)) as client:
        picture = client.get("/picture/obonto.svg")
        assert picture.status_code == 200
        assert picture.headers.get_list("cache-control") == ["max-age=3600"]
        assert client.get("/api/kinds").headers.get_list("cache-control") == ["no-store"]
