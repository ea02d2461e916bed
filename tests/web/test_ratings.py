"""Ratings (issue 34 item 3): Glicko-2 for two seats, OpenSkill for three to six, once per game."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert

from boneyard.web.people.ratings import glicko2_update, rate, shown
from boneyard.web.store.games import ActionRow
from boneyard.web.store.ratings import FRESH, Rating
from tests.web.conftest import another_person, token

PASSWORD = "correct horse battery"
NAMES = ("Xia", "Yan", "Zoe")


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2013): 1500/200 beats 1400/30, loses to
    1550/100 and 1700/300; after the period 1464.06 / 151.52."""
    player = Rating(1500.0, 200.0, 0.06, 0)
    after = glicko2_update(
        player, [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.games == 3


def test_two_seats_move_by_glicko2_and_a_draw_moves_the_weaker_up() -> None:
    winner, loser = rate([FRESH, FRESH], [1.0, -1.0])
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation < 350 and winner.games == 1
    strong, weak = Rating(1800, 60, 0.06, 30), Rating(1500, 60, 0.06, 30)
    after_strong, after_weak = rate([strong, weak], [0.0, 0.0])
    assert after_strong.rating < 1800 and after_weak.rating > 1500


def test_four_seats_move_by_openskill_in_order_of_their_returns() -> None:
    after = rate([FRESH] * 4, [0.0, 3.0, 1.0, 1.0])
    assert after[2].rating == pytest.approx(after[3].rating)
    assert after[1].rating > after[2].rating > after[0].rating
    assert all(r.deviation < 350 and r.games == 1 for r in after)
    assert shown(after[1].rating, after[1].deviation).endswith("?")  # provisional still


def test_a_rating_is_provisional_until_its_deviation_is_110_or_less() -> None:
    assert shown(1512.4, 110.01) == "1512?"
    assert shown(1512.6, 110.0) == "1513"


# ----- through the server ----------------------------------------------------------------------


def signed_up(client: TestClient, address: str, name: str) -> TestClient:
    player = another_person(client, address)
    answer = player.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return player


def rated_game(first: TestClient, second: TestClient, game: str = "toy_walk") -> dict[str, Any]:
    """A rated open game made by ``first`` and joined by ``second``."""
    opened = first.post("/api/open", json={"game": game, "rated": True, "seat": 0})
    assert opened.status_code == 201, opened.text
    joined = second.post(f"/api/open/{opened.json()['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    return {"id": opened.json()["id"], "tokens": [opened.json()["token"], joined.json()["token"]]}


def move_each(players: list[TestClient], game: dict[str, Any]) -> None:
    """North and South make a move each in a Toy Walk game: from then on it counts."""
    for seat, move in ((0, "a1-b1"), (1, "c3-b3")):
        seq = players[seat].get(f"/api/games/{game['id']}").json()["seq"]
        answer = players[seat].post(
            f"/api/games/{game['id']}/actions",
            json={"token": game["tokens"][seat], "seq": seq, "action_string": move},
        )
        assert answer.status_code == 200, answer.text


def move_each_side(game_id: str, seats: list[tuple[Any, str]]) -> None:
    """Each seat (its client and token: a TestClient or an httpx client) plays its first legal
    move, in turn: from then on a rated game counts (``store.ratings.each_side_moved``)."""
    moved: set[int] = set()
    deadline = time.monotonic() + 30
    while len(moved) < len(seats) and time.monotonic() < deadline:
        for player, seat_token in seats:
            seen = player.get(f"/api/games/{game_id}", params={"token": seat_token}).json()
            if seen["seat"] in moved or seen["current_player"] != seen["seat"]:
                continue
            body = {"token": seat_token, "seq": seen["seq"], "action": seen["legal"][0]["id"]}
            answer = player.post(f"/api/games/{game_id}/actions", json=body)
            assert answer.status_code == 200, answer.text
            moved.add(seen["seat"])
    assert len(moved) == len(seats), f"only seats {sorted(moved)} could move"


def resign(client: TestClient, game_id: str, seat_token: str) -> None:
    answer = client.post(
        f"/api/games/{game_id}/session", json={"token": seat_token, "do": "resign"}
    )
    assert answer.status_code == 200, answer.text


def ratings(client: TestClient, name: str) -> dict[str, Any]:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()["ratings"]
    return found


def test_a_rated_game_moves_both_ratings_once(client: TestClient) -> None:
    ann, bob = signed_up(client, "127.0.0.2", "Ann"), signed_up(client, "127.0.0.3", "Bob")
    game = rated_game(ann, bob)
    assert client.get(f"/api/games/{game['id']}/rating").json() == {
        "rated": True,
        "settled": False,
        "changes": None,
        "unrated": None,
        "unrated_words": None,
    }
    assert ratings(client, "Ann") == {}
    move_each([ann, bob], game)
    resign(bob, game["id"], game["tokens"][1])
    after = client.get(f"/api/games/{game['id']}/rating").json()
    assert after["rated"] and after["settled"]
    changes = {c["name"]: c for c in after["changes"]}
    assert changes["Ann"]["before"] == changes["Bob"]["before"] == 1500
    assert changes["Ann"]["change"] > 0 > changes["Bob"]["change"]
    assert changes["Ann"]["change"] == changes["Ann"]["after"] - 1500
    ann_rating, bob_rating = ratings(client, "Ann")["toy_walk"], ratings(client, "bob")["toy_walk"]
    assert round(ann_rating["rating"]) == changes["Ann"]["after"]
    assert ann_rating["games"] == bob_rating["games"] == 1
    assert ann_rating["provisional"] and ann_rating["shown"].endswith("?")
    # A second ending of the same game (a resignation refused, the store's hook run again)
    # moves nothing.
    again = ann.post(
        f"/api/games/{game['id']}/session", json={"token": game["tokens"][0], "do": "resign"}
    )
    assert again.status_code == 409
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    with store.engine.begin() as connection:
        store.finished(connection, game["id"], [-1.0, 1.0], "rules")
    assert ratings(client, "Ann")["toy_walk"] == ann_rating
    board = client.get("/api/leaderboard/toy_walk").json()
    assert [(row["rank"], row["name"]) for row in board] == [(1, "Ann"), (2, "Bob")]
    profile = client.get("/@/Ann")
    assert profile.status_code == 200
    assert f'data-rating="{changes["Ann"]["after"]}"' in profile.text
    assert f"/game/{game['id']}/replay" in profile.text


def test_an_aborted_game_and_an_unrated_one_move_nothing(client: TestClient) -> None:
    ann, bob = signed_up(client, "127.0.0.2", "Ann"), signed_up(client, "127.0.0.3", "Bob")
    game = rated_game(ann, bob)
    answer = ann.post(
        f"/api/games/{game['id']}/session", json={"token": game["tokens"][0], "do": "abort"}
    )
    assert answer.status_code == 200, answer.text
    assert client.get(f"/api/games/{game['id']}/rating").json()["changes"] is None
    plain = ann.post("/api/open", json={"game": "toy_walk", "seat": 0}).json()
    joined = bob.post(f"/api/open/{plain['id']}/join", json={}).json()
    resign(bob, plain["id"], joined["token"])
    assert client.get(f"/api/games/{plain['id']}/rating").json()["rated"] is False
    assert ratings(client, "Ann") == ratings(client, "Bob") == {}


def test_a_rated_seat_taken_without_an_account_rates_nobody(client: TestClient) -> None:
    ann = signed_up(client, "127.0.0.2", "Ann")
    opened = ann.post("/api/open", json={"game": "toy_walk", "rated": True, "seat": 0}).json()
    stranger = another_person(client, "127.0.0.4")
    joined = stranger.post(f"/api/open/{opened['id']}/join", json={}).json()
    game = {"id": opened["id"], "tokens": [opened["token"], joined["token"]]}
    move_each([ann, stranger], game)
    resign(stranger, opened["id"], joined["token"])
    assert client.get(f"/api/games/{opened['id']}/rating").json() == {
        "rated": True,
        "settled": True,
        "changes": None,
        "unrated": "not_accounts",
        "unrated_words": "Rated game, but it counted for nobody: "
        "not every seat was a different account's.",
    }
    assert ratings(client, "Ann") == {}


def test_a_rated_game_is_asked_for_by_an_account_between_people(client: TestClient) -> None:
    refused = client.post("/api/open", json={"game": "toy_walk", "rated": True})
    assert refused.status_code == 401 and "log in" in refused.json()["detail"]
    ann = signed_up(client, "127.0.0.2", "Ann")
    computer = {"game": "toy_walk", "rated": True}
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    refused = ann.post("/api/games", json={**computer, "seats": seats})
    assert refused.status_code == 400 and "every seat is a person's" in refused.json()["detail"]
    made = ann.post("/api/games", json=computer)
    assert made.status_code == 201
    game_id = made.json()["id"]
    assert client.get(f"/api/games/{game_id}/rating").json()["rated"] is True
    # One account in both seats (the creator holds every token) rates nobody.
    resign(ann, game_id, token(made.json(), 1))
    assert client.get(f"/api/games/{game_id}/rating").json()["changes"] is None


def test_a_game_played_to_its_end_by_the_rules_is_rated(client: TestClient) -> None:
    ann, bob = signed_up(client, "127.0.0.2", "Ann"), signed_up(client, "127.0.0.3", "Bob")
    game = rated_game(ann, bob)
    players = [ann, bob]
    for _ in range(60):
        view = client.get(f"/api/games/{game['id']}").json()
        if view["terminal"]:
            break
        seat = view["current_player"]
        mine = (
            players[seat]
            .get(f"/api/games/{game['id']}", params={"token": game["tokens"][seat]})
            .json()
        )
        players[seat].post(
            f"/api/games/{game['id']}/actions",
            json={
                "token": game["tokens"][seat],
                "seq": mine["seq"],
                "action": mine["legal"][0]["id"],
            },
        )
    assert client.get(f"/api/games/{game['id']}").json()["terminal"]
    rating = client.get(f"/api/games/{game['id']}/rating").json()
    assert rating["settled"] and len(rating["changes"]) == 2
    assert ratings(client, "Ann")["toy_walk"]["games"] == 1


def test_an_unknown_player_is_a_clear_404(client: TestClient) -> None:
    answer = client.get("/api/players/Nobody")
    assert answer.status_code == 404 and "Nobody" in answer.json()["detail"]
    assert client.get("/api/leaderboard/no_such_game").status_code == 404
    page = client.get("/@/Nobody")
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]


def test_a_rated_game_of_three_settles_by_openskill_in_the_results_transaction(
    client: TestClient,
) -> None:
    """Bon-Bon with three people: its result (stored here straight through the store's hook,
    as the last move's transaction does) ranks the three by their returns."""
    players = [signed_up(client, f"127.0.0.{2 + n}", name) for n, name in enumerate(NAMES)]
    opened = players[0].post(
        "/api/open", json={"game": "bonbon", "params": {"players": 3}, "rated": True, "seat": 0}
    )
    assert opened.status_code == 201, opened.text
    for player in players[1:]:
        assert player.post(f"/api/open/{opened.json()['id']}/join", json={}).status_code == 200
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    with store.engine.begin() as connection:
        # a move of each seat first: a game counts once each side has moved
        rows = [
            {"game_id": opened.json()["id"], "seq": 900 + s, "action": 0, "player": s}
            for s in range(3)
        ]
        connection.execute(insert(ActionRow), rows)
        store.finished(connection, opened.json()["id"], [0.0, 2.0, 1.0], "rules")
    changes = client.get(f"/api/games/{opened.json()['id']}/rating").json()["changes"]
    after = {c["name"]: c["after"] for c in changes}
    assert after["Yan"] > after["Zoe"] > after["Xia"]
    assert all(ratings(client, name)["bonbon"]["games"] == 1 for name in NAMES)


def test_the_lobby_says_which_open_games_are_rated(client: TestClient) -> None:
    ann = signed_up(client, "127.0.0.2", "Ann")
    rated = ann.post("/api/open", json={"game": "toy_walk", "rated": True}).json()
    plain = ann.post("/api/open", json={"game": "toy_walk"}).json()
    waiting = {game["id"]: game["rated"] for game in client.get("/api/lobby").json()["waiting"]}
    assert waiting == {rated["id"]: True, plain["id"]: False}


def test_the_lobby_shows_each_accounts_rating_in_the_game(client: TestClient) -> None:
    ann, bob = signed_up(client, "127.0.0.2", "Ann"), signed_up(client, "127.0.0.3", "Bob")
    game = rated_game(ann, bob)
    move_each([ann, bob], game)
    resign(bob, game["id"], game["tokens"][1])
    won = round(ratings(client, "Ann")["toy_walk"]["rating"])
    again = ann.post("/api/open", json={"game": "toy_walk", "rated": True, "seat": 0}).json()
    stranger = another_person(client, "127.0.0.9")
    other = stranger.post("/api/open", json={"game": "toy_walk", "seat": 0}).json()
    waiting = {game["id"]: game["ratings"] for game in client.get("/api/lobby").json()["waiting"]}
    assert waiting[other["id"]] == [None, None]
    first, second = waiting[again["id"]]
    assert second is None
    assert first["account"] == "Ann" and round(first["rating"]) == won
    assert first["shown"] == f"{won}?" and first["games"] == 1


def test_a_failing_rating_never_keeps_a_game_from_ending(client: TestClient) -> None:
    ann, bob = signed_up(client, "127.0.0.2", "Ann"), signed_up(client, "127.0.0.3", "Bob")
    game = rated_game(ann, bob)
    ratings_store = client.app.state.ratings  # type: ignore[attr-defined]

    def broken(before: list[Rating], returns: list[float]) -> list[Rating]:
        raise ArithmeticError("a rating system's bug")

    ratings_store.system = broken
    resign(bob, game["id"], game["tokens"][1])
    assert client.get(f"/api/games/{game['id']}").json()["terminal"]
    assert ratings(client, "Ann") == ratings(client, "Bob") == {}
