"""``POST /api/turns``: the games that wait for a browser's move (issue 41, item 7)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import create, token
from tests.web.test_accounts import at, sign_up


def turns(client: TestClient, *seats: tuple[str, str]) -> dict[str, Any]:
    body = {"seats": [{"game_id": game, "token": secret} for game, secret in seats]}
    answer = client.post("/api/turns", json=body)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def move(client: TestClient, created: dict[str, Any], seat: int) -> None:
    mine = client.get(f"/api/games/{created['id']}", params={"token": token(created, seat)}).json()
    assert mine["current_player"] == seat
    answer = client.post(
        f"/api/games/{created['id']}/actions",
        json={"token": token(created, seat), "seq": mine["seq"], "action": mine["legal"][0]["id"]},
    )
    assert answer.status_code == 200, answer.text


def test_a_guest_seat_counts_while_its_move_waits_and_not_after(client: TestClient) -> None:
    game = create(client, "toy_walk")
    north, south = (game["id"], token(game, 0)), (game["id"], token(game, 1))
    answer = turns(client, north, south)
    assert answer["waiting"] == 1
    assert answer["games"] == [
        {
            "game_id": game["id"],
            "game": "toy_walk",
            "title": "Toy Walk",
            "url": f"/game/{game['id']}?t={token(game, 0)}",
        }
    ]
    assert turns(client, south)["waiting"] == 0, "South's move does not wait"
    move(client, game, 0)
    assert turns(client, north)["waiting"] == 0
    assert turns(client, south)["games"][0]["url"].endswith(token(game, 1))


def test_finished_games_and_wrong_tokens_count_nothing(client: TestClient) -> None:
    over = create(client, "toy_walk")
    resigned = client.post(
        f"/api/games/{over['id']}/session", json={"token": token(over, 0), "do": "resign"}
    )
    assert resigned.status_code == 200, resigned.text
    other = create(client, "toy_walk")
    answer = turns(
        client,
        (over["id"], token(over, 1)),
        (other["id"], token(over, 0)),  # a token of another game
        ("no-such-game", "x"),
    )
    assert answer == {"waiting": 0, "games": []}


def test_an_accounts_seats_count_on_every_device_and_only_for_it(client: TestClient) -> None:
    alice = at(client, "127.0.0.2")
    sign_up(alice, "alice")
    game = create(alice, "toy_walk")  # made while signed in: North is alice's
    phone = at(client, "127.0.0.3")
    answer = phone.post("/api/login", json={"name": "alice", "password": "correct horse battery"})
    assert answer.status_code == 200, answer.text
    assert turns(phone)["waiting"] == 1, "the account's seat, with no token sent"
    # the account's seat, asked for by its token from a browser without the session
    stranger = at(client, "127.0.0.4")
    assert turns(stranger, (game["id"], token(game, 0)))["waiting"] == 0


def test_bad_requests_say_what_is_allowed(client: TestClient) -> None:
    many = {"seats": [{"game_id": "g", "token": "t"}] * 101}
    answer = client.post("/api/turns", json=many)
    assert answer.status_code == 422
    assert "100" in answer.text
    answer = client.post("/api/turns", json={"seats": [{"game_id": "g", "token": 5}]})
    assert answer.status_code == 422
    assert "token" in answer.text
