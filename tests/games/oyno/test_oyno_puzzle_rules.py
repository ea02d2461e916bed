"""Every rule of the OYNO puzzle (RULINGS.md, "OYNO puzzle")."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import boneyard
from boneyard import CHANCE, TERMINAL, IllegalActionError, InvalidParameterError
from boneyard.games.oyno.generator import ticket_setup
from boneyard.games.oyno.search import solve_masks


def puzzle(start: str, **params: object) -> boneyard.State:
    return boneyard.load_game("oyno_puzzle", start=start, **params).new_initial_state()


def play(state: boneyard.State, *moves: str) -> None:
    for move in moves:
        state.apply_action(state.string_to_action(move))


def position(state: boneyard.State) -> str:
    return str(state.observation(0)["position"])


def test_move_reverses_neighbours_of_both_cells_and_puts_the_bone_up() -> None:
    # a1 (up) goes to e5. Beside a1: a2 (down -> up), b1 (up -> down).
    # Beside e5: d5 (up -> down), e4 (down -> up). Far away bones stay.
    state = puzzle("...U./D...D/..o../D...U/UU..U")
    play(state, "a1-e5")
    assert position(state) == "...DU/D...U/..o../U...U/.D..U"


def test_moved_bone_goes_up_and_leaves_its_cell_empty() -> None:
    state = puzzle("...../...../..o../...../U...D")
    play(state, "a1-c5")
    assert position(state) == "..U../...../..o../...../....D"


def test_bone_beside_both_cells_is_reversed_twice() -> None:
    # b1 -> a2: a1 and b2 touch both cells and come back to their side; c1 touches b1 only and
    # a3 touches a2 only, so those two turn.
    state = puzzle("...../...../D.o../.D.../DUD..")
    play(state, "b1-a2")
    assert position(state) == "...../...../U.o../UD.../D.U.."


def test_the_cell_left_is_empty_when_the_bone_lands_beside_it() -> None:
    # a1 -> b1: the bone is not reversed by its own landing (a1 is empty by then), and b1 is
    # empty when a1's neighbours are reversed, so only a2 (beside a1) and c1 (beside b1) turn.
    state = puzzle("...../...../..o../D..../U.D..")
    play(state, "a1-b1")
    assert position(state) == "...../...../..o../U..../.UU.."


def test_only_up_bones_may_be_taken() -> None:
    state = puzzle("...../...../..o../...../U...D")
    with pytest.raises(IllegalActionError, match="only up bones may be taken"):
        play(state, "e1-e2")


def test_the_target_must_be_an_empty_resting_cell_other_than_the_start() -> None:
    state = puzzle("...../...../..o../...../U...D")
    with pytest.raises(IllegalActionError, match="not empty"):
        play(state, "a1-e1")
    with pytest.raises(IllegalActionError, match="another cell"):
        play(state, "a1-a1")
    with pytest.raises(boneyard.InvalidActionStringError, match="center"):
        state.string_to_action("a1-c3")


def test_legal_moves_are_every_up_bone_to_every_empty_cell() -> None:
    state = puzzle("U.D/.o./...")
    strings = {state.action_to_string(a) for a in state.legal_actions()}
    assert strings == {"a3-b3", "a3-a2", "a3-c2", "a3-a1", "a3-b1", "a3-c1"}


def test_solved_puzzle_returns_one_and_ends() -> None:
    state = puzzle("U.D/.o./...")
    play(state, "a3-b3")  # b3 lands beside c3: reversed up
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0]
    assert state.observation(0)["solved"] is True


def test_start_with_every_bone_up_is_already_solved() -> None:
    state = puzzle("U.U/.o./...")
    assert state.is_terminal()
    assert state.returns() == [1.0]


def test_max_moves_ends_an_unsolved_puzzle_with_zero() -> None:
    state = puzzle("U.D/.o./...", max_moves=2)
    play(state, "a3-a1", "a1-a3")
    assert state.is_terminal()
    assert state.returns() == [0.0]


def test_start_sets_the_board_size() -> None:
    game = boneyard.load_game("oyno_puzzle", start="U.D/.o./...")
    assert game.params["size"] == 3


@pytest.mark.parametrize(
    ("start", "fragment"),
    [
        ("U.D/.o./..", "rank 1 ('..') has 2 cells"),
        ("U.D/.x./...", "cell b2 is the center"),
        ("U.D/.o./..Z", "rank 1, cell c1: 'Z' is not one of U, D, ., o"),
        ("D.D/.o./...", "at least one up bone"),
        ("UUU/UoU/UUU", "1 to 7 bones"),
    ],
)
def test_bad_start_is_a_value_error_naming_the_fault(start: str, fragment: str) -> None:
    with pytest.raises(InvalidParameterError) as error:
        boneyard.load_game("oyno_puzzle", start=start)
    assert fragment in str(error.value)


def test_start_and_size_must_agree() -> None:
    with pytest.raises(InvalidParameterError, match="3x3 board but size is 5"):
        boneyard.load_game("oyno_puzzle", start="U.D/.o./...", size=5)


@pytest.mark.parametrize(("size", "bones"), [(4, 3), (3, 8), (3, 0), (1, 1)])
def test_bad_size_or_bones(size: int, bones: int) -> None:
    with pytest.raises(InvalidParameterError):
        boneyard.load_game("oyno_puzzle", size=size, bones=bones)


# ----- the random set-up ------------------------------------------------------------------------


def deal_distribution(game: boneyard.Game) -> dict[str, Fraction]:
    """Exact probability of every set-up the deal can produce (3x3 boards)."""
    result: dict[str, Fraction] = {}

    def walk(state: boneyard.State, p: Fraction) -> None:
        if not state.is_chance_node():
            key = position(state)
            result[key] = result.get(key, Fraction(0)) + p
            return
        outcomes = state.chance_outcomes()
        assert all(q > 0 for _, q in outcomes)
        assert sum(q for _, q in outcomes) == pytest.approx(1.0)
        for action, q in outcomes:
            child = state.clone()
            child.apply_action(action)
            walk(child, p * Fraction(q).limit_denominator(10_000))

    walk(game.new_initial_state(), Fraction(1))
    return result


@pytest.mark.parametrize("bones", [2, 3])
def test_deal_is_uniform_over_legal_setups(bones: int) -> None:
    game = boneyard.load_game("oyno_puzzle", size=3, bones=bones)
    distribution = deal_distribution(game)
    cells = 8
    sides = 2**bones - 2  # at least one up and one down
    legal = len(list(itertools.combinations(range(cells), bones))) * sides
    assert len(distribution) == legal
    assert set(distribution.values()) == {Fraction(1, legal)}
    for setup in distribution:
        assert "U" in setup and "D" in setup


def test_single_bone_is_dealt_up() -> None:
    game = boneyard.load_game("oyno_puzzle", size=3, bones=1)
    distribution = deal_distribution(game)
    assert len(distribution) == 8
    assert all("U" in setup and "D" not in setup for setup in distribution)
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("bone a1"))
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == ["up"]


def test_deal_goes_cell_then_side_and_never_onto_the_center() -> None:
    game = boneyard.load_game("oyno_puzzle")
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    cells = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
    assert len(cells) == 24 and "bone c3" not in cells
    state.apply_action(state.string_to_action("bone b2"))
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == ["down", "up"]
    state.apply_action(state.string_to_action("up"))
    cells = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
    assert "bone b2" not in cells and len(cells) == 23


def test_last_bone_must_be_down_when_all_others_are_up() -> None:
    game = boneyard.load_game("oyno_puzzle", size=3, bones=2)
    state = game.new_initial_state()
    play(state, "bone a1", "up", "bone c1")
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == ["down"]


# ----- difficulty -------------------------------------------------------------------------------


def test_difficulty_chance_node_lists_1024_equal_tickets() -> None:
    game = boneyard.load_game("oyno_puzzle", size=3, bones=5, difficulty=2)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1024
    assert {p for _, p in outcomes} == {1 / 1024}
    assert state.action_to_string(17) == "puzzle 17"
    assert state.string_to_action("puzzle 17") == 17


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_difficulty_deals_setups_of_exactly_that_optimal_length(difficulty: int) -> None:
    game = boneyard.load_game("oyno_puzzle", size=3, bones=5, difficulty=difficulty)
    for ticket in (0, 1, 500, 1023):
        state = game.new_initial_state()
        state.apply_action(ticket)
        assert state.current_player() == 0
        observation = state.observation(0)
        assert observation["up"] not in (0, 5)
        occupied, up = ticket_setup(3, 5, difficulty, ticket)
        solution = solve_masks(3, occupied, up)
        assert solution is not None and len(solution) == difficulty


def test_difficulty_tickets_differ_and_never_change() -> None:
    setups = {ticket_setup(5, 8, 2, t) for t in range(6)}
    assert len(setups) > 1
    assert ticket_setup(5, 8, 2, 3) == ticket_setup(5, 8, 2, 3)


def test_default_board_difficulty_three() -> None:
    game = boneyard.load_game("oyno_puzzle", difficulty=3)
    state = game.new_initial_state()
    state.apply_action(7)
    occupied, up = ticket_setup(5, 8, 3, 7)
    assert len(solve_masks(5, occupied, up) or []) == 3
    assert state.observation(0)["bones"] == 8


def test_difficulty_beyond_gods_number_is_refused() -> None:
    with pytest.raises(InvalidParameterError, match="at most 6 moves"):
        boneyard.load_game("oyno_puzzle", difficulty=7)


def test_too_rare_unlisted_difficulty_is_refused() -> None:
    with pytest.raises(InvalidParameterError, match="too rare to deal"):
        boneyard.load_game("oyno_puzzle", bones=9, difficulty=6)


def test_difficulty_excludes_start_and_single_bones() -> None:
    with pytest.raises(InvalidParameterError, match="exclude each other"):
        boneyard.load_game("oyno_puzzle", start="U.D/.o./...", difficulty=1)
    with pytest.raises(InvalidParameterError, match="at least 2 bones"):
        boneyard.load_game("oyno_puzzle", bones=1, difficulty=1)


# ----- notation, views, heuristics ---------------------------------------------------------------


def test_action_ids_are_from_times_cells_plus_to() -> None:
    state = puzzle("U...D/.D.../..o../...U./D...U")
    action = state.string_to_action("a5-b3")
    assert action == 20 * 25 + 11
    assert state.action_to_string(action) == "a5-b3"


def test_bad_action_strings_explain() -> None:
    state = puzzle("U...D/.D.../..o../...U./D...U")
    with pytest.raises(boneyard.InvalidActionStringError, match="b2-d4"):
        state.string_to_action("a5 b3")
    with pytest.raises(boneyard.InvalidActionStringError, match="a1 to e5"):
        state.string_to_action("a5-f3")


def test_evaluate_is_the_fraction_of_up_bones_below_solved() -> None:
    game = boneyard.load_game("oyno_puzzle", start="U...D/.D.../..o../...U./D...U")
    state = game.new_initial_state()
    assert game.evaluate(state, 0) == pytest.approx(0.9 * 3 / 6)
    solved = boneyard.load_game("oyno_puzzle", start="U.U/.o./...")
    assert solved.evaluate(solved.new_initial_state(), 0) == 1.0


def test_observation_tensor_has_the_declared_shape() -> None:
    game = boneyard.load_game("oyno_puzzle", start="U...D/.D.../..o../...U./D...U")
    tensor = game.observation_tensor(game.new_initial_state().observation(0))
    assert len(tensor) == 3 * 25 == 3 * 5 * 5
    assert sum(tensor[:25]) == 3 and sum(tensor[25:50]) == 3 and sum(tensor[50:]) == 18


def test_colex_unrank_inverts_the_analysis_ranking() -> None:
    from boneyard.games.oyno.generator import colex_unrank
    from boneyard.solvers.oyno_analysis import subsets

    rows = subsets(24, 4)
    for rank in (0, 1, 2, 500, len(rows) - 1):
        assert colex_unrank(rank, 4) == rows[rank].tolist()


def test_rare_difficulties_come_from_the_complete_lists() -> None:
    from boneyard.games.oyno.generator import decode_position, rare_setups

    listed = rare_setups(5, 3, 7)
    assert listed is not None and len(listed) == 36  # all 36 three-bone set-ups needing 7 moves
    for index in listed[:6].tolist():
        occupied, up = decode_position(5, 3, index)
        assert len(solve_masks(5, occupied, up) or []) == 7
    assert rare_setups(5, 8, 2) is None  # common difficulties are found by rejection sampling


def test_hardest_default_puzzle_can_be_dealt() -> None:
    game = boneyard.load_game("oyno_puzzle", difficulty=6)
    state = game.new_initial_state()
    state.apply_action(0)
    occupied, up = ticket_setup(5, 8, 6, 0)
    assert state.observation(0)["position"].count("U") == bin(up).count("1")
    assert len(solve_masks(5, occupied, up) or []) == 6


def test_every_rare_list_holds_set_ups_of_its_length() -> None:
    import random

    from boneyard.games.oyno.generator import _rare_lists, decode_position

    lists = _rare_lists(5)
    assert set(lists) >= {"b3_k7", "b8_k5", "b8_k6"}
    rng = random.Random(3)
    for key, indices in lists.items():
        bones, length = (int(part[1:]) for part in key.split("_"))
        for index in rng.sample(indices.tolist(), 2):
            occupied, up = decode_position(5, bones, index)
            assert bin(occupied).count("1") == bones and 0 < up != occupied
            assert len(solve_masks(5, occupied, up) or []) == length, key
