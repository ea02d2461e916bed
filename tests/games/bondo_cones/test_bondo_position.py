"""The lookahead's picture of a seat (search.Position) agrees with the rules in play."""

from __future__ import annotations

import random

import pytest
from tests.games.bondo_cones.bondo_helpers import new_game

from boneyard.games.bondo_cones import notation as nt
from boneyard.games.bondo_cones.rules import ACT, BondoConesState
from boneyard.games.bondo_cones.search import Position


def _positions(seed: int, games: int = 2) -> list[BondoConesState]:
    """Decision states after a rolled 1-4, from random playouts (random set-up)."""
    game = new_game(setup="random")
    rng = random.Random(seed)
    found: list[BondoConesState] = []
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, BondoConesState)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
                continue
            if state.phase == ACT and state.die < nt.FACE_EYE:  # act on a rolled 1-4
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


POSITIONS = _positions(seed=5)


def test_the_playouts_reach_ring_cones_and_double_bondos() -> None:
    # Guards the tests below: they see BondO cones, and Double BondOs somewhere.
    assert len(POSITIONS) > 200
    assert any(state.has_double(0) or state.has_double(1) for state in POSITIONS)


@pytest.mark.parametrize("chunk", range(4))
def test_moves_are_the_rules_legal_actions(chunk: int) -> None:
    for state in POSITIONS[chunk::4]:
        seat = state.current_player()
        position = Position.from_observation(state.observation(seat))
        moves = position.moves(seat, state.die + 1)
        assert (moves or [nt.PASS]) == state.legal_actions()


def test_moves_of_the_side_not_to_move_match_the_rules_too() -> None:
    checked = 0
    for state in POSITIONS[::7]:
        seat = state.current_player()
        position = Position.from_observation(state.observation(seat))
        # The rules' move list for the same board and roll with the other side to act.
        theirs = state._act_actions(1 - seat)
        assert (position.moves(1 - seat, state.die + 1) or [nt.PASS]) == theirs
        checked += 1
    assert checked > 20


def test_hit_masks_are_the_capturing_moves_of_each_roll() -> None:
    for state in POSITIONS[::5]:
        seat = state.current_player()
        position = Position.from_observation(state.observation(seat))
        for attacker in (0, 1):
            hits = position.hit_masks(attacker)
            for roll in range(1, 5):
                expected = 0
                for move in position.moves(attacker, roll):
                    target = move % nt.SQUARES
                    if position.cones[1 - attacker] >> target & 1:
                        expected |= 1 << target
                assert hits[roll] == expected


def test_a_move_in_the_model_is_the_move_in_the_rules() -> None:
    rng = random.Random(1)
    for state in POSITIONS[::3]:
        seat = state.current_player()
        actions = state.legal_actions()
        if actions == [nt.PASS]:
            continue
        action = rng.choice(actions)
        before = Position.from_observation(state.observation(seat))
        origin, target = divmod(action, nt.SQUARES)
        captured_unknown = before.hidden >> target & 1
        moved = before.move(seat, origin, target)
        after_state = state.clone()
        after_state.apply_action(action)
        after = Position.from_observation(after_state.observation(seat))
        assert moved.cones == after.cones
        assert moved.ringed == after.ringed
        assert moved.double == after.double
        if not captured_unknown:
            assert moved.scores == after.scores
            assert moved.worth == after.worth


def test_unknown_cones_are_worth_the_mean_of_the_values_not_seen() -> None:
    game = new_game()
    state = game.position({"c3": "b0", "c5": "w8", "c9": "w4"}, die="2")
    position = Position.from_observation(state.observation(0))
    # Black sees no white value: the 41 points over 26 cones.
    assert position.worth[nt.INDEX["c5"]] == pytest.approx(41 / 26)
    assert position.hidden == (1 << nt.INDEX["c5"]) | (1 << nt.INDEX["c9"])
    # White sees its own values, and black's 0 as the mean of black's values.
    white = Position.from_observation(state.observation(1))
    assert white.worth[nt.INDEX["c5"]] == 8.0
    assert white.hidden == 1 << nt.INDEX["c3"]
    assert position.their_view[nt.INDEX["c3"]] == pytest.approx(41 / 26)
