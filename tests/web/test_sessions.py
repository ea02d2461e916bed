"""The session of play: resign, draw offers, abort, takeback, rematch and series, stand-in."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from boneyard.web.table.session import SessionSettings
from tests.web.conftest import all_games, app_settings, create, make_app, token

PEOPLE = [{"kind": "human"}, {"kind": "human"}]
VS_COMPUTER = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]


def ask(client: TestClient, created: dict[str, Any], seat: int, do: str, **more: Any) -> Any:
    return client.post(
        f"/api/games/{created['id']}/session",
        json={"token": token(created, seat), "do": do, **more},
    )


def view(client: TestClient, created: dict[str, Any], seat: int | None = None) -> Any:
    params = {} if seat is None else {"token": token(created, seat)}
    return client.get(f"/api/games/{created['id']}", params=params).json()


def play(client: TestClient, created: dict[str, Any], seat: int, move: str) -> None:
    seq = view(client, created)["seq"]
    response = client.post(
        f"/api/games/{created['id']}/actions",
        json={"token": token(created, seat), "seq": seq, "action_string": move},
    )
    assert response.status_code == 200, response.text


def wait_for_turn(client: TestClient, created: dict[str, Any], seat: int) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        seen: dict[str, Any] = view(client, created, seat)
        if seen["terminal"] or seen["current_player"] == seat:
            return seen
        time.sleep(0.02)
    raise AssertionError("the computer did not move")


def bones_win_for_white(client: TestClient, created: dict[str, Any], white: int) -> None:
    """White (the seat ``white``) makes six in a row on rank 5 while black plays far away."""
    black = 1 - white
    for white_move, black_move in (("e5-f5", "a1-a2"), ("g5-h5", "a3-a4"), ("c5-d5", None)):
        play(client, created, white, white_move)
        if black_move:
            play(client, created, black, black_move)


def test_a_resigned_game_stores_the_reason_and_replays_to_the_same_end(db_path: Path) -> None:
    with TestClient(make_app(db_path)) as client:
        created = create(client, "bones", seats=PEOPLE)
        play(client, created, 0, "e5-f5")
        assert ask(client, created, 0, "resign").status_code == 200
        seen = view(client, created, 1)
        assert seen["terminal"] and seen["returns"] == [-1.0, 1.0]
        assert seen["status"] == "Game over: White resigned, Black wins"
        assert seen["session"]["ending"]["kind"] == "resign"
        assert seen["session"]["events"][-1]["words"] == "White resigned"
        assert seen["seed"], "the seed is revealed at the end"
        again = client.post(
            f"/api/games/{created['id']}/actions",
            json={"token": token(created, 1), "seq": seen["seq"], "action_string": "a1-a2"},
        )
        assert again.status_code == 409 and again.json()["error"] == "game_over"
        frames = client.get(f"/api/games/{created['id']}/replay/1")
        assert frames.status_code == 200, "a resigned game can be replayed"
    with TestClient(make_app(db_path)) as client:
        seen = view(client, created, 0)
        assert seen["terminal"] and seen["returns"] == [-1.0, 1.0]
        assert seen["status"] == "Game over: White resigned, Black wins"
        assert [e["kind"] for e in seen["session"]["events"]] == ["resign"]


def test_a_draw_is_offered_between_people_and_agreed(client: TestClient) -> None:
    created = create(client, "bones", seats=PEOPLE)
    play(client, created, 0, "e5-f5")
    assert view(client, created, 0)["session"]["can"]["offer_draw"]
    assert ask(client, created, 0, "offer_draw").status_code == 200
    assert ask(client, created, 0, "accept_draw").json()["error"] == "no_offer"
    assert view(client, created, 1)["session"]["can"]["answer_draw"]
    assert ask(client, created, 1, "decline_draw").status_code == 200
    assert view(client, created, 1)["session"]["draw_offer"] is None
    assert ask(client, created, 1, "offer_draw").status_code == 200
    play(client, created, 1, "a1-a2")  # moving instead of answering lets the offer lapse
    assert ask(client, created, 0, "accept_draw").json()["error"] == "no_offer"
    assert ask(client, created, 0, "offer_draw").status_code == 200
    assert ask(client, created, 1, "accept_draw").status_code == 200
    seen = view(client, created)
    assert seen["terminal"] and seen["returns"] == [0.0, 0.0]
    assert seen["status"] == "Game over: a draw by agreement"
    words = [e["words"] for e in seen["session"]["events"]]
    assert words[-1] == "Black accepted the draw: the game is drawn"


def test_no_draw_offers_where_the_rules_have_no_draws_or_to_the_computer(
    client: TestClient,
) -> None:
    obonto = create(client, "obonto", seats=PEOPLE)
    assert not view(client, obonto, 0)["session"]["can"]["offer_draw"]
    assert ask(client, obonto, 0, "offer_draw").json()["error"] == "no_draws"
    bones = create(client, "bones", seats=VS_COMPUTER)
    assert ask(client, bones, 0, "offer_draw").json()["error"] == "no_draws"


def test_abort_only_before_the_first_move(client: TestClient) -> None:
    created = create(client, "bones", seats=PEOPLE)
    assert ask(client, created, 1, "abort").status_code == 200
    seen = view(client, created)
    assert seen["terminal"] and seen["status"] == "Game called off before the first move"
    started = create(client, "bones", seats=PEOPLE)
    play(client, started, 0, "e5-f5")
    refused = ask(client, started, 1, "abort")
    assert refused.status_code == 409 and refused.json()["error"] == "started"
    assert not view(client, started)["terminal"], "a refused request changes nothing"


def test_takeback_against_the_computer_allowed_before_chance_or_reveal(client: TestClient) -> None:
    created = create(client, "obonto", seats=VS_COMPUTER)
    play(client, created, 0, "e1-e3")
    seen = wait_for_turn(client, created, 0)
    assert seen["seq"] == 2
    assert ask(client, created, 0, "takeback").status_code == 200
    seen = view(client, created, 0)
    assert seen["seq"] == 0 and seen["current_player"] == 0 and seen["log"] == []
    assert seen["session"]["events"][-1]["words"] == "South took back 2 moves"
    play(client, created, 0, "d1-d2")  # the game goes on from the shortened log
    seen = wait_for_turn(client, created, 0)
    assert seen["log"][0]["string"] == "d1-d2"


def test_takeback_against_the_computer_refused_after_a_chance_event(client: TestClient) -> None:
    created = create(client, "oyno", params={"wild": True}, seats=VS_COMPUTER)
    play(client, created, 0, "place b2 wild")  # the roll decides up or down: chance
    wait_for_turn(client, created, 0)
    refused = ask(client, created, 0, "takeback")
    assert refused.status_code == 409 and refused.json()["error"] == "takeback_refused"
    assert "chance" in refused.json()["detail"]
    assert view(client, created)["seq"] >= 3, "nothing was taken back"


def test_takeback_against_the_computer_refused_after_a_reveal(client: TestClient) -> None:
    created = create(client, "bondo_cones", seats=VS_COMPUTER)
    seen = view(client, created, 0)
    play(client, created, 0, seen["legal"][0]["string"])  # a secret placement
    refused = ask(client, created, 0, "takeback")
    assert refused.status_code == 409 and "hidden" in refused.json()["detail"]


def test_takeback_against_a_person_is_a_request_the_other_accepts(client: TestClient) -> None:
    created = create(client, "bones", seats=PEOPLE)
    play(client, created, 0, "e5-f5")
    assert ask(client, created, 0, "takeback").status_code == 200
    assert view(client, created)["seq"] == 1, "only asked so far"
    assert view(client, created, 1)["session"]["takeback_request"] == {"seat": 0}
    assert ask(client, created, 0, "accept_takeback").json()["error"] == "no_request"
    assert ask(client, created, 1, "accept_takeback").status_code == 200
    seen = view(client, created, 0)
    assert seen["seq"] == 0 and seen["current_player"] == 0
    kinds = [e["kind"] for e in seen["session"]["events"]]
    assert kinds == ["takeback_request", "takeback"], "the log keeps a record"


def test_bones_rematch_the_loser_moves_first_and_the_series_counts(client: TestClient) -> None:
    first = create(client, "bones", seats=PEOPLE)
    bones_win_for_white(client, first, white=0)
    over = view(client, first, 1)
    assert over["terminal"] and over["returns"] == [1.0, -1.0]
    assert over["session"]["can"]["rematch"]
    assert ask(client, first, 1, "rematch").status_code == 200
    loser_link = view(client, first, 1)["session"]["next_url"]
    winner_link = view(client, first, 0)["session"]["next_url"]
    assert loser_link and winner_link and loser_link != winner_link
    next_id = loser_link.split("/")[2].split("?")[0]
    loser_token = loser_link.split("?t=")[1]
    winner_token = winner_link.split("?t=")[1]
    loser_view = client.get(f"/api/games/{next_id}", params={"token": loser_token}).json()
    assert loser_view["seat"] == 0 and loser_view["current_player"] == 0, "the loser opens"
    score = loser_view["session"]["series"]
    assert score["number"] == 2 and score["wins"] == [0.0, 1.0]
    second = {"id": next_id, "seats": [{"token": loser_token}, {"token": winner_token}]}
    bones_win_for_white(client, second, white=0)  # the first game's loser wins this one
    assert view(client, second)["session"]["series"]["wins"] == [1.0, 1.0]
    assert ask(client, first, 0, "rematch").status_code == 200, "asking twice is harmless"


def finish_randomly(client: TestClient, created: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    while True:
        spectator = view(client, created)
        if spectator["terminal"]:
            return spectator
        mover = spectator["current_player"]
        legal = view(client, created, mover)["legal"]
        play(client, created, mover, rng.choice(legal)["string"])


def test_obonto_continues_from_the_end_position_with_the_loser_first(client: TestClient) -> None:
    first = create(client, "obonto", seats=PEOPLE)
    end = finish_randomly(client, first, seed=3)
    animals = end["observation"]["animals"]
    loser = 1 - end["observation"]["results"][-1]["winner"]
    totals = end["observation"]["totals"]
    assert ask(client, first, 0, "rematch").status_code == 200
    link = view(client, first, 0)["session"]["next_url"]
    next_id, next_token = link.split("/")[2].split("?t=")
    nxt = client.get(f"/api/games/{next_id}", params={"token": next_token}).json()
    assert nxt["seat"] == 0, "Obonto keeps the seats: the animals stay"
    assert nxt["observation"]["animals"] == animals
    assert nxt["current_player"] == loser
    assert "c3" in nxt["observation"]["dark"] and len(nxt["observation"]["dark"]) == 4
    assert nxt["session"]["series"]["points"] == totals, "the totals are carried"


def stand_in_after(db_path: Path, seconds: float) -> FastAPI:
    """An app whose stand-in may be asked for after ``seconds`` of a person's silence."""
    return create_app(
        f"sqlite:///{db_path}",
        catalog=Catalog(all_games()),
        settings=app_settings(),
        session_settings=SessionSettings(stand_in_seconds=seconds),
    )


def test_stand_in_after_the_set_time(db_path: Path) -> None:
    with TestClient(stand_in_after(db_path, 0.3)) as client:
        created = create(client, "bones", seats=PEOPLE)
        play(client, created, 0, "e5-f5")
        early = ask(client, created, 0, "stand_in")
        assert early.status_code == 409 and early.json()["error"] == "not_away"
        time.sleep(0.4)
        assert view(client, created, 0)["session"]["can"]["stand_in"]
        assert ask(client, created, 0, "stand_in").status_code == 200
        seen = wait_for_turn(client, created, 0)
        assert seen["seq"] == 2 and seen["log"][1]["player"] == 1, "the computer moved for them"
        assert "computer" in seen["seats"][1]["label"]
        assert "who was away" in seen["session"]["events"][-1]["words"]


def test_a_timed_game_offers_no_stand_in_the_clock_decides(db_path: Path) -> None:
    with TestClient(stand_in_after(db_path, 0.0)) as client:
        untimed = create(client, "bones", seats=PEOPLE)
        timed = create(client, "bones", seats=PEOPLE, clock={"initial": 300, "increment": 3})
        for created in (untimed, timed):
            play(client, created, 0, "e5-f5")
        assert view(client, untimed, 0)["session"]["can"]["stand_in"]  # away long enough
        assert not view(client, timed, 0)["session"]["can"]["stand_in"]
        refused = ask(client, timed, 0, "stand_in")
        assert refused.status_code == 409 and refused.json()["error"] == "timed_game"
        assert "clock decides" in refused.json()["detail"]
        assert view(client, timed, 0)["seats"][1]["kind"] == "human"  # nothing changed


def test_resigning_with_several_others_hands_the_seat_to_the_computer(db_path: Path) -> None:
    with TestClient(make_app(db_path)) as client:
        created = create(client, "bonbon", params={"players": 3}, seats=[{"kind": "human"}] * 3)
        assert ask(client, created, 2, "resign").status_code == 200
        seen = view(client, created, 0)
        assert not seen["terminal"], "the others play on"
        assert "computer" in seen["seats"][2]["label"]
        assert seen["session"]["events"][-1]["kind"] == "left"
        assert ask(client, created, 2, "offer_draw").json()["error"] == "not_a_person"
    with TestClient(make_app(db_path)) as client:  # and so it stays after a restart
        assert "computer" in view(client, created, 0)["seats"][2]["label"]


def test_takeback_in_a_game_with_chance_is_allowed_until_chance_plays(db_path: Path) -> None:
    # The computer waits long enough for the takeback to come before its reply.
    with TestClient(make_app(db_path, bot_delay=30.0)) as client:
        created = create(client, "oyno", params={"wild": True}, seats=VS_COMPUTER)
        play(client, created, 0, "place b2")  # up, as placed: nothing left to chance
        assert view(client, created, 0)["session"]["can"]["takeback"]
        assert ask(client, created, 0, "takeback").status_code == 200
        assert view(client, created)["seq"] == 0
        play(client, created, 0, "place b2 wild")  # rolled: chance decides its side
        assert view(client, created)["log"][-1]["player"] == -1
        assert not view(client, created, 0)["session"]["can"]["takeback"], "no button for it"
        refused = ask(client, created, 0, "takeback")
        assert refused.status_code == 409 and "chance" in refused.json()["detail"]


def test_a_person_names_their_own_seat_and_everyone_sees_it(client: TestClient) -> None:
    created = create(client, "bones", seats=PEOPLE)
    before = view(client, created)
    assert ask(client, created, 1, "name", name="  Ben   Lee ").status_code == 200
    seen = view(client, created, 0)
    players = {p["seat"]: p for p in seen["players"]}
    assert players[1]["name"] == "Ben Lee (Black)" and players[1]["person_name"] == "Ben Lee"
    assert players[0]["person_name"] is None
    assert [e["words"] for e in seen["session"]["events"]] == ["Black is now called Ben Lee"]
    # the same name again changes nothing; a long name is cut to 30 characters
    assert ask(client, created, 1, "name", name="Ben Lee").status_code == 200
    assert len(view(client, created)["session"]["events"]) == 1
    ask(client, created, 0, "name", name="A" * 45)
    assert {p["seat"]: p for p in view(client, created)["players"]}[0]["person_name"] == "A" * 30
    # an empty name is refused and changes nothing (empty text by the schema, a name of spaces
    # or none by the session); a spectator has no seat to name
    refused = ask(client, created, 1, "name", name="")
    assert refused.status_code == 422 and "name" in refused.json()["detail"]
    for bad in ("   ", None):
        refused = ask(client, created, 1, "name", name=bad)
        assert refused.status_code == 400 and refused.json()["error"] == "bad_name"
        assert "1 to 30 characters" in refused.json()["detail"]
    assert {p["seat"]: p for p in view(client, created)["players"]}[1]["person_name"] == "Ben Lee"
    for given, error in (("", "spectator"), ("nobody", "wrong_token")):
        refused = client.post(
            f"/api/games/{created['id']}/session", json={"token": given, "do": "name", "name": "X"}
        )
        assert refused.status_code == 403 and refused.json()["error"] == error
    assert view(client, created)["seq"] == before["seq"], "naming is not a move"


def test_a_name_given_between_an_offer_and_its_answer_leaves_the_offer_open(
    client: TestClient,
) -> None:
    created = create(client, "bones", seats=PEOPLE)
    play(client, created, 0, "e5-f5")
    assert ask(client, created, 0, "offer_draw").status_code == 200
    assert ask(client, created, 1, "name", name="Ben").status_code == 200
    assert view(client, created, 1)["session"]["can"]["answer_draw"]
    assert ask(client, created, 1, "accept_draw").status_code == 200
    assert view(client, created)["returns"] == [0.0, 0.0]


def test_a_person_against_the_computer_names_their_seat(client: TestClient) -> None:
    created = create(client, "bones", seats=VS_COMPUTER)
    assert ask(client, created, 0, "name", name="Ann").status_code == 200
    human = {p["seat"]: p for p in view(client, created)["players"]}
    assert human[0]["name"] == "Ann (White)" and human[1]["person_name"] is None


def test_names_come_before_colours_where_people_gave_them(client: TestClient) -> None:
    created = create(client, "bones", seats=PEOPLE)
    for seat, name in ((0, "Ann"), (1, "Ben")):
        assert ask(client, created, seat, "name", name=name).status_code == 200
    play(client, created, 0, "e5-f5")
    assert ask(client, created, 0, "offer_draw").status_code == 200
    seen = view(client, created, 1)
    assert [s["label"] for s in seen["seats"]] == ["Ann (White)", "Ben (Black)"]
    assert seen["session"]["events"][-1]["words"] == "Ann (White) offered a draw"
    assert ask(client, created, 1, "resign").status_code == 200
    assert view(client, created, 0)["status"] == "Game over: Ben (Black) resigned, Ann (White) wins"
