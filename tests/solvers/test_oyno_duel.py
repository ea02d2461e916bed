"""The two-player OYNO retrograde solver against plain minimax through the public rules, and its
model of the greedy bot against the bot itself."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

import boneyard
from boneyard.ai import make_bot
from boneyard.ai.greedy import action_value
from boneyard.games.oyno.board import board, format_position
from boneyard.games.oyno.duel import DuelState, parse_duel_start
from boneyard.solvers import oyno_duel
from boneyard.solvers.oyno_duel import DRAW, LOSS, WIN, DuelSolution


@cache
def solved(
    size: int, bones: int, restrict: int | None = None, place_rule: str = "all_up"
) -> DuelSolution:
    return oyno_duel.solve(size, bones, restrict, place_rule)


def duel(size: int, bones: int, start: str | None = None, place_rule: str = "all_up") -> DuelState:
    params: dict[str, object] = {
        "size": size,
        "bones_per_player": bones,
        "max_moves": 10_000,
        "place_rule": place_rule,
    }
    if start is not None:
        params["start"] = start
    state = boneyard.load_game("oyno", **params).new_initial_state()
    assert isinstance(state, DuelState)
    return state


def minimax(state: DuelState, depth: int) -> int:
    """WIN if the player to move forces a win within ``depth`` actions, LOSS if the other does,
    else DRAW (not decided that soon). Repetitions are ignored, as the solver ignores them."""
    memo: dict[tuple[tuple[int, ...], int], int] = {}

    def search(node: DuelState, left: int) -> int:
        key = (node._key(), left)
        if key in memo:
            return memo[key]
        mover = node.current_player()
        best = LOSS
        for action in node.legal_actions():
            child = node.clone()
            child.seen = {}
            child.apply_action(action)
            if child.is_terminal():
                value = WIN if child.winner == mover else LOSS
            elif left <= 1:
                value = DRAW
            else:
                value = -search(child, left - 1)
            best = max(best, value)
            if best == WIN:
                break
        memo[key] = best
        return best

    return search(state, depth)


def random_position(size: int, bones: int, rng: random.Random) -> str:
    cells = list(board(size).resting)
    rng.shuffle(cells)
    red, white = rng.randint(0, bones), rng.randint(0, bones)
    symbols = {}
    for cell in cells[:red]:
        symbols[cell] = rng.choice("Rr")
    for cell in cells[red : red + white]:
        symbols[cell] = rng.choice("Ww")
    return format_position(size, symbols) + rng.choice((" r", " w"))


def live_positions(size: int, bones: int, count: int, seed: int) -> list[str]:
    """``count`` random positions (with the player to move) where the game is not over."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        start = random_position(size, bones, rng)
        if not duel(size, bones, start).is_terminal():
            found.append(start)
    return found


def test_one_bone_each_red_wins_by_placing_it() -> None:
    # the forced first place puts red's only bone up on an empty board: won in one action
    assert solved(3, 1).value(0, 0, 0, 0) == (WIN, 1)


@pytest.mark.parametrize("place_rule", ["all_up", "supply"])
@pytest.mark.parametrize("start", live_positions(3, 2, 40, seed=7))
def test_values_agree_with_minimax(start: str, place_rule: str) -> None:
    state = duel(3, 2, start, place_rule)
    red, white = state.occupied
    value, plies = solved(3, 2, place_rule=place_rule).value(red, white, state.up, state.player)
    if value == DRAW:
        assert minimax(state, 8) == DRAW
    else:
        assert minimax(state, plies) == value
        if plies > 1:
            assert minimax(state, plies - 1) == DRAW  # not decided any sooner


@pytest.mark.parametrize(
    ("start", "plies"),
    [
        ("RR./.o./... r", 1),  # red's last bone goes on a cell next to no red bone
        ("..R/Ro./.WW r", 3),
        (".wr/RoW/.rw r", 5),
    ],
)
def test_forced_wins_are_found(start: str, plies: int) -> None:
    state = duel(3, 3, start)
    _, red, white, up, player = parse_duel_start(start)
    solution = solved(3, 3)
    assert solution.value(red, white, up, player) == (WIN, plies)
    assert minimax(state, plies) == WIN
    if plies > 2:
        assert minimax(state, plies - 2) == DRAW
    # following the solver's moves against every defence wins in exactly that many actions
    for action in solution.best_actions(state):
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal():
            assert plies == 1 and child.winner == player
        else:
            r, w = child.occupied
            assert solution.value(r, w, child.up, child.player) == (LOSS, plies - 1)


@pytest.mark.parametrize(("size", "bones"), [(3, 3), (5, 2), (5, 4)])
def test_greedy_scores_are_the_greedy_bots(size: int, bones: int) -> None:
    rng = random.Random(size * 10 + bones)
    for start in live_positions(size, bones, 6, seed=rng.randrange(1000)):
        state = duel(size, bones, start)
        mover = state.player
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            red, white = child.occupied
            ours = oyno_duel.greedy_scores(
                size,
                bones,
                np.array([red], dtype=np.int64),
                np.array([white], dtype=np.int64),
                np.array([child.up], dtype=np.int64),
                mover,
            )[0]
            assert ours == action_value(child, mover)


def test_where_perfect_play_beats_greedy_for_sure_it_does() -> None:
    solution = solved(3, 2, restrict=1)
    rng = random.Random(3)
    played = 0
    for (red_count, white_count), layer in sorted(solution.layers.items()):
        if red_count + white_count < 2:
            continue
        rows = np.flatnonzero((layer.chance[1] == 1.0) & ~solution._finished(layer))
        for row in rng.sample(list(rows), min(3, rows.size)):
            red, white, up = (int(m[row]) for m in (layer.red_mask, layer.white_mask, layer.up))
            symbols = {}
            for cell in range(9):
                if (red | white) >> cell & 1:
                    symbols[cell] = ("R" if red >> cell & 1 else "W").lower()
                    if up >> cell & 1:
                        symbols[cell] = symbols[cell].upper()
            state = duel(3, 2, format_position(3, symbols) + " w")
            greedy = make_bot("greedy", state.game, 1, seed=int(row))
            while not state.is_terminal():
                if state.player == 0:
                    state.apply_action(rng.choice(solution.best_actions(state)))
                else:
                    state.apply_action(greedy.step(state))
            assert state.winner == 0
            played += 1
    assert played >= 6


def test_greedy_holds_the_smallest_duels() -> None:
    # the finding of docs/ai.md on the smallest board: perfect play cannot beat greedy at all
    for greedy_seat in (0, 1):
        solution = solved(3, 2, restrict=greedy_seat)
        assert solution.value(0, 0, 0, 0)[0] == DRAW
        assert solution.win_chance(0, 0, 0, 0) == 0.0
    assert solved(3, 2).value(0, 0, 0, 0) == (DRAW, 0)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="at most 25 cells"):
        oyno_duel.solve(7, 2)
    with pytest.raises(ValueError, match="does not fit"):
        oyno_duel.solve(3, 4)
    with pytest.raises(ValueError, match="restrict"):
        oyno_duel.solve(3, 2, restrict=2)


def test_the_solver_registry_answers_small_duels_only() -> None:
    from boneyard import solvers

    state = duel(3, 3, "RR./.o./... r")  # red wins by placing its last bone away from its own
    action = solvers.best_action(state)
    assert action is not None
    state.apply_action(action)
    assert state.winner == 0
    assert solvers.best_action(boneyard.load_game("oyno").new_initial_state()) is None
    wild = boneyard.load_game("oyno", size=3, bones_per_player=2, wild=True).new_initial_state()
    assert solvers.best_action(wild) is None
    assert oyno_duel.position_count(5, 2) > oyno_duel.PLAY_LIMIT >= oyno_duel.position_count(3, 3)


def test_the_solver_never_loses_a_drawn_start_to_random_play_and_wins_some() -> None:
    # red (solver) against random on 3x3 with two bones: the start is a draw, so red never loses
    rng = random.Random(5)
    results = []
    for seed in range(6):
        state = duel(3, 2)
        while not state.is_terminal() and state.moves < 200:
            if state.player == 0:
                action = oyno_duel.best_action(state)
                assert action is not None
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        results.append(state.winner)
        assert state.winner != 1, seed
    assert 0 in results


# ----- the two readings of the place rule, from the start (docs/rules/oyno.md) ---------------


@pytest.mark.parametrize(("bones", "plies"), [(2, 3), (3, 7)])
def test_under_the_supply_reading_red_wins_the_small_duels(bones: int, plies: int) -> None:
    # the solver's claim, checked by plain minimax over the rules engine
    solution = solved(3, bones, place_rule="supply")
    assert solution.value(0, 0, 0, 0) == (WIN, plies)
    state = duel(3, bones, place_rule="supply")
    assert minimax(state, plies) == WIN
    assert minimax(state, plies - 2) == DRAW  # not sooner


def test_under_the_all_up_reading_the_small_duels_are_drawn() -> None:
    assert solved(3, 2).value(0, 0, 0, 0) == (DRAW, 0)
    assert solved(3, 3).value(0, 0, 0, 0) == (DRAW, 0)
    assert minimax(duel(3, 2), 9) == DRAW


@pytest.mark.parametrize("greedy_seat", [0, 1])
def test_under_the_supply_reading_perfect_play_beats_the_greedy_bot(greedy_seat: int) -> None:
    # 3x3 with three bones: a sure win against every tie-break of greedy, from either seat;
    # played out against the real bot through the rules (repetition and all)
    solution = solved(3, 3, restrict=greedy_seat, place_rule="supply")
    perfect = 1 - greedy_seat
    assert solution.win_chance(0, 0, 0, 0) == 1.0
    for seed in range(3):
        state = duel(3, 3, place_rule="supply")
        greedy = make_bot("greedy", state.game, greedy_seat, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() == perfect:
                state.apply_action(rng.choice(solution.best_actions(state)))
            else:
                state.apply_action(greedy.step(state))
        assert state.winner == perfect


def test_a_solution_refuses_a_state_of_the_other_reading() -> None:
    with pytest.raises(ValueError, match="not a position of this duel"):
        solved(3, 2).action_values(duel(3, 2, place_rule="supply"))
    with pytest.raises(ValueError, match="place_rule"):
        oyno_duel.solve(3, 2, place_rule="sometimes")
