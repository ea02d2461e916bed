"""Accounts (issue 34): sign up, log in and out, sessions, recovery codes, claims, the guard."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any, Literal

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import update

from boneyard.web.guard.budgets import Spend, charges_of
from boneyard.web.guard.signin import COOKIE
from boneyard.web.people import accounts
from boneyard.web.store.accounts import SignInRow
from tests.web.conftest import another_person, create, make_app, token
from tests.web.test_ratings import move_each_side

PASSWORD = "correct horse battery"


def sign_up(client: TestClient, name: str, password: str = PASSWORD, **body: Any) -> Any:
    answer = client.post("/api/accounts", json={"name": name, "password": password, **body})
    assert answer.status_code == 201, answer.text
    return answer


def login(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/login", json={"name": name, "password": password})


def at(client: TestClient, address: str) -> TestClient:
    """Another client of the same app, from ``address`` (its own cookies)."""
    return another_person(client, address)


def test_sign_up_answers_the_name_codes_and_a_safe_cookie(client: TestClient) -> None:
    answer = sign_up(client, "Ada_1")
    assert answer.json()["name"] == "Ada_1"
    codes = answer.json()["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP here; over HTTPS it is Secure (below)
    assert client.get("/api/me").json()["name"] == "Ada_1"
    assert client.get("/api/me").json()["recovery_codes_left"] == 10


def test_the_cookie_is_secure_over_https(db_path: Path) -> None:
    app = make_app(db_path)
    with TestClient(app, base_url="https://testserver") as secure:
        answer = sign_up(secure, "Secure")
        assert "Secure" in answer.headers["set-cookie"]


def test_log_out_ends_the_session_and_log_in_makes_a_new_one(client: TestClient) -> None:
    sign_up(client, "Bea")
    first = client.cookies[COOKIE]
    assert client.post("/api/logout").status_code == 200
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me").json()["error"] == "not_signed_in"
    # The ended session's id opens nothing, even sent again by hand.
    other = at(client, "127.0.0.9")
    other.cookies.set(COOKIE, first)
    assert other.get("/api/me").status_code == 401
    assert login(client, "bea").status_code == 200  # a name in any case
    assert client.cookies[COOKIE] != first
    assert client.get("/api/me").json()["name"] == "Bea"


def test_log_in_rotates_the_session_id(client: TestClient) -> None:
    sign_up(client, "Cleo")
    before = client.cookies[COOKIE]
    assert login(client, "Cleo").status_code == 200
    after = client.cookies[COOKIE]
    assert after != before
    stale = at(client, "127.0.0.9")
    stale.cookies.set(COOKIE, before)
    assert stale.get("/api/me").status_code == 401


def test_an_idle_session_is_over(db_path: Path) -> None:
    with TestClient(make_app(db_path, session_idle_seconds=3600.0)) as client:
        sign_up(client, "Dora")
        assert client.get("/api/me").status_code == 200
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        with store.engine.begin() as connection:  # an hour and a minute without a request
            connection.execute(update(SignInRow).values(last_seen=time.time() - 3660))
        assert client.get("/api/me").status_code == 401


@pytest.mark.parametrize(
    ("name", "password", "code", "words"),
    [
        ("a", PASSWORD, "bad_name", "2 to 30 letters"),
        ("has space", PASSWORD, "bad_name", "2 to 30 letters"),
        ("-dash", PASSWORD, "bad_name", "beginning and ending"),
        ("x" * 31, PASSWORD, "bad_name", "2 to 30"),
        ("Eve", "short", "bad_password", "8 to 200 characters; this one has 5"),
    ],
)
def test_bad_names_and_passwords_are_refused_with_the_rule(
    client: TestClient, name: str, password: str, code: str, words: str
) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 400
    assert answer.json()["error"] == code and words in answer.json()["detail"]
    assert COOKIE not in client.cookies
    assert login(client, name, password).status_code == 401  # nothing was made


def test_a_taken_name_is_refused_whatever_its_case(client: TestClient) -> None:
    sign_up(client, "Fay")
    answer = at(client, "127.0.0.9").post(
        "/api/accounts", json={"name": "FAY", "password": PASSWORD}
    )
    assert answer.status_code == 409 and answer.json()["error"] == "name_taken"


def test_a_wrong_password_and_an_unknown_name_read_alike_and_cost_alike(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_up(client, "Gus")
    checked: list[str] = []

    class Counting(PasswordHasher):
        def verify(self, password_hash: str | bytes, password: str | bytes) -> Literal[True]:
            checked.append(str(password_hash))
            return super().verify(password_hash, password)

    monkeypatch.setattr(accounts, "_hasher", Counting())
    wrong = login(client, "Gus", "not the password")
    unknown = login(client, "Nobody", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {
            "error": "bad_login",
            "detail": "wrong account name or password",
        }
    )
    # One argon2id check each: the unknown name's against a dummy hash of the same cost.
    assert len(checked) == 2 and all(h.startswith("$argon2id$") for h in checked)
    assert checked[0] != checked[1]


def test_forty_wrong_passwords_from_one_address_leave_the_owner_in(db_path: Path) -> None:
    """Default budgets: one address guesses slowly; the owner logs in from another."""
    with TestClient(make_app(db_path, logins_per_minute=10, logins_per_name=5)) as app_client:
        owner = at(app_client, "127.0.0.2")
        sign_up(owner, "Hana")
        owner.post("/api/logout")
        guesser = at(app_client, "127.0.3.1")
        answers = [login(guesser, "Hana", f"guess number {n}").status_code for n in range(40)]
        assert answers[:5] == [401] * 5  # five tries on the name from this address, then none
        assert set(answers[5:]) == {429}
        refused = login(guesser, "Hana")  # even the right password: this address is out of tries
        assert refused.status_code == 429 and refused.headers["Retry-After"]
        assert "log-in tries" in refused.json()["detail"]
        assert login(owner, "Hana").status_code == 200
        assert owner.get("/api/me").json()["name"] == "Hana"
        # A third address, never used for the name, still gets its own few tries.
        assert login(at(app_client, "127.0.0.3"), "Hana").status_code == 200


def test_many_addresses_together_guess_slowly_but_not_the_owners(db_path: Path) -> None:
    settings = {"logins_per_name": 5, "logins_per_name_everywhere": 12}
    with TestClient(make_app(db_path, **settings)) as app_client:
        owner = at(app_client, "127.0.0.2")
        sign_up(owner, "Ines")
        answers = [
            login(at(app_client, f"127.0.4.{n}"), "Ines", "wrong password").status_code
            for n in range(20)
        ]
        assert answers.count(401) == 12 and answers[12:] == [429] * 8
        assert login(owner, "Ines").status_code == 200  # its address signed in before


def test_the_owners_address_is_known_to_every_server_process(db_path: Path) -> None:
    """Two apps on one database stand for two server processes: the owner signed in through
    one, the guessing comes through the other, and the owner still gets in there."""
    settings = {"logins_per_name": 5, "logins_per_name_everywhere": 12}
    with TestClient(make_app(db_path, **settings)) as first:
        owner = at(first, "127.0.0.2")
        sign_up(owner, "Ines")
        assert login(owner, "Ines").status_code == 200
    with TestClient(make_app(db_path, **settings)) as second:
        answers = [
            login(at(second, f"127.0.4.{n}"), "Ines", "wrong password").status_code
            for n in range(20)
        ]
        assert answers.count(401) == 12 and answers[12:] == [429] * 8
        assert login(at(second, "127.0.0.2"), "Ines").status_code == 200
        assert login(at(second, "127.0.0.3"), "Ines").status_code == 429  # not an owner's
    stored = b"".join(path.read_bytes() for path in db_path.parent.glob("web.db*"))
    assert b"127.0.0.2" not in stored  # kept as a hash with the folded name


def test_passwords_are_never_logged_nor_stored(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "a very particular password 1"
    caplog.set_level(logging.DEBUG)
    with TestClient(make_app(db_path)) as client:
        sign_up(client, "Jo", secret)
        assert login(client, "Jo", secret + "x").status_code == 401
        assert login(client, "Jo", secret).status_code == 200
    assert not any(secret in record.getMessage() for record in caplog.records)
    stored = b"".join(path.read_bytes() for path in db_path.parent.glob("web.db*"))
    assert secret.encode() not in stored
    assert b"$argon2id$" in stored


def test_a_recovery_code_opens_the_account_once(client: TestClient) -> None:
    codes = sign_up(client, "Kim").json()["recovery_codes"]
    phone = at(client, "127.0.0.9")
    assert login(phone, "Kim").status_code == 200
    other = at(client, "127.0.0.8")
    new = "a brand new password"
    answer = other.post("/api/recover", json={"name": "Kim", "code": codes[3], "password": new})
    assert answer.status_code == 200 and answer.json()["recovery_codes_left"] == 9
    assert other.get("/api/me").json()["name"] == "Kim"
    assert phone.get("/api/me").status_code == 401  # every other session ended
    again = other.post("/api/recover", json={"name": "Kim", "code": codes[3], "password": new})
    assert again.status_code == 401 and again.json()["error"] == "bad_recovery"
    assert login(phone, "Kim").status_code == 401
    assert login(phone, "Kim", new).status_code == 200


def test_sign_up_claims_the_browsers_games_and_identity(client: TestClient) -> None:
    created = create(
        client, "toy_walk", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    )
    person = client.post("/api/people", json={"name": "Lou"}).json()
    opened = client.post(
        "/api/open",
        json={"game": "toy_walk", "person": {"id": person["id"], "secret": person["secret"]}},
    ).json()
    strange = create(client, "toy_walk")
    claim = {
        "games": [
            {"id": created["id"], "tokens": [token(created, 0)]},
            {"id": strange["id"], "tokens": ["not-a-token"]},
        ],
        "person": {"id": person["id"], "secret": person["secret"]},
    }
    sign_up(client, "Lou", claim=claim)
    games = {g["id"]: g for g in client.get("/api/me/games").json()}
    assert set(games) == {created["id"], opened["id"]}
    assert games[created["id"]]["token"] == token(created, 0)
    assert games[opened["id"]]["token"] == opened["token"]
    assert games[created["id"]] | {"url": None, "replay_url": None} == {
        "id": created["id"],
        "game": "toy_walk",
        "seat": 0,
        "token": token(created, 0),
        "terminal": False,
        "tournament": None,
        "url": None,
        "replay_url": None,
    }
    assert client.get("/api/me").json()["person"] == person["id"]


def test_a_wrong_identity_secret_claims_nothing(client: TestClient) -> None:
    person = client.post("/api/people", json={"name": "Max"}).json()
    client.post(
        "/api/open",
        json={"game": "toy_walk", "person": {"id": person["id"], "secret": person["secret"]}},
    )
    sign_up(client, "Max", claim={"person": {"id": person["id"], "secret": "guessed"}})
    assert client.get("/api/me/games").json() == []
    assert client.get("/api/me").json()["person"] is None


def test_seats_taken_while_signed_in_are_the_accounts_on_every_device(client: TestClient) -> None:
    sign_up(client, "Ned")
    made = create(
        client, "toy_walk", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    )
    opened = client.post("/api/open", json={"game": "toy_walk"}).json()
    joiner = at(client, "127.0.0.7")
    sign_up(joiner, "Ola")
    joined = joiner.post(f"/api/open/{opened['id']}/join", json={}).json()
    assert [g["id"] for g in client.get("/api/me/games").json()] == [opened["id"], made["id"]]
    assert [(g["id"], g["token"]) for g in joiner.get("/api/me/games").json()] == [
        (opened["id"], joined["token"])
    ]
    # On a second device, the same account finds the game and plays on with its token.
    laptop = at(client, "127.0.0.6")
    assert login(laptop, "Ned").status_code == 200
    mine = laptop.get("/api/me/games").json()
    view = laptop.get(f"/api/games/{made['id']}", params={"token": mine[1]["token"]}).json()
    assert view["seat"] == 0 and view["legal"]
    # Playing without an account is as it was: nothing is anybody's.
    anonymous = at(client, "127.0.0.5")
    assert create(anonymous, "toy_walk")["id"]
    assert anonymous.get("/api/me/games").status_code == 401


def test_a_cross_site_post_with_the_cookie_is_refused(client: TestClient) -> None:
    sign_up(client, "Pia")
    evil = {"origin": "https://evil.example"}
    assert client.post("/api/logout", headers=evil).status_code == 403
    assert client.get("/api/me").status_code == 200  # still signed in
    form = {"name": "Pia", "password": PASSWORD}
    assert client.post("/login", data=form, headers=evil).status_code == 403
    assert client.post("/logout", headers=evil).status_code == 403
    own = {"origin": "http://testserver"}
    assert client.post("/logout", headers=own, follow_redirects=False).status_code == 303
    assert client.get("/api/me").status_code == 401


def walk(routes: list[Any]) -> list[Any]:
    """Every route, those of included routers too (FastAPI keeps a router as one entry)."""
    found = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        found += walk(list(inner.routes)) if inner is not None else [route]
    return found


def test_the_account_routes_carry_their_charges(client: TestClient) -> None:
    expected = {
        ("POST", "/api/accounts"): Spend.SIGNUP,
        ("POST", "/api/login"): Spend.LOGIN,
        ("POST", "/api/recover"): Spend.LOGIN,
        ("POST", "/api/logout"): Spend.SESSION,
        ("GET", "/api/players/{name}"): Spend.LOOKUP,
        ("GET", "/api/leaderboard/{game}"): Spend.LOOKUP,
        ("POST", "/signup"): Spend.SIGNUP,
        ("POST", "/login"): Spend.LOGIN,
        ("POST", "/recover"): Spend.LOGIN,
        ("POST", "/logout"): Spend.SESSION,
        ("GET", "/@/{name}"): Spend.LOOKUP,
        ("POST", "/api/pairing"): Spend.GAME,
        ("POST", "/api/pairing/{seek_id}"): Spend.SESSION,
        ("POST", "/api/pairing/{seek_id}/cancel"): Spend.SESSION,
        ("POST", "/api/games/{game_id}/account"): Spend.SESSION,
        ("POST", "/api/passkeys/options"): Spend.SESSION,
        ("POST", "/api/passkeys"): Spend.SESSION,
        ("POST", "/api/login/passkey/options"): Spend.LOGIN,
        ("POST", "/api/login/passkey"): Spend.LOGIN,
    }
    found = {}
    for route in walk(list(client.app.routes)):  # type: ignore[attr-defined]
        for method in getattr(route, "methods", None) or ():
            key = (method, getattr(route, "path", ""))
            if key in expected:
                charges = charges_of(list(route.dependant.dependencies))
                found[key] = [charge.spend for charge in charges]
    assert found == {key: [spend] for key, spend in expected.items()}


def test_sign_ups_are_charged_per_address(db_path: Path) -> None:
    with TestClient(make_app(db_path, signups_per_minute=2)) as app_client:
        one = at(app_client, "127.0.0.2")
        sign_up(one, "Quinn")
        sign_up(one, "Quinn2")
        refused = one.post("/api/accounts", json={"name": "Quinn3", "password": PASSWORD})
        assert refused.status_code == 429 and "new accounts" in refused.json()["detail"]
        sign_up(at(app_client, "127.0.0.3"), "Quinn3")


def test_an_invitation_opened_while_signed_in_gives_the_seat_to_the_account(
    client: TestClient,
) -> None:
    sign_up(client, "Rae")
    made = create(client, "toy_walk", rated=True)
    guest = at(client, "127.0.0.7")
    claim = {"token": token(made, 1)}
    refused = guest.post(f"/api/games/{made['id']}/account", json=claim)
    assert refused.status_code == 401  # nobody signed in there yet
    sign_up(guest, "Sol")
    wrong = guest.post(f"/api/games/{made['id']}/account", json={"token": "nope"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_token"
    taken = guest.post(f"/api/games/{made['id']}/account", json={"token": token(made, 0)})
    assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    answer = guest.post(f"/api/games/{made['id']}/account", json=claim)
    assert answer.json() == {"seat": 1, "account": "Sol"}
    assert guest.post(f"/api/games/{made['id']}/account", json=claim).status_code == 200
    assert [g["seat"] for g in guest.get("/api/me/games").json()] == [1]
    # Both seats now belong to different accounts: the rated game counts (once each moved).
    move_each_side(made["id"], [(client, token(made, 0)), (guest, token(made, 1))])
    resign = {"token": token(made, 1), "do": "resign"}
    assert guest.post(f"/api/games/{made['id']}/session", json=resign).status_code == 200
    changes = client.get(f"/api/games/{made['id']}/rating").json()["changes"]
    assert {c["name"]: c["change"] > 0 for c in changes} == {"Rae": True, "Sol": False}


def test_the_cookie_outlives_the_idle_time_which_the_server_keeps(client: TestClient) -> None:
    cookie = sign_up(client, "Tam").headers["set-cookie"]
    assert "Max-Age=34560000" in cookie  # 400 days: an active session is never cut short


def test_ladder_results_are_kept_with_the_account(client: TestClient) -> None:
    first = {"levels": {"1": {"used": 5, "shortest": 3}}, "daily": {}}
    sign_up(client, "Uli", claim={"ladder": first})
    assert client.get("/api/me/ladder").json() == first
    phone = at(client, "127.0.0.6")
    assert login(phone, "Uli").status_code == 200
    better = {
        "levels": {"1": {"used": 3, "shortest": 3}, "2": {"used": 9, "shortest": 4}},
        "daily": {"2026-11-27": {"used": 6, "shortest": 6}},
    }
    assert phone.post("/api/me/ladder", json=better).json() == better
    worse = {"levels": {"1": {"used": 8, "shortest": 3}}, "daily": {}}
    assert client.post("/api/me/ladder", json=worse).json() == better  # the best of each stays
    refused = client.post("/api/me/ladder", json={"levels": {"zero": {"used": 1, "shortest": 1}}})
    assert refused.status_code == 422 and "levels.zero" in refused.json()["detail"]
    assert at(client, "127.0.0.5").get("/api/me/ladder").status_code == 401


def test_the_sign_up_form_claims_what_it_can(client: TestClient) -> None:
    created = create(
        client, "toy_walk", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
    )
    claim = {
        "games": [{"id": created["id"], "tokens": [token(created, 0)]}],
        "ladder": {"levels": {"not a level": {"used": 1, "shortest": 1}}},
    }
    form = {"name": "Vera", "password": PASSWORD, "again": PASSWORD, "claim": json.dumps(claim)}
    page = client.post("/signup", data=form, headers={"origin": "http://testserver"})
    assert page.status_code == 200 and "Welcome, Vera" in page.text
    assert page.text.count("<li><code>") == 10
    assert [g["id"] for g in client.get("/api/me/games").json()] == [created["id"]]
    assert client.get("/api/me/ladder").json() == {"levels": {}, "daily": {}}
    differ = {"name": "Wes", "password": PASSWORD, "again": PASSWORD + "!"}
    again = at(client, "127.0.0.4").post("/signup", data=differ)
    assert again.status_code == 400 and "the two passwords differ" in again.text


def test_passkey_requests_that_cannot_hold_are_refused_plainly(client: TestClient) -> None:
    assert client.post("/api/passkeys/options").status_code == 401
    sign_up(client, "Xan")
    started = client.post("/api/passkeys/options").json()
    options = started["options"]
    assert options["rp"] == {"id": "testserver", "name": "boneyard"}
    assert options["user"]["name"] == "Xan"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    bad = client.post("/api/passkeys", json={"id": started["id"], "credential": {"id": "x"}})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_passkey"
    again = client.post("/api/passkeys", json={"id": started["id"], "credential": {"id": "x"}})
    assert again.status_code == 409 and again.json()["error"] == "stale_challenge"  # spent
    login_options = client.post("/api/login/passkey/options").json()
    unknown = {"id": login_options["id"], "credential": {"id": "AAAA", "type": "public-key"}}
    refused = client.post("/api/login/passkey", json=unknown)
    assert refused.status_code == 401 and refused.json()["error"] == "bad_login"
