"""The account's settings page (issue 41, item 8): change the password (the current one first;
every other session ends), new recovery codes shown once, the passkeys listed and removed, log
out everywhere; the password rule written on the forms."""

from __future__ import annotations

import re
import time

from fastapi.testclient import TestClient

from boneyard.web.store.passkeys import PasskeyStore
from tests.web.test_accounts import PASSWORD, at, login, sign_up

ORIGIN = {"origin": "http://testserver"}
NEW = "a brand new secret"


def _codes(page: str) -> list[str]:
    return re.findall(r"<li><code>([0-9a-f]+)</code></li>", page)


def test_the_settings_page_is_the_signed_in_accounts(client: TestClient) -> None:
    away = client.get("/account", follow_redirects=False)
    assert away.status_code == 303 and away.headers["location"] == "/login"
    sign_up(client, "Ann")
    page = client.get("/")
    assert 'href="/account"' in page.text  # from the menu of every page
    settings = client.get("/account")
    assert settings.status_code == 200
    for part in ("Change password", "Make new recovery codes", "Add a passkey"):
        assert part in settings.text
    assert "Log out everywhere" in settings.text and "You have 10 left" in settings.text
    assert "At least 8 characters" in settings.text
    assert "At least 8 characters" in at(client, "127.0.0.9").get("/signup").text


def test_a_new_password_needs_the_old_one_and_ends_the_other_sessions(
    client: TestClient,
) -> None:
    sign_up(client, "Ann")
    laptop = at(client, "127.0.0.6")
    assert login(laptop, "Ann").status_code == 200
    wrong = {"current": "not it at all", "password": NEW, "again": NEW}
    refused = client.post("/account/password", data=wrong, headers=ORIGIN)
    assert refused.status_code == 401 and "not your current password" in refused.text
    short = {"current": PASSWORD, "password": "short", "again": "short"}
    refused = client.post("/account/password", data=short, headers=ORIGIN)
    assert refused.status_code == 400 and "a password is 8 to 200 characters" in refused.text
    assert login(at(client, "127.0.0.5"), "Ann").status_code == 200  # nothing changed
    form = {"current": PASSWORD, "password": NEW, "again": NEW}
    changed = client.post("/account/password", data=form, headers=ORIGIN)
    assert changed.status_code == 200 and "Your password is changed" in changed.text
    assert client.get("/api/me").json()["name"] == "Ann"  # this device stays in
    assert laptop.get("/api/me").status_code == 401  # every other one is out
    assert login(at(client, "127.0.0.4"), "Ann").status_code == 401
    assert login(at(client, "127.0.0.4"), "Ann", NEW).status_code == 200


def test_new_recovery_codes_are_shown_once_and_replace_the_old(client: TestClient) -> None:
    old = sign_up(client, "Ann").json()["recovery_codes"]
    refused = client.post("/account/recovery-codes", data={"current": "wrong!!!"}, headers=ORIGIN)
    assert refused.status_code == 401 and not _codes(refused.text)
    page = client.post("/account/recovery-codes", data={"current": PASSWORD}, headers=ORIGIN)
    codes = _codes(page.text)
    assert page.status_code == 200 and len(codes) == 10 and not set(codes) & set(old)
    assert "Copy the codes" in page.text
    assert not _codes(client.get("/account").text)  # shown only that once
    stranger = at(client, "127.0.0.7")
    body = {"name": "Ann", "code": old[0], "password": NEW}
    assert stranger.post("/api/recover", json=body).status_code == 401
    body["code"] = codes[0]
    assert stranger.post("/api/recover", json=body).status_code == 200


def test_passkeys_are_listed_and_removed_only_by_their_account(client: TestClient) -> None:
    sign_up(client, "Ann")
    other = at(client, "127.0.0.8")
    sign_up(other, "Bob")
    passkeys: PasskeyStore = client.app.state.passkeys  # type: ignore[attr-defined]
    ann = client.get("/api/me").json()
    ann_id = client.app.state.accounts.account_named("Ann").id  # type: ignore[attr-defined]
    assert ann["name"] == "Ann"
    passkeys.add_passkey("credential-of-ann", ann_id, b"key", 0)
    page = client.get("/account").text
    assert "Passkey added on " + time.strftime("%d %B %Y", time.gmtime()) in page
    refused = other.post(
        "/account/passkeys/remove", data={"credential": "credential-of-ann"}, headers=ORIGIN
    )
    assert refused.status_code == 404 and "that passkey is not one of this account" in refused.text
    assert passkeys.passkeys_of(ann_id) == ["credential-of-ann"]
    removed = client.post(
        "/account/passkeys/remove", data={"credential": "credential-of-ann"}, headers=ORIGIN
    )
    assert removed.status_code == 200 and "No passkeys yet" in removed.text
    assert passkeys.passkeys_of(ann_id) == []


def test_log_out_everywhere_ends_every_session(client: TestClient) -> None:
    sign_up(client, "Ann")
    laptop = at(client, "127.0.0.6")
    login(laptop, "Ann")
    out = client.post("/account/logout-everywhere", headers=ORIGIN, follow_redirects=False)
    assert out.status_code == 303 and out.headers["location"] == "/"
    assert client.get("/api/me").status_code == 401
    assert laptop.get("/api/me").status_code == 401
    assert login(laptop, "Ann").status_code == 200  # the password still opens it


def test_a_settings_form_from_another_site_changes_nothing(client: TestClient) -> None:
    sign_up(client, "Ann")
    form = {"current": PASSWORD, "password": NEW, "again": NEW}
    evil = {"origin": "https://evil.example"}
    assert client.post("/account/password", data=form, headers=evil).status_code == 403
    assert client.post("/account/logout-everywhere", headers=evil).status_code == 403
    assert client.get("/api/me").json()["name"] == "Ann"
    assert login(at(client, "127.0.0.4"), "Ann").status_code == 200
