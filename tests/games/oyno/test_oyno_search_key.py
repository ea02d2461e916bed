"""The duel's transposition key (``State.transposition_key``), which search bots key tables on."""

from __future__ import annotations

import boneyard
from boneyard.ai import make_bot
from boneyard.games.oyno.duel import DuelState


def played(moves: list[str], **params: object) -> DuelState:
    state = boneyard.load_game("oyno", **params).new_initial_state()
    assert isinstance(state, DuelState)
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_the_same_position_by_another_order_has_the_same_key() -> None:
    first = played(["place a1", "place e5", "place a5", "place e1"])
    other = played(["place a5", "place e1", "place a1", "place e5"])
    assert str(first) == str(other)
    assert first.transposition_key() == other.transposition_key()


def test_the_player_to_move_sides_and_supplies_change_the_key() -> None:
    base = played(["place a1", "place e5"])
    assert played(["place a1", "place e5", "place c1"]).transposition_key() != (
        base.transposition_key()
    )
    # a1 next to b1: red's bone goes down; the same cells with every bone up differ
    down = played(["place a1", "place b1"])
    up = played(["place a1", "place c1"])
    assert down.transposition_key() != up.transposition_key()
    # the same board with the other player to move
    red_to_move = boneyard.load_game(
        "oyno", start="R...W/...../..o../...../....."
    ).new_initial_state()
    white_to_move = boneyard.load_game(
        "oyno", start="R...W/...../..o../...../..... w"
    ).new_initial_state()
    assert red_to_move.transposition_key() != white_to_move.transposition_key()


def test_a_wild_bone_in_the_air_is_part_of_the_key() -> None:
    state = played(["place a1 wild"], wild=True)
    assert state.is_chance_node()
    landed = state.clone()
    landed.apply_action(landed.chance_outcomes()[0][0])
    assert state.transposition_key() != landed.transposition_key()


def test_alphabeta_plays_the_same_with_the_cheap_key() -> None:
    # the key only names positions: a search keyed on the text of the state plays the same
    state = played(["place a1", "place b1", "move a1-c1", "place a2", "place e5"])
    game = state.game
    fast = make_bot("alphabeta", game, state.current_player(), seed=3, max_depth=3)
    chosen = fast.step(state)
    original = DuelState.transposition_key
    try:
        DuelState.transposition_key = lambda self: str(self)  # type: ignore[method-assign]
        slow = make_bot("alphabeta", game, state.current_player(), seed=3, max_depth=3)
        assert slow.step(state) == chosen
        assert slow.nodes == fast.nodes  # type: ignore[attr-defined]
    finally:
        DuelState.transposition_key = original  # type: ignore[method-assign]
