"""The greedy Bones heuristic: immediate wins, blocks, extending and cutting lines."""

from __future__ import annotations

import random

import pytest

from boneyard.games.bones.heuristic import (
    UNSTOPPABLE,
    best_placements,
    blocking_placements,
    evaluate,
    line_score,
    score_placement,
    winning_placements,
)
from boneyard.games.bones.rules import BonesGame, BonesState


def play(text: str, **params: int) -> BonesState:
    state = BonesGame(**params).new_initial_state()
    for word in text.split():
        state.apply_action(state.string_to_action(word))
    return state


def strings(state: BonesState, actions: list[int]) -> set[str]:
    return {state.action_to_string(a) for a in actions}


def action(state: BonesState, text: str) -> int:
    return state.string_to_action(text)


def test_winning_placements_are_exactly_the_legal_completions() -> None:
    # White: c5 d5 e5 f5; black holds b5 and g5 with completely visible pieces.
    state = play("e5-f5 g5-g6 c5-d5 b5-b6")
    assert strings(state, winning_placements(state, 0)) == {
        "a5-b5",
        "b5-c5",
        "b4-b5",
        "f5-g5",
        "g5-h5",
        "g4-g5",
    }  # b5-b6 and g5-g6 would lie exactly on visible black pieces
    for placement in winning_placements(state, 0):
        child = state.clone()
        child.apply_action(placement)
        assert child.winner() == 0
    assert winning_placements(state, 1) == []


def test_winning_placements_agree_with_trying_every_move() -> None:
    rng = random.Random(3)
    game = BonesGame(width=7, height=6, pieces=20)
    checked = 0
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            mover = state.current_player()
            found = []
            for candidate in state.legal_actions():
                child = state.clone()
                child.apply_action(candidate)
                if child.winner() == mover:
                    found.append(candidate)
            assert winning_placements(state, mover) == found
            checked += bool(found)
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 5


def test_sees_an_immediate_win() -> None:
    state = play("e5-f5 a1-b1 c5-d5 a9-b9")
    wins = set(winning_placements(state, 0))
    assert wins
    assert set(best_placements(state)) <= wins
    assert evaluate(state, 0) > 0.9 and evaluate(state, 1) < -0.9


def test_sees_a_win_that_covers_the_opponent() -> None:
    state = play("e5-f5 g5-g6 c5-d5 b5-b6")
    assert set(best_placements(state)) <= set(winning_placements(state, 0))


@pytest.mark.parametrize(
    "placements",
    [
        "e5-f5 a1-b1 c5-d5",  # white threatens b5 and g5; black to move
        "e5-e6 a1-b1 e7-e8",  # white's e5..e8 threatens e4 and e9; black to move
        "e5-f5 b2-c2 e7-e8 d2-d3",  # black's b2 c2 d2 threatens e2-f2; white to move
    ],
)
def test_blocks_an_immediate_loss(placements: str) -> None:
    state = play(placements)
    mover = state.current_player()
    assert not winning_placements(state, mover), "the mover should have no win of its own"
    assert winning_placements(state, 1 - mover), "the position should hold a threat"
    careless = [a for a in state.legal_actions() if _leaves_a_win(state, a, 1 - mover)]
    assert careless, "some placements must lose"
    best = best_placements(state)
    for placement in best:
        assert not _leaves_a_win(state, placement, 1 - mover), state.action_to_string(placement)
    assert min(score_placement(state, a) for a in best) > max(
        score_placement(state, a) for a in careless
    )


def _leaves_a_win(state: BonesState, placement: int, opponent: int) -> bool:
    child = state.clone()
    child.apply_action(placement)
    return bool(winning_placements(child, opponent))


def test_prefers_extending_its_own_open_line() -> None:
    state = play("e5-f5 a1-b1")  # white to move, white's two in rank 5
    extend = score_placement(state, action(state, "g5-h5"))
    beside = score_placement(state, action(state, "e7-f7"))
    far = score_placement(state, action(state, "h8-i8"))
    assert extend > beside and extend > far
    best = best_placements(state)
    for placement in best:
        child = state.clone()
        child.apply_action(placement)
        assert line_score(child, 0) > line_score(state, 0)
        assert _longest_line(child, 0) >= 3


def _longest_line(state: BonesState, colour: int) -> int:
    """The longest run of ``colour`` in a rank or file."""
    letter = "WB"[colour]
    rows = state.observation(None)["top"]
    lines = rows + ["".join(row[f] for row in rows) for f in range(len(rows[0]))]
    runs = ("".join(c if c == letter else " " for c in line).split() for line in lines)
    return max((len(run) for line_runs in runs for run in line_runs), default=0)


def test_prefers_cutting_the_opponents_line_by_covering() -> None:
    state = play("e5-f5 b2-c2 h8-i8 a9-a8")  # white to move; black's b2-c2 lies open in rank 2
    cover = score_placement(state, action(state, "c2-c3"))  # covers black's c2
    elsewhere = score_placement(state, action(state, "j1-j2"))
    assert cover > elsewhere
    child = state.clone()
    child.apply_action(action(state, "c2-c3"))
    assert line_score(child, 1) < line_score(state, 1)


def test_evaluate_is_zero_sum_and_inside_the_range() -> None:
    rng = random.Random(5)
    game = BonesGame()
    for _ in range(5):
        state = game.new_initial_state()
        while True:
            white, black = evaluate(state, 0), evaluate(state, 1)
            assert white == pytest.approx(-black)
            assert -1.0 <= white <= 1.0
            if state.is_terminal():
                assert white == state.returns()[0]
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_game_evaluate_is_the_heuristic() -> None:
    state = play("e5-f5 a1-b1 c5-d5")
    assert state.game.evaluate(state, 1) == evaluate(state, 1)


def _states_with_threats(game: BonesGame, games: int, seed: int) -> list[BonesState]:
    """States from random games where the side not to move holds an immediate win."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if winning_placements(state, 1 - state.current_player()):
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def test_blocking_placements_agree_with_trying_every_reply() -> None:
    game = BonesGame(width=7, height=6, pieces=21)
    states = _states_with_threats(game, games=6, seed=11)
    assert len(states) > 10
    for state in states[::2]:
        attacker = 1 - state.current_player()
        expected = []
        for reply in state.legal_actions():
            child = state.clone()
            child.apply_action(reply)
            if child.is_terminal() or not winning_placements(child, attacker):
                expected.append(reply)
        assert blocking_placements(state) == expected
        unstoppable = evaluate(state, attacker) == UNSTOPPABLE
        assert unstoppable == (not expected)


def test_prefers_a_threat_the_opponent_cannot_stop() -> None:
    rng = random.Random(2)
    game = BonesGame(width=7, height=6, pieces=21)
    seen = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal() and seen < 3:
            mover = state.current_player()
            quiet = not winning_placements(state, mover) and not winning_placements(
                state, 1 - mover
            )
            if quiet:
                killers = [
                    a for a in state.legal_actions() if score_placement(state, a) == UNSTOPPABLE
                ]
                if killers:
                    seen += 1
                    assert set(best_placements(state)) <= set(killers)
                    for killer in killers:  # and no reply stops the win
                        child = state.clone()
                        child.apply_action(killer)
                        for reply in child.legal_actions():
                            grandchild = child.clone()
                            grandchild.apply_action(reply)
                            assert winning_placements(grandchild, mover)
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen == 3
