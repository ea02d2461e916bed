"""``POST /api/turns`` on PostgreSQL, two server processes (two apps) sharing the database:
a move made through one is counted through the other."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from tests.web.conftest import all_games, app_settings, create, token
from tests.web.test_turns import move, turns

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")


def make_app(url: str) -> FastAPI:
    return create_app(url, catalog=Catalog(all_games()), settings=app_settings())


def test_the_turns_count_on_postgresql_across_processes(postgres_url: str) -> None:
    first_app, second_app = make_app(postgres_url), make_app(postgres_url)
    with TestClient(first_app) as first, TestClient(second_app) as second:
        ann = TestClient(first_app, client=("127.0.0.2", 50000))
        made = ann.post("/api/accounts", json={"name": "ann", "password": "correct horse battery"})
        assert made.status_code == 201, made.text
        game = create(ann, "toy_walk")  # North is ann's
        south = (game["id"], token(game, 1))
        assert turns(second, south)["waiting"] == 0
        assert turns(ann)["waiting"] == 1, "the account's seat"
        move(ann, game, 0)  # (an account's seat opens only with its session)
        assert turns(second, south)["waiting"] == 1
        assert turns(ann)["waiting"] == 0
        finished = first.post(
            f"/api/games/{game['id']}/session", json={"token": token(game, 1), "do": "resign"}
        )
        assert finished.status_code == 200, finished.text
        assert turns(second, south) == {"waiting": 0, "games": []}
