"""Issue 44 item 3: a tournament's standings sockets are read for once per change, sent what
changed (not the whole table), at most once per ``standings_send_seconds`` whatever the rate of
changes, and a socket that does not read is dropped as a game socket is."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from boneyard.web.people.standings import StandingsFeed, StandingsSocket, apply_update
from tests.web.conftest import make_app
from tests.web.test_tournaments import PASSWORD, by_hand, make, tick

SOCKETS = 8
PLAYERS = 30


def test_eight_standings_sockets_cost_one_read_a_change_and_get_only_the_changed_row(
    db_path: Path,
) -> None:
    """Before: every socket read the whole table on every change and sent it whole (eight
    sockets, eight reads of 30 rows each, 30 rows sent to each)."""
    with TestClient(make_app(db_path)) as client:
        by_hand(client)  # the test's ``tick`` tells the sockets of a change, nothing else does
        answer = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert answer.status_code == 201
        tid = make(client, starts_in=3600).json()["id"]
        store = client.app.state.tournaments  # type: ignore[attr-defined]
        for n in range(PLAYERS):
            assert store.join(tid, f"acc{n}", f"Player {n}") is None
        reads: list[str] = []
        standings = store.standings

        def counted(tournament_id: str) -> list[dict[str, Any]]:
            reads.append(tournament_id)
            return standings(tournament_id)

        store.standings = counted
        with contextlib.ExitStack() as stack:
            views = []
            for _ in range(SOCKETS):
                socket = stack.enter_context(client.websocket_connect(f"/ws/tournaments/{tid}"))
                first = socket.receive_json()
                assert first["type"] == "view" and len(first["standings"]) == PLAYERS
                views.append((socket, first))
            assert len(reads) == 1  # the sockets after the first were told the view read for it
            reads.clear()
            assert store.withdraw(tid, "acc5")
            tick(client)
            for socket, view in views:
                update = socket.receive_json()
                assert update["type"] == "update"
                assert update["count"] == PLAYERS
                assert [index for index, _ in update["rows"]] == [5]  # the one row that changed
                assert "standings" not in update
                after = apply_update(view, update)
                assert after["standings"][5]["withdrawn"] is True
                assert [p["name"] for p in after["standings"]] == [
                    f"Player {n}" for n in range(PLAYERS)
                ]
            assert len(reads) == 1  # one read for the eight sockets


class _Reader:
    """A socket's page: what it was sent."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)


class _NeverReads:
    async def send_text(self, _text: str) -> None:
        await asyncio.Event().wait()  # its page stopped reading


def test_fifty_changes_during_one_pause_are_one_read_and_one_send() -> None:
    """However fast the joins and withdrawals come, a socket is sent once per pause."""

    async def scenario() -> tuple[int, list[int], list[dict[str, Any]]]:
        changed = asyncio.Event()
        gate = asyncio.Event()
        paused = asyncio.Event()
        version = 0

        async def read() -> tuple[dict[str, Any], list[dict[str, Any]]]:
            rows = [{"name": f"p{n}", "score": version if n == 0 else 0} for n in range(3)]
            return {"version": version, "now": float(version), "standings": rows}, []

        async def pause(_seconds: float) -> None:
            paused.set()
            await gate.wait()
            gate.clear()

        feed = StandingsFeed(read, changed, 0.5, pause)
        pages = [_Reader() for _ in range(5)]
        sockets = [StandingsSocket(page, lambda _s, _t: None, 64) for page in pages]  # type: ignore[arg-type]
        for socket in sockets:
            feed.join(socket)
        await paused.wait()  # the first read was sent; the feed pauses
        for _ in range(50):
            version += 1
            changed.set()
        paused.clear()
        gate.set()  # the pause is over
        await paused.wait()  # the second read was sent; the feed pauses again
        await asyncio.sleep(0)  # the senders write what was queued
        sent = [socket.sent for socket in sockets]
        messages = [json.loads(text) for text in pages[0].texts]
        # five spectators, one place (none): one message made and encoded for all five
        assert all(page.texts[1] is pages[0].texts[1] for page in pages)
        reads = feed.reads
        for socket in sockets:
            feed.leave(socket)
        await feed.stop()
        return reads, sent, messages

    reads, sent, messages = asyncio.run(scenario())
    assert reads == 2
    assert sent == [2] * 5
    assert [m["type"] for m in messages] == ["view", "update"]
    assert messages[1]["version"] == 50 and [i for i, _ in messages[1]["rows"]] == [0]


def test_nothing_changed_is_nothing_sent_and_a_socket_that_never_reads_is_dropped() -> None:
    async def scenario() -> tuple[int, bool]:
        shared = {"version": 1, "now": 1.0, "standings": [{"name": "p"}]}
        quiet = StandingsSocket(_Reader(), lambda _s, _t: None, 4)  # type: ignore[arg-type]
        quiet.tell(shared, [])
        quiet.tell({**shared, "now": 2.0}, [])  # only the time moved: nothing to send
        stuck = StandingsSocket(_NeverReads(), lambda _s, _t: None, 2)  # type: ignore[arg-type]
        for version in range(6):
            stuck.tell({**shared, "version": version}, [])
            await asyncio.sleep(0)
        quiet.stop()
        stuck.stop()
        return quiet.sent, stuck.gone.is_set()

    sent, dropped = asyncio.run(scenario())
    assert sent == 1
    assert dropped
