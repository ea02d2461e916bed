"""The lookahead bot: the game's own lookahead where it exports one, greedy elsewhere."""

from __future__ import annotations

import random

import pytest

import boneyard
from boneyard.ai import make_bot
from boneyard.ai.lookahead import LookaheadBot
from boneyard.core.game import State


def _decision_states(game: boneyard.Game, count: int, seed: int) -> list[State]:
    """Player nodes met in random playouts, skipping forced ones."""
    rng = random.Random(seed)
    found: list[State] = []
    state = game.new_initial_state()
    while len(found) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            actions = state.legal_actions()
            if len(actions) > 1 and rng.random() < 0.2:
                found.append(state.clone())
            state.apply_action(rng.choice(actions))
    return found


def test_hard_bond_o_cones_is_the_lookahead_bot() -> None:
    game = boneyard.load_game("bondo_cones")
    assert isinstance(make_bot("hard", game, 0, seed=1), LookaheadBot)


def test_it_decides_from_the_observation_only() -> None:
    # A state and a resample of it (other hidden values, the same view) get the same move.
    game = boneyard.load_game("bondo_cones", setup="random")
    rng = random.Random(3)
    differ = 0
    for state in _decision_states(game, 12, seed=2):
        seat = state.current_player()
        other = state.resample(seat, rng)
        assert other.observation(seat) == state.observation(seat)
        differ += other.to_json() != state.to_json()
        first = make_bot("lookahead", game, seat, seed=5).step(state)
        second = make_bot("lookahead", game, seat, seed=5).step(other)
        assert first == second
    assert differ  # the pairs really hide different values


def test_it_plays_a_legal_move_and_leaves_the_state_alone() -> None:
    game = boneyard.load_game("bondo_cones")
    for state in _decision_states(game, 10, seed=7):
        before = state.to_json()
        action = make_bot("lookahead", game, state.current_player(), seed=1).step(state)
        assert action in state.legal_actions()
        assert state.to_json() == before


@pytest.mark.parametrize("name", ["bones", "obonto"])
def test_without_the_hook_it_plays_greedy(name: str) -> None:
    game = boneyard.load_game(name)
    assert game.lookahead_values(game.new_initial_state().observation(None), []) is None
    for state in _decision_states(game, 4, seed=1):
        seat = state.current_player()
        expected = make_bot("greedy", game, seat, seed=3).step(state)
        assert make_bot("lookahead", game, seat, seed=3).step(state) == expected


def test_a_bad_time_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="time_limit"):
        make_bot("lookahead", "bondo_cones", 0, time_limit=0)
