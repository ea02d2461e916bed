"""Bones in words: the first piece and later pieces prompted, placements described, results."""

from __future__ import annotations

import boneyard
from boneyard.core.game import State


def play(state: State, *moves: str) -> State:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_the_first_piece_is_prompted_onto_the_start_area() -> None:
    game = boneyard.load_game("bones")
    state = game.new_initial_state()
    assert game.prompt(state.observation(0), 0) == (
        "Place the first piece: a domino on two neighbouring squares, covering e5 or f5."
    )
    assert state.why_illegal("a1-a2").startswith("The first piece must cover")


def test_later_pieces_are_prompted_with_the_covering_rule_and_the_goal() -> None:
    game = boneyard.load_game("bones")
    state = play(game.new_initial_state(), "e5-f5")
    words = game.prompt(state.observation(1), 1)
    assert "never exactly on a piece that still shows whole" in words
    assert "5 of your colour in a row or column" in words
    assert state.why_illegal("e5-f5").startswith("It would lie exactly on the piece")
    assert game.describe_action(state.observation(0), 1, "e6-f6") == (
        "Black placed a piece on e6 and f6."
    )
    assert game.action_label(state.observation(1), "e6-e7") == "Place a piece on e6 and e7"


def test_the_panel_counts_the_pieces_left() -> None:
    game = boneyard.load_game("bones")
    state = play(game.new_initial_state(), "e5-f5")
    panel = {item.label: item.value for item in game.panel(state.observation(1), 1)}
    assert panel["White"] == "29 pieces to place"
    assert panel["Black (you)"] == "30 pieces to place"
    assert panel["To move"] == "Black"


def test_a_win_and_a_draw_in_words() -> None:
    game = boneyard.load_game("bones")
    state = play(
        game.new_initial_state(),
        *("e5-f5", "a9-b9", "g5-h5", "a8-b8", "i5-i6"),
    )
    assert state.is_terminal()
    observation = state.observation(None)
    assert game.result(observation, 0, state.returns()) == (
        "You won with white on 5 squares in a line from e5 to i5."
    )
    assert game.result(observation, 1, state.returns()) == (
        "You lost: White has 5 squares in a line from e5 to i5."
    )
    assert game.result(observation, None, state.returns()).startswith("White won")
    # one piece that joins two lines makes six at once: the words count all six
    state = play(
        game.new_initial_state(),
        *("e5-f5", "a9-b9", "i5-j5", "a8-b8", "g5-h5"),
    )
    assert state.is_terminal()
    assert game.result(state.observation(1), 1, state.returns()) == (
        "You lost: White has 6 squares in a line from e5 to j5."
    )
    small = boneyard.load_game("bones", width=2, height=2, pieces=1)
    state = play(small.new_initial_state(), "a1-b1", "a2-b2")
    assert state.is_terminal()
    assert small.result(state.observation(0), 0, state.returns()).startswith("Draw: every piece")
