"""The shared machinery of Game and State, on a tiny toy game."""

from __future__ import annotations

import json
import random

import pytest

from boneyard import CHANCE, TERMINAL, IllegalActionError, InvalidStateError
from boneyard.core.errors import InvalidActionStringError, InvalidParameterError
from boneyard.testing import ConformanceError, check_game
from tests.core.toy import RaceGame, RaceState


def test_info_is_data() -> None:
    info = RaceGame(goal=9).info
    assert (info.name, info.num_players, info.max_game_length) == ("race", 2, 18)
    assert info.parameters == {"goal": 9, "coin": True, "label": "race"}
    assert json.loads(json.dumps(info.to_json()))["parameter_specs"][0]["allowed"] == (
        "an integer from 2 to 50"
    )


def test_bad_parameter_is_refused() -> None:
    with pytest.raises(InvalidParameterError, match="goal"):
        RaceGame(goal=100)


def test_illegal_action_raises_and_changes_nothing() -> None:
    state = RaceGame().new_initial_state()
    state.apply_action(1)
    before = state.to_json()
    assert state.current_player() == CHANCE
    with pytest.raises(IllegalActionError, match="illegal action 2 in race; legal: coin 0, coin 1"):
        state.apply_action(2)
    with pytest.raises(IllegalActionError):
        state.apply_action(True)  # a bool is not an action id, even though True == 1
    assert state.to_json() == before


def test_no_action_after_the_end() -> None:
    state = RaceGame(goal=2, coin=False).new_initial_state()
    state.apply_action(1)
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == [1.0, -1.0]
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_action(0)


def test_strings_are_case_and_space_insensitive() -> None:
    state = RaceGame().new_initial_state()
    assert state.string_to_action("  +2 ") == 1
    state.apply_action(0)
    assert state.string_to_action("COIN   1") == 1
    with pytest.raises(InvalidActionStringError, match="allowed: coin 0, coin 1"):
        state.string_to_action("+1")


def test_json_round_trip_replays_history() -> None:
    game = RaceGame()
    state = game.new_initial_state()
    for action in (1, 1, 0, 0):
        state.apply_action(action)
    restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert isinstance(restored, RaceState)
    assert (restored.total, restored.to_move, restored.history()) == (4, 0, [1, 1, 0, 0])


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "JSON object"),
        ({"game": "obonto", "params": {}, "history": []}, "for game 'obonto'"),
        ({"game": "race", "params": {"goal": 3}, "history": []}, "parameters"),
        ({"game": "race", "params": {"goal": 7, "coin": True, "label": "race"}}, "history"),
        (
            {"game": "race", "params": {"goal": 7, "coin": True, "label": "race"}, "history": [5]},
            "action 0 \\(5\\) is illegal",
        ),
    ],
)
def test_bad_state_documents(doc: object, message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        RaceGame().state_from_json(doc)  # type: ignore[arg-type]


def test_clone_is_independent() -> None:
    state = RaceGame().new_initial_state()
    copy = state.clone()
    copy.apply_action(0)
    assert state.history() == [] and copy.history() == [0]
    assert copy.game is state.game


def test_seats_are_checked() -> None:
    state = RaceGame().new_initial_state()
    assert state.observation(None) == {
        "seat": None,
        "current_player": 0,
        "total": 0,
        "goal": 7,
        "winner": None,
    }
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        state.observation(2)


def test_the_toy_game_passes_the_conformance_suite() -> None:
    check_game(RaceGame(), playouts=5)
    check_game(RaceGame(goal=3, coin=False), playouts=5)


class UnsortedState(RaceState):
    def _legal_actions(self) -> list[int]:
        return [1, 0]


class ForgetfulState(RaceState):
    """Forgets the coin in its JSON document: the round trip must catch it."""

    def to_json(self) -> dict[str, object]:
        doc = super().to_json()
        doc["history"] = [a for a in self.history() if a == 1]  # type: ignore[index]
        return doc


class LeakyReturnsState(RaceState):
    def returns(self) -> list[float]:
        return [0.5, -0.5]


class BrokenRace(RaceGame):
    state_class: type[RaceState] = RaceState

    def new_initial_state(self) -> RaceState:
        return self.state_class(self)


@pytest.mark.parametrize(
    ("state_class", "message"),
    [
        (UnsortedState, "not sorted"),
        (ForgetfulState, "restored board differs"),
        (LeakyReturnsState, "before the end"),
    ],
)
def test_the_suite_catches_broken_games(state_class: type[RaceState], message: str) -> None:
    game = BrokenRace()
    game.state_class = state_class
    with pytest.raises(ConformanceError, match=message):
        check_game(game, playouts=3)


def test_random_playouts_are_seeded() -> None:
    from boneyard.testing import random_playout

    def actions(seed: int) -> list[int]:
        return [a for _, a in random_playout(RaceGame(), random.Random(seed))]

    assert actions(3) == actions(3)
