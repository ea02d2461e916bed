"""Bond O Cones' native engine against its Python rules: chance, hidden values and resampling."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boneyard import native
from boneyard.core.errors import (
    IllegalActionError,
    InvalidActionStringError,
    InvalidParameterError,
    InvalidStateError,
)
from boneyard.core.game import State, random_action
from boneyard.games.bondo_cones.rules import BondoConesGame
from boneyard.games.bondo_cones.tensor import TENSOR_SIZE
from boneyard.native.batch import NativeBatch
from boneyard.native.game import NativeGame, NativeState
from boneyard.testing import check_game
from boneyard.testing.differential import EnginesDiffer, check_same_play
from boneyard.testing.playthroughs import game_playthrough

PLAYTHROUGHS = Path(__file__).parent.parent / "playthroughs"
GOLDEN = sorted(PLAYTHROUGHS.glob("bondo_cones*.txt"))


def _golden_params(path: Path) -> dict[str, Any]:
    """The parameters a golden file was played with (its ``params:`` line)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("params: "):
            params: dict[str, Any] = json.loads(line.removeprefix("params: "))
            return params
    raise AssertionError(f"{path.name} names no parameters")


def _resolved(params: dict[str, Any]) -> str:
    return json.dumps(BondoConesGame(**params).params, sort_keys=True)


PARAMETER_SETS = list(
    {
        _resolved(params): params
        for params in [
            *BondoConesGame.conformance_variants,
            *map(_golden_params, GOLDEN),
            {"max_turns": 40, "setup": "random"},  # the turn cap's draw
        ]
    }.values()
)
"""Every conformance variant and golden playthrough's parameters, each once, and a short cap."""


def _playouts(game: BondoConesGame) -> int:
    """Enough playouts for 1,500 plies or more: a game to 28 points runs about 700 plies, one to
    10 about 300, one capped at 40 turns about 150."""
    if game.max_turns <= 40:
        return 14
    return 3 if game.target >= 28 else 6


@pytest.mark.parametrize("params", PARAMETER_SETS, ids=_resolved)
def test_the_native_engine_plays_as_the_rules(params: dict[str, Any]) -> None:
    python_game = BondoConesGame(**params)
    native_game = NativeGame(python_game)
    plies = check_same_play(python_game, native_game, playouts=_playouts(python_game), seed=1)
    assert plies > 1500


@pytest.mark.parametrize("params", BondoConesGame.conformance_variants, ids=_resolved)
def test_the_native_engine_keeps_the_contract(params: dict[str, Any]) -> None:
    check_game(NativeGame(BondoConesGame(**params)), playouts=1, seed=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.name)
def test_the_native_playthrough_is_the_golden_one(path: Path) -> None:
    native = NativeGame(BondoConesGame(**_golden_params(path)))
    assert game_playthrough(native) == path.read_text(encoding="utf-8")  # type: ignore[arg-type]


def test_a_different_rule_is_caught() -> None:
    """The comparison fails when the engines differ: here a native game of another target."""
    with pytest.raises(EnginesDiffer, match="observations"):
        check_same_play(BondoConesGame(target=10), NativeGame(BondoConesGame(target=11)))


def _both(params: dict[str, Any]) -> tuple[BondoConesGame, State, NativeState]:
    python_game = BondoConesGame(**params)
    return (
        python_game,
        python_game.new_initial_state(),
        NativeGame(python_game).new_initial_state(),
    )


@pytest.mark.parametrize("params", BondoConesGame.conformance_variants, ids=_resolved)
def test_the_words_for_people_are_the_rules(params: dict[str, Any]) -> None:
    """Why an action is refused, the refusal's message and how an action looks to each seat."""
    python_game, ours, theirs = _both(params)
    rng = random.Random(8)
    bound = python_game.num_distinct_actions()
    while not ours.is_terminal():
        for seat in (0, 1, None):
            for action in ours.legal_actions()[:3]:
                assert ours.action_string_for(seat, action) == theirs.action_string_for(
                    seat, action
                )
        # an id of no action (within the 32 bits of a native action id)
        unknown = bound + rng.randrange(2**32 - bound)
        tried = [rng.randrange(bound), rng.randrange(250), unknown, *ours.legal_actions()[:1]]
        for action in tried:
            assert ours.why_illegal(action) == theirs.why_illegal(action)
            if action in ours.legal_actions():
                continue
            with pytest.raises(IllegalActionError) as python_error:
                ours.apply_action(action)
            with pytest.raises(IllegalActionError) as native_error:
                theirs.apply_action(action)
            assert str(native_error.value) == str(python_error.value)
        action = random_action(ours, rng)
        ours.apply_action(action)
        theirs.apply_action(action)
        assert str(theirs) == str(ours)


def test_resampled_states_travel_between_engines() -> None:
    """A resample (a snapshot, no history) is the Python one, each engine reads the other's
    document, and both play on alike."""
    python_game, ours, theirs = _both({"setup": "random"})
    native = NativeGame(python_game)
    rng = random.Random(2)
    for _ in range(40):  # into black's set-up, white's still secret
        action = random_action(ours, rng)
        ours.apply_action(action)
        theirs.apply_action(action)
    for seat in (0, 1):
        mine = ours.resample(seat, random.Random(seat))
        other = theirs.resample(seat, random.Random(seat))
        assert mine.to_json() == other.to_json() and other.history() == []
        from_python = native.state_from_json(mine.to_json())
        from_native = python_game.state_from_json(other.to_json())
        play = random.Random(9)
        while not from_python.is_terminal():
            assert from_python.legal_actions() == from_native.legal_actions()
            action = random_action(from_native, play)
            from_python.apply_action(action)
            from_native.apply_action(action)
        assert from_python.to_json() == from_native.to_json()


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = NativeGame(BondoConesGame()).new_initial_state()
    before = state.to_json()
    for action in (0, -1, 2**70, 43923, True, "0", None):
        with pytest.raises(IllegalActionError, match=r"illegal action .* in bondo_cones"):
            state.apply_action(action)  # type: ignore[arg-type]
    assert state.to_json() == before
    with pytest.raises(IllegalActionError, match="value 8 on one of your free start fields"):
        state.apply_action(state.string_to_action("put e5"))
    for text, message in (
        ("put k1", "no square 'k1'"),
        ("take g9", "joined by '>'"),
        ("jump", "actions look like"),
    ):
        with pytest.raises(InvalidActionStringError, match=message):
            state.string_to_action(text)
    with pytest.raises(ValueError, match="bad seat 2 for bondo_cones"):
        state.observation(2)
    with pytest.raises(ValueError):
        state.action_to_string(10**6)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rings": [3] * 120}, "'rings' is 3"),
        ({"phase": "dance"}, "'phase' is 'dance'"),
        ({"owner": "x"}, "allowed: a list"),
        ({"scores": [50, 0]}, "'scores' is 50"),
        ({"phase": "act", "die": -1}, "needs a die"),
    ],
)
def test_a_bad_snapshot_is_refused(change: dict[str, Any], message: str) -> None:
    python_game = BondoConesGame()
    native = NativeGame(python_game)
    doc = python_game.new_initial_state().to_json()
    bad = {**doc, "snapshot": {**doc["snapshot"], **change}}
    with pytest.raises(InvalidStateError, match="bad bondo_cones state snapshot"):
        python_game.state_from_json(bad)
    with pytest.raises(InvalidStateError, match=rf"bad bondo_cones state snapshot: .*{message}"):
        native.state_from_json(bad)
    missing = {**doc, "snapshot": {k: v for k, v in doc["snapshot"].items() if k != "turns"}}
    with pytest.raises(InvalidStateError, match="lacks 'turns'"):
        native.state_from_json(missing)


def test_documents_and_pickles_travel_between_engines() -> None:
    python_game = BondoConesGame(target=10)
    state = NativeGame(python_game).new_initial_state()
    rng = random.Random(5)
    for _ in range(80):
        state.apply_action(random_action(state, rng))  # type: ignore[arg-type]
    assert python_game.state_from_json(state.to_json()).to_json() == state.to_json()
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json() and str(again) == str(state)


def test_playouts_inside_rust_play_whole_games() -> None:
    games, actions = NativeGame(BondoConesGame(target=10)).random_playouts(20, seed=1)
    # Two set-ups of 17 actions and the first player, then at least a roll and an act a turn.
    assert games == 20 and actions > 20 * 37


def test_every_parameter_loads_natively_with_the_python_errors() -> None:
    game = native.load_game("bondo_cones", target=5, max_turns=7, setup="random")
    assert isinstance(game, NativeGame) and "bondo_cones" in native.native_games()
    view = game.new_initial_state().observation(0)
    assert (view["target"], view["max_turns"], view["setup"]) == (5, 7, "random")
    with pytest.raises(InvalidParameterError, match="setup"):
        native.load_game("bondo_cones", setup="secret")
    with pytest.raises(InvalidParameterError, match="target"):
        native.load_game("bondo_cones", target=42)


def _python_tensor(python_game: BondoConesGame, state: State, seat: int | None) -> np.ndarray:
    return np.asarray(python_game.observation_tensor(state.observation(seat)), np.float32)


@pytest.mark.parametrize(
    "params",
    [*BondoConesGame.conformance_variants, {"max_turns": 40, "setup": "random"}],
    ids=_resolved,
)
def test_the_batch_tensors_are_the_python_tensors(params: dict[str, Any]) -> None:
    """``NativeBatch(observe=True)`` writes, per game, the Python tensor of the player to move
    (a spectator's once the game is over), through set-ups, battles and new games; every so
    often each seat's and the spectator's tensor of the same state is checked directly too, so
    a seat not to move sees only what its observation shows."""
    python_game = BondoConesGame(**params)
    batch = NativeBatch(NativeGame(python_game), 6, seed=3, observe=True, threads=2)
    assert batch.observation is not None and batch.observation.shape == (6, TENSOR_SIZE)
    rng = np.random.default_rng(4)
    phases, spied = set(), False
    for step in range(120):
        for index in range(batch.num_envs):
            native_state = batch.state(index)
            state = python_game.state_from_json(native_state.to_json())
            seat = None if state.is_terminal() else state.current_player()
            expected = _python_tensor(python_game, state, seat)
            assert np.array_equal(batch.observation[index], expected)
            if step % 10 == 0:
                for anyone in (0, 1, None):
                    direct = native_state.observation_tensor(anyone, TENSOR_SIZE)
                    assert np.array_equal(
                        np.asarray(direct, np.float32), _python_tensor(python_game, state, anyone)
                    )
            phases.add(state.observation(None)["phase"])
            spied = spied or expected[11 * 120 : 12 * 120].any()
        batch.step((rng.random(batch.legal_action_mask.shape) * batch.legal_action_mask).argmax(1))
    assert {"act", "decide", "take"} <= phases
    if python_game.options.setup == "choose":
        assert {"setup_put", "setup_ring"} <= phases  # the other seat's set-up is secret
    else:
        assert "punish" in phases
    short = python_game.target <= 10 or python_game.max_turns <= 40
    if python_game.options.setup == "random" and short:  # several end, some spy a value
        assert "over" in phases and spied
