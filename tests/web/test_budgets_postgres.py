"""Issue 44 item 6 (row 7): two server processes (two apps here) on one PostgreSQL database
give an attacker one budget of the costly kinds, not two: sign-ups, log-in tries and the tries
on one name are rows of ``guard_buckets`` every process takes from."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from boneyard.web.store.buckets import SharedBuckets
from boneyard.web.store.games import Store
from tests.web.conftest import all_games, app_settings

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")

PASSWORD = "correct horse battery"


def make_app(url: str) -> FastAPI:
    settings = app_settings(signups_per_minute=3, logins_per_minute=5, logins_per_name=3)
    return create_app(url, catalog=Catalog(all_games()), settings=settings)


def test_two_processes_give_an_attacker_one_budget(postgres_url: str) -> None:
    """Before: each process counted alone, 6 sign-ups of 8 (3 each), 6 tries on one name
    (3 each) and 10 log-ins of 10 (5 each)."""
    first_app, second_app = make_app(postgres_url), make_app(postgres_url)
    with TestClient(first_app), TestClient(second_app):
        # the attacker's address, through either process, in turn
        through = [TestClient(app, client=("127.0.7.9", 50000)) for app in (first_app, second_app)]
        signups = [
            through[n % 2]
            .post("/api/accounts", json={"name": f"Sock{n}", "password": PASSWORD})
            .status_code
            for n in range(8)
        ]
        assert signups.count(201) == 3, signups
        assert set(signups) == {201, 429}
        guesser = [TestClient(app, client=("127.0.8.9", 50000)) for app in (first_app, second_app)]
        guesses = [
            guesser[n % 2]
            .post("/api/login", json={"name": "Sock0", "password": f"guess {n}"})
            .status_code
            for n in range(6)
        ]
        assert guesses == [401, 401, 401, 429, 429, 429], guesses
        crowd = [TestClient(app, client=("127.0.9.9", 50000)) for app in (first_app, second_app)]
        tries = [
            crowd[n % 2]
            .post("/api/login", json={"name": f"nobody{n}", "password": PASSWORD})
            .status_code
            for n in range(10)
        ]
        assert tries.count(429) == 5, tries
    with Store(postgres_url).engine.connect() as connection:
        keys = [row[0] for row in connection.execute(text("SELECT key FROM guard_buckets"))]
    assert keys and not any("127." in key or "Sock" in key for key in keys), "keyed, no address"


def test_a_shared_bucket_refills_and_refuses_with_the_wait(postgres_url: str) -> None:
    buckets = SharedBuckets(Store(postgres_url))
    assert [buckets.take("test\nx", rate=1 / 60, burst=2) for _ in range(2)] == [0.0, 0.0]
    wait = buckets.take("test\nx", rate=1 / 60, burst=2)
    assert 0 < wait <= 60  # a minute for a token, at most
    assert buckets.take("test\ny", rate=1 / 60, burst=2) == 0.0, "each key its own bucket"
    assert buckets.take("test\nfast", rate=1000.0, burst=1) == 0.0


def test_the_tries_on_a_name_are_taken_off_the_event_loop(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log-in try takes three shared buckets (the client's log-ins, ``ClientCharge``; the
    name from this network and from everywhere, ``Budgets.charge_name``): each a PostgreSQL
    round trip. Before, all three ran on the event loop, stalling every other request of the
    process meanwhile; now in a thread, as the store's other calls. Every take of a bucket
    records whether its thread runs an event loop."""
    taken_on: list[tuple[str, bool]] = []
    take = SharedBuckets.take

    def recording(self: SharedBuckets, key: str, *args: Any, **kwargs: Any) -> float:
        taken_on.append((key.split("\n", 1)[0], on_an_event_loop()))
        return take(self, key, *args, **kwargs)

    monkeypatch.setattr(SharedBuckets, "take", recording)
    app = make_app(postgres_url)
    with TestClient(app, client=("127.0.11.9", 50000)) as client:
        answer = client.post("/api/login", json={"name": "nobody", "password": PASSWORD})
        assert answer.status_code == 401, answer.text
    kinds = [kind for kind, _ in taken_on]
    assert {"login", "name", "name_everywhere"} <= set(kinds), kinds
    assert [kind for kind, on_loop in taken_on if on_loop] == [], taken_on


def on_an_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
