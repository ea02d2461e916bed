"""Clocks across server processes: ended once on a shared PostgreSQL, and after ``kill -9``.

Real servers (``uvicorn --factory boneyard.web.app:app_from_environment``) on real time: each
test waits on the stored state or the API's answer, never on a guessed sleep. The PostgreSQL
test is skipped, with the reason, where the server programs or psycopg are missing.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
from sqlalchemy import select

from boneyard.web.store.clocks import ClockStore
from boneyard.web.store.games import Store
from boneyard.web.store.sessions import SessionEventRow
from tests.web.conftest import Server, wait_for

CLOCK_SETTINGS = {
    "bot_delay": 0.0,
    "games_per_minute": 1000,
    "moves_per_minute": 1000,
    "clock_sweep_seconds": 0.5,
    "clock_grace_seconds": 0.2,
}


class ClockServer(Server):
    """One server process of the app, its settings from BONEYARD_SETTINGS."""

    def command(self, url: str, options: tuple[str, ...]) -> list[str]:
        return [
            *(sys.executable, "-m", "uvicorn", "--factory"),
            "boneyard.web.app:app_from_environment",
            *("--workers", "1", "--host", "127.0.0.1", "--port", str(self.port)),
            *("--log-level", "warning"),
        ]

    def environment(self, url: str) -> dict[str, str]:
        settings = json.dumps(CLOCK_SETTINGS)
        return {**os.environ, "BONEYARD_DB": url, "BONEYARD_SETTINGS": settings}


def start_timed_game(clients: list[httpx2.Client], initial: float) -> tuple[str, list[str]]:
    """An Obonto game on ``initial`` seconds, played through ``clients`` in turn until both
    sides made their first move (from then on the clock of the seat to move runs)."""
    created = clients[0].post(
        "/api/games", json={"game": "obonto", "clock": {"initial": initial, "increment": 0}}
    )
    assert created.status_code == 201, created.text
    tokens = [seat["token"] for seat in created.json()["seats"]]
    path = f"/api/games/{created.json()['id']}"
    for turn in range(10):
        client = clients[turn % len(clients)]
        spectator = client.get(path, params={"draw": "false"}).json()
        if spectator["clock"]["ticking"]:
            return created.json()["id"], tokens
        mover = spectator["current_player"]
        view = client.get(path, params={"token": tokens[mover], "draw": "false"}).json()
        body = {"token": tokens[mover], "seq": view["seq"], "action": view["legal"][0]["id"]}
        assert client.post(f"{path}/actions", json=body).status_code == 200
    raise AssertionError("both sides should have moved within ten moves")


def stored_endings(url: str, game_id: str) -> list[str]:
    store = Store(url)
    try:
        with store.engine.connect() as connection:
            kinds = connection.execute(
                select(SessionEventRow.kind).where(SessionEventRow.game_id == game_id)
            ).all()
    finally:
        store.close()
    return [k[0] for k in kinds if k[0] in ("flag", "abort", "flag_left")]


def finished(url: str, game_id: str) -> bool:
    store = Store(url)
    try:
        stored = store.load(game_id)
        return stored is not None and stored.finished
    finally:
        store.close()


def test_a_clock_that_ran_out_while_no_server_ran_ends_at_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    server = ClockServer(url)
    try:
        with server.client() as client:
            game_id = start_timed_game([client], initial=1)[0]
    finally:
        server.stop()  # kill -9, the clock running
    store = Store(url)
    try:
        record = ClockStore(store).read(game_id)
    finally:
        store.close()
    assert record is not None and record.deadline is not None and record.running is not None
    time.sleep(max(0.0, record.deadline - time.time()) + 0.1)  # its time runs out: no server
    assert not finished(url, game_id)
    restarted = ClockServer(url)
    try:
        # Nobody asks for the game: the server finds the clock at start and ends it.
        wait_for("the restarted server to end the game", lambda: finished(url, game_id), 30)
        assert stored_endings(url, game_id) == ["flag"]
        with restarted.client() as client:
            view = client.get(f"/api/games/{game_id}", params={"draw": "false"}).json()
        assert view["terminal"] and view["session"]["ending"]["kind"] == "flag"
        assert "ran out of time" in view["status"]
        assert view["returns"][record.running] == -1.0
    finally:
        restarted.stop()


def test_two_processes_end_a_clock_once_on_postgresql(postgres_url: str) -> None:
    first, second = ClockServer(postgres_url), ClockServer(postgres_url)
    try:
        with first.client() as a, second.client() as b:
            game_ids = []
            for _ in range(3):  # a few clocks, each running out in both processes at once
                game_id = start_timed_game([a, b], initial=2)[0]
                for client in (a, b):  # both processes hold the game and its timer
                    client.get(f"/api/games/{game_id}", params={"draw": "false"})
                game_ids.append(game_id)

            def over(client: httpx2.Client, game_id: str) -> Any:
                view = client.get(f"/api/games/{game_id}", params={"draw": "false"}).json()
                return view["terminal"] and view

            for game_id in game_ids:
                seen = [
                    wait_for("the flag", lambda c=client, g=game_id: over(c, g), 60)
                    for client in (a, b)
                ]
                assert stored_endings(postgres_url, game_id) == ["flag"]  # once, not twice
                assert seen[0]["returns"] == seen[1]["returns"]
                assert sorted(seen[0]["returns"]) == [-1.0, 1.0]
                assert all(view["session"]["ending"]["kind"] == "flag" for view in seen)
    finally:
        first.stop()
        second.stop()
