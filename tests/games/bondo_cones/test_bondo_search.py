"""The Bond O Cones lookahead (search.py): what it sees that the one-ply heuristic does not."""

from __future__ import annotations

import math
import random

from tests.games.bondo_cones.bondo_helpers import legal, new_game, play

from boneyard.games.bondo_cones.search import Lookahead, lookahead_values


def _best(state: object, seat: int) -> list[str]:
    """The actions the lookahead rates highest, as strings."""
    actions = state.legal_actions()  # type: ignore[attr-defined]
    values = lookahead_values(state.observation(seat), actions)  # type: ignore[attr-defined]
    top = max(values.values())
    return sorted(
        state.action_to_string(a)  # type: ignore[attr-defined]
        for a in actions
        if values[a] >= top - 1e-9
    )


def test_it_sets_up_a_capture_for_the_roll_after_that_one_ply_does_not_see() -> None:
    game = new_game()
    # White's ring cone on c7 is out of reach; c2-c3 makes it a capture with a 4 next turn.
    cones = {"c2": "b0", "a1": "b2+", "j2": "b8", "c7": "w1+", "j12": "w0", "a12": "w0"}
    state = game.position(cones, die="1")
    assert _best(state, 0) == ["c2-c3"]
    # The greedy heuristic rates every move the same: the threat is two plies away.
    one_ply = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        one_ply.add(game.evaluate(child, 0))
    assert len(one_ply) == 1


def test_it_takes_the_capture_that_wins_the_game() -> None:
    game = new_game()
    cones = {"c3": "b0", "c5": "w4", "f3": "b0", "f4": "w0", "a12": "w0"}
    state = game.position(cones, die="2", scores=(27, 0))
    # Black cannot tell c5 from f4; each is a win unless it is a 0 (10 of 26).
    best = _best(state, 0)
    assert best in (["c3-c5"], ["f3-f4"], ["c3-c5", "f3-f4"])


def test_it_moves_the_threatened_eight_out_of_reach() -> None:
    game = new_game()
    # White's cone on e9 hits e5 with a 4; black's 8 steps aside (or away) with its 1.
    cones = {"e5": "b8", "a1": "b0", "e9": "w0", "j12": "w0"}
    state = game.position(cones, die="1")
    for move in _best(state, 0):
        assert move.startswith("e5-")
        assert move != "e5-e6"


def test_the_set_up_hides_the_eight_at_the_back_and_rings_a_zero() -> None:
    game = new_game()
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(2):
        seat = state.current_player()
        while state.observation(seat)["phase"] == "setup_put":
            values = lookahead_values(state.observation(seat), state.legal_actions())
            top = max(values.values())
            state.apply_action(rng.choice([a for a, v in values.items() if v == top]))
        values = lookahead_values(state.observation(seat), state.legal_actions())
        ring = max(values, key=lambda a: values[a])
        state.apply_action(ring)
    black, white = state.observation(0)["cones"], state.observation(1)["cones"]
    assert "b8" in (black["e1"], black["f1"])
    assert "w8" in (white["e12"], white["f12"])
    assert {black[name] for name in ("d4", "g4")} <= {"b0", "b0+"}
    assert "b0+" in (black["d4"], black["g4"])


def test_it_fights_a_bondo_battle_when_it_may() -> None:
    game = new_game()
    state = game.position({"c3": "b0", "c9": "w0+"}, windows=(3, 0))
    assert legal(state) == {"battle", "roll"}
    assert _best(state, 0) == ["battle"]


def test_a_won_battle_puts_the_ring_on_a_cone_worth_little() -> None:
    game = new_game()
    state = game.position({"a1": "b8", "j1": "b0", "c9": "w0+"}, windows=(3, 0))
    play(state, "battle", "battle won")
    assert _best(state, 0) == ["take c9>j1"]


def test_a_seizure_removes_the_cone_that_threatens_the_double_bondo() -> None:
    game = new_game()
    # Black lost a battle against white's Double BondO on c9: white removes one black cone.
    # Both look alike to white, but the one on c8 would capture c9 with a 1.
    state = game.position({"a1": "b0", "c8": "b0", "c9": "w0#"}, windows=(3, 0))
    play(state, "battle", "battle lost")
    assert state.current_player() == 1
    assert _best(state, 1) == ["seize c8"]


def test_a_spent_clock_still_prices_every_action_by_its_quick_look() -> None:
    game = new_game()
    cones = {"c2": "b0", "a1": "b2+", "j2": "b8", "c7": "w1+", "j12": "w0", "a12": "w0"}
    state = game.position(cones, die="1")
    actions = state.legal_actions()
    search = Lookahead(state.observation(0), time_limit=1e-9)
    values = search.values(actions)
    assert search.searched == 0
    assert set(values) == set(actions)
    assert all(math.isfinite(value) for value in values.values())
    # With time, the full search runs and ranks the threat first.
    full = Lookahead(state.observation(0))
    full_values = full.values(actions)
    assert full.searched == min(len(actions), full.width)
    assert max(full_values, key=lambda a: full_values[a]) == state.string_to_action("c2-c3")
