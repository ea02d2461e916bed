"""Open games, the lobby, light identities and the continuing Obonto game of two people."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.core.registry import list_games


def person(client: TestClient, name: str) -> dict[str, str]:
    made = client.post("/api/people", json={"name": name})
    assert made.status_code == 201, made.text
    body: dict[str, str] = made.json()
    return body


def proof(who: dict[str, str]) -> dict[str, str]:
    return {"id": who["id"], "secret": who["secret"]}


def open_game(client: TestClient, game: str, who: dict[str, str], **more: Any) -> dict[str, Any]:
    opened = client.post("/api/open", json={"game": game, "person": proof(who), **more})
    assert opened.status_code == 201, opened.text
    body: dict[str, Any] = opened.json()
    return body


def join(client: TestClient, game_id: str, who: dict[str, str]) -> dict[str, Any]:
    joined = client.post(f"/api/open/{game_id}/join", json={"person": proof(who)})
    assert joined.status_code == 200, joined.text
    body: dict[str, Any] = joined.json()
    return body


def seen(client: TestClient, link: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = client.get(
        f"/api/games/{link['id']}", params={"token": link["token"]}
    ).json()
    return body


@pytest.mark.skipif("oyno" not in list_games(), reason="oyno is not registered")
def test_an_open_games_settings_are_listed_in_words(client: TestClient) -> None:
    ann = person(client, "Ann")
    params = {"wild": True, "place_rule": "all_up", "bones_per_player": 6}
    body = {"game": "oyno", "person": proof(ann), "params": params}
    assert client.post("/api/open", json=body).status_code == 201
    listed = client.get("/api/lobby").json()["waiting"][0]["params"]
    assert listed == (
        "bones per player 6, wild on, place rule: only when all their bones on the board are up"
    )


def test_an_open_game_is_listed_joined_and_then_watched(client: TestClient) -> None:
    ann, ben = person(client, "Ann"), person(client, "Ben")
    opened = open_game(client, "bones", ann, seat=0)  # (else Bones draws Ann's seat)
    assert seen(client, opened)["session"]["open_seats"] == [1]
    lobby = client.get("/api/lobby").json()
    assert [g["id"] for g in lobby["waiting"]] == [opened["id"]]
    assert lobby["waiting"][0]["people"] == ["Ann", None]
    assert lobby["waiting"][0]["params"] == "the usual rules"
    joined = join(client, opened["id"], ben)
    assert joined["id"] == opened["id"] and joined["token"] != opened["token"]
    assert seen(client, joined)["seat"] == 1
    lobby = client.get("/api/lobby").json()
    assert lobby["waiting"] == [] and lobby["live"][0]["people"] == ["Ann", "Ben"]
    full = client.post(
        f"/api/open/{opened['id']}/join", json={"person": proof(person(client, "Cy"))}
    )
    assert full.status_code == 409 and full.json()["error"] == "full"
    spectator = client.get(lobby["live"][0]["watch_url"].replace("/game/", "/api/games/")).json()
    assert spectator["seat"] is None


def test_identities_are_proved_by_their_secret(client: TestClient) -> None:
    ann = person(client, "  Ann  Lee ")
    assert ann["name"] == "Ann Lee"
    wrong = client.post(
        "/api/open", json={"game": "bones", "person": {"id": ann["id"], "secret": "x"}}
    )
    assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_person"
    refused = client.post("/api/people", json={"name": " "}).json()
    assert refused["error"] == "bad_name"
    assert refused["detail"] == "a name is 1 to 30 characters, not only spaces"
    assert person(client, "Bea " + "x" * 40)["name"] == "Bea " + "x" * 26, "as a seat's name"
    assert client.get("/api/lobby").json()["waiting"] == [], "a refused request stores nothing"


def finish(client: TestClient, links: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    by_seat = {seen(client, link)["seat"]: link for link in links}
    while True:
        view = seen(client, links[0])
        if view["terminal"]:
            return view
        mover = by_seat[view["current_player"]]
        legal = seen(client, mover)["legal"]
        played = client.post(
            f"/api/games/{mover['id']}/actions",
            json={"token": mover["token"], "seq": view["seq"], "action": rng.choice(legal)["id"]},
        )
        assert played.status_code == 200, played.text


def test_two_people_have_one_continuing_obonto_game(client: TestClient) -> None:
    ann, ben = person(client, "Ann"), person(client, "Ben")
    first_open = open_game(client, "obonto", ann)
    first_ben = join(client, first_open["id"], ben)
    assert first_ben["id"] == first_open["id"], "their first meeting: this game"
    end = finish(client, [first_open, first_ben], seed=7)
    loser = 1 - end["observation"]["results"][-1]["winner"]

    again = open_game(client, "obonto", ann)
    ben_link = join(client, again["id"], ben)
    assert ben_link["id"] not in (again["id"], first_open["id"]), "continued in a new game"
    continued = seen(client, ben_link)
    assert continued["observation"]["animals"] == end["observation"]["animals"]
    assert continued["current_player"] == loser
    assert continued["session"]["series"]["points"] == end["observation"]["totals"]
    ann_side = seen(client, again)
    assert ann_side["terminal"] and ann_side["session"]["follow"]
    ann_link = ann_side["session"]["next_url"]
    assert ann_link.startswith(f"/game/{ben_link['id']}?t=")
    assert seen(client, {"id": ben_link["id"], "token": ann_link.split("?t=")[1]})["seat"] == 0

    third = open_game(client, "obonto", ben)  # meeting again before it is over: resumed as is
    resumed = join(client, third["id"], ann)
    assert resumed["id"] == ben_link["id"] and seen(client, resumed)["seat"] == 0

    manager = client.app.state.manager  # type: ignore[attr-defined]
    manager.games.pop(again["id"])  # replayed from the store: the link to follow is kept
    assert seen(client, again)["session"]["next_url"] == ann_link

    listed = client.post(f"/api/people/{ann['id']}/games", json=proof(ann)).json()
    assert [g["id"] for g in listed] == [ben_link["id"]]
    assert listed[0]["opponents"] == ["Ben"] and listed[0]["continuing"]
    assert (
        client.post(f"/api/people/{ben['id']}/games", json=proof(ben)).json()[0]["id"]
        == (ben_link["id"])
    )


def test_the_session_pages_load_with_no_inline_script(client: TestClient) -> None:
    import re

    created = client.post("/api/games", json={"game": "bones"}).json()
    called_off = {"token": created["seats"][0]["token"], "do": "abort"}
    assert client.post(f"/api/games/{created['id']}/session", json=called_off).status_code == 200
    own_pages = {"/mine": "My games", "/lobby": "Lobby", "/ladder": "puzzle ladder"}
    with_parts = {
        created["seats"][0]["url"]: 'id="session"',
        f"/game/{created['id']}/replay": 'id="replay-events"',
    }
    for path, expected in {**own_pages, **with_parts}.items():
        page = client.get(path)
        assert page.status_code == 200 and expected in page.text, path
        scripts = re.findall(r"<script([^>]*)>", page.text)
        ours = [attrs for attrs in scripts if path in own_pages or "session" in attrs]
        assert ours and all('src="/static/' in attrs for attrs in ours), path
        body = re.split(r"<main[^>]*>", page.text)[1]
        assert not re.search(r"\son[a-z]+=", body), f"an inline event handler on {path}"


def test_an_open_game_takes_no_move_until_the_opponent_arrives(client: TestClient) -> None:
    ann, ben = person(client, "Ann"), person(client, "Ben")
    opened = open_game(client, "obonto", ann)
    view = seen(client, opened)
    assert view["prompt"] == "Waiting for an opponent to join."
    assert view["legal"] == [] and view["current_player"] is None and view["seq"] == 0
    move = {"seq": 0, "action_string": "e5", "token": opened["token"]}
    refused = client.post(f"/api/games/{opened['id']}/actions", json=move)
    assert refused.status_code == 409 and refused.json()["error"] == "waiting_for_opponent"
    assert seen(client, opened)["session"]["can"]["abort"], "Call the game off stays"
    join(client, opened["id"], ben)
    view = seen(client, opened)
    assert view["legal"] and view["prompt"] != "Waiting for an opponent to join."
    move["action_string"] = view["legal"][0]["string"]
    assert client.post(f"/api/games/{opened['id']}/actions", json=move).status_code == 200


def test_bones_seats_the_first_game_at_random_unless_a_seat_was_chosen(
    client: TestClient,
) -> None:
    ann = person(client, "Ann")
    drawn = {seen(client, open_game(client, "bones", ann))["seat"] for _ in range(12)}
    assert drawn == {0, 1}, "the rules draw for colours"
    chosen = {"game": "bones", "person": proof(ann), "seat": 0}
    opened = [client.post("/api/open", json=chosen).json() for _ in range(4)]
    assert {seen(client, link)["seat"] for link in opened} == {0}
    # Obonto keeps its seats: the creator sits where asked (seat 0 unless told).
    assert seen(client, open_game(client, "obonto", ann))["seat"] == 0


def test_the_one_click_bones_game_against_the_computer_draws_the_colours(
    client: TestClient,
) -> None:
    seats = set()
    for _ in range(12):
        made = client.post("/new/bones", data={"level": "easy"}, follow_redirects=False)
        assert made.status_code == 303
        token = made.headers["location"].split("?t=")[1]
        game_id = made.headers["location"].split("/game/")[1].split("?")[0]
        seats.add(client.get(f"/api/games/{game_id}", params={"token": token}).json()["seat"])
    assert seats == {0, 1}


@pytest.mark.parametrize(
    ("clock", "words", "speed"),
    [
        (None, "no clock", "untimed"),
        ({"initial": 60, "increment": 0}, "1+0", "bullet"),
        ({"initial": 120, "increment": 1}, "2+1", "bullet"),  # at most 120 + 40 s: bullet
        ({"initial": 180, "increment": 2}, "3+2", "blitz"),
        ({"initial": 600, "increment": 5}, "10+5", "rapid"),
        ({"initial": 1800, "increment": 0}, "30+0", "classical"),
        ({"days": 3}, "3 days a move", "correspondence"),
    ],
)
def test_an_open_games_clock_and_speed_are_listed(
    client: TestClient, clock: dict[str, int] | None, words: str, speed: str
) -> None:
    ann = person(client, "Ann")
    open_game(client, "bones", ann, seat=0, clock=clock)
    listed = client.get("/api/lobby").json()["waiting"][0]["clock"]
    assert listed["words"] == words
    assert listed["speed"] == speed
    assert listed["control"] == clock
