"""A seat that left a game of three (the computer plays it now) is never "you" on its own page:
every label that marked it "(you)" says "in your place", as the list of players does (issue 35:
the side panel still said "Green (you)" after Green resigned)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import create, token


def _view(client: TestClient, created: dict[str, Any], seat: int) -> dict[str, Any]:
    params = {"token": token(created, seat)}
    answer: dict[str, Any] = client.get(f"/api/games/{created['id']}", params=params).json()
    return answer


def test_every_label_of_a_left_seats_page_says_in_your_place(client: TestClient) -> None:
    created = create(
        client,
        "bonbon",
        params={"players": 3},
        seats=[{"name": "Ann"}, {"name": "Bea"}, {"name": "Cy"}],
    )
    before = _view(client, created, 2)
    labels = [item["label"] for item in before["panel"]]
    assert any("(you)" in label for label in labels), labels  # the seat's own, while it plays
    assert "(you)" in before["svg"] and before["you_mark"] == " (you)"

    answer = client.post(
        f"/api/games/{created['id']}/session", json={"token": token(created, 2), "do": "resign"}
    )
    assert answer.status_code == 200, answer.text

    after = _view(client, created, 2)
    assert after["watching"] and after["you_mark"] == ", in your place"
    # The one who resigned is the person, named as they were, not the computer now in the seat.
    said = after["session"]["events"][-1]["words"]
    assert said.startswith("Cy (Green) resigned and left"), said
    labels = [item["label"] for item in after["panel"]]
    assert not any("(you)" in label for label in labels), labels
    assert any("in your place" in label for label in labels), labels
    assert "(you)" not in after["svg"] and "in your place" in after["svg"]
    listed = [player["listed"] for player in after["players"]]
    assert not any("(you)" in line for line in listed), listed
    # The others' pages keep their own "(you)".
    other = _view(client, created, 0)
    assert other["you_mark"] == " (you)" and "(you)" in other["svg"]


def test_the_end_of_a_game_the_computer_finished_in_your_place_is_not_yours(
    client: TestClient,
) -> None:
    import random
    import time

    created = create(client, "bonbon", params={"players": 3}, seats=[{}, {}, {}])
    ask = {"token": token(created, 2), "do": "resign"}
    assert client.post(f"/api/games/{created['id']}/session", json=ask).status_code == 200
    rng = random.Random(0)
    deadline = time.monotonic() + 120  # a bound on a broken game, not a timing
    seen = _view(client, created, 2)
    while not seen["terminal"]:
        assert time.monotonic() < deadline, "the game did not end"
        mover = seen["current_player"]
        if mover in (0, 1):
            mine = _view(client, created, mover)
            move = {
                "token": token(created, mover),
                "seq": mine["seq"],
                "action_string": rng.choice(mine["legal"])["string"],
            }
            client.post(f"/api/games/{created['id']}/actions", json=move)
        else:
            time.sleep(0.02)  # the computer's move, made in the background: polled
        seen = _view(client, created, 2)
    words = seen["prompt"]
    assert not words.startswith(("You won", "You lost")) and "You " not in words, words
    assert "(you)" not in " ".join(item["label"] for item in seen["panel"])
