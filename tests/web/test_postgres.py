"""The web app on PostgreSQL: the same store through SQLAlchemy, on a throwaway local server.

Skipped, with the reason, where the PostgreSQL server programs or psycopg are missing. The
server runs from a temporary folder on a Unix socket only (no TCP), and is stopped at the end.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from glob import glob
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError

from boneyard.web.app import create_app
from boneyard.web.catalog import Catalog
from boneyard.web.settings import Settings
from boneyard.web.store import Store
from tests.web.conftest import Server, all_games, create, free_port, play_random, token

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _as_server_user() -> list[str]:
    """PostgreSQL refuses to run as root: then it runs as the ``postgres`` user."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("running as root and there is no 'postgres' user to run the server")
    if shutil.which("runuser") is None:
        pytest.skip("running as root and there is no runuser to start the server as 'postgres'")
    return ["runuser", "-u", "postgres", "--"]


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
    prefix = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="boneyard-pg-"))
    if prefix:
        shutil.chown(folder, user="postgres")
    data = folder / "data"
    port = free_port()  # names the socket file; nothing listens on TCP
    run: dict[str, Any] = {"check": True, "capture_output": True}
    try:
        subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "boneyard"], **run)
        options = f"-k {folder} -p {port} -c listen_addresses=''"
        log = folder / "server.log"
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-o", options, "-l", str(log), "-w", "start"], **run
        )
    except subprocess.CalledProcessError as error:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"could not start a PostgreSQL server: {error.stderr.decode()[-300:]}")
    try:
        yield f"postgresql+psycopg://boneyard@/postgres?host={folder}&port={port}"
    finally:
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


def make_app(url: str) -> FastAPI:
    return create_app(url, catalog=Catalog(all_games()), settings=Settings(bot_delay=0.0))


def test_games_survive_a_restart_on_postgresql(postgres_url: str) -> None:
    with TestClient(make_app(postgres_url)) as first:
        games = [create(first, name) for name in ("obonto", "bondo_cones", "toy_secret")]
        for number, created in enumerate(games):
            play_random(first, created, 6, seed=number)
        views = [
            [
                first.get(f"/api/games/{g['id']}", params={"token": s["token"]}).json()
                for s in g["seats"]
            ]
            for g in games
        ]
    with TestClient(make_app(postgres_url)) as second:
        for created, before in zip(games, views, strict=True):
            after = [
                second.get(f"/api/games/{created['id']}", params={"token": s["token"]}).json()
                for s in created["seats"]
            ]
            assert after == before
        play_random(second, games[0], 3, seed=9)


def test_a_taken_sequence_number_stores_nothing_on_postgresql(postgres_url: str) -> None:
    with TestClient(make_app(postgres_url)) as client:
        created = create(client, "toy_walk")
        game_id = created["id"]
        mine = client.get(f"/api/games/{game_id}", params={"token": token(created, 0)}).json()
        first = mine["legal"][0]["id"]
        body = {"token": token(created, 0), "seq": mine["seq"], "action": first}
        assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 200
        assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 409
    store = Store(postgres_url)
    try:
        stored = store.load(game_id)
        assert stored is not None and len(stored.actions) == mine["seq"] + 1
        # The primary key refuses a second writer of the same sequence number, whole batch.
        with pytest.raises(IntegrityError):
            store.append_actions(game_id, mine["seq"], [(first, 0), (first, 1)])
        again = store.load(game_id)
        assert again is not None and again.actions == stored.actions
    finally:
        store.close()


def test_two_server_processes_share_a_game_on_postgresql(postgres_url: str) -> None:
    """A move made through one process reaches another's socket (LISTEN/NOTIFY); moves go
    through either in turn; after ``kill -9`` of the first the second plays on, nothing lost."""
    light = ("--bot-processes", "0", "--work-processes", "0")
    first, second = Server(postgres_url, *light), Server(postgres_url, *light)
    try:
        with first.client() as a, second.client() as b:
            created = a.post("/api/games", json={"game": "obonto"}).json()
            tokens = [seat["token"] for seat in created["seats"]]
            path = f"/api/games/{created['id']}"
            played: list[str] = []

            def move(client: httpx.Client) -> None:
                mover = client.get(path).json()["current_player"]
                view = client.get(path, params={"token": tokens[mover]}).json()
                action = view["legal"][0]
                answer = client.post(
                    path + "/actions",
                    json={"token": tokens[mover], "seq": view["seq"], "action": action["id"]},
                )
                assert answer.status_code == 200, answer.text
                played.append(action["string"])

            with second.socket(f"/ws/games/{created['id']}?draw=false") as watcher:
                assert json.loads(watcher.recv(timeout=10))["seq"] == 0
                start = time.monotonic()
                move(a)
                heard = json.loads(watcher.recv(timeout=5))
                assert heard["type"] == "view" and heard["seq"] == 1
                assert time.monotonic() - start < 2.0, "the move reached the other process"
            for turn in range(6):
                move((b, a)[turn % 2])
            first.process.kill()  # kill -9 in the middle of the game
            first.process.wait()
            for _ in range(3):
                move(b)
            log = [line["string"] for line in b.get(path).json()["log"]]
            assert log == played
    finally:
        first.stop()
        second.stop()
