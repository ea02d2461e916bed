"""Obonto rules: one test per rule of RULINGS.md and the rule text, plus hand-built scenarios."""

from __future__ import annotations

import random

import pytest
from tests.games.obonto.helpers import all_but, moves, moves_from, state_at

import boneyard
from boneyard import IllegalActionError, InvalidParameterError
from boneyard.games.obonto import notation
from boneyard.games.obonto.rules import MAX_MOVES_PER_GAME, ObontoState


def new_state(**params: object) -> ObontoState:
    state = boneyard.load_game("obonto", **params).new_initial_state()
    assert isinstance(state, ObontoState)
    return state


def play(state: boneyard.State, *moves_text: str) -> None:
    for text in moves_text:
        state.apply_action(state.string_to_action(text))


# ----- set-up -----------------------------------------------------------------------------------


def test_start_darkens_the_third_and_seventh_squares_of_both_diagonals() -> None:
    observation = new_state().observation(None)
    assert observation["dark"] == ["c3", "g3", "c7", "g7"]


def test_start_places_lion_zebra_camel_left_to_right_from_each_seat() -> None:
    observation = new_state().observation(None)
    assert observation["animals"] == [
        {"lion": "d1", "zebra": "e1", "camel": "f1"},
        {"lion": "f9", "zebra": "e9", "camel": "d9"},
    ]


def test_seat_0_moves_first_and_parameter_first_changes_it() -> None:
    assert new_state().current_player() == 0
    assert new_state(first=1).current_player() == 1


# ----- moving ---------------------------------------------------------------------------------


def test_lion_moves_exactly_one_step() -> None:
    assert moves_from(new_state(), "d1") == {"d1-c1", "d1-d2"}


def test_zebra_moves_exactly_two_steps_turning_and_passing_over_own_animals() -> None:
    assert moves_from(new_state(), "e1") == {"e1-c1", "e1-g1", "e1-d2", "e1-f2", "e1-e3"}


def test_camel_moves_exactly_three_steps_and_never_onto_a_dark_square() -> None:
    # g3 is three steps from f1 but dark; e1 is one step away (around a corner) but taken.
    expected = {"f1-c1", "f1-i1", "f1-g1", "f1-f2", "f1-d2", "f1-e3", "f1-f4", "f1-h2"}
    assert moves_from(new_state(), "f1") == expected


def test_camel_on_an_open_board_reaches_every_square_three_or_one_step_away() -> None:
    state = state_at("a1,b1,e5,a9,b9,c9", dark=())
    file, rank = 4, 4
    expected = set()
    for df in range(-3, 4):
        for dr in range(-3, 4):
            if abs(df) + abs(dr) in (1, 3) and 0 <= file + df < 9 and 0 <= rank + dr < 9:
                expected.add("e5-" + notation.NAMES[(rank + dr) * 9 + file + df])
    assert moves_from(state, "e5") == expected


def test_camel_turning_two_corners() -> None:
    # e5 to g6: the paths over g5 and over e6 are dark; only e5-f5-f6-g6 (two turns) is left.
    state = state_at("a1,b1,e5,a9,b9,c9", dark=("e6", "g5"))
    assert "e5-g6" in moves(state)
    blocked = state_at("a1,b1,e5,a9,b9,c9", dark=("e6", "g5", "f6"))
    assert "e5-g6" not in moves(blocked)


def test_a_move_is_blocked_by_a_dark_square_mid_path() -> None:
    open_board = state_at("a1,b1,e5,a9,b9,c9", dark=())
    assert "e5-e8" in moves(open_board)
    state = state_at("a1,b1,e5,a9,b9,c9", dark=("e7",))
    assert "e5-e8" not in moves(state)
    with pytest.raises(IllegalActionError, match="dark"):
        play(state, "e5-e8")


def test_zebra_blocked_by_a_dark_square_between() -> None:
    state = state_at(dark=(*notation.START_DARK, "e2", "d2", "f2"))
    assert "e1-e3" not in moves(state)
    assert moves_from(state, "e1") == {"e1-c1", "e1-g1"}


def test_a_path_never_visits_a_square_twice() -> None:
    # The camel's only way to e6 would be e5-e6-e7-e6 once the detours over d5/f5 are dark.
    state = state_at("a1,b1,e5,a9,b9,c9", dark=("d5", "f5"))
    assert "e5-e6" not in moves(state)
    assert "e5-e6" in moves(state_at("a1,b1,e5,a9,b9,c9", dark=("d5",)))
    # A zebra may not come back to its own square.
    zebra = state_at("a1,e5,i1,a9,b9,c9", dark=())
    with pytest.raises(IllegalActionError):
        play(zebra, "e5-e5")


def test_animals_may_be_passed_over_whoever_owns_them() -> None:
    state = state_at("d1,e1,f1,f9,e2,d9")  # seat 1's zebra stands on e2
    assert "e1-e3" in moves(state)


def test_lion_cannot_move_onto_an_animal() -> None:
    state = state_at("d1,e1,f1,f9,d2,d9")  # seat 1's zebra on d2, own zebra on e1
    assert moves_from(state, "d1") == {"d1-c1"}
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="taken"):
        play(state, "d1-d2")
    assert state.to_json() == before


def test_no_move_ends_on_an_animal() -> None:
    state = new_state()
    rng = random.Random(4)
    while not state.is_terminal():
        occupied = {
            square for seat in state.observation(None)["animals"] for square in seat.values()
        }
        assert all(move.split("-")[1] not in occupied for move in moves(state))
        state.apply_action(rng.choice(state.legal_actions()))


def test_all_paths_to_one_square_are_one_move() -> None:
    state = state_at("a1,b1,e5,a9,b9,c9", dark=())
    actions = state.legal_actions()
    assert len(actions) == len(set(actions)) == len(moves(state))
    assert moves(state).issuperset({"e5-e6", "e5-f7"})  # both reachable by several paths


def test_only_the_player_to_move_moves_own_animals() -> None:
    state = new_state()
    with pytest.raises(IllegalActionError, match="North's lion"):
        play(state, "f9-f8")


# ----- darkening --------------------------------------------------------------------------------


def test_the_square_left_turns_dark() -> None:
    state = new_state()
    play(state, "d1-d2")
    assert state.observation(None)["dark"] == ["d1", "c3", "g3", "c7", "g7"]


def test_squares_passed_over_or_landed_on_stay_light() -> None:
    state = new_state()
    play(state, "e1-c1")  # over d1
    dark = state.observation(None)["dark"]
    assert "e1" in dark and "d1" not in dark and "c1" not in dark
    assert len(dark) == 5


def test_after_a_move_the_other_player_moves() -> None:
    state = new_state()
    play(state, "d1-d2")
    assert state.current_player() == 1


# ----- stuck player, solo phase, scoring ------------------------------------------------------

# Seat 1's animals stand on isolated squares; seat 0's lion has e4 and e3 ahead of it.
BOXED = dict(
    animals="e5,a1,i1,a9,i9,e9", dark=all_but("e5", "e4", "e3", "a1", "i1", "a9", "i9", "e9")
)


def test_a_player_with_no_move_has_lost_and_the_winner_moves_alone() -> None:
    state = state_at(**BOXED, to_move=1)  # type: ignore[arg-type]
    assert state.phase() == "solo"
    assert state.current_player() == 0
    assert state.observation(None)["loser"] == 1
    assert moves(state) == {"e5-e4"}


def test_solo_phase_scores_one_plus_the_solo_moves() -> None:
    state = state_at(**BOXED, to_move=1)  # type: ignore[arg-type]
    play(state, "e5-e4")
    assert state.current_player() == 0 and not state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    play(state, "e4-e3")
    assert state.is_terminal()
    assert state.returns() == [3.0, -3.0]
    assert state.observation(None)["results"] == [{"winner": 0, "score": 3}]


def test_the_move_that_leaves_the_opponent_stuck_scores_one() -> None:
    # Seat 1's lion on e7 can only go to e6; seat 0's lion takes e6 first.
    position = dict(
        animals="e5,a1,i1,e7,i9,a9", dark=all_but("e4", "e5", "e6", "e7", "a1", "i1", "a9", "i9")
    )
    state = state_at(**position)  # type: ignore[arg-type]
    assert moves(state) == {"e5-e4", "e5-e6"}
    play(state, "e5-e6")
    # Seat 1 is stuck; seat 0 is stuck as well (e5 turned dark), so the game ends at 1 point.
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    other = state_at(**position)  # type: ignore[arg-type]
    play(other, "e5-e4")
    assert other.current_player() == 1 and moves(other) == {"e7-e6"}


def test_a_player_stuck_before_any_move_loses_and_the_winner_still_scores_one() -> None:
    both_stuck = dict(animals="e5,a1,i1,a9,i9,e9", dark=all_but("e5", "a1", "i1", "a9", "i9", "e9"))
    state = state_at(**both_stuck, to_move=1)  # type: ignore[arg-type]
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]


def test_a_game_over_before_any_move_leads_straight_into_the_next_one() -> None:
    both_stuck = dict(animals="e5,a1,i1,a9,i9,e9", dark=all_but("e5", "a1", "i1", "a9", "i9", "e9"))
    state = state_at(**both_stuck, to_move=1, games=3)  # type: ignore[arg-type]
    observation = state.observation(None)
    assert observation["results"] == [{"winner": 0, "score": 1}]
    assert observation["game"] == 2 and state.current_player() == 1 == observation["first"]
    assert observation["dark"] == ["c3", "g3", "c7", "g7"]
    assert state.move_number() == 0


def test_every_game_ends_within_max_game_length() -> None:
    game = boneyard.load_game("obonto", games=3)
    assert game.info.max_game_length == 3 * MAX_MOVES_PER_GAME == 213
    rng = random.Random(8)
    for _ in range(20):
        state = game.new_initial_state()
        per_game = 0
        games_done = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            per_game += 1
            done = len(state.observation(None)["results"])
            if done != games_done:
                assert per_game <= MAX_MOVES_PER_GAME
                games_done, per_game = done, 0
        assert len(state.history()) <= game.info.max_game_length


# ----- matches ------------------------------------------------------------------------------------


def test_match_reset_keeps_the_animals_and_the_loser_starts() -> None:
    position = dict(
        animals="e5,a1,i1,e7,i9,a9", dark=all_but("e4", "e5", "e6", "e7", "a1", "i1", "a9", "i9")
    )
    state = state_at(**position, games=2)  # type: ignore[arg-type]
    play(state, "e5-e6")  # game 1 over: seat 0 wins 1 point
    observation = state.observation(None)
    assert not state.is_terminal()
    assert observation["game"] == 2
    assert observation["dark"] == ["c3", "g3", "c7", "g7"]
    assert observation["animals"] == [
        {"lion": "e6", "zebra": "a1", "camel": "i1"},
        {"lion": "e7", "zebra": "i9", "camel": "a9"},
    ]
    assert state.current_player() == 1 == observation["first"]
    assert observation["totals"] == [1, 0]


def test_match_of_random_games_resets_each_game_and_returns_the_totals_difference() -> None:
    game = boneyard.load_game("obonto", games=4)
    rng = random.Random(11)
    state = game.new_initial_state()
    results_seen = 0
    while not state.is_terminal():
        before = state.observation(None)
        state.apply_action(rng.choice(state.legal_actions()))
        after = state.observation(None)
        if len(after["results"]) > results_seen and not state.is_terminal():
            results_seen = len(after["results"])
            loser = 1 - after["results"][-1]["winner"]
            assert after["first"] == loser
            assert after["dark"] == ["c3", "g3", "c7", "g7"]
            moved_to = state.action_to_string(state.history()[-1]).split("-")[1]
            squares = {sq for seat in after["animals"] for sq in seat.values()}
            assert moved_to in squares
            assert before["game"] + 1 == after["game"]
    totals = state.observation(None)["totals"]
    assert len(state.observation(None)["results"]) == 4
    assert state.returns() == [totals[0] - totals[1], totals[1] - totals[0]]


def test_target_ends_the_match_once_a_total_reaches_it() -> None:
    game = boneyard.load_game("obonto", games=50, target=6)
    rng = random.Random(2)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        results = state.observation(None)["results"]
        totals = [0, 0]
        for number, result in enumerate(results):
            assert max(totals) < 6, "the match went on after a total reached the target"
            totals[result["winner"]] += result["score"]
            del number
        assert max(totals) >= 6 or len(results) == 50
        assert totals == state.observation(None)["totals"]


def test_target_zero_means_no_target() -> None:
    game = boneyard.load_game("obonto", games=3)
    assert game.params["target"] == 0
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.observation(None)["results"]) == 3


def test_start_parameter_places_the_animals() -> None:
    state = new_state(start="a2,b2,c2,a8 b8 c8")
    assert state.placement() == "a2,b2,c2,a8,b8,c8"
    assert state.observation(None)["animals"][1] == {"lion": "a8", "zebra": "b8", "camel": "c8"}


@pytest.mark.parametrize(
    ("start", "complaint"),
    [
        ("d1,e1,f1", "6 squares"),
        ("d1,e1,f1,f9,e9,z9", "'z9'"),
        ("d1,e1,f1,f9,e9,d10", "'d10'"),
        ("d1,d1,f1,f9,e9,d9", "both stand on d1"),
        ("c3,e1,f1,f9,e9,d9", "dark at the start"),
        ("", "6 squares"),
    ],
)
def test_bad_start_strings_are_refused_with_the_reason(start: str, complaint: str) -> None:
    with pytest.raises(InvalidParameterError, match="start") as error:
        boneyard.load_game("obonto", start=start)
    assert complaint in str(error.value)


@pytest.mark.parametrize(
    "params",
    [
        {"games": 0},
        {"games": 1001},
        {"games": "three"},
        {"target": -1},
        {"first": 2},
        {"first": True},
        {"start": 7},
        {"board": 9},
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(InvalidParameterError):
        boneyard.load_game("obonto", **params)


def test_parameters_arrive_as_text_too() -> None:
    game = boneyard.load_game("obonto", games="3", target="10", first="1")
    assert (game.params["games"], game.params["target"], game.params["first"]) == (3, 10, 1)


def test_sizes_and_utility_range() -> None:
    game = boneyard.load_game("obonto", games=2)
    assert game.info.num_distinct_actions == 81 * 81
    assert game.info.max_utility == -game.info.min_utility == 2 * (MAX_MOVES_PER_GAME + 1)
    capped = boneyard.load_game("obonto", games=100, target=20)
    assert capped.info.max_utility == 20 - 1 + MAX_MOVES_PER_GAME + 1


# ----- notation -----------------------------------------------------------------------------------


def test_action_id_is_from_index_times_81_plus_to_index() -> None:
    state = new_state()
    assert state.string_to_action("d1-d2") == 3 * 81 + 12
    assert state.string_to_action("a1-a2") == 9
    assert state.string_to_action("i9-a1") == 80 * 81
    for origin in range(81):
        for target in (0, 40, 80):
            action = origin * 81 + target
            text = state.action_to_string(action)
            assert text == f"{notation.NAMES[origin]}-{notation.NAMES[target]}"
            assert state.string_to_action(text) == action


@pytest.mark.parametrize("text", ["d1d2", "d1-", "z1-d2", "d1-d10", "d1 d2", "lion d2", ""])
def test_malformed_action_strings_are_refused(text: str) -> None:
    with pytest.raises(boneyard.InvalidActionStringError, match="a1 to i9"):
        new_state().string_to_action(text)


def test_action_strings_ignore_case_and_spaces() -> None:
    assert new_state().string_to_action("  D1-D2 ") == 255


def test_position_strings_round_trip_and_rebuild_the_state() -> None:
    state = new_state()
    play(state, "d1-d2", "f9-f8")
    text = state.position()
    assert text.endswith(" 0")
    again = boneyard.load_game("obonto").new_state_from_position(text)  # type: ignore[attr-defined]
    assert again.position() == text
    assert again.legal_actions() == state.legal_actions()


def test_state_from_a_position_survives_the_json_round_trip() -> None:
    state = state_at(**BOXED, to_move=1)  # type: ignore[arg-type]
    play(state, "e5-e4")
    game = state.game
    copy = game.state_from_json(state.to_json())
    assert copy.to_json() == state.to_json()
    assert str(copy) == str(state)


EMPTY_RANKS = "/".join(["........."] * 8)


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        (EMPTY_RANKS + "/...LZC...", "seat"),
        ("x" + EMPTY_RANKS[1:] + "/...LZC... 0", "'x'"),
        (EMPTY_RANKS + "/......... 0", "missing"),
        ("/".join(["........."] * 7) + "/...LZC... 0", "9 ranks"),
        ("....lzc..." + EMPTY_RANKS[9:] + "/...LZC... 0", "rank 9"),
        ("..Llzc..." + EMPTY_RANKS[9:] + "/...LZC... 0", "two lions"),
    ],
)
def test_bad_positions_are_refused(text: str, complaint: str) -> None:
    with pytest.raises(boneyard.InvalidPositionError, match=complaint):
        boneyard.load_game("obonto").new_state_from_position(text)  # type: ignore[attr-defined]


# ----- what the players see ---------------------------------------------------------------------


def test_observation_holds_board_turn_phase_and_scores() -> None:
    state = new_state(games=2)
    play(state, "d1-d2")
    observation = state.observation(1)
    assert observation["seat"] == 1
    assert observation["current_player"] == 1 == observation["to_move"]
    assert observation["phase"] == "play"
    assert observation["game"] == 1 and observation["games"] == 2
    assert observation["totals"] == [0, 0] and observation["results"] == []
    assert observation["last_move"] == "d1-d2"
    assert observation == {**state.observation(0), "seat": 1}


def test_str_draws_the_board_with_dark_squares_and_animals() -> None:
    state = new_state()
    play(state, "d1-d2")
    text = str(state)
    rank1 = next(line for line in text.splitlines() if line.startswith("1 "))
    assert rank1.split()[1:10] == [".", ".", ".", "#", "Z", "C", ".", ".", "."]
    assert "seat 1 to move" in text


def test_bad_position_documents_are_refused() -> None:
    state = state_at(**BOXED, to_move=1)  # type: ignore[arg-type]
    doc = state.to_json()
    game = state.game
    with pytest.raises(boneyard.InvalidStateError, match="position"):
        game.state_from_json({**doc, "position": "not a board"})
    with pytest.raises(boneyard.InvalidStateError, match="illegal"):
        game.state_from_json({**doc, "history": [0]})


def test_placement_resumes_a_match_where_it_stopped() -> None:
    state = new_state(games=2)
    rng = random.Random(21)
    while len(state.observation(None)["results"]) < 1:
        state.apply_action(rng.choice(state.legal_actions()))
    first = state.observation(None)["first"]
    resumed = new_state(start=state.placement(), first=first)
    assert resumed.observation(None)["animals"] == state.observation(None)["animals"]
    assert resumed.legal_actions() == state.legal_actions()
