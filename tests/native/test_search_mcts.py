"""The native MCTS and ISMCTS (native/engine/src/search/mcts.rs, ismcts.rs), the heuristics of
Bond O Cones and Bon-Bon ported beside their rules, and the bots ``native_mcts`` and
``native_ismcts`` (ai/native.py).

The search against a brute-force expectimax is a cargo test (``search::mcts::race_tests``: Race,
the template game, has no Python registration); here the searches are held to the Python bots and
the heuristics to the Python ones.
"""

from __future__ import annotations

import json
import random

import pytest

import boneyard
from boneyard import native
from boneyard.ai import make_bot
from boneyard.core.errors import InvalidParameterError, InvalidStateError
from boneyard.core.game import State, sample_chance_outcome

HIDDEN = [("bondo_cones", {}), ("bonbon", {}), ("bonbon", {"players": 3})]
DECISIONS = {"bondo_cones": 40, "bonbon": 4, "obonto": 20, "bones": 10}
"""How far into a game a test's position is: past Bond O Cones' set-up, early in a Bon-Bon."""


def _played(name: str, params: dict[str, object], seed: int, decisions: int) -> State:
    """A Python state ``decisions`` random decisions into a seeded game (or its end)."""
    game = boneyard.load_game(name, **params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and not (
        made >= decisions and not state.is_chance_node() and len(state.legal_actions()) > 1
    ):
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
    return state


def _native(state: State) -> native.NativeState:
    return native.load_game(state.game.name, **state.game.params).state_from_json(state.to_json())


def _search(
    state: native.NativeState, search: str, iterations: int, seed: int
) -> dict[str, object]:
    """A search's report without its time (the one part that may differ between runs)."""
    python_game = boneyard.load_game(state.game.name, **state.game.params)
    found = state.search(search, _options(python_game), None, iterations, seed)
    del found["elapsed_ms"]
    return dict(found)


def _options(game: boneyard.Game, **extra: object) -> str:
    return json.dumps({"utility_range": [game.info.min_utility, game.info.max_utility], **extra})


# ----- the heuristics ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "params", "games", "every"),
    [
        ("bondo_cones", {}, 3, 4),
        ("bonbon", {}, 8, 1),
        ("bonbon", {"players": 4}, 4, 1),
    ],
)
def test_the_native_heuristic_equals_the_python_one(
    name: str, params: dict[str, object], games: int, every: int
) -> None:
    python_game = boneyard.load_game(name, **params)
    native_game = native.load_game(name, **params)
    compared = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = python_game.new_initial_state()
        twin = native_game.new_initial_state()
        step = 0
        while True:
            if step % every == 0 or state.is_terminal():
                for seat in range(python_game.info.num_players):
                    assert twin.heuristic(seat) == pytest.approx(
                        python_game.evaluate(state, seat), abs=1e-9
                    ), (seed, step, seat)
                    compared += 1
                    if step % 25 == 0 and not state.is_terminal():
                        # A resampled world (a snapshot state in both engines) as well.
                        world = state.resample(seat, random.Random(step))
                        assert native_game.state_from_json(world.to_json()).heuristic(
                            seat
                        ) == pytest.approx(python_game.evaluate(world, seat), abs=1e-9)
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = sample_chance_outcome(state, rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            twin.apply_action(action)
            step += 1
    assert compared > 300


def test_every_game_has_a_native_heuristic_and_a_bad_seat_is_refused() -> None:
    state = native.load_game("bondo_cones").new_initial_state()
    with pytest.raises(ValueError, match="bad seat 2 for bondo_cones: seats are 0 to 1"):
        state.heuristic(2)
    with pytest.raises(ValueError, match="bad seat -1 for bondo_cones"):
        state.heuristic(-1)
    for name in ("bonbon", "bondo_cones", "bones", "obonto", "oyno"):
        state = native.load_game(name).new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        assert isinstance(state.heuristic(0), float), name  # ported: searches cut rollouts


# ----- the searches -----------------------------------------------------------------------------


def _win_in_one_positions(count: int) -> list[State]:
    """Bones positions where exactly one of several moves wins at once (a win is Bones' best
    result, so that move is the best)."""
    game = boneyard.load_game("bones")
    found: list[State] = []
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
                continue
            player, legal = state.current_player(), state.legal_actions()
            winning = []
            for action in legal:
                child = state.clone()
                child.apply_action(action)
                returns = child.returns()
                if child.is_terminal() and returns[player] > returns[1 - player]:
                    winning.append(action)
            if len(legal) > 1 and len(winning) == 1:
                found.append(state)
                break
            state.apply_action(rng.choice(legal))
        if len(found) == count:
            break
    return found


def test_the_native_and_python_mcts_take_a_win_in_one() -> None:
    positions = _win_in_one_positions(3)
    assert len(positions) == 3
    for state in positions:
        seat = state.current_player()
        python_move = make_bot("mcts", state.game, seat, seed=3, iterations=300).step(state)
        for name in ("native_mcts", "native_ismcts"):
            bot = make_bot(name, state.game, seat, seed=3, iterations=3000)
            assert bot.step(state) == python_move
            assert bot.step(_native(state)) == python_move
        child = state.clone()
        child.apply_action(python_move)
        assert child.is_terminal() and child.returns()[seat] > 0


@pytest.mark.parametrize("search", ["mcts", "ismcts"])
@pytest.mark.parametrize(("name", "params"), [*HIDDEN, ("obonto", {}), ("bones", {})])
def test_an_iteration_budget_gives_the_same_search_for_the_same_seed(
    search: str, name: str, params: dict[str, object]
) -> None:
    state = _played(name, params, 2, DECISIONS[name])
    twin = _native(state)
    first = _search(twin, search, 400, 11)
    assert first == _search(twin, search, 400, 11)
    assert first["iterations"] == 400
    assert first["action"] in state.legal_actions()
    assert sorted(action for action, _ in first["visits"]) == state.legal_actions()
    assert sum(visits for _, visits in first["visits"]) == 400
    others = [_search(twin, search, 400, seed)["visits"] for seed in (12, 13)]
    assert any(visits != first["visits"] for visits in others)


@pytest.mark.parametrize("search", ["mcts", "ismcts"])
@pytest.mark.parametrize(("name", "params"), HIDDEN)
def test_a_search_sees_only_the_acting_seats_information(
    search: str, name: str, params: dict[str, object]
) -> None:
    """Two states that the acting seat cannot tell apart, their hidden cards (or cones)
    different, get the same search for the same seed: nothing but the seat's information (its
    resamples) reaches the search."""
    checked = 0
    for seed in range(30):
        if checked == 3:
            break
        state = _played(name, params, seed, DECISIONS[name] + seed)
        if state.is_terminal():
            continue
        seat = state.current_player()
        twin = _native(state)
        one, other = (twin.resample(seat, random.Random(draw)) for draw in (1, 2))
        assert one.observation(seat) == other.observation(seat)
        if one.to_json() == other.to_json():
            continue  # nothing hidden from this seat here
        found = [_search(world, search, 300, 5) for world in (twin, one, other)]
        assert found[0] == found[1] == found[2]
        checked += 1
    assert checked == 3


def test_a_seeded_native_bot_repeats_its_moves_from_python_and_native_states() -> None:
    state = _played("bonbon", {}, 4, 10)
    seat = state.current_player()
    moves = {
        make_bot("native_ismcts", "bonbon", seat, seed=9, iterations=500).step(given)
        for given in (state, _native(state), state)
    }
    assert len(moves) == 1
    assert state.history() == _played("bonbon", {}, 4, 10).history()  # the state is unchanged
    bot = make_bot("native_ismcts", "bonbon", seat, seed=9, iterations=500)
    move = bot.step(state)
    assert bot.last_result["action"] == move  # what the search reported is what was played
    assert bot.last_result["iterations"] == 500
    assert sum(visits for _, visits in bot.last_result["visits"]) == 500


def test_bad_options_and_budgets_are_refused_naming_what_is_allowed() -> None:
    twin = _native(_played("obonto", {}, 1, 6))
    history = twin.history()
    refused = [
        ("mcts", '{"explore": 1}', None, 10, r"no option \"explore\"; options: exploration, "),
        ("mcts", '{"exploration": -1}', None, 10, "exploration must be a number from 0 to 100"),
        ("mcts", '{"rollout_depth": -2}', None, 10, "rollout_depth must be a whole number"),
        ("mcts", '{"utility_range": [1, 1]}', None, 10, r"utility_range must be \[low, high\]"),
        ("mcts", '{"max_nodes": 0}', None, 10, "max_nodes must be a whole number from 1"),
        ("ismcts", "[1, 2]", None, 10, "options must be a JSON object"),
        ("mcts", "{}", None, None, "a search needs a budget: iterations, a time limit, or both"),
        ("mcts", "{}", None, 0, "iterations must be from 1 to 100000000, not 0"),
        ("mcts", "{}", 0, None, "time_limit_ms must be from 1 to 600000, not 0"),
        ("mcts", "{}", 10**9, None, "time_limit_ms must be from 1 to 600000"),
    ]
    for search, options, time_limit_ms, iterations, message in refused:
        with pytest.raises(InvalidParameterError, match=message):
            twin.search(search, options, time_limit_ms, iterations, 0)
    with pytest.raises(ValueError, match="search options are not JSON"):
        twin.search("mcts", "{oops", None, 10, 0)
    searches = "alphabeta, greedy, mcts, ismcts"
    with pytest.raises(
        NotImplementedError, match=f'no native search called "nope"; native searches: {searches}'
    ):
        twin.search("nope", "{}", None, 10, 0)
    assert twin.history() == history
    with pytest.raises(ValueError, match="exploration must be a number"):
        make_bot("native_mcts", "obonto", 0, exploration=-1)
    with pytest.raises(ValueError, match="no option 'depth'"):
        make_bot("native_ismcts", "obonto", 0, depth=3)


@pytest.mark.parametrize("search", ["mcts", "ismcts"])
def test_a_terminal_or_chance_state_is_a_clear_error_not_a_panic(search: str) -> None:
    game = native.load_game("bondo_cones")
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(InvalidStateError, match="chance is to move in this bondo_cones state"):
        state.search(search, "{}", None, 10, 0)
    ended = _native(_played("bonbon", {}, 0, 10_000))
    assert ended.is_terminal()
    with pytest.raises(InvalidStateError, match="the bonbon game is over: there is no move"):
        ended.search(search, "{}", None, 10, 0)


def test_a_bot_refuses_another_seat_and_a_game_without_a_native_engine() -> None:
    state = _played("obonto", {}, 1, 6)
    other = 1 - state.current_player()
    with pytest.raises(ValueError, match=f"plays seat {other} of obonto, but the state asks for"):
        make_bot("native_mcts", "obonto", other, seed=1).step(state)
    from tests.ai.toy_games import TicTacToe

    with pytest.raises(ValueError, match="plays the games with a native engine"):
        make_bot("native_mcts", TicTacToe(), 0)
