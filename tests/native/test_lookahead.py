"""Bond O Cones' own lookahead in Rust (native/engine/src/games/bondo_cones/lookahead.rs) and the
``native_lookahead`` bot (ai/native.py).

At depth 0 the native search is the Python hook's three plies (``search.lookahead_values``, what
``hard`` plays): the same value for every legal action, in every phase, at seeded positions.
Deeper it reads what the seat sees alone: states the seat cannot tell apart get the same values.
"""

from __future__ import annotations

import json
import random

import pytest

import boneyard
from boneyard import native
from boneyard.ai import make_bot
from boneyard.core.errors import InvalidParameterError, InvalidStateError
from boneyard.core.game import State, sample_chance_outcome
from boneyard.games.bondo_cones import notation as nt
from boneyard.games.bondo_cones import search

GAME = boneyard.load_game("bondo_cones")
NATIVE = native.load_game("bondo_cones")


def _decisions(seed: int, every: int) -> list[State]:
    """Decisions of a seeded game of random moves in which a player who may fight a battle
    does (so that won and lost battles come): every one outside the ``act`` phase, every
    ``every``-th in it."""
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    found: list[State] = []
    acts = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        legal = state.legal_actions()
        phase = state.observation(state.current_player())["phase"]
        if len(legal) > 1:
            if phase != "act":
                found.append(state.clone())
            else:
                acts += 1
                if acts % every == 0:
                    found.append(state.clone())
        state.apply_action(nt.BATTLE if nt.BATTLE in legal else rng.choice(legal))
    return found


def _native_values(state: State, options: dict[str, object]) -> dict[int, float]:
    found = NATIVE.state_from_json(state.to_json()).search(
        "lookahead", json.dumps(options), None, None, 7
    )
    return dict(found["action_values"])


def test_depth_zero_is_the_python_lookahead_value_for_value() -> None:
    positions = _decisions(3, every=25) + _decisions(11, every=40)
    phases = {p.observation(p.current_player())["phase"] for p in positions}
    # The set-up, a battle declared, won (take) and lost (punish) and the cone moves all come.
    assert {"setup_put", "setup_ring", "decide", "take", "punish", "act"} <= phases, phases
    for state in positions:
        seat = state.current_player()
        legal = state.legal_actions()
        expected = search.lookahead_values(state.observation(seat), legal, None)
        got = _native_values(state, {"depth": 0})
        assert set(got) == set(legal)
        for action in legal:
            assert got[action] == pytest.approx(expected[action], abs=1e-9), (
                state.observation(seat)["phase"],
                action,
            )


def test_states_the_seat_cannot_tell_apart_get_the_same_search() -> None:
    acts = [
        p for p in _decisions(5, every=20) if p.observation(p.current_player())["phase"] == "act"
    ]
    state = acts[len(acts) // 2]
    seat = state.current_player()
    worlds = [state, state.resample(seat, random.Random(1)), state.resample(seat, random.Random(2))]
    # The worlds differ where the seat cannot see: the opponent's hidden values.
    assert len({str(world) for world in worlds}) == 3
    assert len({json.dumps(w.observation(seat), sort_keys=True) for w in worlds}) == 1
    for depth in (0, 1):
        found = [
            NATIVE.state_from_json(w.to_json()).search(
                "lookahead", json.dumps({"depth": depth}), None, None, 3
            )
            for w in worlds
        ]
        for other in found[1:]:
            assert other["action_values"] == found[0]["action_values"]
            assert other["action"] == found[0]["action"]


def test_deeper_searches_value_the_moves_differently_and_report_their_depth() -> None:
    state = next(
        p for p in _decisions(3, every=10) if p.observation(p.current_player())["phase"] == "act"
    )
    shallow = _native_values(state, {"depth": 0})
    deep = NATIVE.state_from_json(state.to_json()).search(
        "lookahead", json.dumps({"depth": 1}), None, None, 7
    )
    assert deep["iterations"] == 1
    assert dict(deep["action_values"]) != shallow
    # The opponent answers weighed below each root action: the searched ones have some.
    assert sum(1 for _, weighed in deep["visits"] if weighed > 0) == min(10, len(shallow))
    assert deep["action"] in state.legal_actions()


@pytest.mark.parametrize(
    ("options", "budget", "words"),
    [
        ({"deep": 1}, None, "no option deep; its options: depth, width, move_width, reply_width"),
        ({"depth": 9}, None, "whole number from 0 to 8"),
        ({"width": 0}, None, '"width" is a whole number from 1 to 100'),
        ({"depth": 1}, 5, "not iterations"),
    ],
)
def test_bad_options_are_refused_with_what_is_allowed(
    options: dict[str, object], budget: int | None, words: str
) -> None:
    state = NATIVE.state_from_json(_decisions(3, every=10)[-1].to_json())
    with pytest.raises(InvalidParameterError, match=words):
        state.search("lookahead", json.dumps(options), None, budget, 0)


def test_a_chance_node_and_the_end_are_refused() -> None:
    state = NATIVE.new_initial_state()
    rng = random.Random(0)
    while not state.is_chance_node() or state.observation(None)["phase"] != "roll":
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(InvalidStateError, match="not a chance node"):
        state.search("lookahead", "{}", None, None, 0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(InvalidStateError, match="not the end of the game"):
        state.search("lookahead", "{}", None, None, 0)


def test_the_bot_plays_legal_moves_from_python_and_native_states() -> None:
    state = _decisions(3, every=10)[-1]
    seat = state.current_player()
    bot = make_bot("native_lookahead", GAME, seat, seed=1, max_depth=1)
    action = bot.step(state)
    assert action in state.legal_actions()
    assert bot.step(NATIVE.state_from_json(state.to_json())) == action
    assert bot.last_result["iterations"] in (0, 1)
    timed = make_bot("native_lookahead", GAME, seat, seed=1, time_limit=0.05)
    assert timed.step(state) in state.legal_actions()


def test_the_bot_refuses_bad_settings_and_plays_greedy_elsewhere() -> None:
    with pytest.raises(ValueError, match="max_depth is a whole number from 0 to 8"):
        make_bot("native_lookahead", GAME, 0, max_depth=9)
    with pytest.raises(ValueError, match="time_limit must be positive"):
        make_bot("native_lookahead", GAME, 0, time_limit=0)
    with pytest.raises(ValueError, match="width is a whole number"):
        make_bot("native_lookahead", GAME, 0, width=0)
    obonto = boneyard.load_game("obonto")
    state = obonto.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample_chance_outcome(state, random.Random(0)))
    bot = make_bot("native_lookahead", obonto, state.current_player(), seed=0)
    greedy = make_bot("greedy", obonto, state.current_player(), seed=0)
    assert bot.step(state) == greedy.step(state)
