"""Fixtures for the web tests: apps on temporary SQLite files, with toy and registered games."""

from __future__ import annotations

import random
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from boneyard.core.game import Game
from boneyard.core.registry import game_class, list_games
from boneyard.web.app import create_app
from boneyard.web.catalog import Catalog
from boneyard.web.settings import Settings
from tests.web.toygames import TOY_GAMES


def all_games() -> dict[str, type[Game]]:
    """Every registered game plus the two toy games."""
    classes = {name: game_class(name) for name in list_games()}
    classes.update(TOY_GAMES)
    return classes


def make_app(db_path: Path, **settings: Any) -> FastAPI:
    # Tests create many games from one address: the per-client budget is tested in test_abuse.
    options = {"bot_delay": 0.0, "games_per_minute": 100_000, **settings}
    return create_app(
        f"sqlite:///{db_path}", catalog=Catalog(all_games()), settings=Settings(**options)
    )


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db_path)) as test_client:
        yield test_client


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
