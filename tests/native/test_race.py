"""Race's native engine (the template of every native game) against its Python rules."""

from __future__ import annotations

import pickle
import random

import pytest

from boneyard.core.errors import IllegalActionError, InvalidActionStringError, InvalidStateError
from boneyard.games.race.rules import RaceGame
from boneyard.native.game import NativeGame
from boneyard.testing import check_game
from boneyard.testing.differential import EnginesDiffer, check_same_play
from boneyard.testing.playthroughs import game_playthrough


@pytest.mark.parametrize("params", RaceGame.conformance_variants)
def test_the_native_engine_plays_as_the_rules(params: dict[str, object]) -> None:
    python_game = RaceGame(**params)
    plies = check_same_play(python_game, NativeGame(python_game), playouts=200, seed=1)
    assert plies > 500


@pytest.mark.parametrize("params", RaceGame.conformance_variants)
def test_the_native_engine_keeps_the_contract(params: dict[str, object]) -> None:
    check_game(NativeGame(RaceGame(**params)), playouts=10, seed=3)  # type: ignore[arg-type]


def test_the_native_playthrough_is_the_golden_one() -> None:
    python_game = RaceGame()
    assert game_playthrough(NativeGame(python_game)) == game_playthrough(python_game)  # type: ignore[arg-type]


def test_a_different_rule_is_caught() -> None:
    """The comparison fails when the engines differ: here a native game of another goal."""
    with pytest.raises(EnginesDiffer):
        check_same_play(RaceGame(goal=7), NativeGame(RaceGame(goal=8)), playouts=5)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = NativeGame(RaceGame()).new_initial_state()
    for action in (2, -1, 2**70, True, "0", None):
        with pytest.raises(IllegalActionError, match=r"illegal action .* in race; legal: \+1, \+2"):
            state.apply_action(action)  # type: ignore[arg-type]
    assert state.history() == []
    with pytest.raises(InvalidActionStringError, match="allowed: \\+1, \\+2"):
        state.string_to_action("+3")
    with pytest.raises(ValueError, match="bad seat 2 for race"):
        state.observation(2)


def test_a_finished_game_refuses_everything() -> None:
    state = NativeGame(RaceGame(goal=2, coin=False)).new_initial_state()
    state.apply_action(1)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    with pytest.raises(IllegalActionError, match="the race game is over"):
        state.apply_action(0)
    assert state.why_illegal(0) == "The game is over."


def test_documents_and_pickles_travel_between_engines() -> None:
    python_game = RaceGame()
    native = NativeGame(python_game)
    state = native.new_initial_state()
    rng = random.Random(5)
    for _ in range(4):
        state.apply_action(rng.choice(state.legal_actions()))
    assert python_game.state_from_json(state.to_json()).to_json() == state.to_json()
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json() and str(again) == str(state)
    with pytest.raises(InvalidStateError, match="is illegal"):
        native.state_from_json({**state.to_json(), "history": [0, 5]})
    with pytest.raises(InvalidStateError, match="parameters"):
        native.state_from_json({**state.to_json(), "params": {"goal": 9, "coin": True}})


def test_playouts_inside_rust_play_whole_games() -> None:
    games, actions = NativeGame(RaceGame(goal=7, coin=False)).random_playouts(100, seed=1)
    # Without the coin every move adds 1 or 2: a game takes 4 to 7 moves.
    assert games == 100 and 400 <= actions <= 700
