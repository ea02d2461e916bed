"""The ``native_expert`` bot (issue 43, item 5: the expert's play on the native search): with an
iteration budget it plays the ``expert`` bot's move (the same search, tests/ai/test_native_expert.py
holds the visits equal); its clock stops the search short of its iterations; in a hidden
information game it reads the seat's view alone; where no network fits (Bond O Cones) it is the
``expert`` bot itself; bad budgets are refused with the usual sentences."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard import native
from boneyard.ai import make_bot
from boneyard.ai.native import NativeExpertBot
from boneyard.native.network import MOST_ITERATIONS


def _decision(game: Any, seed: int, moves: int) -> Any:
    """A decision with a choice, ``moves`` choices into a seeded random game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    choices = 0
    while True:
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        assert not state.is_terminal(), "the game ended before the decision asked for"
        legal = state.legal_actions()
        if len(legal) > 1:
            if choices == moves:
                return state
            choices += 1
        state.apply_action(rng.choice(legal))


@pytest.mark.parametrize("name", ["obonto", "bones", "oyno"])
def test_with_iterations_it_plays_the_expert_bots_move(name: str) -> None:
    game = boneyard.load_game(name)
    for seed in range(3):
        state = _decision(game, seed, moves=2 + 3 * seed)
        seat = state.current_player()
        fast = NativeExpertBot(game, seat, seed=1, iterations=150, use_solver=False)
        reference = make_bot("expert", game, seat, seed=1, iterations=150, time_limit=None)
        reference.use_solver = False
        before = state.to_json()
        assert fast.step(state) == reference.step(state)
        assert state.to_json() == before  # the state is not changed
        assert fast.native and fast.last_iterations == 150
        assert sum(fast.last_result["visits"].values()) == 149  # the root's first is its own
        # A native state gets the same move as the Python one.
        native_state = native.load_game(name).state_from_json(state.to_json())
        again = NativeExpertBot(game, seat, seed=1, iterations=150, use_solver=False)
        assert again.step(native_state) == fast.last_result["action"]


def test_its_clock_stops_the_search_short_of_its_iterations() -> None:
    game = boneyard.load_game("obonto")
    state = _decision(game, 0, moves=4)
    bot = NativeExpertBot(game, state.current_player(), seed=1, time_limit=0.02)
    assert bot.budget.iterations is None
    bot.step(state)
    assert 1 <= bot.last_iterations < MOST_ITERATIONS


def test_in_bonbon_it_reads_the_seats_view_alone() -> None:
    game = boneyard.load_game("bonbon")
    state = _decision(game, 2, moves=3)
    seat = state.current_player()
    worlds = [state] + [state.resample(seat, random.Random(k)) for k in range(2)]
    # The seat sees the same in each world; the hidden cards are not all the same.
    assert all(w.observation(seat) == state.observation(seat) for w in worlds)
    assert len({repr(w.to_json()) for w in worlds}) > 1
    moves = set()
    visits = []
    for world in worlds:
        bot = NativeExpertBot(game, seat, seed=5, iterations=300)
        moves.add(bot.step(world))
        visits.append(bot.last_result["visits"])
    assert len(moves) == 1
    assert visits[0] == visits[1] == visits[2]


def test_without_a_network_it_is_the_expert_bot() -> None:
    game = boneyard.load_game("bondo_cones")
    state = _decision(game, 1, moves=6)
    seat = state.current_player()
    bot = NativeExpertBot(game, seat, seed=4, iterations=40)
    reference = make_bot("expert", game, seat, seed=4, iterations=40, time_limit=None)
    assert not bot.native
    assert bot.step(state) == reference.step(state)
    assert bot.last_iterations == 40


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": 0}, "iterations is a whole number from 1 to 1000000, not 0"),
        ({"iterations": MOST_ITERATIONS + 1}, "iterations is a whole number from 1 to 1000000"),
        ({"iterations": 2.5}, "iterations is a whole number from 1 to 1000000, not 2.5"),
        ({"time_limit": -1}, "time_limit must be positive seconds, not -1"),
        ({"exact_chance": -1}, "exact_chance must be 0 or more, not -1"),
        ({"exploration": -0.5}, "exploration is a number from 0 to 100, not -0.5"),
        ({"exploration": float("nan")}, "exploration is a number from 0 to 100, not nan"),
    ],
)
def test_a_bad_budget_is_refused_with_what_is_allowed(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot("native_expert", "bonbon", 0, **options)
