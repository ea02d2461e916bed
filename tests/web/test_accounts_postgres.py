"""Accounts and ratings on PostgreSQL: the same tables, and a result rated once when two
server processes (two apps here) share the database."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from tests.web.conftest import all_games, app_settings
from tests.web.test_ratings import move_each_side

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")

PASSWORD = "correct horse battery"


def make_app(url: str) -> FastAPI:
    return create_app(url, catalog=Catalog(all_games()), settings=app_settings())


def player(app: FastAPI, address: str) -> TestClient:
    return TestClient(app, client=(address, 50000))


def test_accounts_claims_and_a_rated_game_on_postgresql(postgres_url: str) -> None:
    first_app, second_app = make_app(postgres_url), make_app(postgres_url)
    with TestClient(first_app) as first, TestClient(second_app) as second:
        person = first.post("/api/people", json={"name": "Uma"}).json()
        opened = first.post(
            "/api/open",
            json={"game": "toy_walk", "person": {"id": person["id"], "secret": person["secret"]}},
        ).json()
        uma = player(first_app, "127.0.0.2")
        claim = {"person": {"id": person["id"], "secret": person["secret"]}}
        body = {"name": "Uma", "password": PASSWORD, "claim": claim}
        assert uma.post("/api/accounts", json=body).status_code == 201
        assert [g["id"] for g in uma.get("/api/me/games").json()] == [opened["id"]]
        # The account logs in through the other process.
        vic = player(second_app, "127.0.0.3")
        answer = vic.post("/api/accounts", json={"name": "Vic", "password": PASSWORD})
        assert answer.status_code == 201
        uma_there = player(second_app, "127.0.0.4")
        assert (
            uma_there.post("/api/login", json={"name": "uma", "password": PASSWORD}).status_code
            == 200
        )
        rated = uma.post("/api/open", json={"game": "toy_walk", "rated": True, "seat": 0}).json()
        joined = vic.post(f"/api/open/{rated['id']}/join", json={}).json()
        # The moves go through the clients that run each app's own event loop (where its
        # listener and its games' locks live), signed in as the players: a client of its own
        # would run each request on a loop of its own and race the listener's load of the game.
        first.cookies.update(uma.cookies)
        second.cookies.update(vic.cookies)
        move_each_side(rated["id"], [(first, rated["token"]), (second, joined["token"])])
        resign = {"token": joined["token"], "do": "resign"}
        assert second.post(f"/api/games/{rated['id']}/session", json=resign).status_code == 200
        # Each process's store hook runs again on the same result: the ratings moved once.
        for app in (first_app, second_app):
            store = app.state.manager.store
            with store.engine.begin() as connection:
                store.finished(connection, rated["id"], [1.0, -1.0], "rules")
        for client in (first, second):
            ratings = client.get("/api/players/Uma").json()["ratings"]
            assert ratings["toy_walk"]["games"] == 1 and ratings["toy_walk"]["rating"] > 1500
        board = second.get("/api/leaderboard/toy_walk").json()
        assert [row["name"] for row in board] == ["Uma", "Vic"]
