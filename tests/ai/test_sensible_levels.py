"""The weakest level plays moves a person finds sensible (issue 28): in Bones it completes a
line of five when it can and blocks the opponent's when one move can.

Positions come from games of random moves: every one where the mover can win at once, and every
one where the opponent threatens to win on its next move and some move stops it.
"""

from __future__ import annotations

import random

import pytest

import boneyard
from boneyard.ai import make_bot
from boneyard.core.game import State


def winning_moves(state: State) -> list[int]:
    mover = state.current_player()
    found = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() and after.returns()[mover] > 0:
            found.append(action)
    return found


def stops_every_win(state: State, action: int) -> bool:
    """After ``action`` the opponent has no move that wins at once."""
    after = state.clone()
    after.apply_action(action)
    return after.is_terminal() or not winning_moves(after)


def positions(count: int, seed: int) -> tuple[list[State], list[State]]:
    """Up to ``count`` positions where the mover can win, and as many where it must block."""
    game = boneyard.load_game("bones")
    rng = random.Random(seed)
    can_win: list[State] = []
    must_block: list[State] = []
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            if winning_moves(state):
                if len(can_win) < count:
                    can_win.append(state.clone())
                break
            unsafe = [a for a in state.legal_actions() if not stops_every_win(state, a)]
            if unsafe and len(unsafe) < len(state.legal_actions()) and len(must_block) < count:
                must_block.append(state.clone())
            state.apply_action(rng.choice(unsafe or state.legal_actions()))
        if len(can_win) >= count and len(must_block) >= count:
            break
    return can_win, must_block


@pytest.fixture(scope="module")
def bones_positions() -> tuple[list[State], list[State]]:
    return positions(12, seed=3)


def test_easy_completes_a_line_of_five_whenever_it_can(
    bones_positions: tuple[list[State], list[State]],
) -> None:
    can_win, _ = bones_positions
    assert len(can_win) >= 10, "random games reach enough positions with a win at hand"
    for number, state in enumerate(can_win):
        bot = make_bot("easy", state.game, state.current_player(), seed=number)
        assert bot.step(state) in winning_moves(state)


def test_easy_blocks_a_threatened_line_at_least_half_the_time(
    bones_positions: tuple[list[State], list[State]],
) -> None:
    _, must_block = bones_positions
    assert len(must_block) >= 10, "random games reach enough positions with a threat to stop"
    blocked = sum(
        stops_every_win(
            state, make_bot("easy", state.game, state.current_player(), seed=n).step(state)
        )
        for n, state in enumerate(must_block)
    )
    assert blocked >= len(must_block) / 2, f"blocked {blocked} of {len(must_block)}"
