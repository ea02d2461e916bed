"""The session tables on PostgreSQL: a takeback, a resignation, a lobby join and a rematch."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web import test_postgres
from tests.web.test_lobby import join, open_game, person, seen
from tests.web.test_sessions import PEOPLE, ask, create, play, view

postgres_url = test_postgres.postgres_url  # the throwaway server, shared with that module


def test_sessions_survive_a_restart_on_postgresql(postgres_url: str) -> None:
    with TestClient(test_postgres.make_app(postgres_url)) as client:
        ann, ben = person(client, "Ann"), person(client, "Ben")
        opened = open_game(client, "bones", ann)
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
