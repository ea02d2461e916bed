"""No message to a seat carries more than ``observation(seat)`` allows (HTTP and WebSocket).

Every payload a seat receives is compared, field by field, with what the engine says that seat
may know at that move number: its observation, the board drawn from it, its own legal actions
when it is to move, and the move log as ``action_string_for(seat, ...)`` shows it. Then the
hidden-information games get a direct check that another seat's secrets never appear.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.core.game import Game, State
from boneyard.core.registry import list_games
from boneyard.web.play.drawing import Lines, lines_of, rebuilt
from boneyard.web.play.live import render
from tests.web.conftest import all_games, create

VIEW_KEYS = {
    "game_id", "game", "title", "params", "seq", "seat", "seats", "current_player", "terminal",
    "returns", "status", "observation", "legal", "log_from", "log_update", "log", "svg", "text",
    "seed_hash",
    "seed", "session", "hints_on",
    # when the game was made (the lists' dates): the same for every seat
    "created",
    # the seat's state at the table: it left and watches (the computer plays it), its clocks
    "watching", "you_mark", "clock",
    # words for people (web/play/words.py), each drawn from the seat's own observation:
    "prompt", "recent", "labels", "panel", "players", "result", "quick_setup", "round_summary",
}  # fmt: skip
SESSION_KEYS = {
    "ending", "can", "draw_offer", "takeback_request", "events", "series", "next_url",
    "next_game", "waiting", "stand_in_after", "open_seats", "puzzle", "follow", "events_total",
}  # fmt: skip
"""The session of play (web/sessions.py): words and flags, no state; ``next_url`` carries the
seat's own token into the next game only."""

CASES = [
    ("bondo_cones", {"setup": "random"}, 120),
    ("bondo_cones", {}, 60),
    ("bonbon", {"players": 3}, 160),
    ("toy_secret", {"players": 3}, 10),
]


def states_along(game: Game, actions: list[int]) -> list[State]:
    state = game.new_initial_state()
    states = [state.clone()]
    for action in actions:
        state.apply_action(action)
        states.append(state.clone())
    return states


def check_payload(
    game: Game,
    states: list[State],
    log: dict[int | None, list[str]],
    seat: int | None,
    view: dict[str, Any],
) -> None:
    assert set(view) == VIEW_KEYS
    assert set(view["session"]) == SESSION_KEYS
    assert view["session"]["next_url"] is None, "no next game here: no token to pass on"
    seq = view["seq"]
    truth = states[seq]
    observation = truth.observation(seat)
    assert view["seat"] == seat
    assert view["observation"] == observation
    svg, text = render(game, observation)
    assert view["svg"] == svg and view["text"] == text
    # The panel is the game's panel of this seat's observation, nothing more.
    assert view["panel"] == [item.to_json() for item in game.panel(observation, seat)]
    if seat is not None and truth.current_player() == seat:
        assert view["prompt"] == game.prompt(observation, seat)
    if seat is not None and truth.current_player() == seat:
        expected = [{"id": a, "string": truth.action_to_string(a)} for a in truth.legal_actions()]
    else:
        expected = []
    assert view["legal"] == expected
    start = view["log_from"]
    assert [line["seq"] for line in view["log"]] == list(range(start, seq))
    assert [line["string"] for line in view["log"]] == log[seat][start:seq]
    assert (view["seed"] is not None) == truth.is_terminal()
    check_words(game, states, log, seat, view)


def check_words(
    game: Game,
    states: list[State],
    log: dict[int | None, list[str]],
    seat: int | None,
    view: dict[str, Any],
) -> None:
    """The words for people are the game's hooks given only this seat's material: its own
    observation now, and for each action described, its observation before it and the log
    line it was shown."""
    seq = view["seq"]
    truth = states[seq]
    observation = truth.observation(seat)
    assert view["panel"] == [item.to_json() for item in game.panel(observation, seat)]
    if seat is not None and truth.current_player() == seat:
        assert view["prompt"] == game.prompt(observation, seat)
        strings = [truth.action_to_string(a) for a in truth.legal_actions()]
        assert view["labels"] == {s: game.action_label(observation, s) for s in strings}
    else:
        assert view["labels"] == {}
    if truth.is_terminal():
        assert view["result"] == game.result(observation, seat, truth.returns())
    said = set()
    for number in range(max(0, seq - 70), seq):
        player = states[number].current_player()
        actor = None if player < 0 else player
        before = states[number].observation(seat)
        said.add(game.describe_action(before, actor, log[seat][number]))
    assert set(view["recent"]) <= said
    for line in view["log"]:  # the move log in words: each line from the seat's own material
        if line.get("words") is None:  # views without the drawing carry no words
            continue
        number = line["seq"]
        player = states[number].current_player()
        before = states[number].observation(seat)
        actor = None if player < 0 else player
        assert line["words"] == game.describe_action(before, actor, log[seat][number])
    assert all("token" not in player for player in view["players"])
    summary = view["round_summary"]
    if summary is not None:  # the round's end from this seat's observations around it alone
        number = summary.pop("seq")
        around = states[number].observation(seat), states[number + 1].observation(seat)
        names = [  # the table names people by their own names, the computer by its colour
            player["person_name"] or game.seat_name(other).capitalize()
            for other, player in enumerate(view["players"])
        ]
        assert summary == game.round_summary(*around, seat, names)


def check_hidden_values(name: str, truth: State, seat: int | None, view: dict[str, Any]) -> None:
    """Game by game: the other seats' secrets are absent from what ``seat`` was sent."""
    observation = view["observation"]
    if name == "bondo_cones":
        from boneyard.games.bondo_cones.notation import observed_cones

        for square, cone in observed_cones(observation).items():
            if cone["seat"] != seat and not cone["spied"]:
                assert cone["value"] is None, f"a hidden value of {square} reached seat {seat}"
    elif name == "bonbon":
        for owner, run in enumerate(observation["runs"]):
            for card in run:
                if owner != seat and not card["up"] and seat not in card["seen_by"]:
                    assert card["card"] is None, f"seat {owner}'s face-down card reached {seat}"
    elif name == "toy_secret" and not truth.is_terminal():
        assert observation["secrets"] is None
        own = observation["my_secret"]
        assert seat is not None or own is None


@pytest.mark.parametrize(("name", "params", "moves"), CASES)
# Over the complexity limit on purpose: one check per kind of payload a seat receives.
def test_every_payload_to_a_seat_is_its_observation(  # noqa: C901
    client: TestClient, name: str, params: dict[str, Any], moves: int
) -> None:
    if name not in list_games() and name not in all_games():
        pytest.skip(f"{name} is not registered yet")
    seeds = iter(f"privacy-seed-{n}" for n in range(100))
    client.app.state.manager.new_seed = lambda: next(seeds)  # type: ignore[attr-defined]
    created = create(client, name, params=params)
    game_id = created["id"]
    seats = len(created["seats"])
    tokens = [s["token"] for s in created["seats"]]
    received: list[tuple[int | None, dict[str, Any]]] = []
    rng = random.Random(11)
    sockets = [
        client.websocket_connect(f"/ws/games/{game_id}" + (f"?token={t}" if t else ""))
        for t in [*tokens, None]
    ]
    entered = [socket.__enter__() for socket in sockets]
    held: dict[int | None, Lines | None] = {}

    def whole(seat: int | None, message: dict[str, Any]) -> dict[str, Any]:
        """A socket's view with its drawing rebuilt from what changed (play/drawing.py)."""
        view = {k: v for k, v in message.items() if k not in ("type", "drawing")}
        if "drawing" in message:
            assert message["svg"] is None
            known = held[seat]
            assert known is not None, "what changed is sent only against a drawing sent"
            view["svg"] = rebuilt(known, message["drawing"])
        held[seat] = lines_of(view["svg"])
        return view

    try:
        for socket, seat in zip(entered, [*range(seats), None]):
            message = socket.receive_json()
            assert message["type"] == "view"
            assert "drawing" not in message, "a socket's first view has the whole drawing"
            received.append((seat, whole(seat, message)))
        latest = {seat: view for seat, view in received}
        for move in range(moves):
            spectator = latest[None]
            if spectator["terminal"]:
                break
            mover = spectator["current_player"]
            mine = latest[mover]
            action = rng.choice(mine["legal"])["id"]
            if move % 4 == 3:  # now and then by HTTP, whose answer is a payload too
                response = client.post(
                    f"/api/games/{game_id}/actions",
                    json={"token": tokens[mover], "seq": mine["seq"], "action": action},
                )
                assert response.status_code == 200, response.text
                received.append((mover, response.json()))
            else:
                entered[mover].send_json({"type": "act", "seq": mine["seq"], "action": action})
            for socket, seat in zip(entered, [*range(seats), None]):
                message = socket.receive_json()
                assert message["type"] == "view", message
                view = whole(seat, message)
                received.append((seat, view))
                latest[seat] = view
            if move % 4 != 3:
                assert entered[mover].receive_json()["type"] == "ack"
        for seat in range(seats):
            response = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]})
            received.append((seat, response.json()))
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)

    manager = client.app.state.manager  # type: ignore[attr-defined]
    stored = manager.store.load(game_id)
    actions = [action for action, _player in stored.actions]
    game = all_games()[name](**created["params"])
    states = states_along(game, actions)
    log = {
        seat: [states[k].action_string_for(seat, a) for k, a in enumerate(actions)]
        for seat in [*range(seats), None]
    }
    assert len(received) > 2 * seats
    if name == "bonbon":  # rounds ended, and each seat was told of them
        assert {seat for seat, view in received if view["round_summary"]} == {*range(seats), None}
    for seat, view in received:
        check_payload(game, states, log, seat, view)
        truth = states[view["seq"]]
        check_hidden_values(name, truth, seat, view)
        text = json.dumps(view)
        for other, other_token in enumerate(tokens):
            assert other_token not in text, f"seat {other}'s token was sent to seat {seat}"
        if not truth.is_terminal():
            assert stored.seed not in text, "the seed is secret until the end"
