"""The session tables on PostgreSQL: a takeback, a resignation, a lobby join and a rematch; and
several processes: each hears the others' session changes, and a stale copy stores nothing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from boneyard.web.store.games import StaleCopy, Store
from tests.web import test_postgres
from tests.web.conftest import wait_for
from tests.web.test_lobby import join, open_game, person, seen
from tests.web.test_sessions import PEOPLE, ask, create, play, view


def test_sessions_survive_a_restart_on_postgresql(postgres_url: str) -> None:
    with TestClient(test_postgres.make_app(postgres_url)) as client:
        ann, ben = person(client, "Ann"), person(client, "Ben")
        opened = open_game(client, "bones", ann, seat=0)
        joined = join(client, opened["id"], ben)
        assert client.get("/api/lobby").json()["live"][0]["people"] == ["Ann", "Ben"]
        play(client, {"id": opened["id"], "seats": [opened, joined]}, 0, "e5-f5")
        game = {"id": opened["id"], "seats": [opened, joined]}
        assert ask(client, game, 0, "takeback").status_code == 200
        assert ask(client, game, 1, "accept_takeback").status_code == 200
        assert view(client, game)["seq"] == 0
        play(client, game, 0, "e5-f5")
        assert ask(client, game, 1, "resign").status_code == 200
        assert ask(client, game, 1, "rematch").status_code == 200
        other = create(client, "bones", seats=PEOPLE)
    with TestClient(test_postgres.make_app(postgres_url)) as client:
        after = seen(client, joined)
        assert after["terminal"] and after["status"] == "Game over: Black resigned, White wins"
        kinds = [e["kind"] for e in after["session"]["events"]]
        assert kinds == ["takeback_request", "takeback", "resign"]
        assert after["seq"] == 1, "the taken-back move is gone from the log"
        nxt = after["session"]["next_url"]
        assert nxt and "?t=" in nxt
        next_id, next_token = nxt.split("/")[2].split("?t=")
        resumed = client.get(f"/api/games/{next_id}", params={"token": next_token}).json()
        assert resumed["seat"] == 0 and resumed["current_player"] == 0, "the loser opens"
        assert not view(client, other)["terminal"]


def test_two_processes_see_each_others_takebacks_and_resignations(postgres_url: str) -> None:
    with (
        TestClient(test_postgres.make_app(postgres_url)) as a,
        TestClient(test_postgres.make_app(postgres_url)) as b,
    ):
        game = create(a, "bones", seats=PEOPLE)
        play(a, game, 0, "e5-f5")
        assert view(b, game, 1)["seq"] == 1  # process B holds a copy from here on
        assert ask(a, game, 0, "takeback").status_code == 200
        wait_for(
            "B hears the request", lambda: view(b, game, 1)["session"]["can"]["answer_takeback"]
        )
        assert ask(b, game, 1, "accept_takeback").status_code == 200
        wait_for("A hears the takeback", lambda: view(a, game, 0)["seq"] == 0)
        # the same move number again, another move: both copies describe the new one
        play(a, game, 0, "d5-e5")
        for client in (a, b):
            log = wait_for("the move reaches both", lambda c=client: view(c, game, 1)["log"])
            assert [line["string"] for line in log] == ["d5-e5"]
            assert "d5" in log[0]["words"] and "f5" not in log[0]["words"]
        assert ask(b, game, 1, "resign").status_code == 200
        seen = wait_for("A hears it", lambda: view(a, game, 0)["terminal"] and view(a, game, 0))
        assert seen["status"] == "Game over: Black resigned, White wins"
        legal = view(b, game, 0)["legal"]
        assert legal == [], "no move is offered in a resigned game"


def test_a_copy_that_missed_a_change_stores_nothing(postgres_url: str) -> None:
    """The store refuses a move on a game that is over, or after a gap (a copy that missed a
    takeback made elsewhere), whichever process sends it and whether it heard the change."""
    with TestClient(test_postgres.make_app(postgres_url)) as client:
        game = create(client, "bones", seats=PEOPLE)
        play(client, game, 0, "e5-f5")
        play(client, game, 1, "a1-a2")
    store = Store(postgres_url)
    try:
        move = store.load(game["id"]).actions[0]
        with pytest.raises(StaleCopy):
            store.append_actions(game["id"], 3, [move])  # move 2 is not stored
        with pytest.raises(StaleCopy):
            store.append_actions(game["id"], 3, [move], returns=[1.0, -1.0])
        assert store.action_count(game["id"]) == 2
        with TestClient(test_postgres.make_app(postgres_url)) as client:
            assert ask(client, game, 0, "resign").status_code == 200
        with pytest.raises(StaleCopy):
            store.append_actions(game["id"], 2, [move])  # the game is over
        assert store.action_count(game["id"]) == 2
    finally:
        store.close()
