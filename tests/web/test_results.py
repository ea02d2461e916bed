"""Results that belong to who played them (issue 41, items 1, 5 and 6), on SQLite; the same
checks on PostgreSQL in ``test_results_postgres.py``.

- In a rated game the computer never stands in: without a clock the present player claims the
  win or calls the game off after the set silence; a stand-in in a casual game says the game
  counts for nobody, and no Hint appears for a person in a game between people after it.
- A rated game counts only once each side has moved (before: called off, whatever was asked);
  a provisional player's result weighs lightly on an established one; the same two accounts'
  rated games of one game count ``PAIR_GAMES_PER_DAY`` times in 24 hours, then not.
- A rematch of a rated game is rated, each seat its account's, with the same clock and variant.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import (
    Boolean,
    Column,
    MetaData,
    String,
    Table,
    create_engine,
    insert,
    inspect,
    select,
    update,
)

from boneyard.web.app import create_app
from boneyard.web.people.ratings import glicko2_update, provisional_weight, rate
from boneyard.web.people.ratings import unrated_json as unrated_words
from boneyard.web.play.catalog import Catalog
from boneyard.web.store.games import ActionRow, GameRow, Store
from boneyard.web.store.ratings import (
    FRESH,
    PAIR_GAMES_PER_DAY,
    UNRATED_REASONS,
    Rating,
    RatingStore,
    each_side_moved,
)
from boneyard.web.table.session import SessionSettings
from tests.web.conftest import all_games, another_person, app_settings, free_port, wait_for
from tests.web.test_ratings import NAMES, PASSWORD, move_each, move_each_side, ratings

SILENCE = 0.2
"""The seconds of silence after which the present player may claim (short, for the tests)."""


def app_on(url: str) -> FastAPI:
    return create_app(
        url,
        catalog=Catalog(all_games()),
        settings=app_settings(),
        session_settings=SessionSettings(stand_in_seconds=SILENCE),
    )


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(app_on(f"sqlite:///{db_path}")) as test_client:
        yield test_client


def client_at(client: TestClient, address: str) -> TestClient:
    """Another client at ``address``: beside a TestClient, or (PostgreSQL's tests) an httpx
    client of a server running in a thread, one event loop for every client."""
    if isinstance(client, TestClient):
        return another_person(client, address)
    transport = httpx2.HTTPTransport(local_address=address)
    return cast(
        TestClient, httpx2.Client(base_url=client.base_url, transport=transport, timeout=30)
    )


def account(client: TestClient, address: str, name: str) -> TestClient:
    """A client at ``address`` signed up as ``name``."""
    player = client_at(client, address)
    answer = player.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return player


def serve_in_thread(app: FastAPI) -> Iterator[str]:
    """Run ``app`` with uvicorn in a thread; yield its address; stop it afterwards."""
    import uvicorn

    port = free_port()
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


def rated_pair(client: TestClient, first: str, second: str, **more: Any) -> Any:
    """Two accounts (``first`` opens, ``second`` joins) and their rated Toy Walk game."""
    ann = account(client, "127.0.0.2", first)
    bob = account(client, "127.0.0.3", second)
    return ann, bob, rated_game_of(ann, bob, **more)


def rated_game_of(ann: TestClient, bob: TestClient, **more: Any) -> dict[str, Any]:
    body = {"game": "toy_walk", "rated": True, "seat": 0, **more}
    opened = ann.post("/api/open", json=body)
    assert opened.status_code == 201, opened.text
    joined = bob.post(f"/api/open/{opened.json()['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    return {"id": opened.json()["id"], "tokens": [opened.json()["token"], joined.json()["token"]]}


def ask(player: TestClient, game: dict[str, Any], seat: int, do: str) -> Any:
    return player.post(
        f"/api/games/{game['id']}/session", json={"token": game["tokens"][seat], "do": do}
    )


def seat_view(player: TestClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    found: dict[str, Any] = player.get(
        f"/api/games/{game['id']}", params={"token": game["tokens"][seat]}
    ).json()
    return found


def rating_of(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/games/{game['id']}/rating").json()
    return found


def play(player: TestClient, game: dict[str, Any], seat: int, move: str) -> None:
    seq = seat_view(player, game, seat)["seq"]
    answer = player.post(
        f"/api/games/{game['id']}/actions",
        json={"token": game["tokens"][seat], "seq": seq, "action_string": move},
    )
    assert answer.status_code == 200, answer.text


# ----- the rule, and the rating system ----------------------------------------------------------


def test_each_side_moved_counts_the_seats_own_moves_not_chances() -> None:
    assert not each_side_moved([], 2)
    assert not each_side_moved([(3, -1), (5, 0), (7, -1)], 2)
    assert each_side_moved([(3, -1), (5, 0), (7, 1)], 2)
    assert not each_side_moved([(1, 0), (2, 1)], 3)


def test_every_reason_a_game_counted_for_nobody_is_said_in_words() -> None:
    for reason in UNRATED_REASONS:
        words = unrated_words(reason, "Toy Walk")["unrated_words"]
        assert words and "_" not in words, reason
    assert unrated_words(None, "")["unrated_words"] is None


def test_a_provisional_players_result_weighs_lightly_on_an_established_one() -> None:
    established, sock = Rating(1800.0, 60.0, 0.06, 40), FRESH
    assert provisional_weight(established, sock) == pytest.approx((110 / 350) ** 2)
    assert provisional_weight(sock, established) == 1.0  # the new account learns fully
    assert provisional_weight(established, Rating(1500.0, 100.0, 0.06, 20)) == 1.0
    won, lost = rate([established, sock], [1.0, -1.0])
    alone = glicko2_update(established, [(1500.0, 350.0, 1.0)])  # Glicko-2 unweighed: +3.4
    assert won.rating - 1800 == pytest.approx((alone.rating - 1800) * (110 / 350) ** 2)
    assert lost.rating < 1500 - 10, "the provisional loser moves as Glicko-2 says"
    # between two new accounts, Glicko-2 as it is
    fresh_won, _fresh_lost = rate([FRESH, FRESH], [1.0, -1.0])
    assert fresh_won.rating - 1500 > 150


# ----- a rated game counts once each side has moved ---------------------------------------------


def test_a_resignation_before_each_side_moved_calls_a_rated_game_off(client: TestClient) -> None:
    ann, bob, game = rated_pair(client, "Ann", "Bob")
    can = seat_view(bob, game, 1)["session"]["can"]
    assert can["abort"] and not can["resign"], "the page offers only to call it off"
    play(ann, game, 0, "a1-b1")  # one side only: it still does not count
    assert seat_view(bob, game, 1)["session"]["can"]["abort"]
    answer = ask(bob, game, 1, "resign")  # a script may still send it: an abort all the same
    assert answer.status_code == 200, answer.text
    seen = seat_view(ann, game, 0)
    assert seen["terminal"] and seen["session"]["ending"]["kind"] == "abort"
    assert seen["status"] == "Game called off before each side had moved: it does not count"
    assert seen["returns"] == [0.0, 0.0], "neither a win nor a draw"
    note = rating_of(client, game)
    assert note["settled"] and note["changes"] is None and note["unrated"] == "not_played"
    assert "before each side had moved" in note["unrated_words"]
    assert ratings(client, "Ann") == ratings(client, "Bob") == {}


def test_eighteen_resignations_of_a_sock_move_no_rating(client: TestClient) -> None:
    """The issue's farm: 1500 -> 1952 from 18 resignations before any move."""
    owner, sock, game = rated_pair(client, "Owner", "Sock")
    for number in range(18):
        if number:
            game = rated_game_of(owner, sock)
        assert ask(sock, game, 1, "resign").status_code == 200
    assert ratings(client, "Owner") == {}
    assert client.get("/api/leaderboard/toy_walk").json() == []


def test_abort_stays_offered_in_a_rated_game_until_each_side_moved(client: TestClient) -> None:
    ann, bob, game = rated_pair(client, "Ann", "Bob")
    play(ann, game, 0, "a1-b1")
    assert ask(ann, game, 0, "abort").status_code == 200
    assert seat_view(bob, game, 1)["session"]["ending"]["kind"] == "abort"
    played = rated_game_of(ann, bob)
    move_each([ann, bob], played)
    refused = ask(ann, played, 0, "abort")
    assert refused.status_code == 409 and refused.json()["error"] == "started"
    assert "each side has moved" in refused.json()["detail"]
    assert not seat_view(ann, played, 0)["terminal"], "a refusal changes nothing"


def test_a_draw_agreed_before_each_side_moved_is_no_draw(client: TestClient) -> None:
    ann, bob, game = rated_pair(client, "Ann", "Bob")
    assert ask(ann, game, 0, "offer_draw").status_code == 200
    assert ask(bob, game, 1, "accept_draw").status_code == 200
    assert seat_view(ann, game, 0)["session"]["ending"]["kind"] == "abort"
    assert rating_of(client, game)["unrated"] == "not_played"


# ----- nobody stands in for an absent person in a rated game ------------------------------------


def away(player: TestClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    """``seat``'s view once the other side has been silent long enough."""
    ask(player, game, seat, "stand_in")  # (asked early: the server starts counting the silence)
    found: dict[str, Any] = wait_for(
        "the silence",
        lambda: (
            (v := seat_view(player, game, seat))["session"]["waiting"]["seconds"] >= 0
            and v["session"]["can"]["call_off"]
            and v
        ),
        seconds=60,
    )
    return found


def test_a_rated_game_offers_a_claim_never_the_computer(client: TestClient) -> None:
    ann, bob, game = rated_pair(client, "Ann", "Bob")
    move_each([ann, bob], game)
    play(ann, game, 0, "b1-c1")  # Bob's turn: Bob stops moving
    early = ask(ann, game, 0, "claim_victory")
    assert early.status_code == 409 and early.json()["error"] == "not_away"
    seen = away(ann, game, 0)
    can = seen["session"]["can"]
    assert can["claim_victory"] and can["call_off"] and not can["stand_in"]
    refused = ask(ann, game, 0, "stand_in")
    assert refused.status_code == 409 and refused.json()["error"] == "rated_game"
    assert "claim the win or call the game off" in refused.json()["detail"]
    assert seat_view(ann, game, 0)["seats"][1]["kind"] == "human", "nothing changed"
    not_mine = ask(bob, game, 1, "claim_victory")  # the absent side cannot claim for itself
    assert not_mine.status_code == 409 and not_mine.json()["error"] == "not_away"
    assert ask(ann, game, 0, "claim_victory").status_code == 200
    seen = seat_view(bob, game, 1)
    assert seen["terminal"] and seen["returns"] == [1.0, -1.0]
    # (seats named by their accounts, or by their sides)
    assert seen["status"] in (
        "Game over: Bob (South) stopped moving, Ann (North) wins",
        "Game over: South stopped moving, North wins",
    )
    changes = {c["name"]: c["change"] for c in rating_of(client, game)["changes"]}
    assert changes["Ann"] > 0 > changes["Bob"]


def test_calling_a_rated_game_off_after_the_silence_counts_for_nobody(client: TestClient) -> None:
    ann, bob, game = rated_pair(client, "Ann", "Bob")
    move_each([ann, bob], game)
    away(bob, game, 1)  # Ann (to move) is silent
    assert ask(bob, game, 1, "call_off").status_code == 200
    seen = seat_view(ann, game, 0)
    assert seen["terminal"] and seen["status"] in (
        "Game called off: Ann (North) stopped moving; it does not count",
        "Game called off: North stopped moving; it does not count",
    )
    assert rating_of(client, game)["unrated"] == "called_off"
    assert ratings(client, "Ann") == ratings(client, "Bob") == {}


def test_a_claim_is_refused_where_it_does_not_belong(client: TestClient) -> None:
    ann, bob, game = rated_pair(client, "Ann", "Bob", clock={"initial": 300, "increment": 0})
    move_each([ann, bob], game)
    timed = ask(bob, game, 1, "claim_victory")
    assert timed.status_code == 409 and timed.json()["error"] == "timed_game"
    casual = ann.post("/api/open", json={"game": "toy_walk", "seat": 0}).json()
    joined = bob.post(f"/api/open/{casual['id']}/join", json={}).json()
    plain = {"id": casual["id"], "tokens": [casual["token"], joined["token"]]}
    refused = ask(ann, plain, 0, "claim_victory")
    assert refused.status_code == 409 and refused.json()["error"] == "not_rated"
    unplayed = rated_game_of(ann, bob)
    play(ann, unplayed, 0, "a1-b1")
    early = ask(ann, unplayed, 0, "claim_victory")
    assert early.status_code == 409 and early.json()["error"] == "not_played"
    assert "call the game off" in early.json()["detail"]


def test_a_stand_in_in_a_casual_game_counts_for_nobody_and_brings_no_hint(
    client: TestClient,
) -> None:
    ann = account(client, "127.0.0.2", "Ann")
    bob = account(client, "127.0.0.3", "Bob")
    casual = ann.post("/api/open", json={"game": "toy_walk", "seat": 0}).json()
    joined = bob.post(f"/api/open/{casual['id']}/join", json={}).json()
    game = {"id": casual["id"], "tokens": [casual["token"], joined["token"]]}
    play(ann, game, 0, "a1-b1")
    before = seat_view(ann, game, 0)["seats"]
    assert [seat["person"] for seat in before] == [True, True]
    wait_for(
        "the silence",
        lambda: ask(ann, game, 0, "stand_in").status_code == 200,
        seconds=60,
    )
    for seat, player in ((0, ann), (1, bob)):
        words = [e["words"] for e in seat_view(player, game, seat)["session"]["events"]]
        assert "this game counts for nobody" in words[-1], f"seat {seat}'s page says so"
    after = seat_view(ann, game, 0)["seats"]
    # The computer plays South now; South is still a person's seat for the hints: none for Ann.
    assert after[1]["kind"] == "computer" and after[1]["person"] is True
    wait_for(
        "the computer's move", lambda: seat_view(ann, game, 0)["current_player"] == 0, seconds=60
    )
    hint = ann.post(f"/api/games/{game['id']}/hint", json={"token": game["tokens"][0]})
    assert hint.status_code == 403 and hint.json()["error"] == "hints_off"
    assert ask(ann, game, 0, "resign").status_code == 200  # the computer "wins" for Bob
    recent = client.get("/api/players/Bob").json()["recent"]
    assert recent[0]["result"] == "counted for nobody: the computer stood in"
    assert client.get("/api/players/Ann").json()["recent"][0]["result"] == "lost"


# ----- the same two accounts, again and again -----------------------------------------------------


def test_the_same_pairs_rated_games_count_a_few_times_a_day(client: TestClient) -> None:
    ann, bob, game = rated_pair(client, "Ann", "Bob")
    cat = account(client, "127.0.0.4", "Cat")
    for number in range(PAIR_GAMES_PER_DAY):
        if number:
            game = rated_game_of(ann, bob)
        move_each([ann, bob], game)
        assert ask(bob, game, 1, "resign").status_code == 200
        assert rating_of(client, game)["changes"] is not None
    assert ratings(client, "Ann")["toy_walk"]["games"] == PAIR_GAMES_PER_DAY
    extra = rated_game_of(ann, bob)
    note = rating_of(client, extra)  # said before a move is made
    assert note["rated"] and not note["settled"] and note["unrated"] == "repeated"
    assert note["unrated_words"] == (
        f"Unrated: these two accounts have played {PAIR_GAMES_PER_DAY} rated games of "
        "Toy Walk in the last 24 hours, the most that count in a day."
    )
    move_each([ann, bob], extra)
    assert ask(bob, extra, 1, "resign").status_code == 200
    assert rating_of(client, extra)["unrated"] == "repeated"
    assert ratings(client, "Ann")["toy_walk"]["games"] == PAIR_GAMES_PER_DAY
    # another pair is not held back by theirs
    other = rated_game_of(ann, cat)
    assert rating_of(client, other)["unrated"] is None
    move_each([ann, cat], other)
    assert ask(cat, other, 1, "resign").status_code == 200
    assert rating_of(client, other)["changes"] is not None


# ----- a rematch keeps the game's terms ---------------------------------------------------------


def test_a_rematch_of_a_rated_game_is_rated_on_the_same_terms(client: TestClient) -> None:
    terms = {"params": {"max_moves": 30}, "clock": {"initial": 300, "increment": 2}}
    ann, bob, game = rated_pair(client, "Ann", "Bob", **terms)
    move_each([ann, bob], game)
    assert ask(bob, game, 1, "resign").status_code == 200
    assert ask(ann, game, 0, "rematch").status_code == 200
    links = [seat_view(p, game, s)["session"]["next_url"] for s, p in ((0, ann), (1, bob))]
    next_id = links[0].split("/")[2].split("?t=")[0]
    tokens = [link.split("?t=")[1] for link in links]
    rematch = {"id": next_id, "tokens": tokens}
    note = rating_of(client, rematch)
    assert note["rated"] and not note["settled"] and note["unrated"] is None
    seen = seat_view(ann, rematch, 0)
    assert seen["params"]["max_moves"] == 30
    assert seen["clock"]["control"] == terms["clock"]
    for player in (ann, bob):
        mine = [g["id"] for g in player.get("/api/me/games").json()]
        assert next_id in mine, "each seat of the rematch is its account's"
    # the rematch counts like the first game
    move_each_side(next_id, [(ann, tokens[0]), (bob, tokens[1])])
    assert ask(bob, rematch, 1, "resign").status_code == 200
    assert ratings(client, "Ann")["toy_walk"]["games"] == 2


# ----- an existing database ---------------------------------------------------------------------


def rated_games_table_of_before(url: str) -> None:
    """The ``rated_games`` table as it was made before games said why they counted for nobody."""
    engine = create_engine(url)
    metadata = MetaData()
    Table(
        "rated_games",
        metadata,
        Column("game_id", String(32), primary_key=True),
        Column("game", String(64)),
        Column("settled", Boolean),
        Column("changes", String),
    )
    metadata.create_all(engine)
    engine.dispose()


def test_an_existing_rated_games_table_gets_its_unrated_column(db_path: Path) -> None:
    url = f"sqlite:///{db_path}"
    rated_games_table_of_before(url)
    store = Store(url)
    RatingStore(store, rate)
    columns = {c["name"] for c in inspect(store.engine).get_columns("rated_games")}
    assert "unrated" in columns
    RatingStore(store, rate)  # a second start finds it there
    store.close()


# ----- a rated game with a friend: the Custom game page -------------------------------------------


def custom_game(player: TestClient, **fields: str) -> Any:
    form = {"seat0": "human", "seat1": "human", **fields}
    return player.post("/new/toy_walk", data=form, follow_redirects=False)


def test_the_custom_game_page_makes_a_rated_game_between_two_accounts(client: TestClient) -> None:
    guest = client_at(client, "127.0.0.9")
    assert 'name="rated"' not in guest.get("/new/toy_walk").text
    assert "to play rated games" in guest.get("/new/toy_walk").text
    refused = custom_game(guest, rated="on")
    assert refused.status_code == 401 and "log in first" in refused.text
    ann = account(client, "127.0.0.2", "Ann")
    assert 'name="rated"' in ann.get("/new/toy_walk").text
    against_computer = custom_game(ann, seat1="1", rated="on")
    assert against_computer.status_code == 400
    assert "every seat is a person&#39;s" in against_computer.text
    assert ann.get("/api/me/games").json() == [], "a refusal makes nothing"
    made = custom_game(ann, rated="on")
    assert made.status_code == 303, made.text
    invite = ann.get(made.headers["location"])
    assert "Rated game: each player signs in to their account" in invite.text
    game_id = made.headers["location"].split("/")[2]
    assert rating_of(client, {"id": game_id})["rated"]
    links = re.findall(r'class="link" readonly value="[^"]*\?t=([^"]+)"', invite.text)
    tokens = list(links)
    assert len(tokens) == 2
    bob = account(client, "127.0.0.3", "Bob")
    taken = bob.post(f"/api/games/{game_id}/account", json={"token": tokens[1]})
    assert taken.status_code == 200, taken.text  # the invite link opened while signed in
    game = {"id": game_id, "tokens": tokens}
    move_each([ann, bob], game)
    assert ask(bob, game, 1, "resign").status_code == 200
    changes = {c["name"]: c["change"] for c in rating_of(client, game)["changes"]}
    assert changes["Ann"] > 0 > changes["Bob"]


# ----- a challenge by account name ----------------------------------------------------------------


def challenge(player: TestClient, to: str, **terms: Any) -> Any:
    return player.post("/api/challenges", json={"to": to, "game": "toy_walk", **terms})


def test_a_challenge_by_name_is_accepted_into_a_rated_game(client: TestClient) -> None:
    ann = account(client, "127.0.0.2", "Ann")
    bob = account(client, "127.0.0.3", "Bob")
    cat = account(client, "127.0.0.4", "Cat")
    guest = client_at(client, "127.0.0.9")
    assert challenge(guest, "Bob").status_code == 401
    assert "to challenge Bob to a game" in guest.get("/@/Bob").text
    assert 'id="challenge-form"' in ann.get("/@/Bob").text
    assert 'id="challenge-form"' not in bob.get("/@/Bob").text, "nobody challenges themselves"
    assert challenge(ann, "Nobody").json()["error"] == "no_player"
    assert challenge(ann, "ann").json()["error"] == "yourself"
    assert challenge(ann, "Bob", game="no_such_game").status_code == 404
    assert challenge(ann, "Bob", clock="7+7").json()["error"] == "bad_clock"
    made = challenge(ann, "Bob", rated=True, clock="300+3")
    assert made.status_code == 201, made.text
    again = challenge(ann, "Bob")
    assert again.status_code == 409 and again.json()["error"] == "already_challenged"
    incoming = bob.get("/api/challenges").json()["incoming"]
    assert [(c["from"], c["title"], c["clock"], c["rated"]) for c in incoming] == [
        ("Ann", "Toy Walk", "5+3 · blitz", True)
    ]
    assert ann.get("/api/challenges").json()["outgoing"][0]["status"] == "open"
    assert cat.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    challenge_id = made.json()["id"]
    assert cat.post(f"/api/challenges/{challenge_id}/accept").json()["error"] == "no_challenge"
    assert ann.post(f"/api/challenges/{challenge_id}/accept").json()["error"] == "no_challenge"
    accepted = bob.post(f"/api/challenges/{challenge_id}/accept")
    assert accepted.status_code == 200, accepted.text
    twice = bob.post(f"/api/challenges/{challenge_id}/accept")
    assert twice.status_code == 409 and twice.json()["error"] == "answered"
    answer = ann.get("/api/challenges").json()["outgoing"][0]
    assert answer["status"] == "accepted" and answer["url"]
    assert bob.get("/api/challenges").json()["incoming"] == []
    game_id = accepted.json()["id"]
    tokens = {answer["url"].split("?t=")[1]: ann, accepted.json()["url"].split("?t=")[1]: bob}
    seats = {}
    for seat_token, player in tokens.items():
        seen = player.get(f"/api/games/{game_id}", params={"token": seat_token}).json()
        seats[seen["seat"]] = (player, seat_token)
        assert seen["clock"]["control"] == {"initial": 300, "increment": 3}
        assert game_id in [g["id"] for g in player.get("/api/me/games").json()]
    assert sorted(seats) == [0, 1]
    assert rating_of(client, {"id": game_id})["rated"]
    move_each_side(game_id, [seats[0], seats[1]])
    game = {"id": game_id, "tokens": [seats[0][1], seats[1][1]]}
    assert ask(seats[1][0], game, 1, "resign").status_code == 200
    assert rating_of(client, game)["changes"] is not None


def test_a_challenge_declined_or_taken_back(client: TestClient) -> None:
    ann = account(client, "127.0.0.2", "Ann")
    bob = account(client, "127.0.0.3", "Bob")
    first = challenge(ann, "Bob").json()["id"]
    assert ann.post(f"/api/challenges/{first}/decline").json()["error"] == "no_challenge"
    assert bob.post(f"/api/challenges/{first}/decline").status_code == 200
    assert [c["status"] for c in ann.get("/api/challenges").json()["outgoing"]] == ["declined"]
    assert bob.post(f"/api/challenges/{first}/accept").json()["error"] == "answered"
    second = challenge(ann, "Bob").json()["id"]  # a new one, now that the first is answered
    assert bob.post(f"/api/challenges/{second}/cancel").json()["error"] == "no_challenge"
    assert ann.post(f"/api/challenges/{second}/cancel").status_code == 200
    assert bob.get("/api/challenges").json()["incoming"] == []
    assert bob.get("/api/me/games").json() == [], "no game was made"


def test_a_person_who_left_a_rated_game_of_three_ranks_last(client: TestClient) -> None:
    left_a_game_of_three(client, client.app.state.manager.store)  # type: ignore[attr-defined]


def left_a_game_of_three(client: TestClient, manager_store: Store) -> None:
    """Bon-Bon with three accounts: Zoe resigned and left (the computer played on for her and
    scored best): what the computer did counts for nobody, Zoe ranks last. The result is
    stored straight through ``manager_store``'s hook, as the last move's transaction does."""
    players = [account(client, f"127.0.0.{2 + n}", name) for n, name in enumerate(NAMES)]
    opened = players[0].post(
        "/api/open", json={"game": "bonbon", "params": {"players": 3}, "rated": True, "seat": 0}
    )
    assert opened.status_code == 201, opened.text
    game_id = opened.json()["id"]
    for player in players[1:]:
        assert player.post(f"/api/open/{game_id}/join", json={}).status_code == 200
    with manager_store.engine.begin() as connection:
        seats = connection.execute(select(GameRow.seats).where(GameRow.id == game_id)).scalar_one()
        seats[2] = {**seats[2], "kind": "computer", "level": "medium", "was": "human"}
        connection.execute(update(GameRow).where(GameRow.id == game_id).values(seats=seats))
        rows = [{"game_id": game_id, "seq": 900 + s, "action": 0, "player": s} for s in range(3)]
        connection.execute(insert(ActionRow), rows)
        manager_store.finished(connection, game_id, [1.0, 0.0, 5.0], "rules")
    after = {c["name"]: c["after"] for c in rating_of(client, {"id": game_id})["changes"]}
    assert after["Xia"] > after["Yan"] > after["Zoe"]
