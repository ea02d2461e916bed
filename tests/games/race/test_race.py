"""The template game keeps the engine contract, its rules and its golden playthrough."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boneyard import TERMINAL, IllegalActionError
from boneyard.games.race import RaceGame, RaceState
from boneyard.testing import check_game
from boneyard.testing.playthroughs import game_playthrough

GOLDEN = Path(__file__).parent / "race.txt"


def _play(state: RaceState, *moves: str) -> RaceState:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


@pytest.mark.parametrize("params", RaceGame.conformance_variants)
def test_conformance(params: dict[str, Any]) -> None:
    check_game(RaceGame(**params), playouts=6, seed=1)


def test_golden_playthrough_unchanged() -> None:
    # Rewrite after an intended change: GOLDEN.write_text(game_playthrough(RaceGame())).
    assert game_playthrough(RaceGame()).splitlines() == GOLDEN.read_text().splitlines()


def test_a_move_that_reaches_the_goal_wins() -> None:
    state = _play(RaceGame(goal=4, coin=False).new_initial_state(), "+2", "+2")
    assert state.current_player() == TERMINAL
    assert state.returns() == [-1.0, 1.0]


def test_a_coin_that_reaches_the_goal_draws() -> None:
    state = _play(RaceGame(goal=4).new_initial_state(), "+2", "coin 0", "+1", "coin 1")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_the_coin_follows_each_move_with_its_odds() -> None:
    state = _play(RaceGame().new_initial_state(), "+1")
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.75)]
    with pytest.raises(IllegalActionError, match="legal: coin 0, coin 1"):
        state.apply_action(state.string_to_action("coin 1") + 5)


def test_words_and_drawings_come_from_the_package_by_convention() -> None:
    game = RaceGame(goal=5)
    state = _play(game.new_initial_state(), "+2", "coin 0")
    observation = state.observation(1)
    assert game.prompt(observation, 1) == "Add one or two to the total; 3 to go to reach 5."
    assert game.action_label(observation, "+2") == "Add two"
    assert str(state) == "total 2 / 5"
    assert game.observation_tensor_shape() == (2, 7)
    assert game.render_svg(observation).count('fill="#c84"') == 2
