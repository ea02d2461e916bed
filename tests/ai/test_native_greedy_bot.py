"""The ``native_greedy`` bot (issue 43, item 6: the analyses on the native engines): ``greedy``'s
one ply in Rust. Where both are exact (a perfect-information game, every chance outcome after a
move enumerated) it gives every action the Python bot's value and plays one of its best; in a
hidden-information game it reads the seat's view alone; it keeps its seed; bad options are
refused with what is allowed."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard import native
from boneyard.ai import make_bot
from boneyard.ai.greedy import GreedyBot
from boneyard.ai.native import MOST_GREEDY_EVALUATIONS, MOST_GREEDY_SAMPLES, NativeGreedyBot

ALL_OUTCOMES = 10**6
"""An evaluation budget no position here reaches: every chance outcome is enumerated (no
sampling), so both engines' values are exact and must agree."""


def _decisions(game: Any, seed: int, every: int) -> list[Any]:
    """Every ``every``-th decision with a choice along one seeded random game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found, choices = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            if choices % every == 0:
                found.append(state.clone())
            choices += 1
        state.apply_action(rng.choice(legal))
    return found


def _chance_after_a_move(state: Any) -> bool:
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_chance_node():
            return True
    return False


@pytest.mark.parametrize(
    ("name", "params"),
    [("obonto", {}), ("bones", {}), ("oyno", {}), ("oyno", {"wild": True})],
)
def test_every_action_gets_the_python_bots_value(name: str, params: dict[str, Any]) -> None:
    game = boneyard.load_game(name, **params)
    native_game = native.load_game(name, **params)
    checked = with_chance = 0
    for seed in range(3):
        for state in _decisions(game, seed, every=7)[:6]:
            seat = state.current_player()
            reference = GreedyBot(game, seat, evaluations=ALL_OUTCOMES, use_solver=False)
            fast = NativeGreedyBot(game, seat, evaluations=ALL_OUTCOMES, use_solver=False)
            expected = reference.action_totals(state)
            before = state.to_json()
            action = fast.step(native_game.state_from_json(state.to_json()))
            assert state.to_json() == before
            values = dict(fast.last_result["action_values"])
            assert sorted(values) == sorted(expected)
            for move, value in expected.items():
                assert values[move] == pytest.approx(value, abs=1e-9), (name, seed, move)
            best = max(expected.values())
            assert expected[action] >= best - 1e-9, "it plays one of greedy's best moves"
            checked += 1
            with_chance += _chance_after_a_move(state)
    assert checked >= 10
    if params.get("wild"):
        assert with_chance, "some positions have chance right after a move (the wild rolls)"


@pytest.mark.parametrize("name", ["bonbon", "bondo_cones"])
def test_in_a_hidden_information_game_it_reads_the_seats_view_alone(name: str) -> None:
    """Two worlds the seat cannot tell apart (the true one and a resample of its view) get the
    same values and the same move from the same seed: the hidden cards and cones are not read."""
    game = boneyard.load_game(name)
    native_game = native.load_game(name)
    differing = 0
    for seed, state in enumerate(_decisions(game, 3, every=5)[:4]):
        seat = state.current_player()
        world = state.resample(seat, random.Random(seed))
        assert world.observation(seat) == state.observation(seat)
        differing += world.to_json() != state.to_json()
        found = []
        for position in (state, world):
            bot = NativeGreedyBot(game, seat, seed=seed, samples=3, use_solver=False)
            found.append((bot.step(native_game.state_from_json(position.to_json())), bot))
        (first, bot_a), (second, bot_b) = found
        assert first == second
        assert bot_a.last_result["action_values"] == bot_b.last_result["action_values"]
        assert bot_a.last_result["iterations"] == 3, "three resamples looked at"
    assert differing, "some resample differs from the true state"


def test_a_seed_gives_the_same_move_and_a_python_state_is_taken_too() -> None:
    game = boneyard.load_game("bonbon")
    state = _decisions(game, 5, every=3)[2]
    seat = state.current_player()
    moves = {NativeGreedyBot(game, seat, seed=4, use_solver=False).step(state) for _ in range(3)}
    assert len(moves) == 1
    assert moves <= set(state.legal_actions())


def test_bad_options_are_refused_with_what_is_allowed() -> None:
    game = boneyard.load_game("obonto")
    for options, words in [
        ({"samples": 0}, "samples"),
        ({"samples": MOST_GREEDY_SAMPLES + 1}, "samples is a whole number from 1 to 100000000"),
        ({"evaluations": 0}, "evaluations"),
        ({"evaluations": MOST_GREEDY_EVALUATIONS + 1}, "evaluations"),
        ({"time_limit": -1}, "time"),
    ]:
        with pytest.raises(ValueError, match=words):
            make_bot("native_greedy", game, 0, **options)
