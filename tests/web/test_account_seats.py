"""Seats that are an account's (issue 41, item 2): the token alone does not open them.

A seat taken while signed in belongs to the account; its link opens it only with that account's
session (a shared browser after a log-out, a copied link), and a sign-up's claim never takes it.
A guest's seat opens by its token, as before.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import create, token
from tests.web.test_accounts import at, login, sign_up

AGAINST_THE_COMPUTER = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]


def _refused(answer: Any) -> None:
    assert answer.status_code == 403, answer.text
    body = answer.json()
    assert body["error"] == "account_seat"
    assert "Ann's" in body["detail"] and "log in as Ann" in body["detail"]


def test_an_accounts_seat_needs_its_session_not_only_its_token(client: TestClient) -> None:
    sign_up(client, "Ann")
    made = create(client, "toy_walk", seats=AGAINST_THE_COMPUTER)
    game, seat_token = made["id"], token(made, 0)
    assert client.get(f"/api/games/{game}", params={"token": seat_token}).json()["seat"] == 0
    assert client.post("/api/logout").status_code == 200
    # The same browser after the log-out, and anyone the link was copied to:
    for stranger in (client, at(client, "127.0.0.8")):
        _refused(stranger.get(f"/api/games/{game}", params={"token": seat_token}))
        view = stranger.get(f"/api/games/{game}", params={"token": seat_token})
        assert "observation" not in view.json() and "legal" not in view.json()
        move = {"token": seat_token, "seq": 0, "action_string": "a1-a2"}
        _refused(stranger.post(f"/api/games/{game}/actions", json=move))
        _refused(
            stranger.post(f"/api/games/{game}/session", json={"token": seat_token, "do": "resign"})
        )
        _refused(stranger.get(f"/api/games/{game}/session", params={"token": seat_token}))
        _refused(stranger.get(f"/api/games/{game}/log", params={"token": seat_token}))
        _refused(stranger.post(f"/api/games/{game}/hint", json={"token": seat_token}))
        with stranger.websocket_connect(f"/ws/games/{game}?token={seat_token}") as ws:
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["error"] == "account_seat"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
        # Watching needs no token, and shows what a spectator sees.
        assert stranger.get(f"/api/games/{game}").json()["seat"] is None
    assert client.get(f"/api/games/{game}").json()["seq"] == 0  # nothing was played or resigned
    # Another account with the link is not Ann either.
    sign_up(client, "Bob")
    _refused(client.get(f"/api/games/{game}", params={"token": seat_token}))
    # Ann, logged in again (on any device), plays on.
    laptop = at(client, "127.0.0.6")
    assert login(laptop, "Ann").status_code == 200
    view = laptop.get(f"/api/games/{game}", params={"token": seat_token}).json()
    assert view["seat"] == 0 and view["legal"]


def test_a_guests_seat_still_opens_by_its_token(client: TestClient) -> None:
    made = create(client, "toy_walk", seats=AGAINST_THE_COMPUTER)
    elsewhere = at(client, "127.0.0.8")
    view = elsewhere.get(f"/api/games/{made['id']}", params={"token": token(made, 0)}).json()
    assert view["seat"] == 0 and view["legal"]


def test_the_game_page_of_someone_elses_seat_watches_and_says_whose_it_is(
    client: TestClient,
) -> None:
    sign_up(client, "Ann")
    made = create(client, "toy_walk", seats=AGAINST_THE_COMPUTER)
    url = f"/game/{made['id']}?t={token(made, 0)}"
    assert f'data-tokens="{token(made, 0)}"' in client.get(url).text
    client.post("/api/logout")
    page = client.get(url)
    assert page.status_code == 200
    assert 'data-tokens=""' in page.text  # the page watches: it holds no seat
    assert token(made, 0) not in page.text
    assert "This seat is Ann’s." in page.text and 'href="/login"' in page.text


def test_a_sign_up_claims_no_other_accounts_seat_nor_identity(client: TestClient) -> None:
    person = client.post("/api/people", json={"name": "Lou"}).json()
    secret = {"id": person["id"], "secret": person["secret"]}
    opened = client.post("/api/open", json={"game": "toy_walk", "person": secret}).json()
    sign_up(client, "Lou", claim={"person": secret})
    made = create(client, "toy_walk", seats=AGAINST_THE_COMPUTER)
    assert {g["id"] for g in client.get("/api/me/games").json()} == {opened["id"], made["id"]}
    client.post("/api/logout")
    # What the browser still held (the seats' tokens, the identity's secret) claims nothing.
    claim = {
        "games": [
            {"id": made["id"], "tokens": [token(made, 0)]},
            {"id": opened["id"], "tokens": [opened["token"]]},
        ],
        "person": secret,
    }
    sign_up(client, "Max", claim=claim)
    assert client.get("/api/me/games").json() == []
    assert client.get("/api/me").json()["person"] is None
    lou = at(client, "127.0.0.6")
    login(lou, "Lou")
    assert {g["id"] for g in lou.get("/api/me/games").json()} == {opened["id"], made["id"]}
    assert lou.get("/api/me").json()["person"] == person["id"]
