"""Obonto's native engine against its Python rules, step by step."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boneyard.core.errors import IllegalActionError, InvalidActionStringError, InvalidStateError
from boneyard.core.game import State
from boneyard.games.obonto.rules import MAX_MOVES_PER_GAME, ObontoGame
from boneyard.native import load_game as load_native_game
from boneyard.native.batch import NativeBatch
from boneyard.native.game import NativeGame, NativeState
from boneyard.testing import check_game
from boneyard.testing.differential import EnginesDiffer, check_same_play
from boneyard.testing.playthroughs import expected_files, game_playthrough, golden_path

PLAYTHROUGHS = Path(__file__).parent.parent / "playthroughs"
GOLDEN = {
    filename: params for filename, (name, params) in expected_files().items() if name == "obonto"
}


def _variants() -> list[dict[str, Any]]:
    """The conformance variants and the golden files' parameter sets, each once (resolved)."""
    seen: dict[str, dict[str, Any]] = {}
    for params in [*ObontoGame.conformance_variants, *GOLDEN.values()]:
        resolved = dict(ObontoGame(**params).params)
        seen.setdefault(json.dumps(resolved, sort_keys=True), resolved)
    return list(seen.values())


VARIANTS = _variants()
# Random matches run about 40 plies a game: these playouts give each variant some 3,000 plies.
PLAYOUTS = {1: 80, 2: 40, 3: 25, 6: 20}


def _games(params: dict[str, Any]) -> int:
    return int(params["games"])


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: json.dumps(p, sort_keys=True))
def test_the_native_engine_plays_as_the_rules(params: dict[str, Any]) -> None:
    python_game = ObontoGame(**params)
    plies = check_same_play(
        python_game, NativeGame(python_game), playouts=PLAYOUTS[_games(params)], seed=1
    )
    assert plies > 2500


@pytest.mark.parametrize("params", ObontoGame.conformance_variants)
def test_the_native_engine_keeps_the_contract(params: dict[str, object]) -> None:
    check_game(NativeGame(ObontoGame(**params)), playouts=5, seed=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("filename", sorted(GOLDEN))
def test_the_native_playthrough_is_the_golden_one(filename: str) -> None:
    path = golden_path(filename, "obonto", PLAYTHROUGHS)
    native = load_native_game("obonto", **GOLDEN[filename])
    assert game_playthrough(native) == path.read_text()  # type: ignore[arg-type]


def test_every_registered_name_and_parameter_loads_natively() -> None:
    native = load_native_game("obonto", games="4", target="9", first="1", start="a2 b2 c2/a8,b8,c8")
    state = native.new_initial_state()
    seen = state.observation(None)
    assert (seen["games"], seen["target"], seen["first"]) == (4, 9, 1)
    assert seen["animals"][0] == {"lion": "a2", "zebra": "b2", "camel": "c2"}
    assert state.current_player() == 1


def test_a_different_rule_is_caught() -> None:
    """The comparison fails when the engines differ: here a native match of one more game."""
    with pytest.raises(EnginesDiffer, match="differ"):
        check_same_play(ObontoGame(games=2), NativeGame(ObontoGame(games=3)), playouts=3)
    with pytest.raises(EnginesDiffer, match="legal actions differ"):
        check_same_play(ObontoGame(), NativeGame(ObontoGame(start="e5,e4,e6,d5,f5,e3")), playouts=1)


def _positions(params: dict[str, Any], seed: int) -> list[tuple[State, NativeState]]:
    """Both engines' states along one seeded random match, every seventh ply."""
    python_game = ObontoGame(**params)
    ours, theirs = python_game.new_initial_state(), NativeGame(python_game).new_initial_state()
    rng = random.Random(seed)
    found = []
    while not ours.is_terminal():
        if len(ours.history()) % 7 == 0:
            found.append((ours.clone(), theirs.clone()))
        action = rng.choice(ours.legal_actions())
        ours.apply_action(action)
        theirs.apply_action(action)
    return [*found, (ours, theirs)]


def _refusal(state: State | NativeState, action: object) -> str:
    try:
        state.apply_action(action)  # type: ignore[arg-type]
    except IllegalActionError as error:
        return str(error)
    raise AssertionError(f"{action!r} was accepted")


@pytest.mark.parametrize("params", [{}, {"games": 2, "start": "a1,b1,a2,i9,h9,i8"}])
def test_every_refusal_gives_the_python_reason(params: dict[str, Any]) -> None:
    """Every id (and a few that are none) at positions of a match: the same reason in
    ``why_illegal`` and the same message from ``apply_action``."""
    for ours, theirs in _positions(params, seed=4):
        legal = set(ours.legal_actions())
        for action in [*range(81 * 81), -1, 81 * 81, 10**9, "d1-d2", "i9-i8", "nonsense"]:
            assert theirs.why_illegal(action) == ours.why_illegal(action), action  # type: ignore[arg-type]
            if isinstance(action, int) and action not in legal and action % 13 == 0:
                assert _refusal(theirs, action) == _refusal(ours, action)
        for action in (-1, 81 * 81, True, "0", None, 1.5):
            assert _refusal(theirs, action) == _refusal(ours, action)
        for seat in (0, 1, None):
            shown = [theirs.action_string_for(seat, action) for action in sorted(legal)]
            assert shown == [ours.action_string_for(seat, action) for action in sorted(legal)]
        assert theirs.history() == ours.history()


@pytest.mark.parametrize(
    "text", ["d1d2", "d1-", "z1-d2", "d1-d10", "d1 d2", "lion d2", "", "it's", "a1-b2-c3", "D1-d2 "]
)
def test_bad_action_strings_are_refused_in_the_python_words(text: str) -> None:
    ours = ObontoGame().new_initial_state()
    theirs = load_native_game("obonto").new_initial_state()
    try:
        expected: object = ours.string_to_action(text)
    except InvalidActionStringError as error:
        with pytest.raises(InvalidActionStringError) as caught:
            theirs.string_to_action(text)
        assert str(caught.value) == str(error)
    else:
        assert theirs.string_to_action(text) == expected


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = load_native_game("obonto").new_initial_state()
    refused = r"illegal action .* in obonto.*; legal: d1-c1"
    for action in (0, 6561, -1, 2**70, True, "0", None):
        with pytest.raises(IllegalActionError, match=refused):
            state.apply_action(action)  # type: ignore[arg-type]
    assert state.history() == []
    with pytest.raises(ValueError, match="action ids are 0 to 6560"):
        state.action_to_string(6561)
    with pytest.raises(ValueError, match="action ids are 0 to 6560"):
        state.action_string_for(0, 6561)
    with pytest.raises(ValueError, match="bad seat 2 for obonto"):
        state.observation(2)


def test_a_finished_match_refuses_everything() -> None:
    state = load_native_game("obonto").new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == [] and state.returns()[0] == -state.returns()[1] != 0
    with pytest.raises(IllegalActionError, match="the obonto game is over"):
        state.apply_action(state.history()[-1])
    assert state.why_illegal(0) == "The game is over."
    assert len(state.history()) <= MAX_MOVES_PER_GAME


def test_documents_and_pickles_travel_between_engines() -> None:
    python_game = ObontoGame(games=2)
    native = NativeGame(python_game)
    state = native.new_initial_state()
    rng = random.Random(5)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    assert python_game.state_from_json(state.to_json()).to_json() == state.to_json()
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json() and str(again) == str(state)
    assert state.resample(0, random.Random(1)).to_json() == state.to_json()
    with pytest.raises(InvalidStateError, match="is illegal"):
        native.state_from_json({**state.to_json(), "history": [0, 5]})
    with pytest.raises(InvalidStateError, match="parameters"):
        native.state_from_json({**state.to_json(), "params": {**python_game.params, "games": 3}})


def test_playouts_inside_rust_play_whole_matches() -> None:
    games, actions = load_native_game("obonto", games=3).random_playouts(200, seed=1)
    # Every game of a random match takes some moves and at most 71.
    assert games == 200 and 200 * 3 * 10 <= actions <= 200 * 3 * MAX_MOVES_PER_GAME


def test_a_document_of_a_state_set_up_from_a_board_is_refused_not_misread() -> None:
    """A Python state made by ``new_state_from_position`` saves its board as ``position``, which
    the native engine cannot start from: it says so rather than replay from the usual start."""
    state = ObontoGame().new_state_from_position(ObontoGame().new_initial_state().position())
    with pytest.raises(InvalidStateError, match="cannot read a state document's 'position'"):
        NativeGame(ObontoGame()).state_from_json(state.to_json())


@pytest.mark.parametrize("params", [{}, {"games": 6, "target": 12, "first": 1}])
def test_the_batch_tensors_are_the_python_tensors(params: dict[str, Any]) -> None:
    """``NativeBatch(observe=True)`` writes, per game, the Python tensor of the player to move
    (a spectator's once the game is over), through plays, solo phases and new games."""
    python_game = ObontoGame(**params)
    batch = NativeBatch(NativeGame(python_game), 16, seed=2, observe=True, threads=2)
    assert batch.observation is not None and batch.observation.shape == (16, 9, 9, 9)
    rng = np.random.default_rng(6)
    phases = set()
    for _ in range(150):
        for index in range(batch.num_envs):
            state = python_game.state_from_json(batch.state(index).to_json())
            seat = None if state.is_terminal() else state.current_player()
            expected = np.asarray(python_game.state_observation_tensor(state, seat), np.float32)
            assert np.array_equal(batch.observation[index].ravel(), expected)
            phases.add(state.phase())  # type: ignore[attr-defined]
        batch.step((rng.random(batch.legal_action_mask.shape) * batch.legal_action_mask).argmax(1))
    assert phases == {"play", "solo", "over"}
