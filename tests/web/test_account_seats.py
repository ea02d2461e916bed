"""Seats that are an account's (issue 41, item 2): the token alone does not open them.

A seat taken while signed in belongs to the account; its link opens it only with that account's
session (a shared browser after a log-out, a copied link), and a sign-up's claim never takes it.
A guest's seat opens by its token, as before.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import create, make_app, token
from tests.web.test_accounts import PASSWORD, at, login, sign_up

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
    # (the token is only in the log-in's way back to this address, which holds it already)
    assert page.text.count(token(made, 0)) == 1
    assert "This seat is Ann’s." in page.text
    back = f"/game/{made['id']}?t={token(made, 0)}"
    assert f'href="/login?{urlencode({"next": back})}"' in page.text
    # The log-in it offers leads back to the seat, now Ann's page again.
    login_page = client.get("/login", params={"next": back})
    assert f'name="next" value="{back}"' in login_page.text
    form = {"name": "Ann", "password": PASSWORD, "next": back}
    answer = client.post("/login", data=form, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == back
    assert f'data-tokens="{token(made, 0)}"' in client.get(url).text


@pytest.mark.parametrize(
    "elsewhere", ["https://evil.example/", "//evil.example/game/x", "/game/x?t=a&next=//e", ""]
)
def test_a_log_in_leads_back_only_to_a_game_page_of_this_site(
    client: TestClient, elsewhere: str
) -> None:
    sign_up(client, "Ann")
    client.post("/api/logout")
    assert 'name="next"' not in client.get("/login", params={"next": elsewhere}).text
    form = {"name": "Ann", "password": PASSWORD, "next": elsewhere}
    answer = client.post("/login", data=form, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/mine"


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


# ----- names (issue 41, item 3) ------------------------------------------------------------------


def _two_people(client: TestClient) -> dict[str, Any]:
    return create(client, "toy_walk", seats=[{"kind": "human"}, {"kind": "human"}])


def _rename(client: TestClient, made: dict[str, Any], seat: int, name: str) -> Any:
    body = {"token": token(made, seat), "do": "name", "name": name}
    return client.post(f"/api/games/{made['id']}/session", json=body)


def test_an_accounts_seat_shows_its_name_as_written_and_keeps_it(client: TestClient) -> None:
    sign_up(client, "alice")
    made = create(client, "toy_walk", seats=[{"kind": "human", "name": "Queen"}, {"kind": "human"}])
    mine = client.get(f"/api/games/{made['id']}", params={"token": token(made, 0)}).json()
    side = mine["players"][0]["side"].capitalize()
    assert mine["seats"][0]["label"] == f"alice ({side})"  # the account's, not capitalised
    assert mine["players"][0]["listed"] == f"alice ({side}, you)"  # one pair of brackets
    assert mine["players"][0]["account"] is True
    refused = _rename(client, made, 0, "carol")
    assert refused.status_code == 409 and refused.json()["error"] == "account_name"
    assert "alice" in refused.json()["detail"]
    friend = at(client, "127.0.0.8")
    seen = friend.get(f"/api/games/{made['id']}", params={"token": token(made, 1)}).json()
    assert seen["seats"][0]["label"] == f"alice ({side})"
    assert seen["players"][1]["account"] is False


def test_a_seat_claimed_by_an_invitation_takes_the_accounts_name(client: TestClient) -> None:
    made = _two_people(client)
    assert _rename(client, made, 1, "Bobby").status_code == 200
    friend = at(client, "127.0.0.8")
    sign_up(friend, "bob")
    claimed = friend.post(f"/api/games/{made['id']}/account", json={"token": token(made, 1)})
    assert claimed.status_code == 200
    view = client.get(f"/api/games/{made['id']}", params={"token": token(made, 0)}).json()
    assert view["seats"][1]["label"].startswith("bob (")


@pytest.mark.parametrize("look_alike", ["alice", "ALICE", "a1ice", "\u0430lice", " alice "])
def test_nobody_else_takes_an_accounts_name_or_one_that_looks_like_it(
    client: TestClient, look_alike: str
) -> None:
    sign_up(client, "alice")
    client.post("/api/logout")
    guest = at(client, "127.0.0.8")

    def refused(answer: Any) -> None:
        assert answer.status_code == 409, answer.text
        assert answer.json()["error"] == "name_taken"
        assert "'alice'" in answer.json()["detail"]

    seats = [{"kind": "human", "name": look_alike}, {"kind": "computer", "level": "easy"}]
    refused(guest.post("/api/games", json={"game": "toy_walk", "seats": seats}))
    made = _two_people(guest)
    refused(_rename(guest, made, 1, look_alike))
    view = guest.get(f"/api/games/{made['id']}", params={"token": token(made, 1)}).json()
    assert view["players"][1]["person_name"] is None  # nothing changed
    refused(guest.post("/api/people", json={"name": look_alike}))
    person = guest.post("/api/people", json={"name": "Guest"}).json()
    rename = {"secret": person["secret"], "name": look_alike}
    refused(guest.post(f"/api/people/{person['id']}/name", json=rename))
    refused(guest.post("/api/pairing", json={"game": "toy_walk", "name": look_alike}))
    if look_alike in ("ALICE", "a1ice"):  # (the others are no account names at all)
        account = {"name": look_alike, "password": "correct horse battery"}
        taken = guest.post("/api/accounts", json=account)
        assert taken.status_code == 409 and taken.json()["error"] == "name_taken"


def test_a_guest_may_still_name_themselves_anything_else(client: TestClient) -> None:
    sign_up(client, "alice")
    made = _two_people(client)
    guest = at(client, "127.0.0.8")
    assert _rename(guest, made, 1, "alicia").status_code == 200
    assert guest.post("/api/people", json={"name": "Ann"}).status_code == 201


def test_a_seats_own_page_is_not_told_its_own_new_name(client: TestClient) -> None:
    made = _two_people(client)
    assert _rename(client, made, 0, "Ann").status_code == 200
    own = client.get(f"/api/games/{made['id']}/session", params={"token": token(made, 0)}).json()
    other = client.get(f"/api/games/{made['id']}/session", params={"token": token(made, 1)}).json()
    assert not [e for e in own["events"] if e["kind"] == "named"]
    told = [e["words"] for e in other["events"] if e["kind"] == "named"]
    assert len(told) == 1 and told[0].endswith(" is now called Ann"), told


def test_an_old_database_gets_the_look_of_its_account_names(db_path: Any) -> None:
    from sqlalchemy import text

    with TestClient(make_app(db_path)) as first:
        sign_up(first, "alice")
    engine = create_engine(f"sqlite:///{db_path}")
    with engine.begin() as connection:  # the table as it was before names had a look
        connection.execute(text("DROP INDEX ix_accounts_look"))
        connection.execute(text("ALTER TABLE accounts DROP COLUMN look"))
        connection.execute(text("DROP TABLE alembic_version"))  # and before migrations
    engine.dispose()
    with TestClient(make_app(db_path)) as again:
        answer = again.post("/api/accounts", json={"name": "a1ice", "password": "long enough"})
        assert answer.status_code == 409 and "looks like 'alice'" in answer.json()["detail"]
        assert login(again, "alice").status_code == 200


def test_a_puzzle_from_the_home_page_takes_no_accounts_name(client: TestClient) -> None:
    sign_up(client, "alice")
    client.post("/api/logout")
    form = {"level": "1", "name0": "Alice"}
    refused = client.post("/ladder/play", data=form, follow_redirects=False)
    assert refused.status_code == 409 and "is the name of an account here" in refused.text
    dealt = client.post("/ladder/play", data={"level": "1", "name0": "Zoe"}, follow_redirects=False)
    assert dealt.status_code == 303
