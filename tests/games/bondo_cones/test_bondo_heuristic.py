"""Bond O Cones heuristic and tensor: read only the observation; prefer valuable captures; keep
the BondO cone out of reach."""

from __future__ import annotations

import math
import random

from tests.games.bondo_cones.bondo_helpers import new_game, play, set_up

from boneyard.games.bondo_cones import heuristic
from boneyard.games.bondo_cones.board import Cones
from boneyard.games.bondo_cones.notation import INDEX, SQUARES
from boneyard.games.bondo_cones.rules import BondoConesState
from boneyard.games.bondo_cones.tensor import TENSOR_SIZE


def test_remaining_values_and_expected_value() -> None:
    game = new_game()
    state = game.position({"a1": "b0", "e7": "w4", "f7": "w2", "j12": "w0"})
    state.captured = [[8, 4], []]
    state.flags[INDEX["f7"]] |= 2  # spied by black
    view = state.observation(0)
    left = heuristic.remaining_values(view)
    assert sorted(left) == sorted([4, 4, 4, 2, 2, 2, 2, 2] + [1] * 5 + [0] * 10)
    assert math.isclose(heuristic.expected_hidden_value(view), sum(left) / len(left))
    assert heuristic.cone_worth(view, "f7") == 2.0


def test_capture_rolls_for_ordinary_and_bondo_attackers() -> None:
    game = new_game()
    state = game.position({"e5": "b4", "e8": "w0", "b5": "w1", "h8": "w0+", "a12": "b0"})
    view = state.observation(0)
    # e8 straight down 3; b5 sideways 3; the BondO h8 reaches e5 in 3 (diagonal) or 4 (turning)
    assert heuristic.capture_rolls(view, 1, "e5") == {3, 4}
    blocked = game.position({"e5": "b4", "e8": "w0", "e6": "b0", "a12": "b0"})
    assert heuristic.capture_rolls(blocked.observation(0), 1, "e5") == set()
    assert heuristic.risk(view, "e5") == 2 / 6


def test_action_values_prefer_the_more_valuable_target() -> None:
    game = new_game()
    state = game.position({"e5": "b1", "e8": "w0", "h5": "w0", "j12": "w0"}, die="3")
    state.value[INDEX["h5"]] = 4
    state.flags[INDEX["h5"]] |= 2  # black spied the 4 on h5; e8 is unknown (it is a 0)
    view = state.observation(0)
    actions = [(a, state.action_to_string(a)) for a in state.legal_actions()]
    prices = heuristic.action_values(view, actions)
    by_text = {text: prices[a] for a, text in actions}
    best = max(by_text, key=lambda text: by_text[text])
    assert best == "e5-h5"
    assert by_text["e5-e8"] > by_text["e5-b5"]  # an unknown cone is still worth its expectation


def test_evaluate_keeps_the_bondo_cone_out_of_reach() -> None:
    game = new_game()
    safe = game.position({"a1": "b0+", "e9": "w0", "j12": "w0"}, to_move=1)
    exposed = game.position({"e6": "b0+", "e9": "w0", "j12": "w0"}, to_move=1)
    assert game.evaluate(exposed, 0) < game.evaluate(safe, 0)


def test_evaluate_reads_only_the_observation() -> None:
    game = new_game()
    one = game.position({"a1": "b0", "e7": "w4", "f7": "w2", "j12": "w0"}, to_move=1)
    two = game.position({"a1": "b0", "e7": "w2", "f7": "w4", "j12": "w0"}, to_move=1)
    assert one.observation(0) == two.observation(0)
    assert game.evaluate(one, 0) == game.evaluate(two, 0)
    assert game.observation_tensor(one.observation(0)) == game.observation_tensor(
        two.observation(0)
    )


def test_evaluate_is_inside_the_utility_range_and_exact_at_the_end() -> None:
    game = new_game(target=10)
    state = game.position({"e5": "b1", "e6": "w8", "j12": "w2"}, scores=(4, 0), die="1")
    assert -1 < game.evaluate(state, 0) < 1
    play(state, "e5-e6")
    assert game.evaluate(state, 0) == 1.0 and game.evaluate(state, 1) == -1.0


def test_observation_tensor_size_and_content() -> None:
    game = new_game()
    state = play(set_up(game), "first 0", "roll 2")
    tensor = game.observation_tensor(state.observation(0))
    assert len(tensor) == TENSOR_SIZE == game.observation_tensor_shape()[0]
    assert sum(tensor[:120]) == 26 and sum(tensor[120:240]) == 26  # own cones, opponent cones
    assert sum(tensor[9 * 120 : 10 * 120]) == 26  # every white value unknown to black


def _random_positions(games: int, seed: int) -> list[BondoConesState]:
    game = new_game(target=10)
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(
                    rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                )
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            if rng.random() < 0.2:
                positions.append(state.clone())
    return positions


def test_hit_masks_are_the_capturing_moves_of_each_roll() -> None:
    for state in _random_positions(2, seed=5):
        for seat in (0, 1):
            view = state.observation(seat)
            board = Cones.from_observation(view)
            hits = board.hit_masks(1 - seat)
            some = board.cones[seat] & 0x5555555555555555555555555555555
            assert board.hit_masks(1 - seat, some) == [hit & some for hit in hits]
            for roll in range(1, 5):
                captures = 0
                for move in board.cone_moves(1 - seat, roll):
                    captures |= (1 << move % SQUARES) & board.cones[seat]
                assert hits[roll] == captures
            for name, cone in heuristic.observed_cones(view).items():
                if cone["seat"] == seat:
                    rolls = {roll for roll in range(1, 5) if hits[roll] >> INDEX[name] & 1}
                    assert rolls == heuristic.capture_rolls(view, 1 - seat, name)


def test_hit_masks_see_a_bondo_cone_turning_and_a_blocked_ray() -> None:
    game = new_game()
    state = game.position({"e5": "b4", "e8": "w0", "b5": "w1", "h8": "w0+", "a12": "b0"})
    hits = Cones.from_observation(state.observation(0)).hit_masks(1)
    assert [roll for roll in range(1, 5) if hits[roll] >> INDEX["e5"] & 1] == [3, 4]
    blocked = game.position({"e5": "b4", "e8": "w0", "e6": "b0", "a12": "b0"})
    hits = Cones.from_observation(blocked.observation(0)).hit_masks(1)
    assert not any(hit >> INDEX["e5"] & 1 for hit in hits)
    assert [roll for roll in range(1, 5) if hits[roll] >> INDEX["e6"] & 1] == [2]


def test_the_evaluate_cache_answers_what_a_fresh_evaluation_does() -> None:
    game = new_game(target=10)
    positions = _random_positions(1, seed=8)
    heuristic._CACHE.clear()
    first = [game.evaluate(state, seat) for state in positions for seat in (0, 1)]
    assert heuristic._CACHE
    again = [game.evaluate(state, seat) for state in positions for seat in (0, 1)]
    fresh = [heuristic._evaluate(state.observation(seat)) for state in positions for seat in (0, 1)]
    assert first == again == fresh
    assert len(set(fresh)) > 1
