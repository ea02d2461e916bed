"""Bones's native engine against its Python rules, step by step."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boneyard import native
from boneyard.core.errors import IllegalActionError, InvalidActionStringError, InvalidStateError
from boneyard.games.bones.rules import BonesGame
from boneyard.native.batch import NativeBatch
from boneyard.native.game import NativeGame
from boneyard.testing import check_game
from boneyard.testing.differential import EnginesDiffer, check_same_play
from boneyard.testing.playthroughs import game_playthrough

PLAYTHROUGHS = Path(__file__).parents[1] / "playthroughs"
GOLDEN = {path.name: path for path in sorted(PLAYTHROUGHS.glob("bones*.txt"))}


def golden_params(path: Path) -> dict[str, Any]:
    """The parameters a golden file was played with (its ``params:`` line)."""
    line = path.read_text(encoding="utf-8").splitlines()[1]
    assert line.startswith("params: "), line
    params: dict[str, Any] = json.loads(line.removeprefix("params: "))
    return params


def _every_parameter_set() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    resolved: list[dict[str, Any]] = []
    for params in [*BonesGame.conformance_variants, *map(golden_params, GOLDEN.values())]:
        full = dict(BonesGame(**params).params)
        if full not in resolved:
            resolved.append(full)
            found.append(dict(params))
    return found


PARAMETER_SETS = _every_parameter_set()
PLAYOUTS = {10 * 9: 250, 6 * 5: 250, 5 * 5: 500, 7 * 4: 300, 2 * 2: 800}
"""Playouts per board (squares): a few thousand plies each, the whole file within a minute."""


def _label(params: dict[str, Any]) -> str:
    return ",".join(f"{key}={value}" for key, value in sorted(params.items())) or "default"


@pytest.mark.parametrize("params", PARAMETER_SETS, ids=_label)
def test_the_native_engine_plays_as_the_rules(params: dict[str, Any]) -> None:
    python_game = BonesGame(**params)
    playouts = PLAYOUTS[python_game.width * python_game.height]
    plies = check_same_play(python_game, NativeGame(python_game), playouts=playouts, seed=1)
    assert plies >= 4000


EDGES = [
    ({"width": 26, "height": 26, "pieces": 500}, 4),  # the largest board and supply
    ({"width": 26, "height": 2, "pieces": 20}, 12),  # lines only along the ranks
    ({"width": 2, "height": 26, "pieces": 20}, 12),  # only along the files
    ({"width": 3, "height": 3, "pieces": 500}, 1),  # no line fits: 1000 placements, deep stacks
]


@pytest.mark.parametrize(("params", "playouts"), EDGES, ids=[_label(p) for p, _ in EDGES])
def test_the_parameter_limits_play_as_the_rules(params: dict[str, Any], playouts: int) -> None:
    python_game = BonesGame(**params)
    assert check_same_play(python_game, NativeGame(python_game), playouts=playouts, seed=2) > 200


@pytest.mark.parametrize("params", PARAMETER_SETS, ids=_label)
def test_the_native_engine_keeps_the_contract(params: dict[str, Any]) -> None:
    check_game(NativeGame(BonesGame(**params)), playouts=5, seed=3)  # type: ignore[arg-type]


def test_the_golden_files_are_the_variants() -> None:
    assert len(GOLDEN) == len(BonesGame.conformance_variants)
    assert "bones.txt" in GOLDEN


@pytest.mark.parametrize("filename", sorted(GOLDEN))
def test_the_native_playthrough_is_the_golden_one(filename: str) -> None:
    path = GOLDEN[filename]
    game = NativeGame(BonesGame(**golden_params(path)))
    assert game_playthrough(game) == path.read_text(encoding="utf-8")  # type: ignore[arg-type]


@pytest.mark.parametrize("params", PARAMETER_SETS, ids=_label)
def test_every_variant_loads_by_its_registered_name(params: dict[str, Any]) -> None:
    assert native.has_native_engine("bones")
    game = native.load_game("bones", **params)
    assert game.params == BonesGame(**params).params
    assert (
        game.new_initial_state().legal_actions()
        == BonesGame(**params).new_initial_state().legal_actions()
    )


def test_a_different_rule_is_caught() -> None:
    """The comparison fails when the engines differ: here a native game with one piece fewer."""
    with pytest.raises(EnginesDiffer, match="observations"):
        check_same_play(BonesGame(), NativeGame(BonesGame(pieces=29)), playouts=2)
    with pytest.raises(EnginesDiffer):
        check_same_play(
            BonesGame(width=5, height=5), NativeGame(BonesGame(width=5, height=6)), playouts=2
        )


def _both(text: str, **params: Any) -> tuple[Any, Any]:
    """The Python and the native state after the placements in ``text``."""
    python_game = BonesGame(**params)
    states = (python_game.new_initial_state(), NativeGame(python_game).new_initial_state())
    for word in text.split():
        for state in states:
            state.apply_action(state.string_to_action(word))
    return states


def _error(call: Any, *args: Any) -> tuple[type[BaseException], str] | None:
    try:
        call(*args)
    except Exception as error:  # the exception itself is what is compared
        return type(error), str(error)
    return None


POSITIONS = [
    "",  # the first piece is bound to the start area
    "e5-f5",
    "e5-f5 a1-b1 c7-c8",  # completely visible pieces forbid their own placement
    "e5-f5 f5-f6 e5-f5",  # a partly covered piece may be covered exactly
    "e5-f5 a1-b1 c5-d5 a9-b9 g5-h5",  # over: white showed five
]


@pytest.mark.parametrize("text", POSITIONS)
def test_refusals_and_reasons_are_the_python_ones(text: str) -> None:
    ours, theirs = _both(text)
    count = ours.game.info.num_distinct_actions
    for action in [*range(-2, count + 3), 2**40]:
        assert _error(theirs.apply_action, action) == _error(ours.apply_action, action), action
        assert theirs.why_illegal(action) == ours.why_illegal(action), action
    for action in (True, "0", None, 1.0):
        assert _error(theirs.apply_action, action) == _error(ours.apply_action, action), action
    for word in ("e5-f5", "a1-b1", "E5 - F5", "f5-e5", "zz", "e5-e7"):
        assert theirs.why_illegal(word) == ours.why_illegal(word), word
    assert theirs.to_json() == ours.to_json()


BAD_STRINGS = [
    "",
    "e5",
    "e5-",
    "-f5",
    "e5-e7",
    "e5-e5",
    "j5-k5",
    "e9-e10",
    "a0-a1",
    "e05-f5",
    "e5--f5",
    "e5-f5-g5",
    "e5 f5",
    "it's",
    'say "e5"',
    "a\\b",
    "a\x00b",
    "é5-f5",
    "  K5 - j5 ",
    "e5\t-\nf5",
]


@pytest.mark.parametrize(("width", "height"), [(10, 9), (2, 2), (26, 26)])
def test_notation_errors_are_the_python_ones(width: int, height: int) -> None:
    ours, theirs = _both("", width=width, height=height)
    for text in BAD_STRINGS:
        assert _error(theirs.string_to_action, text) == _error(ours.string_to_action, text), text
    for text in ("E5-f5", " f5 - e5 ", "a1-b1", "b1-A1"):
        assert _error(theirs.string_to_action, text) == _error(ours.string_to_action, text), text
        if _error(ours.string_to_action, text) is None:
            assert theirs.string_to_action(text) == ours.string_to_action(text)
    with pytest.raises(InvalidActionStringError, match="text, not int"):
        theirs.string_to_action(5)
    count = ours.game.info.num_distinct_actions
    for action in (count, count + 1, -1, 2**40):
        with pytest.raises(ValueError, match="no bones"):
            theirs.action_to_string(action)


def test_seats_and_parameters_are_checked() -> None:
    state = NativeGame(BonesGame()).new_initial_state()
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError, match=r"bad seat .* for bones"):
            state.observation(seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="width"):
        native.load_game("bones", width=27)
    with pytest.raises(ValueError, match="pieces"):
        native.load_game("bones", pieces=0)


def test_a_finished_game_refuses_everything() -> None:
    ours, theirs = _both("e5-f5 a1-b1 c5-d5 a9-b9 g5-h5")
    assert theirs.is_terminal() and theirs.returns() == [1.0, -1.0]
    with pytest.raises(IllegalActionError, match="the bones game is over"):
        theirs.apply_action(0)
    assert theirs.why_illegal(0) == "The game is over."
    assert theirs.observation(None) == ours.observation(None)
    assert theirs.observation(None)["winning_squares"] == ["c5", "d5", "e5", "f5", "g5", "h5"]


def test_documents_and_pickles_travel_between_engines() -> None:
    python_game = BonesGame(width=6, height=5)
    game = NativeGame(python_game)
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    assert python_game.state_from_json(state.to_json()).to_json() == state.to_json()
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json() and str(again) == str(state)
    assert str(state) == str(python_game.state_from_json(state.to_json()))
    with pytest.raises(InvalidStateError, match="is illegal"):
        game.state_from_json({**state.to_json(), "history": [0, 5]})
    with pytest.raises(InvalidStateError, match="parameters"):
        game.state_from_json({**state.to_json(), "params": {**python_game.params, "pieces": 3}})
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.history()) == len(state.history()) + 1


def test_playouts_inside_rust_play_whole_games() -> None:
    # A 4x4 board has no line of five: every game is drawn after both supplies are placed.
    games, actions = NativeGame(BonesGame(width=4, height=4, pieces=7)).random_playouts(50, seed=1)
    assert (games, actions) == (50, 50 * 14)
    games, actions = NativeGame(BonesGame()).random_playouts(50, seed=1)
    assert games == 50 and 50 * 5 <= actions < 50 * 60


@pytest.mark.parametrize(
    "params", [{"width": 5, "height": 5, "pieces": 8}, {"width": 2, "height": 2}]
)
def test_every_refusal_and_seat_string_along_random_games(params: dict[str, Any]) -> None:
    """At every step of random games: each id's refusal and reason, and how each legal action
    reads to every seat, as the Python engine says them."""
    python_game = BonesGame(**params)
    native_game = NativeGame(python_game)
    count = python_game.info.num_distinct_actions
    rng = random.Random(11)
    for _ in range(12):
        ours, theirs = python_game.new_initial_state(), native_game.new_initial_state()
        while True:
            for action in (-1, *range(count + 1)):
                assert theirs.why_illegal(action) == ours.why_illegal(action), action
                if action not in ours.legal_actions():
                    refused = _error(theirs.apply_action, action)
                    assert refused == _error(ours.apply_action, action), action
            for action in ours.legal_actions():
                for seat in (0, 1, None):
                    assert theirs.action_string_for(seat, action) == ours.action_string_for(
                        seat, action
                    )
            if ours.is_terminal():
                break
            action = rng.choice(ours.legal_actions())
            ours.apply_action(action)
            theirs.apply_action(action)
        assert theirs.to_json() == ours.to_json()


@pytest.mark.parametrize("params", BonesGame.conformance_variants, ids=_label)
def test_the_batch_tensors_are_the_python_tensors(params: dict[str, Any]) -> None:
    """``NativeBatch(observe=True)`` writes, per game, the Python tensor of the player to move
    (a spectator's once the game is over), through whole games and the new ones after them."""
    python_game = BonesGame(**params)
    batch = NativeBatch(NativeGame(python_game), 8, seed=4, observe=True, threads=2)
    shape = python_game.observation_tensor_shape()
    assert batch.observation is not None and batch.observation.shape == (8, *shape)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(60):
        for index in range(batch.num_envs):
            state = python_game.state_from_json(batch.state(index).to_json())
            seat = None if state.is_terminal() else state.current_player()
            expected = python_game.observation_tensor(state.observation(seat))
            assert np.array_equal(batch.observation[index].ravel(), np.float32(expected))
            ended += state.is_terminal()
        batch.step((rng.random(batch.legal_action_mask.shape) * batch.legal_action_mask).argmax(1))
    assert ended > 0


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("", {}),
        ("e5-f5 f5-f6 a1-b1", {}),
        ("c3-d3 d3-d4 c3-d3 a1-a2 d4-e4", {"width": 5, "height": 5, "pieces": 5}),
        ("a1-b1 a1-a2 b1-b2 a2-b2 a1-b1", {"width": 2, "height": 2, "pieces": 3}),
        ("b2-c2 a1-a2 d1-d2 a3-a4", {"width": 4, "height": 4, "pieces": 2}),  # a draw
        ("e5-f5 a1-b1 c5-d5 a9-b9 g5-g6", {}),  # white wins
    ],
)
def test_every_seat_sees_its_python_tensor(text: str, params: dict[str, Any]) -> None:
    """The native tensor of each seat and the spectator, on a few states, is the Python one."""
    python_game = BonesGame(**params)
    ours, theirs = _both(text, **params)
    size = int(np.prod(python_game.observation_tensor_shape()))
    for seat in (0, 1, None):
        expected = python_game.observation_tensor(ours.observation(seat))
        assert theirs.observation_tensor(seat, size) == expected, seat
    with pytest.raises(NotImplementedError, match="no native observation tensor of 3 numbers"):
        theirs.observation_tensor(0, 3)
    with pytest.raises(ValueError, match="bad seat 2"):
        theirs.observation_tensor(2, size)
