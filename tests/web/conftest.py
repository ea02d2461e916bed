"""Fixtures for the web tests: apps on temporary SQLite files, with toy and registered games."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from boneyard.core.game import Game
from boneyard.core.registry import game_class, list_games
from boneyard.testing.postgres import PostgresUnavailable, throwaway_postgres
from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from boneyard.web.settings import Settings
from tests.web.toygames import TOY_GAMES


def all_games() -> dict[str, type[Game]]:
    """Every registered game plus the two toy games."""
    classes = {name: game_class(name) for name in list_games()}
    classes.update(TOY_GAMES)
    return classes


def app_settings(**settings: Any) -> Settings:
    """Settings for an app under Starlette's TestClient. Tests create many games and send
    messages as fast as they can from one address: the per-client budgets are tested in
    test_abuse and test_guard, which set them."""
    options = {
        "bot_delay": 0.0,
        "games_per_minute": 100_000,
        "people_per_minute": 100_000,
        "session_requests_per_minute": 100_000,
        "moves_per_minute": 100_000,
        "sockets_per_minute": 100_000,
        "lookups_per_minute": 100_000,
        "reads_per_minute": 100_000,
        "pages_per_minute": 100_000,
        "signups_per_minute": 100_000,
        "logins_per_minute": 100_000,
        "socket_messages_per_second": 100_000.0,
        "rename_seconds": 0.0,
        # the TestClient's requests name the host "testserver"
        "allowed_hosts": (*Settings().allowed_hosts, "testserver"),
        **settings,
    }
    return Settings(**options)


def make_app(db_path: Path, **settings: Any) -> FastAPI:
    return create_app(
        f"sqlite:///{db_path}", catalog=Catalog(all_games()), settings=app_settings(**settings)
    )


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db_path)) as test_client:
        yield test_client


def another_person(client: TestClient, address: str) -> TestClient:
    """A second person on ``client``'s server: cookies and an address of their own, and the
    server's one event loop. A TestClient used outside ``with`` runs each request on a loop of its
    own that ends with the request, so a task the server spawned during it (a clock's first-move
    hold, written to the store and then to the live game) would die halfway, which no server
    process does; their next move then met a clock "moved on elsewhere"."""
    assert client.portal is not None, "open the server's client with `with` first"
    someone = TestClient(client.app, client=(address, 50000))
    someone.portal = client.portal
    return someone


def create(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, **body})
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def token(created: dict[str, Any], seat: int) -> str:
    value = created["seats"][seat]["token"]
    assert isinstance(value, str)
    return value


def play_random(client: TestClient, created: dict[str, Any], moves: int, seed: int) -> None:
    rng = random.Random(seed)
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(moves):
        spectator = client.get(f"/api/games/{created['id']}").json()
        if spectator["terminal"]:
            return
        mover = spectator["current_player"]
        mine = client.get(f"/api/games/{created['id']}", params={"token": tokens[mover]}).json()
        action = rng.choice(mine["legal"])["id"]
        response = client.post(
            f"/api/games/{created['id']}/actions",
            json={"token": tokens[mover], "seq": mine["seq"], "action": action},
        )
        assert response.status_code == 200, response.text


def free_port() -> int:
    """A TCP port nothing listens on now (for a server a test starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``boneyard serve`` in its own process on 127.0.0.1 (a SQLite file or a database URL)."""

    def __init__(self, db: Path | str, *options: str) -> None:
        url = db if isinstance(db, str) else f"sqlite:///{db}"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            self.command(url, options),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=self.environment(url),
            start_new_session=True,  # its own process group: stop() ends its children too
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx2.get(self.base + "/api/kinds", timeout=2)
                break
            except httpx2.TransportError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("the test server did not start") from None
                time.sleep(0.1)

    def command(self, url: str, options: tuple[str, ...]) -> list[str]:
        return [
            *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
            *("--port", str(self.port), "--db", url, *options),
        ]

    def environment(self, url: str) -> dict[str, str] | None:
        return None  # the test's own

    def client(self, address: str = "127.0.0.1") -> httpx2.Client:
        transport = httpx2.HTTPTransport(local_address=address)
        return httpx2.Client(base_url=self.base, transport=transport, timeout=30)

    def socket(self, path: str, address: str = "127.0.0.1", **options: Any) -> ClientConnection:
        raw = socket.create_connection(("127.0.0.1", self.port), source_address=(address, 0))
        return connect(f"ws://127.0.0.1:{self.port}{path}", sock=raw, **options)

    def memory(self) -> int:
        """The server's resident memory in bytes."""
        with open(f"/proc/{self.process.pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    def stop(self) -> None:
        """Kill the server and every process it started (bot or uvicorn worker processes)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def lasting(view: dict[str, Any]) -> dict[str, Any]:
    """A view without the clock: how long the seat to move has been waiting (whole seconds,
    so two reads a moment apart may differ)."""
    session = view.get("session") or {}
    waiting = session.get("waiting")
    if waiting is None:
        return view
    return {**view, "session": {**session, "waiting": {**waiting, "seconds": None}}}


def wait_for(what: str, check: Any, seconds: float = 10.0) -> Any:
    """``check()`` once it is truthy, looked at every 0.1 s; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds:g} s for {what}")


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL server's URL for one test module (skipped where none can be
    started: no server binaries, or no psycopg)."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (boneyard[postgres])")
    try:
        with throwaway_postgres() as url:
            yield url
    except PostgresUnavailable as reason:
        pytest.skip(str(reason))
