"""The two-player OYNO heuristic (``Game.evaluate``): placed bones, up bones, wins in one."""

from __future__ import annotations

import random

import pytest

import boneyard
from boneyard.games.oyno.heuristic import duel_value


def game_from(start: str, **params: object) -> boneyard.Game:
    return boneyard.load_game("oyno", start=start, **params)


def value(start: str, seat: int, **params: object) -> float:
    game = game_from(start, **params)
    return game.evaluate(game.new_initial_state(), seat)


def test_more_bones_placed_and_up_is_better() -> None:
    # nobody is forced to place (each side has a down bone): red 3 placed, 2 up; white 2 and 1
    ahead = value("R.R.W/r..w./..o../...../.....", 0, bones_per_player=4)
    level = value("R...W/r..w./..o../...../.....", 0, bones_per_player=4)
    assert level == pytest.approx(0.0)
    assert ahead > level
    assert value("R.R.W/r..w./..o../...../.....", 1, bones_per_player=4) < level


def test_a_forced_place_counts_for_the_player_to_move() -> None:
    # every bone up on both sides: the player to move brings a bone out of its supply next
    assert value("R...W/...../..o../...../.....", 0, bones_per_player=4) > 0.0
    assert value("R...W/...../..o../...../..... w", 0, bones_per_player=4) < 0.0


def test_a_placed_down_bone_counts_more_than_a_bone_in_supply() -> None:
    # a placed bone never goes back to the supply: it is progress even while down
    placed_down = value("R.r.W/...../..o../...../.....", 0, bones_per_player=4)
    in_supply = value("R...W/...../..o../...../.....", 0, bones_per_player=4)
    assert placed_down > in_supply


def test_the_value_is_symmetric_and_inside_the_utility_range() -> None:
    for start in ("RR..w/.W.../..o../...r./.....", "Rr.../.W.ww/..o../...../..... w"):
        v0 = value(start, 0, bones_per_player=4)
        v1 = value(start, 1, bones_per_player=4)
        assert v0 == pytest.approx(-v1)
        assert -1.0 < v0 < 1.0


def test_a_flip_that_wins_next_move_is_seen() -> None:
    # red has every bone on the board and one down, and is to move: flipping it wins
    start = "RRr.W/...../..o../...../....."
    assert value(start, 0, bones_per_player=3) == pytest.approx(0.9)
    assert value(start, 1, bones_per_player=3) == pytest.approx(-0.9)
    # the same board with white to move: no win in one for white, red's threat not counted
    assert abs(value(start + " w", 0, bones_per_player=3)) < 0.9


def test_a_last_place_that_wins_is_seen_only_where_a_cell_is_free_of_own_neighbours() -> None:
    # red has one bone left and every bone up: a place away from its bones wins
    assert value("RR..W/...../..o../...../.....", 0, bones_per_player=3) == pytest.approx(0.9)
    # 3x3: every empty cell touches a red bone, so red's last place turns one down
    blocked = value("W.R/.o./R.W", 0, size=3, bones_per_player=3)
    assert abs(blocked) < 0.9


def test_evaluate_from_the_state_equals_the_value_of_the_observation() -> None:
    rng = random.Random(7)
    for params in ({}, {"wild": True}, {"size": 3, "bones_per_player": 3}):
        game = boneyard.load_game("oyno", **params)
        for _ in range(3):
            state = game.new_initial_state()
            for _ in range(60):
                if state.is_terminal():
                    break
                if not state.is_chance_node():
                    for seat in (0, 1):
                        expected = duel_value(state.observation(seat), seat)
                        assert game.evaluate(state, seat) == pytest.approx(expected)
                state.apply_action(rng.choice(state.legal_actions()))
