"""A hint avoids a move that brings back a position the game has seen (issue 35: following
Hint in Bones repeated f4-f5 against f5-f6 26 times until the pieces ran out)."""

from __future__ import annotations

import pytest

from boneyard.ai.alphabeta import AlphaBetaBot
from boneyard.ai.repetition import REPEAT_MARGIN, repeating_actions
from boneyard.core.game import State
from boneyard.core.registry import load_game
from boneyard.web.compute.bots import hint_move


def _bones_after(moves: list[str]) -> State:
    game = load_game("bones", width=6, height=5, pieces=12)
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


# White laid d3-e3, black covered e3 with e3-f3, white laid d3-e3 again, black e3-f3 again:
# white's d3-e3 now brings back the board of two moves ago (the stacks higher).
REPEATED = ["d3-e3", "e3-f3", "d3-e3", "e3-f3"]


def test_the_move_laid_back_on_the_covered_square_repeats() -> None:
    state = _bones_after(REPEATED)
    assert {state.action_to_string(a) for a in repeating_actions(state)} == {"d3-e3"}
    assert repeating_actions(_bones_after(REPEATED[:1])) == frozenset()


def test_a_search_told_to_avoid_a_repetition_plays_an_equal_move_that_does_not() -> None:
    state = _bones_after(REPEATED)
    repeat = state.string_to_action("d3-e3")
    plain = AlphaBetaBot(state.game, 0, seed=0, max_depth=2, use_solver=False)
    assert plain.step(state) == repeat  # the position's best move, by a hair, repeats
    careful = AlphaBetaBot(state.game, 0, seed=0, max_depth=2, use_solver=False)
    careful.avoid = repeating_actions(state)
    chosen = careful.step(state)
    assert chosen != repeat
    # ... and it is as good: within the margin of the repetition's value.
    assert careful.last_value >= plain.last_value - REPEAT_MARGIN


def test_a_repetition_clearly_best_is_still_played() -> None:
    # Here d3-e3 answers black's threat better than anything else by more than the margin.
    state = _bones_after(["c3-d3", "d2-d3", "d3-e3", "e3-f3", "d3-e3", "e3-f3"])
    repeat = state.string_to_action("d3-e3")
    assert repeating_actions(state) == {repeat}
    careful = AlphaBetaBot(state.game, 0, seed=0, max_depth=2, use_solver=False)
    careful.avoid = repeating_actions(state)
    assert careful.step(state) == repeat


@pytest.mark.parametrize("document", [False, True])
def test_the_hint_does_not_repeat_where_an_equal_move_does_not(document: bool) -> None:
    state = _bones_after(REPEATED)
    # A state itself (threads) and its document (processes) carry the history alike.
    payload = (state.game.name, dict(state.game.params), state.to_json()) if document else state
    assert hint_move(0.3, payload) not in repeating_actions(state)


def test_the_library_hint_avoids_the_repetition_too() -> None:
    from boneyard.ai import hint

    state = _bones_after(REPEATED)
    assert hint(state, seed=0) not in repeating_actions(state)
