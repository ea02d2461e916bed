"""Bond O Cones' lookahead improved by rollouts (native/engine/src/games/bondo_cones/rollouts.rs)
and the ``native_rollouts`` bot (ai/native.py).

The search plays the depth-0 lookahead's best few actions on in resampled worlds of the seat's
view: with one candidate it is the Python lookahead (``hard``'s move); it reads what the seat
sees alone (states the seat cannot tell apart get the same values); a world budget repeats.
"""

from __future__ import annotations

import json
import random

import pytest

import boneyard
from boneyard import native
from boneyard.ai import make_bot
from boneyard.core.errors import InvalidParameterError
from boneyard.core.game import State, sample_chance_outcome
from boneyard.games.bondo_cones import search

GAME = boneyard.load_game("bondo_cones")
NATIVE = native.load_game("bondo_cones")


def _acts(seed: int, every: int) -> list[State]:
    """Every ``every``-th decision with a choice of a seeded game of random moves, past the
    set-up."""
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    found: list[State] = []
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        legal = state.legal_actions()
        phase = state.observation(state.current_player())["phase"]
        if len(legal) > 1 and not phase.startswith("setup"):
            decisions += 1
            if decisions % every == 0:
                found.append(state.clone())
        state.apply_action(rng.choice(legal))
    return found


def _rollouts(state: State, options: dict[str, object], worlds: int, seed: int) -> dict:
    found: dict = NATIVE.state_from_json(state.to_json()).search(
        "lookahead_rollouts", json.dumps(options), None, worlds, seed
    )
    return found


def test_one_candidate_is_the_python_lookahead() -> None:
    positions = _acts(2, every=9)[:6]
    assert len(positions) == 6
    for state in positions:
        seat = state.current_player()
        python = search.lookahead_values(state.observation(seat), state.legal_actions())
        best = max(python.values())
        found = _rollouts(state, {"candidates": 1}, worlds=2, seed=3)
        assert python[found["action"]] == pytest.approx(best, abs=1e-9)
        # A margin no candidate's mean can reach keeps the lookahead's choice as well.
        sure = _rollouts(state, {"margin": 10}, worlds=3, seed=3)
        assert python[sure["action"]] == pytest.approx(best, abs=1e-9)


def test_states_the_seat_cannot_tell_apart_get_the_same_values() -> None:
    state = _acts(5, every=15)[2]
    seat = state.current_player()
    rng = random.Random(4)
    native_state = NATIVE.state_from_json(state.to_json())
    worlds = [native_state, native_state.resample(seat, rng), native_state.resample(seat, rng)]
    assert worlds[1].to_json() != worlds[2].to_json()
    found = [
        world.search("lookahead_rollouts", json.dumps({"turns": 1}), None, 8, 11)
        for world in worlds
    ]
    assert found[0]["iterations"] == 8
    for other in found[1:]:
        assert other["action_values"] == found[0]["action_values"]
        assert other["action"] == found[0]["action"]


def test_the_bot_plays_the_same_move_from_python_and_native_states() -> None:
    state = _acts(3, every=10)[-1]
    seat = state.current_player()
    bot = make_bot("native_rollouts", GAME, seat, seed=1, iterations=6, turns=0)
    action = bot.step(state)
    assert action in state.legal_actions()
    again = make_bot("native_rollouts", GAME, seat, seed=1, iterations=6, turns=0)
    assert again.step(NATIVE.state_from_json(state.to_json())) == action
    assert bot.last_result["iterations"] == 6
    timed = make_bot("native_rollouts", GAME, seat, seed=1, time_limit=0.05)
    assert timed.step(state) in state.legal_actions()


def test_bad_settings_are_refused_and_another_game_plays_greedy() -> None:
    with pytest.raises(ValueError, match="iterations is a whole number from 1 to 1000000"):
        make_bot("native_rollouts", GAME, 0, iterations=0)
    with pytest.raises(ValueError, match="turns is a whole number from 0 to 20"):
        make_bot("native_rollouts", GAME, 0, turns=21)
    with pytest.raises(ValueError, match="candidates is a whole number from 1 to 20"):
        make_bot("native_rollouts", GAME, 0, candidates=True)
    with pytest.raises(ValueError, match="time_limit must be positive"):
        make_bot("native_rollouts", GAME, 0, time_limit=-1)
    with pytest.raises(ValueError, match="margin is a number from 0 to 10"):
        make_bot("native_rollouts", GAME, 0, margin=11)
    state = _acts(3, every=40)[0]
    with pytest.raises(InvalidParameterError, match="needs a budget"):
        NATIVE.state_from_json(state.to_json()).search("lookahead_rollouts", "{}", None, None, 0)
    with pytest.raises(InvalidParameterError, match="no option depth"):
        _rollouts(state, {"depth": 1}, worlds=1, seed=0)
    obonto = boneyard.load_game("obonto")
    start = obonto.new_initial_state()
    while start.is_chance_node():
        start.apply_action(sample_chance_outcome(start, random.Random(0)))
    bot = make_bot("native_rollouts", obonto, start.current_player(), seed=0)
    greedy = make_bot("greedy", obonto, start.current_player(), seed=0)
    assert bot.step(start) == greedy.step(start)
