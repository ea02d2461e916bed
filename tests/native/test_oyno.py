"""OYNO's native engines (the puzzle and the two-player game) against their Python rules."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boneyard.core.errors import IllegalActionError, InvalidActionStringError, InvalidStateError
from boneyard.core.game import CHANCE, Game
from boneyard.games.oyno.duel import Oyno
from boneyard.games.oyno.puzzle import OynoPuzzle
from boneyard.native.batch import NativeBatch
from boneyard.native.game import NativeGame
from boneyard.testing import check_game
from boneyard.testing.differential import EnginesDiffer, check_same_play
from boneyard.testing.playthroughs import file_name, game_playthrough

GOLDEN = Path(__file__).parents[1] / "playthroughs"

# The golden playthroughs are one per conformance variant, so these cover both.
VARIANTS = [
    pytest.param(game_class, params, id=f"{game_class.name}-{params}")
    for game_class in (Oyno, OynoPuzzle)
    for params in game_class.conformance_variants
]

PLIES = 2000
"""Plies compared per variant (each compares everything the contract shows): seeded games are
played until there are this many, however short the variant's games are."""


@pytest.mark.parametrize(("game_class", "params"), VARIANTS)
def test_the_native_engine_plays_as_the_rules(
    game_class: type[Game], params: dict[str, Any]
) -> None:
    python_game = game_class(**params)
    native_game = NativeGame(python_game)
    plies, seed = 0, 0
    while plies < PLIES:
        seed += 1
        plies += check_same_play(python_game, native_game, playouts=10, seed=seed)


@pytest.mark.parametrize(("game_class", "params"), VARIANTS)
def test_the_native_engine_keeps_the_contract(
    game_class: type[Game], params: dict[str, Any]
) -> None:
    check_game(NativeGame(game_class(**params)), playouts=3, seed=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game_class", "params"), VARIANTS)
def test_the_native_playthrough_is_the_golden_one(
    game_class: type[Game], params: dict[str, Any]
) -> None:
    golden = (GOLDEN / file_name(game_class.name, params)).read_text(encoding="utf-8")
    native = NativeGame(game_class(**params))
    assert game_playthrough(native).splitlines() == golden.splitlines()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("python_game", "native_game"),
    [
        (Oyno(max_moves=40), Oyno(max_moves=40, place_rule="all_up")),
        (Oyno(size=3, bones_per_player=3), Oyno(size=3, bones_per_player=2)),
        (OynoPuzzle(max_moves=20), OynoPuzzle(max_moves=21)),
        (OynoPuzzle(size=3, bones=4), OynoPuzzle(size=3, bones=5)),
    ],
    ids=["place rule", "bones per player", "max moves", "bones"],
)
def test_a_different_rule_is_caught(python_game: Game, native_game: Game) -> None:
    with pytest.raises(EnginesDiffer):
        check_same_play(python_game, NativeGame(native_game), playouts=5)


def test_large_boards_play_as_the_rules() -> None:
    """Boards past 7x7 keep their bones in wider masks (two, four and ten machine words)."""
    for size in (9, 13, 25):
        duel = Oyno(size=size, bones_per_player=6, max_moves=12)
        assert check_same_play(duel, NativeGame(duel), playouts=1, seed=2) > 10
        puzzle = OynoPuzzle(size=size, bones=9, max_moves=6)
        assert check_same_play(puzzle, NativeGame(puzzle), playouts=1, seed=2) > 10


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = NativeGame(Oyno(place_rule="all_up")).new_initial_state()
    state.apply_action(state.string_to_action("place b2"))
    for action in (12, 2 * 25 + 6 * 25 + 7, -1, 2**70, True, "0", None):
        with pytest.raises(IllegalActionError, match=r"illegal action .* in oyno"):
            state.apply_action(action)  # type: ignore[arg-type]
    assert state.history() == [6]
    with pytest.raises(IllegalActionError, match="'place c3' in oyno: c3 is the center"):
        state.apply_action(12)
    assert state.why_illegal("place b2") == "b2 is not empty."
    assert state.why_illegal("flip a1") == (
        "Every white bone on the board is up: white must place a new bone."
    )
    with pytest.raises(InvalidActionStringError, match="bad move 'b2'"):
        state.string_to_action("move b2")
    with pytest.raises(InvalidActionStringError, match="no square 'z9' on a 5x5 board"):
        state.string_to_action("place Z9")
    with pytest.raises(ValueError, match="bad seat 2 for oyno"):
        state.observation(2)


BAD_STRINGS = [
    "",
    "place",
    "place c3",
    "place z9",
    "move b2",
    "move b2-c3",
    "move b2-b2-b2",
    "flip b2 wild",
    "place b2 wild now",
    "b2-d4",
    "b2 - d4",
    "bone",
    "bone z1",
    "bone b2 b3",
    "puzzle 1024",
    "puzzle 12x",
    "puzzle 99999999999999999999999",
    "sideways",
    'it\'s "odd"',
]


def _refusals(state: Any) -> list[tuple[str, str]]:
    """What a state answers to each bad string (the error's class and message, or the id)."""
    answers = []
    for text in BAD_STRINGS:
        try:
            answers.append(("id", str(state.string_to_action(text))))
        except ValueError as error:
            answers.append((type(error).__name__, str(error)))
    return answers


def _why_not(state: Any, bound: int) -> list[str]:
    """``why_illegal`` of every id (and a few past the last) and the refusal of a sample."""
    reasons = [state.why_illegal(a) for a in [*range(bound + 3), -1, 2**40]]
    for action in range(0, bound + 3, 7):
        if action not in state.legal_actions():
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                reasons.append(str(error))
    return reasons


@pytest.mark.parametrize(("game_class", "params"), VARIANTS)
def test_refusals_and_bad_strings_are_worded_as_the_rules(
    game_class: type[Game], params: dict[str, Any]
) -> None:
    """At every step of a seeded game: the reason for refusing each id, the message of an illegal
    action, and the error of each malformed string are the Python engine's, word for word."""
    python_game = game_class(**params)
    ours, theirs = python_game.new_initial_state(), NativeGame(python_game).new_initial_state()
    rng = random.Random(7)
    bound = python_game.num_distinct_actions()
    while True:
        assert _refusals(theirs) == _refusals(ours)
        assert _why_not(theirs, bound) == _why_not(ours, bound)
        if ours.is_terminal():
            break
        action = rng.choice(ours.legal_actions())
        ours.apply_action(action)
        theirs.apply_action(action)


def test_the_puzzle_refuses_with_the_rule() -> None:
    state = NativeGame(OynoPuzzle(start="U...D/.D.../..o../...U./D...U")).new_initial_state()
    assert state.why_illegal("e5-a4") == "The bone on e5 is down: only up bones may be taken."
    assert state.why_illegal(2**40) == "That move is not allowed now."
    with pytest.raises(IllegalActionError, match="'a5-a5' in oyno_puzzle: the bone must go"):
        state.apply_action(state.string_to_action("a5-a5"))
    with pytest.raises(InvalidActionStringError, match="bad move 'a5'"):
        state.string_to_action("a5")
    assert state.history() == []


def test_documents_and_pickles_travel_between_engines() -> None:
    for python_game in (Oyno(wild=True), OynoPuzzle()):
        native = NativeGame(python_game)
        state = native.new_initial_state()
        rng = random.Random(5)
        for _ in range(12):
            state.apply_action(rng.choice(state.legal_actions()))
        assert python_game.state_from_json(state.to_json()).to_json() == state.to_json()
        again = pickle.loads(pickle.dumps(state))
        assert again.to_json() == state.to_json() and str(again) == str(state)
        with pytest.raises(InvalidStateError, match="is illegal"):
            native.state_from_json({**state.to_json(), "history": [*state.history(), 10**6]})


def test_playouts_inside_rust_play_whole_games() -> None:
    games, actions = NativeGame(Oyno(max_moves=50)).random_playouts(50, seed=1)
    assert games == 50 and actions <= 50 * 50
    games, actions = NativeGame(OynoPuzzle(bones=4, max_moves=10)).random_playouts(50, seed=1)
    # the deal is 8 chance outcomes, then at most 10 moves
    assert games == 50 and 50 * 8 <= actions <= 50 * 18


@pytest.mark.parametrize(
    ("bones", "difficulty"), [(3, 7), (8, 5), (4, 3), (6, 4)], ids=["rare 3", "rare 8", "4", "6"]
)
def test_difficulty_tickets_deal_the_python_set_ups(bones: int, difficulty: int) -> None:
    """A ticket deals the same 5x5 set-up in both engines: picked from the rare lists
    (data/rare_5x5.npz) or found by the same seeded draws and an exact search."""
    python_game = OynoPuzzle(bones=bones, difficulty=difficulty)
    native_game = NativeGame(python_game)
    for ticket in (0, 1, 517, 1023):
        ours, theirs = python_game.new_initial_state(), native_game.new_initial_state()
        ours.apply_action(ticket)
        theirs.apply_action(ticket)
        assert theirs.observation(0) == ours.observation(0)
        assert theirs.legal_actions() == ours.legal_actions()


@pytest.mark.parametrize(("size", "bones"), [(5, 23), (11, 119), (25, 623)])
def test_the_side_odds_are_pythons_floats_exactly(size: int, bones: int) -> None:
    """The odds of a dealt side are ratios of counts up to 2^622 (Python's exact ``int / int``):
    the native odds are the same floats, bit for bit, not merely close."""
    python_game = OynoPuzzle(size=size, bones=bones, max_moves=1)
    ours, theirs = python_game.new_initial_state(), NativeGame(python_game).new_initial_state()
    rng = random.Random(size)
    while ours.current_player() == CHANCE:
        assert theirs.chance_outcomes() == ours.chance_outcomes()
        action = rng.choice(ours.legal_actions())
        ours.apply_action(action)
        theirs.apply_action(action)
    assert theirs.observation(0) == ours.observation(0)


STEPS = 130
"""Batch steps per variant: past the 60-move caps, so games end and new ones start."""


@pytest.mark.parametrize(("game_class", "params"), VARIANTS)
def test_the_batch_tensors_are_the_python_tensors(
    game_class: type[Game], params: dict[str, Any]
) -> None:
    """``NativeBatch(observe=True)`` writes, per game, the Python tensor of the player to move (a
    spectator's once the game is over), through whole games and new ones. OYNO hides nothing, so
    every seat's and the spectator's Python tensor is that row too."""
    python_game = game_class(**params)
    batch = NativeBatch(NativeGame(python_game), 6, seed=3, observe=True, threads=2)
    assert batch.observation is not None
    assert batch.observation.shape == (6, *python_game.observation_tensor_shape())
    rng = np.random.default_rng(4)
    views = [None, *range(python_game.num_players())]
    ended = 0
    for _ in range(STEPS):
        for index in range(batch.num_envs):
            state = python_game.state_from_json(batch.state(index).to_json())
            row = batch.observation[index].ravel()
            for seat in views:
                expected = python_game.observation_tensor(state.observation(seat))
                assert np.array_equal(row, np.asarray(expected, np.float32)), (seat, str(state))
            ended += state.is_terminal()
        batch.step((rng.random(batch.legal_action_mask.shape) * batch.legal_action_mask).argmax(1))
    assert ended > 0
