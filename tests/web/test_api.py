"""The JSON API: creating games, acting, and bad input refused with nothing changed."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import all_games, create, lasting, token

GAMES = sorted(all_games())


def view(client: TestClient, game_id: str, seat_token: str | None = None) -> dict[str, Any]:
    params = {"token": seat_token} if seat_token else {}
    response = client.get(f"/api/games/{game_id}", params=params)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def stored_count(client: TestClient, game_id: str) -> int:
    stored = client.app.state.manager.store.load(game_id)  # type: ignore[attr-defined]
    return len(stored.actions)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_can_be_created_and_played_a_few_moves(client: TestClient, name: str) -> None:
    created = create(client, name)
    assert [seat["kind"] for seat in created["seats"]] == ["human"] * len(created["seats"])
    rng = random.Random(7)
    tokens = [token(created, s) for s in range(len(created["seats"]))]
    for _ in range(6):
        spectator = view(client, created["id"])
        if spectator["terminal"]:
            break
        mover = spectator["current_player"]
        mine = view(client, created["id"], tokens[mover])
        assert mine["legal"], "the seat to move is offered its legal actions"
        choice = rng.choice(mine["legal"])
        response = client.post(
            f"/api/games/{created['id']}/actions",
            json={"token": tokens[mover], "seq": mine["seq"], "action": choice["id"]},
        )
        assert response.status_code == 200, response.text
        after = response.json()
        assert after["seq"] > mine["seq"]
        assert after["log"][mine["seq"]]["string"] == choice["string"]
        assert stored_count(client, created["id"]) == after["seq"]
    assert view(client, created["id"])["legal"] == [], "a spectator is never offered actions"


def test_action_strings_are_accepted(client: TestClient) -> None:
    created = create(client, "toy_walk")
    response = client.post(
        f"/api/games/{created['id']}/actions",
        json={"token": token(created, 0), "seq": 0, "action_string": " A1-A2 "},
    )
    assert response.status_code == 200, response.text
    assert response.json()["log"][0]["string"] == "a1-a2"


def refused(
    client: TestClient, game_id: str, status: int, code: str, **body: Any
) -> dict[str, Any]:
    before = view(client, game_id)
    count = stored_count(client, game_id)
    response = client.post(f"/api/games/{game_id}/actions", json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    assert answer["error"] == code
    assert answer["detail"]
    # (the seat to move's waiting clock ticks on: it is no change)
    assert lasting(view(client, game_id)) == lasting(before), "a refused request changes nothing"
    assert stored_count(client, game_id) == count
    return answer


def test_stale_and_double_actions_are_refused(client: TestClient) -> None:
    created = create(client, "toy_walk")
    game_id, north = created["id"], token(created, 0)
    move = {"token": north, "seq": 0, "action_string": "a1-a2"}
    assert client.post(f"/api/games/{game_id}/actions", json=move).status_code == 200
    answer = refused(client, game_id, 409, "stale", **move)
    assert "move 0" in answer["detail"] and "move 1" in answer["detail"]
    refused(client, game_id, 409, "stale", token=token(created, 1), seq=5, action_string="c3-c2")


def test_out_of_turn_and_illegal_actions_are_refused(client: TestClient) -> None:
    created = create(client, "toy_walk")
    game_id = created["id"]
    answer = refused(
        client, game_id, 409, "not_your_turn", token=token(created, 1), seq=0, action_string="c3-c2"
    )
    assert "North to move" in answer["detail"]
    answer = refused(
        client, game_id, 422, "illegal", token=token(created, 0), seq=0, action_string="a1-c3"
    )
    assert "a1-c3" in answer["detail"] and "legal: a1-b1, a1-a2" in answer["detail"]
    answer = refused(
        client, game_id, 422, "bad_action", token=token(created, 0), seq=0, action_string="fly"
    )
    assert "fly" in answer["detail"]
    refused(client, game_id, 422, "illegal", token=token(created, 0), seq=0, action=10_000)
    refused(client, game_id, 422, "bad_action", token=token(created, 0), seq=0)


def test_wrong_token_and_spectators_cannot_act(client: TestClient) -> None:
    created = create(client, "toy_walk")
    other = create(client, "toy_walk")
    game_id = created["id"]
    refused(client, game_id, 403, "wrong_token", token="guess", seq=0, action_string="a1-a2")
    refused(client, game_id, 403, "wrong_token", token="jeton-éè", seq=0, action=3)
    # A seat of another game is no seat here.
    refused(client, game_id, 403, "wrong_token", token=token(other, 0), seq=0, action=3)
    response = client.get(f"/api/games/{game_id}", params={"token": "nope"})
    assert response.status_code == 403


def test_malformed_requests_are_refused(client: TestClient) -> None:
    created = create(client, "toy_walk")
    game_id = created["id"]
    before = view(client, game_id)
    for body, status, code in (
        (b"{not json", 400, "bad_json"),
        (b"[]", 422, "bad_request"),
        (b'{"token": 3, "seq": 0, "action": 3}', 422, "bad_request"),
    ):
        response = client.post(
            f"/api/games/{game_id}/actions",
            content=body,
            headers={"content-type": "application/json"},
        )
        assert response.status_code == status, response.text
        assert response.json()["error"] == code
    response = client.post(
        f"/api/games/{game_id}/actions",
        json={"token": token(created, 0), "seq": "zero", "action": 3},
    )
    assert response.status_code == 422 and "seq" in response.json()["detail"]
    assert _without_the_clock(view(client, game_id)) == _without_the_clock(before)


def _without_the_clock(seen: dict[str, Any]) -> dict[str, Any]:
    """A view less the seconds its player to move has waited (a second may tick between two
    reads on a loaded machine; nothing a refused request does changes it)."""
    session = dict(seen.get("session") or {})
    if session.get("waiting"):
        session["waiting"] = {**session["waiting"], "seconds": None}
    return {**seen, "session": session}


def test_bad_game_creation_is_refused(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], int, str, str]] = [
        ({"game": "toy_walkk"}, 404, "unknown_game", "toy_walk"),
        ({"game": "toy_walk", "params": {"max_moves": 1}}, 400, "bad_parameter", "max_moves"),
        ({"game": "toy_walk", "params": {"max_moves": "many"}}, 400, "bad_parameter", "many"),
        ({"game": "toy_walk", "params": {"speed": 3}}, 400, "bad_parameter", "speed"),
        ({"game": "toy_walk", "seats": [{"kind": "human"}]}, 400, "bad_seats", "2 seats"),
        (
            {"game": "toy_walk", "seats": [{"kind": "human"}, {"kind": "computer"}]},
            400,
            "bad_seats",
            "level",
        ),
        ({"game": "toy_walk", "seats": [{"kind": "robot"}] * 2}, 422, "bad_request", "kind"),
    ]
    for body, status, code, word in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["error"] == code
        assert word in response.json()["detail"], (word, response.json())
    assert client.app.state.manager.store.game_ids() == []  # type: ignore[attr-defined]


def test_parameters_from_text_and_seat_count_from_players(client: TestClient) -> None:
    created = create(client, "toy_secret", params={"players": "3"})
    assert created["params"] == {"players": 3}
    assert len(created["seats"]) == 3
    assert created["together_url"].count(",") == 2


def test_unknown_game_id_is_404(client: TestClient) -> None:
    response = client.get("/api/games/nothing-here")
    assert response.status_code == 404
    assert response.json()["error"] == "unknown_game_id"
    assert client.get("/game/nothing-here").status_code == 404


def test_tokens_are_secret_and_distinct(client: TestClient) -> None:
    created = create(client, "toy_secret", params={"players": 4})
    tokens = [seat["token"] for seat in created["seats"]]
    assert len(set(tokens)) == 4
    assert all(len(t) >= 32 for t in tokens)
    for seat in range(4):
        text = client.get(f"/api/games/{created['id']}", params={"token": tokens[seat]}).text
        assert all(t not in text for t in tokens), "no view carries a token"


def test_kinds_describe_parameters(client: TestClient) -> None:
    kinds = {kind["name"]: kind for kind in client.get("/api/kinds").json()}
    assert set(kinds) == set(GAMES)
    spec = kinds["toy_walk"]["info"]["parameter_specs"][0]
    assert spec["name"] == "max_moves" and spec["description"]
    assert client.get("/api/kinds/toy_walk").json()["title"] == "Toy Walk"
    assert client.get("/api/kinds/nope").status_code == 404


def test_openapi_documents_the_api(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/api/games" in schema["paths"]
    assert "/api/games/{game_id}/actions" in schema["paths"]
    assert client.get("/docs").status_code == 200


@pytest.mark.parametrize(
    ("page", "script"), [("/docs", "swagger-ui-bundle.js"), ("/redoc", "redoc")]
)
def test_the_api_pages_need_nothing_from_elsewhere(
    client: TestClient, page: str, script: str
) -> None:
    html = client.get(page).text
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(source.startswith("/") for source in sources), sources
    served = [source for source in sources if script in source]
    assert served and all(client.get(source).status_code == 200 for source in sources)
    policy = client.get(page).headers["content-security-policy"]
    assert "default-src 'self'" in policy and "http" not in policy


def test_hint_for_the_seat_to_move_only(client: TestClient) -> None:
    created = create(client, "toy_walk", hints=True)
    game_id = created["id"]
    response = client.post(f"/api/games/{game_id}/hint", json={"token": token(created, 1)})
    assert response.status_code == 409
    response = client.post(f"/api/games/{game_id}/hint", json={"token": token(created, 0)})
    assert response.status_code == 200, response.text
    hint = response.json()
    assert hint["string"] in ("a1-a2", "a1-b1") and hint["seq"] == 0
    assert stored_count(client, game_id) == 0, "a hint plays nothing"


def test_websocket_refuses_bad_messages_and_keeps_the_connection(client: TestClient) -> None:
    created = create(client, "toy_walk")
    game_id = created["id"]
    with client.websocket_connect(f"/ws/games/{game_id}?token={token(created, 0)}") as ws:
        assert ws.receive_json()["type"] == "view"
        for text, code in (
            ("{nope", "bad_json"),
            ("[1, 2]", "bad_json"),
            ('{"type": "dance"}', "bad_request"),
            ('{"type": "act", "action": 3}', "bad_request"),
            ('{"type": "act", "seq": 0, "action": [3]}', "bad_action"),
            ('{"type": "act", "seq": 4, "action": 3, "request": 9}', "stale"),
            ('{"type": "act", "seq": 0, "action_string": "a1-c3"}', "illegal"),
        ):
            ws.send_text(text)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["error"] == code, (text, answer)
            assert answer["detail"]
        assert answer["status"] == 422
        ws.send_text('{"type": "act", "seq": 0, "action_string": "a1-a2", "request": 5}')
        assert ws.receive_json()["seq"] == 1  # the new view
        assert ws.receive_json() == {"type": "ack", "request": 5, "seq": 1}
        ws.send_text('{"type": "act", "seq": 1, "action_string": "a2-a3"}')
        assert ws.receive_json()["error"] == "not_your_turn"
        ws.send_text('{"type": "sync"}')
        assert ws.receive_json()["seq"] == 1
    assert stored_count(client, game_id) == 1


def test_websocket_with_a_wrong_token_is_closed_with_a_reason(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    created = create(client, "toy_walk")
    with client.websocket_connect(f"/ws/games/{created['id']}?token=wrong") as ws:
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["error"] == "wrong_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/games/none-such") as ws:
        assert ws.receive_json()["error"] == "unknown_game_id"


def test_spectator_socket_sees_moves_but_cannot_act(client: TestClient) -> None:
    created = create(client, "toy_walk")
    game_id = created["id"]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        first = ws.receive_json()
        assert first["seat"] is None and first["legal"] == []
        ws.send_text('{"type": "act", "seq": 0, "action": 3}')
        assert ws.receive_json()["error"] == "spectator"
        client.post(
            f"/api/games/{game_id}/actions",
            json={"token": token(created, 0), "seq": 0, "action_string": "a1-a2"},
        )
        update = ws.receive_json()
        assert update["type"] == "view" and update["log"][0]["string"] == "a1-a2"


def test_parameters_naming_server_files_are_refused(client: TestClient) -> None:
    if "bonbon" not in client.get("/api/kinds").text:
        pytest.skip("bonbon is not registered")
    response = client.post("/api/games", json={"game": "bonbon", "params": {"deck": "/etc/passwd"}})
    assert response.status_code == 400
    assert "names a file on the server" in response.json()["detail"]
    assert client.app.state.manager.store.game_ids() == []  # type: ignore[attr-defined]
    form = client.get("/new/bonbon")
    assert form.status_code == 200 and 'name="p_deck"' not in form.text


def test_computer_levels_are_numbers_on_the_game_scale_or_the_old_names(
    client: TestClient,
) -> None:
    kind = client.get("/api/kinds/bones").json()
    numbers = [level["number"] for level in kind["levels"]]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 3
    assert kind["levels"][0]["aliases"] == ["easy"]
    for level, stored in ((3, "3"), ("2", "2"), ("hard", "hard"), ("Medium", "medium")):
        body = {"game": "bones", "seats": [{"kind": "human"}, {"kind": "computer", "level": level}]}
        response = client.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        assert response.json()["seats"][1]["level"] == stored
        assert ("level 3" if stored == "3" else stored) in response.json()["seats"][1]["label"]
    for level in (9, "0", "grandmaster", True, 2.5):
        body = {"game": "bones", "seats": [{"kind": "human"}, {"kind": "computer", "level": level}]}
        response = client.post("/api/games", json=body)
        assert response.status_code in (400, 422), (level, response.text)
        if response.status_code == 400:
            assert response.json()["error"] == "bad_seats"
            assert f"1 to {len(numbers)} or easy, medium, hard" in response.json()["detail"]
