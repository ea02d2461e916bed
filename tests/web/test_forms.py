"""HTML forms parse like the API: whatever a form route is sent, it answers in words, never 5xx
(issue 33, item 5)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boneyard.web.guard.budgets import SAFE_METHODS
from tests.web.conftest import another_person, make_app

FORM = {"content-type": "application/x-www-form-urlencoded"}

FORM_FIELDS = {
    "/new/{name}": ["p_games", "p_players", "p_target", "seat0", "seat1", "seat2", "name0",
                    "name1", "level", "friends", "hints"],
    "/ladder/play": ["level", "name0"],
    "/signup": ["name", "password", "again", "claim"],
    "/login": ["name", "password", "next"],
    "/recover": ["name", "code", "password", "again"],
    "/logout": [],
    "/account/password": ["current", "password", "again"],
    "/account/recovery-codes": ["current"],
    "/account/passkeys/remove": ["credential"],
    "/account/logout-everywhere": [],
}  # fmt: skip
"""Every form route of the app and the fields its forms send."""

GAMES = ["toy_walk", "toy_secret", "obonto", "bones", "no_such_game"]
"""The games the fuzzed new-game forms name (cheap to set up, and one that does not exist)."""

ALERT = re.compile(r'role="alert"[^>]*>\s*([^<]+?)\s*<')


def form_routes(client: TestClient) -> set[str]:
    """The app's routes a browser form posts to: every POST outside the API and the sockets."""
    found = set()

    def walk(routes: list[object]) -> None:
        for route in routes:
            inner = getattr(route, "original_router", None)
            if inner is not None:
                walk(list(inner.routes))
                continue
            methods = set(getattr(route, "methods", None) or ())
            path = str(getattr(route, "path", ""))
            if methods - SAFE_METHODS and not path.startswith(("/api/", "/ws/")):
                found.add(path)

    walk(list(client.app.routes))  # type: ignore[attr-defined]
    return found


@pytest.fixture(scope="module")
def form_client(tmp_path_factory: pytest.TempPathFactory) -> object:
    path = tmp_path_factory.mktemp("forms") / "web.db"
    with TestClient(make_app(path), raise_server_exceptions=False) as client:
        yield client


def test_every_form_route_is_fuzzed(form_client: TestClient) -> None:
    assert form_routes(form_client) == set(FORM_FIELDS), "a new form route: fuzz it here"


values = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=40),
    # whole numbers of every length, past Python's 4,300 digits for int() among them
    st.one_of(st.integers(1, 30), st.sampled_from([4300, 4301, 5000])).map(lambda n: "9" * n),
    st.sampled_from(
        ["human", "easy", "hard", "1", "3", "0", "-1", "1e9", "nan", "on", "", " ", "١٢", "1_2"]
    ),
)


def fields_of(route: str) -> st.SearchStrategy[list[tuple[str, str]]]:
    names = st.one_of(st.sampled_from(FORM_FIELDS[route]), st.text(max_size=12))
    return st.lists(st.tuples(names, values), max_size=8)


def bodies(route: str) -> st.SearchStrategy[bytes]:
    encoded = fields_of(route).map(lambda pairs: urlencode(pairs).encode())
    return st.one_of(encoded, encoded, encoded, st.binary(max_size=200))


def assert_answered_in_words(status: int, text: str, sent: bytes) -> None:
    assert status < 500, (status, sent[:300], text[-500:])
    if status >= 400:
        said = ALERT.search(text)
        assert said is not None and len(said.group(1)) > 8, (status, sent[:300], text[-500:])
        assert "Traceback" not in text and "Internal Server Error" not in text


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(game=st.sampled_from(GAMES), body=bodies("/new/{name}"))
def test_the_new_game_form_never_answers_5xx(
    form_client: TestClient, game: str, body: bytes
) -> None:
    answer = form_client.post(f"/new/{game}", content=body, headers=FORM, follow_redirects=False)
    assert_answered_in_words(answer.status_code, answer.text, body)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies("/ladder/play"))
def test_the_ladder_form_never_answers_5xx(form_client: TestClient, body: bytes) -> None:
    # the ladder's first levels deal at once: the fuzz keeps to them and to what is refused
    level = re.search(rb"level=([0-9]+)(&|$)", body)
    if level is not None and len(level.group(1)) < 3 and int(level.group(1)) > 3:
        body = body.replace(b"level=" + level.group(1), b"level=2")
    answer = form_client.post("/ladder/play", content=body, headers=FORM, follow_redirects=False)
    assert_answered_in_words(answer.status_code, answer.text, body)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    route=st.sampled_from(["/signup", "/login", "/recover", "/logout"]),
    body=st.one_of(*(bodies(route) for route in ["/signup", "/login", "/recover"])),
)
def test_the_account_forms_never_answer_5xx(
    form_client: TestClient, route: str, body: bytes
) -> None:
    answer = form_client.post(route, content=body, headers=FORM, follow_redirects=False)
    assert_answered_in_words(answer.status_code, answer.text, body)


SETTINGS_FORMS = [
    "/account/password",
    "/account/recovery-codes",
    "/account/passkeys/remove",
    "/account/logout-everywhere",
]


@pytest.fixture(scope="module")
def signed_in_client(form_client: TestClient) -> TestClient:
    """Another browser of the same app, signed in to an account of its own."""
    client = another_person(form_client, "127.0.0.9")
    body = {"name": "Fuzzed", "password": "correct horse battery"}
    assert client.post("/api/accounts", json=body).status_code == 201
    return client


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    route=st.sampled_from(SETTINGS_FORMS),
    body=st.one_of(*(bodies(route) for route in SETTINGS_FORMS[:3])),
)
def test_the_settings_forms_never_answer_5xx(
    signed_in_client: TestClient, route: str, body: bytes
) -> None:
    answer = signed_in_client.post(route, content=body, headers=FORM, follow_redirects=False)
    assert_answered_in_words(answer.status_code, answer.text, body)


def test_a_form_refuses_what_the_api_refuses_in_the_same_words(form_client: TestClient) -> None:
    """The attack: a ladder level of 5,000 digits answered 500 on the form, 422 on the API."""
    huge = "9" * 5000
    api = form_client.post(f"/api/ladder/levels/{huge}")
    form = form_client.post("/ladder/play", data={"level": huge}, follow_redirects=False)
    assert api.status_code == form.status_code == 422
    said = ALERT.search(form.text)
    assert said is not None and "level" in said.group(1) and "0-9" in said.group(1)
    seat = form_client.post("/new/toy_walk", data={"seat1": huge}, follow_redirects=False)
    assert seat.status_code == 422 and "seat1" in seat.text, seat.text
    name = form_client.post("/new/toy_walk", data={"name0": "A" * 61}, follow_redirects=False)
    api_name = form_client.post(
        "/api/games", json={"game": "toy_walk", "seats": [{"name": "A" * 61}, {}]}
    )
    assert name.status_code == api_name.status_code == 422 and "name0" in name.text
    not_a_form = form_client.post("/new/toy_walk", content=b"seat0=%ff", headers=FORM)
    assert not_a_form.status_code == 400 and "UTF-8" in not_a_form.text
    # an honest form goes on working
    honest = form_client.post(
        "/ladder/play", data={"level": "1", "name0": "Ann"}, follow_redirects=False
    )
    assert honest.status_code == 303
    played = form_client.post(
        "/new/toy_walk", data={"name0": "Ann", "level": "easy"}, follow_redirects=False
    )
    assert played.status_code == 303
