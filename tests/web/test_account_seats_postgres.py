"""Seats and names that are an account's (issue 41, items 2 and 3) on PostgreSQL, with two
server processes (two apps here) sharing the database."""

from __future__ import annotations

import secrets

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from tests.web.conftest import all_games, app_settings, create, token, wait_for

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")

PASSWORD = "correct horse battery"


def make_app(url: str) -> FastAPI:
    return create_app(url, catalog=Catalog(all_games()), settings=app_settings())


def player(app: FastAPI, address: str) -> TestClient:
    return TestClient(app, client=(address, 50000))


def test_an_accounts_seat_and_name_hold_in_every_process(postgres_url: str) -> None:
    first_app, second_app = make_app(postgres_url), make_app(postgres_url)
    ann_name, bob_name = f"ann{secrets.token_hex(3)}", f"bob{secrets.token_hex(3)}"
    with TestClient(first_app) as first, TestClient(second_app) as second:
        body = {"name": ann_name, "password": PASSWORD}
        assert first.post("/api/accounts", json=body).status_code == 201
        made = create(first, "toy_walk", seats=[{"kind": "human"}, {"kind": "human"}])
        game = made["id"]
        # The other process holds the game before anybody claims its second seat.
        seen = second.get(f"/api/games/{game}", params={"token": token(made, 0)})
        assert seen.status_code == 403 and seen.json()["error"] == "account_seat"
        assert second.get(f"/api/games/{game}").json()["seats"][0]["label"].startswith(ann_name)
        bob = player(first_app, "127.0.0.3")
        assert bob.post("/api/accounts", json={"name": bob_name, "password": PASSWORD}).is_success
        claim = {"token": token(made, 1)}
        assert bob.post(f"/api/games/{game}/account", json=claim).status_code == 200
        wait_for(
            "the other process to show bob's name",
            lambda: (
                second.get(f"/api/games/{game}")
                .json()["seats"][1]["label"]
                .startswith(f"{bob_name} (")
            ),
        )
        # Neither process lets a guest take a look-alike of an account's name.
        guest = player(second_app, "127.0.0.4")
        refused = guest.post("/api/people", json={"name": ann_name.upper()})
        assert refused.status_code == 409 and refused.json()["error"] == "name_taken"
        rename = {"token": token(made, 1), "do": "name", "name": "someone"}
        renamed = bob.post(f"/api/games/{game}/session", json=rename)
        assert renamed.status_code == 409 and renamed.json()["error"] == "account_name"


def test_an_old_postgresql_database_gets_the_look_column(postgres_url: str) -> None:
    name = f"old{secrets.token_hex(3)}"
    with TestClient(make_app(postgres_url)) as first:
        assert first.post("/api/accounts", json={"name": name, "password": PASSWORD}).is_success
    engine = create_engine(postgres_url)
    with engine.begin() as connection:  # the table as it was before names had a look
        connection.execute(text("DROP INDEX IF EXISTS ix_accounts_look"))
        connection.execute(text("ALTER TABLE accounts DROP COLUMN look"))
        connection.execute(text("DROP TABLE alembic_version"))  # and before migrations
    engine.dispose()
    with TestClient(make_app(postgres_url)) as again:
        look_alike = name.replace("o", "0", 1)
        answer = again.post("/api/accounts", json={"name": look_alike, "password": PASSWORD})
        assert answer.status_code == 409 and f"looks like '{name}'" in answer.json()["detail"]
