"""The words of a seat's view (``boneyard.web.play.words``): names, prompts, what the others did,
why a click is refused, and the one-click random set-up."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.core.registry import list_games
from tests.web.conftest import create, token


def view(client: TestClient, game_id: str, seat_token: str | None = None) -> dict[str, Any]:
    params = {"token": seat_token} if seat_token else {}
    result: dict[str, Any] = client.get(f"/api/games/{game_id}", params=params).json()
    return result


def act(client: TestClient, game_id: str, seat_token: str, action: str) -> None:
    seq = view(client, game_id, seat_token)["seq"]
    body = {"token": seat_token, "seq": seq, "action_string": action}
    response = client.post(f"/api/games/{game_id}/actions", json=body)
    assert response.status_code == 200, response.text


def test_people_are_named_and_the_seat_to_move_is_prompted(client: TestClient) -> None:
    created = create(
        client, "toy_walk", seats=[{"kind": "human", "name": "  Ann   Lee "}, {"kind": "human"}]
    )
    north, south = token(created, 0), token(created, 1)
    mine = view(client, created["id"], north)
    assert [p["name"] for p in mine["players"]] == ["Ann Lee (North)", "South"]
    assert [p["you"] for p in mine["players"]] == [True, False]
    assert mine["prompt"] and mine["labels"] == {a["string"]: a["string"] for a in mine["legal"]}
    theirs = view(client, created["id"], south)
    assert theirs["prompt"] == "Waiting for Ann Lee (North) to move." and theirs["labels"] == {}


def test_the_status_tells_what_the_others_did_since_my_last_move(client: TestClient) -> None:
    created = create(client, "toy_walk")
    north, south = token(created, 0), token(created, 1)
    act(client, created["id"], north, "a1-a2")
    assert view(client, created["id"], north)["recent"] == []
    assert view(client, created["id"], south)["recent"] == ["North: a1-a2"]
    act(client, created["id"], south, "c3-c2")
    assert view(client, created["id"], north)["recent"] == ["South: c3-c2"]
    assert view(client, created["id"], south)["recent"] == []
    assert view(client, created["id"])["recent"] == ["South: c3-c2"], "a spectator: the last"


def test_a_view_without_the_drawing_has_no_words(client: TestClient) -> None:
    created = create(client, "toy_walk")
    bare = client.get(f"/api/games/{created['id']}", params={"draw": "false"}).json()
    assert bare["prompt"] is None and bare["players"] == []


def test_an_illegal_click_gets_one_short_reason(client: TestClient) -> None:
    created = create(client, "toy_walk")
    with client.websocket_connect(f"/ws/games/{created['id']}?token={token(created, 0)}") as ws:
        assert ws.receive_json()["type"] == "view"
        for action, expected in [
            ("a1-c3", "A piece steps to a next empty square."),  # the game's own reason
            ("zz", "That is not a move in this game."),
        ]:
            ws.send_json({"type": "why", "action_string": action, "request": 7})
            answer = ws.receive_json()
            assert answer == {"type": "why", "request": 7, "reason": expected}
    with client.websocket_connect(f"/ws/games/{created['id']}?token={token(created, 1)}") as ws:
        ws.receive_json()
        ws.send_json({"type": "why", "action_string": "c3-c2"})
        assert ws.receive_json()["reason"] == "It is not your move."


def test_a_broken_words_hook_leaves_the_page_working(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.web.toygames import WalkGame

    def broken(*_args: Any) -> str:
        raise RuntimeError("a bug in a prompt")

    monkeypatch.setattr(WalkGame, "prompt", broken)
    created = create(client, "toy_walk")
    mine = view(client, created["id"], token(created, 0))
    assert mine["prompt"] == "Your move." and mine["legal"]


@pytest.mark.skipif("bondo_cones" not in list_games(), reason="bondo_cones is not registered")
def test_bond_o_cones_random_set_up_for_a_person(client: TestClient) -> None:
    created = create(client, "bondo_cones", seats=[{"kind": "human"}, {"kind": "human"}])
    black, white = token(created, 0), token(created, 1)
    assert view(client, created["id"], black)["quick_setup"] is True
    assert view(client, created["id"], white)["quick_setup"] is False, "not white's turn"
    with client.websocket_connect(f"/ws/games/{created['id']}?token={black}") as ws:
        ws.receive_json()
        ws.send_json({"type": "quick_setup", "request": 1})
        while (message := ws.receive_json())["type"] != "ack":
            assert message["type"] == "view"
        assert message["seq"] == 17, "black's 16 cones and its ring"
    after = view(client, created["id"], black)
    assert after["quick_setup"] is False and after["current_player"] == 1
    assert view(client, created["id"], white)["quick_setup"] is True
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "quick_setup"})
        assert ws.receive_json()["error"] == "spectator"
