"""The native alpha-beta (``native/engine/src/search/alphabeta.rs``) held to the Python one.

At a fixed depth both are exact searches of the same tree with the same leaf values, so the root
value must agree; the native heuristics (``games/<game>/heuristic.rs``) must equal the Python
``heuristic.py`` in every position of random games. Budgets and bad options are checked too; how
fast it is goes to ``benchmarks/native_alphabeta.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boneyard
from boneyard import native
from boneyard.ai import make_bot
from boneyard.ai.alphabeta import AlphaBetaBot
from boneyard.ai.native import NativeAlphaBetaBot
from boneyard.core.errors import InvalidParameterError, InvalidStateError
from boneyard.core.game import State
from boneyard.games.bones.heuristic import best_placements

from ..ai.cases import bones_cycle

TOLERANCE = 1e-9


def play_randomly(name: str, seed: int, moves: int, **params: Any) -> tuple[State, Any]:
    """The Python and native states after ``moves`` seeded random actions (fewer at the end)."""
    python_state = boneyard.load_game(name, **params).new_initial_state()
    native_state = native.load_game(name, **params).new_initial_state()
    rng = random.Random(seed)
    for _ in range(moves):
        if python_state.is_terminal():
            break
        if python_state.is_chance_node():
            outcomes = python_state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(python_state.legal_actions())
        python_state.apply_action(action)
        native_state.apply_action(action)
    return python_state, native_state


# ----- the heuristics ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "params", "games"),
    [
        ("obonto", {}, 6),
        ("obonto", {"games": 3}, 3),
        ("oyno", {}, 20),
        ("oyno", {"wild": True}, 15),
    ],
)
def test_the_native_heuristic_is_the_python_one_in_random_games(
    name: str, params: dict[str, Any], games: int
) -> None:
    python_game = boneyard.load_game(name, **params)
    compared = 0
    for seed in range(games):
        python_state, native_state = play_randomly(name, seed, 0, **params)
        rng = random.Random(seed)
        while True:
            for seat in range(python_game.num_players()):
                expected = python_game.evaluate(python_state, seat)
                assert native_state.heuristic(seat) == pytest.approx(expected, abs=TOLERANCE), (
                    python_state.history(),
                    seat,
                )
                compared += 1
            if python_state.is_terminal():
                break
            if python_state.is_chance_node():
                action = rng.choice([o for o, _ in python_state.chance_outcomes()])
            else:
                action = rng.choice(python_state.legal_actions())
            python_state.apply_action(action)
            native_state.apply_action(action)
    assert compared > 100


def test_the_native_bones_heuristic_is_the_python_one_through_threats() -> None:
    """Half the moves greedy (the heuristic's best placements), so lines, immediate wins and
    threats (blockable and not) come up, not only the scattered boards of random play."""
    game = boneyard.load_game("bones")
    kinds: set[str] = set()
    for seed in range(8):
        python_state, native_state = play_randomly("bones", seed, 0)
        rng = random.Random(seed)
        while not python_state.is_terminal():
            for seat in (0, 1):
                expected = game.evaluate(python_state, seat)
                assert native_state.heuristic(seat) == pytest.approx(expected, abs=TOLERANCE)
                kinds.add(
                    {0.95: "win soon", 0.9: "unstoppable"}.get(round(abs(expected), 12), "other")
                )
            legal = python_state.legal_actions()
            action = rng.choice(best_placements(python_state) if rng.random() < 0.5 else legal)
            python_state.apply_action(action)
            native_state.apply_action(action)
    assert kinds == {"win soon", "unstoppable", "other"}


def test_a_bad_seat_for_the_heuristic_is_refused() -> None:
    state = native.load_game("obonto").new_initial_state()
    with pytest.raises(ValueError, match="bad seat 2 for obonto: seats are 0 to 1"):
        state.heuristic(2)


# ----- fixed depths against the Python bot ---------------------------------------------------


def python_root(state: State, depth: int, seed: int) -> tuple[float, set[int], int]:
    """The Python bot's root value at ``depth``, the moves it scores within the tolerance of it
    (a move searched after the best is only bounded: its score may tie the best while its true
    value is lower), and the move it chooses."""
    bot = AlphaBetaBot(
        state.game, state.current_player(), seed=seed, use_solver=False, max_depth=depth
    )
    last: dict[int, float] = {}
    search_root = bot._root_scores

    def recorded(root: State, order: list[int], depth: int, scores: dict[int, float]) -> Any:
        found = search_root(root, order, depth, scores)
        last.clear()
        last.update(found)
        return found

    bot._root_scores = recorded  # type: ignore[method-assign]
    chosen = bot._choose(state)
    top = max(last.values())
    return top, {a for a, v in last.items() if v >= top - TOLERANCE}, chosen


def native_search(state: Any, options: dict[str, Any], seed: int = 0, **budget: Any) -> Any:
    return state.search(
        "alphabeta",
        json.dumps(options),
        budget.get("time_limit_ms"),
        budget.get("iterations"),
        seed,
    )


def native_root(state: Any, depth: int) -> tuple[float, set[int]]:
    """The native root value at ``depth`` and the moves whose own value (each searched alone,
    ``moves: [a]``) is that value: the truly best moves."""
    seat = state.current_player()
    top = native_search(state, {"depth": depth})["values"][seat]
    best = set()
    for action in state.legal_actions():
        alone = native_search(state, {"depth": depth, "moves": [action]})["values"][seat]
        assert alone <= top + TOLERANCE
        if alone >= top - TOLERANCE:
            best.add(action)
    return top, best


@pytest.mark.parametrize(
    ("name", "params", "positions", "depths"),
    [
        ("obonto", {}, 10, (1, 2, 3)),
        ("bones", {}, 4, (1, 2)),
        ("oyno", {}, 12, (1, 2, 3)),
        ("oyno", {"wild": True}, 5, (1, 2)),
    ],
)
def test_the_native_value_at_a_fixed_depth_is_the_python_bots(
    name: str, params: dict[str, Any], positions: int, depths: tuple[int, ...]
) -> None:
    checked = 0
    seed = 0
    while checked < positions:
        seed += 1
        python_state, native_state = play_randomly(name, seed, seed % 25, **params)
        if python_state.current_player() < 0 or len(python_state.legal_actions()) < 2:
            continue
        for depth in depths:
            python_value, python_ties, python_choice = python_root(python_state, depth, seed)
            native_value, native_best = native_root(native_state, depth)
            where = (python_state.history(), depth)
            assert native_value == pytest.approx(python_value, abs=TOLERANCE), where
            # The Python bot's choice is truly best; every truly best move ties its best score.
            assert python_choice in native_best, where
            assert native_best <= python_ties, where
            chosen = native_search(native_state, {"depth": depth}, seed=seed)["action"]
            assert chosen in native_best, where
        checked += 1


def test_a_bones_position_at_depth_three_has_the_python_value() -> None:
    python_state, native_state = play_randomly("bones", 3, 12)
    python_value, _, python_choice = python_root(python_state, 3, 0)
    native_value, native_best = native_root(native_state, 3)
    assert native_value == pytest.approx(python_value, abs=TOLERANCE)
    assert python_choice in native_best


def test_a_forced_win_is_found_and_the_search_stops_there() -> None:
    """Bones: white to move with four in a row and the fifth square free wins at once; the
    search says so at depth 1 and does not go deeper."""
    game = native.load_game("bones")
    state = game.new_initial_state()
    for text in ("e5-f5", "a1-a2", "g5-h5", "a3-a4"):
        state.apply_action(state.string_to_action(text))
    found = native_search(state, {"depth": 4})
    assert found["values"][0] > 9.0  # a win (WIN + its value less a ply)
    assert found["iterations"] == 1
    child = state.clone()
    child.apply_action(found["action"])
    assert child.is_terminal() and child.returns() == [1.0, -1.0]


def bones_after(*placements: str) -> Any:
    state = native.load_game("bones").new_initial_state()
    for text in placements:
        state.apply_action(state.string_to_action(text))
    return state


def test_the_threat_extension_sees_a_double_threat_as_the_win_it_is() -> None:
    """White's g5-g6 makes e5 f5 g5 and g6 h6 i6 at once: no black piece parries both (the one
    on g5-g6 itself may not lie exactly on a completely visible piece), so white wins in three
    plies. At depth 1 the plain search only guesses (the heuristic's "unstoppable"); with the
    threat extension it follows black's forced reply and white's win to the end, the value a
    full-width search at depth 3 finds."""
    state = bones_after("e5-f5", "a1-a2", "h6-i6", "a8-a9")
    plain = native_search(state, {"depth": 1})
    extended = native_search(state, {"depth": 1, "threat_plies": 2})
    deeper = native_search(state, {"depth": 3})
    assert plain["values"][0] < 1.0  # a heuristic's value in [0, 1], no win
    assert extended["values"][0] == pytest.approx(deeper["values"][0], abs=TOLERANCE)
    assert extended["values"][0] > 9.0
    assert state.action_to_string(extended["action"]) == "g5-g6"


def test_the_threat_extension_agrees_with_a_deeper_search_on_every_win_it_finds() -> None:
    """In positions of half-greedy games, a win the extension proves at depth 1 (a threat, the
    forced parry, the win: three plies) is the win a full-width depth-3 search finds."""
    game = boneyard.load_game("bones")
    wins = 0
    for seed in range(3):
        python_state, native_state = play_randomly("bones", seed, 0)
        rng = random.Random(seed)
        while not python_state.is_terminal() and python_state.move_number() < 24:
            extended = native_search(native_state, {"depth": 1, "threat_plies": 2}, seed=seed)
            seat = native_state.current_player()
            if extended["values"][seat] > 9.0:
                deeper = native_search(native_state, {"depth": 3}, seed=seed)
                assert deeper["values"][seat] == pytest.approx(
                    extended["values"][seat], abs=TOLERANCE
                ), python_state.history()
                wins += 1
            legal = python_state.legal_actions()
            action = rng.choice(best_placements(python_state) if rng.random() < 0.5 else legal)
            python_state.apply_action(action)
            native_state.apply_action(action)
    assert game.name == "bones" and wins >= 3


def test_forcing_cuts_keep_the_value_at_a_fixed_depth_and_search_fewer_nodes() -> None:
    """``forcing_cuts``: two plies or more from the leaves a forcing position searches its
    forcing moves alone. In positions of half-greedy Bones games (threats come up) every root
    value at depths 2 and 3 is the full search's, and the cut trees are smaller."""
    plain_nodes = cut_nodes = 0
    for seed in range(3):
        python_state, native_state = play_randomly("bones", seed, 0)
        rng = random.Random(seed)
        while not python_state.is_terminal() and python_state.move_number() < 26:
            seat = native_state.current_player()
            for depth in (2, 3):
                plain = native_search(native_state, {"depth": depth}, seed=seed)
                cut = native_search(native_state, {"depth": depth, "forcing_cuts": True}, seed)
                assert cut["values"][seat] == pytest.approx(plain["values"][seat], abs=TOLERANCE), (
                    python_state.history(),
                    depth,
                )
                plain_nodes += sum(n for _, n in plain["visits"])
                cut_nodes += sum(n for _, n in cut["visits"])
            legal = python_state.legal_actions()
            action = rng.choice(best_placements(python_state) if rng.random() < 0.5 else legal)
            python_state.apply_action(action)
            native_state.apply_action(action)
    assert cut_nodes < 0.9 * plain_nodes, (cut_nodes, plain_nodes)


# ----- budgets, seeds --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["obonto", "bones", "oyno"])
def test_a_depth_budget_gives_the_same_move_twice(name: str) -> None:
    _, state = play_randomly(name, 7, 6)
    for budget in ({"options": {"depth": 3}}, {"options": {}, "iterations": 3}):
        runs = [
            native_search(state, budget["options"], seed=11, iterations=budget.get("iterations"))
            for _ in range(2)
        ]
        assert runs[0]["action"] == runs[1]["action"]
        assert runs[0]["values"] == runs[1]["values"]
        assert runs[0]["visits"] == runs[1]["visits"]
        assert runs[0]["iterations"] == 3


def test_the_seed_breaks_ties_between_equal_moves() -> None:
    """At the start of OYNO every first place is worth the same at depth 1 (the board is empty,
    the heuristic counts bones): different seeds choose among them."""
    state = native.load_game("oyno").new_initial_state()
    _, best = native_root(state, 1)
    assert len(best) > 1
    chosen = {native_search(state, {"depth": 1}, seed=seed)["action"] for seed in range(40)}
    assert len(chosen) > 1
    assert chosen <= best


def test_a_move_to_avoid_loses_a_tie() -> None:
    """A hint's repetitions (``avoid``) are played only when better by more than the margin:
    among equal first moves of OYNO, the one not to avoid is chosen whatever the seed."""
    state = native.load_game("oyno").new_initial_state()
    _, best = native_root(state, 1)
    keep, *avoid = sorted(best)
    for seed in range(10):
        found = native_search(state, {"depth": 1, "avoid": avoid}, seed=seed)
        assert found["action"] == keep


def test_a_time_budget_answers_with_the_deepest_finished_depth() -> None:
    _, state = play_randomly("bones", 2, 4)
    found = native_search(state, {}, time_limit_ms=150)
    assert found["action"] in state.legal_actions()
    assert found["iterations"] >= 1
    assert sum(v for _, v in found["visits"]) > 0
    # what it answers at that depth is what a fixed search of that depth values
    fixed = native_search(state, {"depth": found["iterations"]})
    assert found["values"][0] == pytest.approx(fixed["values"][0], abs=TOLERANCE)


def test_a_whole_small_tree_stops_before_the_time_is_up() -> None:
    """Bones with one piece each is over after two plies: the depth-2 iteration sees every end,
    so the search stops there instead of deepening until the time is up."""
    state = native.load_game("bones", width=5, height=5, pieces=1).new_initial_state()
    found = native_search(state, {}, time_limit_ms=60_000)
    assert found["iterations"] == 2
    assert found["elapsed_ms"] < 60_000


# ----- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "budget", "message"),
    [
        ({"dpth": 2}, {}, "no option dpth; its options: avoid, depth, forcing_cuts, moves"),
        ({"depth": 0}, {}, r"depth\" is a whole number of plies from 1 to 64, not 0"),
        ({"depth": 65}, {}, "from 1 to 64, not 65"),
        ({"depth": 2.5}, {}, "not 2.5"),
        ({"depth": 2}, {"iterations": 2}, "give the depth once"),
        ({}, {"iterations": 0}, "iterations are the depth in plies, 1 to 64, not 0"),
        ({}, {}, "a search needs a budget"),
        ({"depth": 1}, {"time_limit_ms": 0}, "the time limit is at least 1 ms"),
        ({"depth": 1, "moves": [99999]}, {}, "99999 is not a legal action here"),
        ({"depth": 1, "moves": []}, {}, "names no move"),
        ({"depth": 1, "avoid": "d1"}, {}, "is a list of legal action ids"),
        ({"depth": 1, "threat_plies": -2}, {}, "threat_plies.* from 0 to 64, not -2"),
        ({"depth": 1, "threat_plies": 1.5}, {}, "threat_plies.* from 0 to 64, not 1.5"),
    ],
)
def test_bad_options_are_refused_clearly_and_change_nothing(
    options: dict[str, Any], budget: dict[str, Any], message: str
) -> None:
    _, state = play_randomly("obonto", 1, 3)
    history = state.history()
    with pytest.raises(InvalidParameterError, match=message):
        native_search(state, options, **budget)
    assert state.history() == history


def test_options_that_are_no_json_object_are_refused() -> None:
    state = native.load_game("obonto").new_initial_state()
    with pytest.raises(InvalidParameterError, match="options are a JSON object, not \\[1\\]"):
        state.search("alphabeta", "[1]", None, 1, 0)
    with pytest.raises(ValueError, match="search options are not JSON"):
        state.search("alphabeta", "{depth: 1}", None, 1, 0)


def test_the_end_of_a_game_is_no_place_to_search() -> None:
    state = native.load_game("bones").new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(InvalidStateError, match="not the end of the game"):
        native_search(state, {"depth": 1})


# ----- the bot ----------------------------------------------------------------------------


def test_the_bot_plays_the_same_from_a_python_and_a_native_state() -> None:
    python_state, native_state = play_randomly("obonto", 4, 8)
    seat = python_state.current_player()
    game = python_state.game
    from_python = NativeAlphaBetaBot(game, seat, seed=3, max_depth=3, use_solver=False)
    from_native = NativeAlphaBetaBot(game, seat, seed=3, max_depth=3, use_solver=False)
    move = from_python.step(python_state)
    assert from_native.step(native_state) == move
    assert from_native.last_depth == 3
    assert from_native.last_result["action"] == move
    assert from_python.last_value == pytest.approx(python_root(python_state, 3, 0)[0])
    assert python_state.history() == native_state.history()  # neither state changed


def test_the_bot_is_registered_and_plays_a_whole_game() -> None:
    game = boneyard.load_game("oyno")
    bots = [
        make_bot("native_alphabeta", game, 0, seed=1, max_depth=2),
        make_bot("random", game, 1, seed=1),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(bots[player].step(state))
    assert state.returns()[0] == 1.0


@pytest.mark.parametrize("name", ["bonbon", "bondo_cones"])
def test_a_hidden_information_game_is_searched_on_a_resample(name: str) -> None:
    """The native search draws a world consistent with the seat's view (the game's resample),
    never the true one, and plays a legal move in it."""
    game = boneyard.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    bot = make_bot("native_alphabeta", game, state.current_player(), seed=2, max_depth=1)
    assert bot.step(state) in state.legal_actions()


def test_a_bot_that_avoids_repeats_leaves_the_cycle_the_plain_search_walks_into() -> None:
    from boneyard.ai.repetition import repeating_actions

    state = bones_cycle()
    game = state.game
    repeats = repeating_actions(state)
    assert repeats
    plain = NativeAlphaBetaBot(game, 0, seed=1, max_depth=3)
    assert plain.step(state) in repeats
    pressing = NativeAlphaBetaBot(game, 0, seed=1, max_depth=3, avoid_repeats=True)
    move = pressing.step(state)
    assert move not in repeats and move in state.legal_actions()
    native_state = native.load_game("bones").state_from_json(state.to_json())
    assert pressing.step(native_state) == move  # the same from a native state
    assert pressing.avoid == frozenset()  # the game's own repeats, not the caller's avoid


def test_bad_bot_options_are_refused() -> None:
    game = boneyard.load_game("obonto")
    with pytest.raises(ValueError, match="max_depth is a whole number of plies from 1 to 64"):
        NativeAlphaBetaBot(game, 0, max_depth=0)
    with pytest.raises(ValueError, match="time_limit must be positive seconds"):
        NativeAlphaBetaBot(game, 0, time_limit=float("nan"))
    with pytest.raises(ValueError, match="threat_plies is a whole number of plies from 0 to 64"):
        NativeAlphaBetaBot(game, 0, threat_plies=-1)
    with pytest.raises(ValueError, match="avoid_repeats is true or false, not 'yes'"):
        NativeAlphaBetaBot(game, 0, avoid_repeats="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="forcing_cuts is true or false, not 1"):
        NativeAlphaBetaBot(game, 0, forcing_cuts=1)  # type: ignore[arg-type]
