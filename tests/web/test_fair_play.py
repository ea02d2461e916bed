"""Fair play: between people, hints only in a game created with hints on (issue 26, item 6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import create, make_app, token


def hint(client: TestClient, game_id: str, seat_token: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/hint", json={"token": seat_token, **body})


def test_people_get_no_hint_in_a_game_made_with_the_defaults(client: TestClient) -> None:
    created = create(client, "toy_walk")
    refused = hint(client, created["id"], token(created, 0))
    assert refused.status_code == 403
    assert refused.json()["error"] == "hints_off"
    assert "created with hints on" in refused.json()["detail"]
    view = client.get(f"/api/games/{created['id']}", params={"token": token(created, 0)})
    assert view.json()["hints_on"] is False


def test_the_socket_refuses_a_hint_between_people_too(client: TestClient) -> None:
    created = create(client, "toy_walk")
    with client.websocket_connect(f"/ws/games/{created['id']}?token={token(created, 0)}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_json({"type": "hint", "request": 1})
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["error"] == "hints_off", answer
        assert answer["status"] == 403
        ws.send_json({"type": "hint", "tokens": "everything"})
        assert ws.receive_json()["error"] == "bad_request"


def test_people_get_hints_in_a_game_created_with_hints_on(db_path: Path) -> None:
    with TestClient(make_app(db_path)) as client:
        created = create(client, "toy_walk", hints=True)
        answer = hint(client, created["id"], token(created, 0))
        assert answer.status_code == 200, answer.text
        assert client.get(f"/api/games/{created['id']}").json()["hints_on"] is True
    with TestClient(make_app(db_path)) as client:  # the choice is stored with the game
        assert client.get(f"/api/games/{created['id']}").json()["hints_on"] is True
        answer = hint(client, created["id"], token(created, 0))
        assert answer.status_code == 200, answer.text


def test_hints_stay_against_the_computer(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    created = create(client, "toy_walk", seats=seats)
    answer = hint(client, created["id"], token(created, 0))
    assert answer.status_code == 200, answer.text


def test_hints_stay_at_one_screen(db_path: Path) -> None:
    """A page that plays every person's seat shows it holds them all by sending their tokens."""
    with TestClient(make_app(db_path, hint_interval=0.0)) as client:
        one_screen(client)


def one_screen(client: TestClient) -> None:
    created = create(client, "toy_walk")
    answer = hint(client, created["id"], token(created, 0), tokens=[token(created, 1)])
    assert answer.status_code == 200, answer.text
    wrong = hint(client, created["id"], token(created, 0), tokens=["not-a-token"])
    assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_token"
    with client.websocket_connect(f"/ws/games/{created['id']}?token={token(created, 0)}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_json({"type": "hint", "tokens": [token(created, 1)], "request": 2})
        answer_message = ws.receive_json()
        assert answer_message["type"] == "hint", answer_message


def test_the_lobby_says_hints_on(client: TestClient) -> None:
    opened = client.post("/api/open", json={"game": "toy_walk", "hints": True})
    assert opened.status_code == 201, opened.text
    plain = client.post("/api/open", json={"game": "toy_walk"})
    hints_of = {game["id"]: game["hints_on"] for game in client.get("/api/lobby").json()["waiting"]}
    assert hints_of == {opened.json()["id"]: True, plain.json()["id"]: False}


def test_the_custom_game_form_offers_hints_off_by_default(client: TestClient) -> None:
    form = client.get("/new/toy_walk").text
    assert 'name="hints"' in form and 'name="hints" value="on" checked' not in form
    made = client.post("/new/toy_walk", data={"seat0": "human", "seat1": "human", "hints": "on"})
    assert made.status_code == 200, made.text
    game_id = made.text.split("/game/")[1].split("?")[0]
    assert client.get(f"/api/games/{game_id}").json()["hints_on"] is True
