"""Issue 44 item 4: the connection cap shared fairly against a crowd of networks. Sixteen
networks holding their share (before: all of the cap, and an honest newcomer got 503) leave
room for a newcomer; anonymous connections never take the reserve kept for known clients.

The servers run on 127.0.0.1 in a thread (uvicorn with ``BoundedHttp``, a cap of 40: a share of
4 a network, 32 for anonymous clients); attackers connect from 127.0.1x.1 (one network each),
the honest newcomer from 127.0.0.2. Only states and answers are asserted, never times.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from boneyard.web.guard import connections
from tests.web.conftest import make_app, wait_for
from tests.web.test_fair_connections import SLOW_BODY, connect_from
from tests.web.test_guard import ThreadedServer

NEWCOMER = "127.0.0.2"
KNOWN = "127.0.9.2"


@pytest.fixture
def server(db_path: Path) -> Iterator[ThreadedServer]:
    known = list(connections.KNOWN)  # networks other tests played from: not known here
    connections.KNOWN.clear()
    running = ThreadedServer(
        make_app(db_path), max_connections=40, header_seconds=60, body_seconds=60,
        connection_share=0.1, connection_reserve=0.2,
    )  # fmt: skip
    try:
        yield running
    finally:
        running.stop()
        connections.KNOWN.clear()
        connections.KNOWN.update(dict.fromkeys(known))


def hold(server: ThreadedServer, networks: int, each: int) -> list[socket.socket]:
    """``each`` slow bodies from each of ``networks`` networks (each holds its connection a
    minute), all sent before the server settles them."""
    held = []
    for number in range(networks):
        for _ in range(each):
            sock = connect_from(server, f"127.0.{10 + number}.1")
            sock.sendall(SLOW_BODY)
            held.append(sock)
    return held


def newcomer_answers(server: ThreadedServer, address: str, count: int) -> list[int]:
    """The statuses of ``count`` requests, each on a new connection from ``address``."""
    statuses = []
    for _ in range(count):
        transport = httpx2.HTTPTransport(local_address=address)
        with httpx2.Client(base_url=f"http://127.0.0.1:{server.port}", transport=transport) as c:
            statuses.append(c.get("/api/kinds", headers={"connection": "close"}).status_code)
    return statuses


def test_sixteen_networks_holding_their_share_leave_room_for_a_newcomer(
    server: ThreadedServer,
) -> None:
    held = hold(server, networks=16, each=4)  # 64 asked; 32 anonymous places
    try:
        wait_for("the anonymous part full", lambda: connections.anonymous_open() == 32, 30)
        wait_for(
            "every connection asked for settled",
            lambda: sum(connections.OPEN.values()) <= 32 + connections.REFUSALS_WAITING * 16,
        )
        holders = {network: len(conns) for network, conns in connections.ANONYMOUS.items()}
        assert max(holders.values()) <= 3, f"one network holds more than its part: {holders}"
        assert newcomer_answers(server, NEWCOMER, 10) == [200] * 10
        assert connections.anonymous_open() <= 32, "the newcomer took a place, not more"
    finally:
        for sock in held:
            sock.close()
    wait_for("every connection counted out", lambda: not connections.ANONYMOUS, 30)


def test_a_crowd_of_anonymous_networks_never_takes_the_reserve(server: ThreadedServer) -> None:
    """Thirty-two networks of one connection each fill the anonymous part: a thirty-third
    anonymous network is refused (503; none holds more than it would), a known network (a
    signed-in account or a person's move came from it) gets in from the reserve."""
    held = hold(server, networks=32, each=1)
    try:
        wait_for("the anonymous part full", lambda: connections.anonymous_open() == 32, 30)
        assert newcomer_answers(server, NEWCOMER, 1) == [503]
        connections.note_known(KNOWN)
        assert newcomer_answers(server, KNOWN, 3) == [200] * 3
        assert connections.anonymous_open() == 32
    finally:
        for sock in held:
            sock.close()
    wait_for("every connection counted out", lambda: not connections.ANONYMOUS, 30)
