"""Bon-Bon's native engine against its Python rules: every variant step by step, the golden
playthroughs, the contract, resamples and snapshots read by either engine, and bad input."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boneyard.core.errors import (
    IllegalActionError,
    InvalidActionStringError,
    InvalidParameterError,
    InvalidStateError,
)
from boneyard.core.game import CHANCE, random_action
from boneyard.games.bonbon.rules import BonBonGame
from boneyard.native.batch import NativeBatch
from boneyard.native.game import NativeGame
from boneyard.native.game import load_game as load_native_game
from boneyard.testing import check_game
from boneyard.testing.differential import EnginesDiffer, check_same_play
from boneyard.testing.playthroughs import file_name, game_playthrough

PLAYTHROUGHS = Path(__file__).parents[1] / "playthroughs"

# Playouts per player count for over 3,000 plies each (longer games with more players).
PLAYOUTS = {2: 120, 3: 60, 4: 40, 5: 45, 6: 40}

SMALL_DECK = """
[[card]]
name = "one"
value = 1
count = 3
face_up_only = false
effect = "none"

[[card]]
name = "big"
value = 7
count = 1
face_up_only = true
effect = "none"

[[card]]
name = "peek"
value = 1
count = 2
face_up_only = false
effect = "peek"

[[card]]
name = "second"
value = 0
count = 1
face_up_only = false
effect = "second"

[[card]]
name = "wrapper"
value = 0
count = 1
face_up_only = true
effect = "wrapper"

[[card]]
name = "gift"
value = 2
count = 1
face_up_only = true
effect = "gift"

[[card]]
name = "caught"
value = 0
count = 1
face_up_only = true
effect = "caught"
"""
"""A ten-card deck with every effect: rounds empty it, so the empty-deck rules and the resample
of the card that emptied it are played often."""


def golden_parameter_sets() -> list[dict[str, object]]:
    """The parameter sets of Bon-Bon's golden playthroughs (tests/playthroughs/bonbon*.txt)."""
    sets = []
    for params in BonBonGame.conformance_variants:
        if (PLAYTHROUGHS / file_name("bonbon", dict(params))).is_file():
            sets.append(dict(params))
    return sets


def test_every_golden_parameter_set_is_a_conformance_variant() -> None:
    files = sorted(path.name for path in PLAYTHROUGHS.glob("bonbon*.txt"))
    assert len(golden_parameter_sets()) == len(files) == 5


@pytest.mark.parametrize("params", BonBonGame.conformance_variants)
def test_the_native_engine_plays_as_the_rules(params: dict[str, int]) -> None:
    python_game = BonBonGame(**params)
    playouts = PLAYOUTS[params["players"]]
    plies = check_same_play(python_game, NativeGame(python_game), playouts=playouts, seed=1)
    assert plies > 3000


@pytest.mark.parametrize("players", [2, 4])
def test_a_small_deck_and_other_tiles_play_as_the_rules(tmp_path: Path, players: int) -> None:
    deck = tmp_path / "small.toml"
    deck.write_text(SMALL_DECK)
    python_game = BonBonGame(players=players, deck=str(deck), tiles="0,2,2,9", max_rounds=6)
    plies = check_same_play(python_game, NativeGame(python_game), playouts=14, seed=2)
    assert plies > 300


@pytest.mark.parametrize("params", BonBonGame.conformance_variants)
def test_the_native_engine_keeps_the_contract(params: dict[str, object]) -> None:
    check_game(NativeGame(BonBonGame(**params)), playouts=2, seed=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("params", golden_parameter_sets())
def test_the_native_playthrough_is_the_golden_one(params: dict[str, object]) -> None:
    native = NativeGame(BonBonGame(**params))
    golden = (PLAYTHROUGHS / file_name("bonbon", params)).read_text(encoding="utf-8")
    assert game_playthrough(native).splitlines() == golden.splitlines()  # type: ignore[arg-type]


def test_a_different_rule_is_caught() -> None:
    """The comparison fails when the engines differ: here a native game of other tiles."""
    with pytest.raises(EnginesDiffer, match="legal actions differ"):
        check_same_play(BonBonGame(), NativeGame(BonBonGame(tiles="1,1,2,2,3,4")), playouts=2)


def test_a_different_round_cap_is_caught() -> None:
    with pytest.raises(EnginesDiffer):
        check_same_play(BonBonGame(max_rounds=2), NativeGame(BonBonGame(max_rounds=3)), playouts=5)


def played(game: BonBonGame | NativeGame, *moves: str) -> Any:
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = NativeGame(BonBonGame()).new_initial_state()
    state.apply_action(state.string_to_action("tiles 1 2 3"))
    for action in (0, 2, 27, -1, 2**70, True, "0", None):
        with pytest.raises(
            IllegalActionError, match=r"illegal action .* in bonbon.*; legal: draw, "
        ):
            state.apply_action(action)  # type: ignore[arg-type]
    assert state.history() == [33]
    with pytest.raises(IllegalActionError, match="'pass' in bonbon: you are the first to pass"):
        state.apply_action(0)
    with pytest.raises(InvalidActionStringError, match=r"not a bonbon action: 'card 7'; .* card L"):
        state.string_to_action("Card   7")
    with pytest.raises(InvalidActionStringError, match="no Bon-Bon player action has id 99"):
        state.action_to_string(99)
    with pytest.raises(ValueError, match="bad seat 2 for bonbon"):
        state.observation(2)


def test_reasons_for_refusals_are_the_python_ones() -> None:
    moves = ("tiles 1 2 3", "draw", "card wrapper", "end", "bonus 2", "draw", "card 3", "down")
    python_game = BonBonGame()
    native_game = NativeGame(python_game)
    for length in range(len(moves) + 1):
        ours, theirs = played(python_game, *moves[:length]), played(native_game, *moves[:length])
        for action in [*range(-2, 30), 2**40]:
            assert theirs.why_illegal(action) == ours.why_illegal(action), (length, action)
    in_place = played(native_game, *moves[:-1])
    assert in_place.why_illegal(1) == "Play the card you drew, face up or face down."


def test_secret_action_strings_read_as_in_python() -> None:
    python_game = BonBonGame(players=3)
    native_game = NativeGame(python_game)
    rng = random.Random(7)
    ours, theirs = python_game.new_initial_state(), native_game.new_initial_state()
    for _ in range(300):
        if ours.is_terminal():
            break
        for action in ours.legal_actions():
            for seat in (0, 1, 2, None):
                assert theirs.action_string_for(seat, action) == ours.action_string_for(
                    seat, action
                )
        action = random_action(ours, rng)
        ours.apply_action(action)
        theirs.apply_action(action)


def test_a_resample_reads_back_in_either_engine() -> None:
    python_game = BonBonGame(players=3)
    native_game = NativeGame(python_game)
    rng = random.Random(11)
    state = native_game.new_initial_state()
    while state.current_player() == CHANCE or len(state.history()) < 12:
        state.apply_action(random_action(state, rng))  # type: ignore[arg-type]
    sampled = state.resample(1, random.Random(3))
    doc = json.loads(json.dumps(sampled.to_json()))
    assert doc["history"] == [] and "snapshot" in doc
    assert python_game.state_from_json(doc).to_json() == doc
    assert native_game.state_from_json(doc).to_json() == doc
    assert sampled.observation(1) == state.observation(1)
    again = pickle.loads(pickle.dumps(sampled))
    assert again.to_json() == doc and str(again) == str(sampled)


@pytest.mark.parametrize(
    "change",
    [
        {"counts": [1, 2]},
        {"deck_left": 3},
        {"phase": 42},
        {"phase": "draw"},
        {"turn": 9},
        {"runs": [[[0, True, 3]]]},
        {"runs": [[["x", True, 3]], []]},
        {"runs": [[[0, True]], []]},
        {"status": [0]},
        {"wins": "many"},
        {"wins": [True, 0]},
        {"tiles": [3, 2, 1]},
        {"tile_taken": [12, -1]},
        {"winners": [5]},
        {"drawn_mask": 9},
        {"peek_kind": 2},
    ],
)
def test_a_bad_snapshot_is_refused_as_in_python(change: dict[str, object]) -> None:
    python_game = BonBonGame()
    doc = played(python_game, "tiles 1 2 3", "draw", "card 3", "down").to_json()
    doc["snapshot"].update(change)
    with pytest.raises(InvalidStateError):
        python_game.state_from_json(doc)
    with pytest.raises(InvalidStateError, match="bad bonbon state snapshot"):
        NativeGame(python_game).state_from_json(doc)


@pytest.mark.parametrize(
    "change",
    [
        {"counts": [0] * 14, "deck_left": 0},  # a draw from an empty deck
        {"marker": 2**70},  # beyond any score
        {"peeker": 1},  # a peeker without a peek
    ],
)
def test_a_snapshot_the_rules_cannot_play_on_is_refused(change: dict[str, object]) -> None:
    """Stricter than the Python engine, which would fail later: every native state can play."""
    python_game = BonBonGame()
    doc = played(python_game, "tiles 1 2 3", "draw").to_json()
    doc["snapshot"].update(change)
    with pytest.raises(InvalidStateError, match="bad bonbon state snapshot"):
        NativeGame(python_game).state_from_json(doc)


def test_every_parameter_loads_natively_by_name(tmp_path: Path) -> None:
    deck = tmp_path / "small.toml"
    deck.write_text(SMALL_DECK)
    native = load_native_game("bonbon", players=5, deck=str(deck), tiles="0,0,9", max_rounds=2)
    state = native.new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["tiles 0 0 9"]
    assert native.python_game.params["tiles"] == "0,0,9"
    with pytest.raises(InvalidParameterError, match="players"):
        load_native_game("bonbon", players=7)


def python_tensor(python_game: BonBonGame, state: Any, seat: int | None) -> np.ndarray:
    """The Python tensor of ``state`` (either engine's: their observations are equal) as
    ``seat`` sees it, cast to the batch's float32."""
    return np.asarray(python_game.observation_tensor(state.observation(seat)), np.float32)


@pytest.mark.parametrize("params", BonBonGame.conformance_variants)
def test_the_batch_tensors_are_the_python_tensors(params: dict[str, int]) -> None:
    """``NativeBatch(observe=True)`` writes, per game, the Python tensor of the Python state's
    observation by the player to move (a spectator's once the game is over), through every
    player phase, drawn and peeked cards seen and hidden, and new games."""
    python_game = BonBonGame(**params)
    batch = NativeBatch(NativeGame(python_game), 8, seed=5, observe=True, threads=2)
    shape = tuple(python_game.observation_tensor_shape())
    assert batch.observation is not None and batch.observation.shape == (8, *shape)
    rng = np.random.default_rng(params["players"])
    phases, secrets = set(), set()
    for _ in range(150):
        for index in range(batch.num_envs):
            state = python_game.state_from_json(batch.state(index).to_json())
            seat = None if state.is_terminal() else state.current_player()
            observation = state.observation(seat)
            expected = np.asarray(python_game.observation_tensor(observation), np.float32)
            assert np.array_equal(batch.observation[index], expected), (index, seat)
            phases.add(observation["phase"])
            for secret in ("drawn", "peek"):
                if observation[secret] is not None:
                    secrets.add((secret, observation[secret]["card"] is None))
        batch.step((rng.random(batch.legal_action_mask.shape) * batch.legal_action_mask).argmax(1))
    assert phases == {"turn", "place", "gift", "catch", "wrapper", "over"}
    # The drawer sees its card as it places it; a peek is seen by the peeker alone.
    assert {("drawn", False), ("peek", False), ("peek", True)} <= secrets


@pytest.mark.parametrize("players", [2, 5])
def test_every_seat_and_the_spectator_see_their_python_tensor(players: int) -> None:
    """Directly, on every state of a few random games: each seat's tensor shows its own secrets
    and none of the others' (a card drawn or placed face down, a peek), as in Python."""
    python_game = BonBonGame(players=players)
    native_game = NativeGame(python_game)
    (size,) = python_game.observation_tensor_shape()
    rng = random.Random(players)
    seen_differently = drawn = peeked = 0
    for _ in range(4):
        state = native_game.new_initial_state()
        while True:
            mirrored = python_game.state_from_json(state.to_json())
            rows = []
            for seat in [*range(players), None]:
                row = np.asarray(state.observation_tensor(seat, size), np.float32)
                assert np.array_equal(row, python_tensor(python_game, mirrored, seat)), seat
                rows.append(row[players:])  # less the observer's own one-hot
            seen_differently += any(not np.array_equal(rows[0], row) for row in rows[1:])
            spectator = state.observation(None)
            drawn += spectator["drawn"] is not None
            peeked += spectator["peek"] is not None
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))  # type: ignore[arg-type]
    assert seen_differently > 20 and drawn > 0 and peeked > 0
    with pytest.raises(ValueError, match="bad seat"):
        state.observation_tensor(players, size)
    with pytest.raises(NotImplementedError):
        state.observation_tensor(0, size + 1)
