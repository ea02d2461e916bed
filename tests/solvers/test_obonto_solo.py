"""The Obonto solo-phase solver against plain exhaustive search, and its line and interface."""

from __future__ import annotations

import random

import pytest
from tests.games.obonto.helpers import all_but, state_at

import boneyard
from boneyard.games.obonto.rules import ObontoState
from boneyard.solvers import obonto_solo

FULL = (1 << 81) - 1


def brute_force(state: boneyard.State) -> int:
    """The most solo moves left, by trying every sequence through the public API (no memo)."""
    assert isinstance(state, ObontoState)
    if state.phase() != "solo":
        return 0
    best = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        best = max(best, 1 + brute_force(child))
    return best


def reachable_bound(state: ObontoState) -> int:
    winner = state.solo_winner()
    assert winner is not None
    squares = state.animal_squares()
    obstacles = 0
    for square in squares[3 - 3 * winner : 6 - 3 * winner]:
        obstacles |= 1 << square
    return obonto_solo.upper_bound(
        FULL & ~state.dark_mask(), squares[3 * winner : 3 * winner + 3], obstacles
    )


def small_endgames(count: int, max_bound: int, seed: int) -> list[ObontoState]:
    """Solo-phase states of random games, played on at random until little room is left."""
    game = boneyard.load_game("obonto")
    rng = random.Random(seed)
    found: list[ObontoState] = []
    while len(found) < count:
        state = game.new_initial_state()
        assert isinstance(state, ObontoState)
        while state.phase() == "play":
            state.apply_action(rng.choice(state.legal_actions()))
        while state.phase() == "solo" and reachable_bound(state) > max_bound:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.phase() == "solo":
            found.append(state)
    return found


ENDGAMES = small_endgames(40, max_bound=13, seed=2026)


def check_line(state: ObontoState, solution: obonto_solo.SoloSolution) -> None:
    """The line is legal, ends the solo phase, and scores what the solver says."""
    winner = state.solo_winner()
    assert winner is not None
    before = state.solo_moves()
    replay = state.clone()
    for action in solution.line:
        assert replay.current_player() == winner
        replay.apply_action(action)
    assert replay.is_terminal()
    assert replay.returns()[winner] == 1 + before + solution.moves


@pytest.mark.parametrize("number", range(len(ENDGAMES)))
def test_solver_matches_brute_force_on_small_endgames(number: int) -> None:
    state = ENDGAMES[number]
    obonto_solo.clear_memo()
    solution = obonto_solo.solve(state)
    assert solution is not None and solution.exact
    assert solution.moves == brute_force(state)
    assert solution.moves == len(solution.line)
    check_line(state, solution)


def test_the_endgame_set_is_not_trivial() -> None:
    values = [brute_force(state) for state in ENDGAMES[:20]]
    assert max(values) >= 6 and len(set(values)) >= 4


# Hand-built solo positions: seat 1 (to move) is boxed in, seat 0 moves alone.
HAND_BUILT = [
    # A lion in a corridor of four squares: three moves.
    ("e5,a1,i1,a9,i9,c9", "e5 e6 e7 e8 a1 i1 a9 i9 c9", 3),
    # Lion and camel in two separate regions: the counts add up (lion 2, camel h3-h6 only).
    ("e5,a1,h3,a9,i9,e9", "e5 e6 e7 a1 h3 h4 h5 h6 h7 a9 i9 e9", 2 + 1),
    # The zebra jumps over the loser's camel on e6 (it may not land on it): one move.
    ("a1,e5,i1,a9,i9,e6", "a1 i1 a9 i9 e4 e5 e6 e7 e8", 1),
    # Three animals sharing one small room.
    ("b2,c2,d2,a9,i9,e9", "a1 b1 c1 d1 a2 b2 c2 d2 a3 b3 d3 a9 i9 e9", None),
    ("b2,c2,d2,a9,i9,e9", "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 d3 e3 a9 i9 e9", None),
]


@pytest.mark.parametrize(("animals", "light", "expected"), HAND_BUILT)
def test_solver_on_hand_built_positions(animals: str, light: str, expected: int | None) -> None:
    state = state_at(animals, dark=all_but(*light.split()), to_move=1)
    assert state.phase() == "solo" and state.solo_winner() == 0
    obonto_solo.clear_memo()
    solution = obonto_solo.solve(state)
    assert solution is not None and solution.exact
    assert solution.moves == brute_force(state)
    if expected is not None:
        assert solution.moves == expected
    check_line(state, solution)


def test_solve_board_takes_a_bare_position() -> None:
    index = {name: number for number, name in enumerate(boneyard.games.obonto.notation.NAMES)}
    light = ("e5", "e6", "e7", "e8", "a1", "i1", "a9", "i9", "e9")
    dark = FULL
    for name in light:
        dark &= ~(1 << index[name])
    solution = obonto_solo.solve_board(
        dark, [index["e5"], index["a1"], index["i1"]], [index["a9"], index["i9"], index["e9"]]
    )
    assert solution.moves == 3 and solution.exact
    assert [boneyard.games.obonto.notation.action_to_string(a) for a in solution.line] == [
        "e5-e6",
        "e6-e7",
        "e7-e8",
    ]


def test_best_action_is_none_outside_the_solo_phase() -> None:
    state = boneyard.load_game("obonto").new_initial_state()
    assert obonto_solo.best_action(state) is None
    assert obonto_solo.solve(state) is None


def test_best_action_starts_a_best_line() -> None:
    for state in ENDGAMES[:10]:
        best = brute_force(state)
        action = obonto_solo.best_action(state)
        assert action is not None and action in state.legal_actions()
        child = state.clone()
        child.apply_action(action)
        assert 1 + brute_force(child) == best


def test_the_solver_registry_finds_it() -> None:
    from boneyard import solvers

    state = ENDGAMES[0]
    assert solvers.best_action(state) == obonto_solo.best_action(state)


def test_a_node_limit_gives_a_legal_line_marked_inexact() -> None:
    state = max(ENDGAMES, key=brute_force)
    obonto_solo.clear_memo()
    solution = obonto_solo.solve(state, node_limit=1)
    assert solution is not None and not solution.exact
    assert 1 <= solution.moves <= brute_force(state)
    check_line(state, solution)


def test_values_kept_from_earlier_solves_stay_exact() -> None:
    obonto_solo.clear_memo()
    for state in ENDGAMES[:10]:
        first = obonto_solo.solve(state)
        assert first is not None and first.line  # the solo phase always has a move
        child = state.clone()
        child.apply_action(first.line[0])
        if child.phase() == "solo":
            again = obonto_solo.solve(child)
            assert again is not None and again.exact
            assert again.moves == first.moves - 1 == brute_force(child)


def _region_squares(region: int) -> list[int]:
    return [square for square in range(81) if region >> square & 1]


def test_local_split_test_never_misses_a_split() -> None:
    rng = random.Random(9)
    for _ in range(400):
        light = 0
        for square in range(81):
            if rng.random() < 0.6:
                light |= 1 << square
        squares = _region_squares(light)
        if not squares:
            continue
        start = rng.choice(squares)
        region = obonto_solo.flood(1 << start, light)
        for removed in _region_squares(region):
            rest = region & ~(1 << removed)
            pattern = 0
            for bit, neighbour in obonto_solo.RINGS[removed]:
                if rest >> neighbour & 1:
                    pattern |= bit
            if obonto_solo.LOCALLY_CONNECTED[pattern] and rest:
                seed = _region_squares(rest)[0]
                assert obonto_solo.flood(1 << seed, rest) == rest


def _mask(*names: str) -> int:
    mask = 0
    for name in names:
        mask |= 1 << boneyard.games.obonto.notation.square_index(name)
    return mask


def test_lone_animal_bounds() -> None:
    search = obonto_solo._Search(obstacles=0)
    square = boneyard.games.obonto.notation.square_index
    room = _mask("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    # A zebra lands only on its own colour: a1, c1, a3, c3 share b2's.
    assert search.bound(room, (-1, square("b2"), -1)) == 4
    # A lion alternates colours; in the open 3x3 room it can visit all eight other squares.
    assert search.bound(room, (square("b2"), -1, -1)) == 8
    # A lone lion ends its path in at most one of the dead ends of a T.
    tee = _mask("e5", "e4", "e3", "d5", "c5", "f5", "g5")
    assert search.bound(tee, (square("e5"), -1, -1)) == 6 - (3 - 1)
    # With two animals the bound is the empty squares.
    assert search.bound(room, (square("a1"), square("c3"), -1)) == 7


@pytest.mark.parametrize("seed", range(6))
def test_bounds_never_undercut_the_true_value(seed: int) -> None:
    for state in small_endgames(3, max_bound=11, seed=100 + seed):
        winner = state.solo_winner()
        assert winner is not None
        squares = state.animal_squares()
        obstacles = 0
        for other in squares[3 - 3 * winner : 6 - 3 * winner]:
            obstacles |= 1 << other
        search = obonto_solo._Search(obstacles)
        mine = squares[3 * winner : 3 * winner + 3]
        animals = (mine[0], mine[1], mine[2])
        light = FULL & ~state.dark_mask()
        bound = sum(search.bound(part, members) for part, members in search.groups(light, animals))
        assert bound >= brute_force(state)


@pytest.mark.parametrize(
    ("winner", "obstacles", "dark"),
    [
        ([0, 1], [80], 0),
        ([0, 1, 81], [80], 0),
        ([0, 1, 2], [2], 0),
        ([0, 1, 2], [80], 1),
    ],
)
def test_solve_board_refuses_impossible_boards(
    winner: list[int], obstacles: list[int], dark: int
) -> None:
    with pytest.raises(ValueError, match="solve_board"):
        obonto_solo.solve_board(dark, winner, obstacles)
