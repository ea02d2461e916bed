"""Bond O Cones rules: one test (or more) per ruling of RULINGS.md "Bond O Cones"."""

from __future__ import annotations

import random

import pytest
from tests.games.bondo_cones.bondo_helpers import legal, new_game, play, set_up, setup_puts

from boneyard import CHANCE, TERMINAL, IllegalActionError, InvalidParameterError
from boneyard.games.bondo_cones.board import RED_FIELDS, START_FIELDS, bondo_destinations
from boneyard.games.bondo_cones.notation import INDEX, NAMES, observed_cones
from boneyard.games.bondo_cones.rules import (
    SETUP_ORDER,
    VALUES,
    BondoConesGame,
    BondoConesState,
)

# ----- board, values, parameters -------------------------------------------------------------


def test_start_fields_are_26_a_side_as_ruled() -> None:
    black = {NAMES[sq] for sq in START_FIELDS[0]}
    white = {NAMES[sq] for sq in START_FIELDS[1]}
    assert len(black) == len(white) == 26
    assert {f"{f}1" for f in "abcdefghij"} <= black
    assert {f"{f}2" for f in "bcdefghi"} <= black and "a2" not in black
    assert {f"{f}3" for f in "cdefgh"} <= black and "b3" not in black
    assert {"d4", "g4"} <= black
    assert {f"{f}12" for f in "abcdefghij"} <= white
    assert {f"{f}11" for f in "bcdefghi"} <= white
    assert {f"{f}10" for f in "cdefgh"} <= white
    assert {"d9", "g9"} <= white
    assert [NAMES[sq] for sq in RED_FIELDS[0]] == ["d4", "g4"]
    assert [NAMES[sq] for sq in RED_FIELDS[1]] == ["d9", "g9"]


def test_values_of_a_side() -> None:
    assert sorted(VALUES) == sorted([8] + [4] * 4 + [2] * 6 + [1] * 5 + [0] * 10)
    assert sum(VALUES) == 41
    assert list(SETUP_ORDER) == sorted(SETUP_ORDER, reverse=True)


def test_parameters_and_defaults() -> None:
    game = new_game()
    assert game.params == {"target": 28, "max_turns": 1000, "setup": "choose"}
    with pytest.raises(InvalidParameterError, match="setup"):
        new_game(setup="secret")
    with pytest.raises(InvalidParameterError, match="target"):
        new_game(target=42)


# ----- set-up ------------------------------------------------------------------------------


def test_setup_places_values_in_order_and_fills_zeros() -> None:
    game = new_game()
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert len(state.legal_actions()) == 26
    assert legal(state) == {f"put {NAMES[sq]}" for sq in START_FIELDS[0]}
    puts = ["put e3", "put a1", "put b1", "put c1", "put d1"]
    play(state, *puts)
    assert [state.value[INDEX[p[4:]]] for p in puts] == [8, 4, 4, 4, 4]
    assert "put e3" not in legal(state)
    rest = [f"put {NAMES[sq]}" for sq in START_FIELDS[0] if f"put {NAMES[sq]}" not in puts]
    play(state, *rest[:11])
    # sixteen cones placed: the ten zeros fill the fields left, then the ring
    assert all(state.owner[sq] == 0 for sq in START_FIELDS[0])
    for name in rest[11:]:
        assert state.value[INDEX[name[4:]]] == 0
    assert sorted(state.value[sq] for sq in START_FIELDS[0]) == sorted(VALUES)
    assert legal(state) == {"ring d4", "ring g4"}
    play(state, "ring g4")
    assert state.rings[INDEX["g4"]] == 1
    assert state.current_player() == 1
    assert legal(state) == {f"put {NAMES[sq]}" for sq in START_FIELDS[1]}


def test_first_player_is_a_fair_chance_event() -> None:
    state = set_up(new_game())
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [
        (state.string_to_action("first 0"), 0.5),
        (state.string_to_action("first 1"), 0.5),
    ]
    play(state, "first 1")
    assert state.current_player() == CHANCE  # white's die
    assert state.observation(0)["turn_player"] == 1


def test_random_setup_is_a_sequence_of_chance_draws() -> None:
    game = new_game(setup="random")
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 26 and all(p == pytest.approx(1 / 26) for _, p in outcomes)
    play(state, "put e3")
    assert state.value[INDEX["e3"]] == 8
    assert all(p == pytest.approx(1 / 25) for _, p in state.chance_outcomes())
    rng = random.Random(4)
    while state.setup_progress[0] < 16:
        play(state, state.action_to_string(rng.choice(state.legal_actions())))
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"ring d4", "ring g4"}
    assert [p for _, p in state.chance_outcomes()] == [0.5, 0.5]
    play(state, "ring g4")
    assert state.current_player() == CHANCE and state.actor == 1
    assert sorted(state.value[sq] for sq in START_FIELDS[0]) == sorted(VALUES)


# ----- a turn --------------------------------------------------------------------------------


def test_die_has_six_faces_of_one_sixth() -> None:
    state = play(set_up(new_game()), "first 0")
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == [
        "roll 1",
        "roll 2",
        "roll 3",
        "roll 4",
        "roll eye",
        "roll ring",
    ]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)


def test_ordinary_cone_moves_exactly_n_in_one_direction() -> None:
    game = new_game()
    state = game.position({"e5": "b1", "a12": "w0"}, die="3")
    assert legal(state) == {"e5-e8", "e5-h8", "e5-h5", "e5-h2", "e5-e2", "e5-b2", "e5-b5", "e5-b8"}


def test_edge_stops_a_move() -> None:
    game = new_game()
    state = game.position({"b1": "b1", "j12": "w0"}, die="2")
    assert legal(state) == {"b1-b3", "b1-d3", "b1-d1"}
    state = game.position({"b1": "b1", "j12": "w0"}, die="4")
    assert legal(state) == {"b1-b5", "b1-f5", "b1-f1"}


def test_no_jumping_over_any_cone() -> None:
    game = new_game()
    state = game.position({"e5": "b1", "e6": "b0", "f6": "w0", "h5": "w2", "j12": "w0"}, die="3")
    moves = legal(state)
    assert "e5-e8" not in moves  # own cone in the way
    assert "e5-h8" not in moves  # opponent cone in the way
    assert "e5-h5" in moves  # an opponent cone on the last square is captured


def test_capture_only_on_the_last_step_and_scores_the_value() -> None:
    game = new_game()
    state = game.position({"e5": "b1", "e7": "w4", "e8": "w2", "j12": "w0"}, die="3")
    assert "e5-e8" not in legal(state)
    state = game.position({"e5": "b1", "e6": "b0", "e8": "w2", "j12": "w0"}, die="1")
    assert "e5-e6" not in legal(state)  # never onto an own cone
    state = game.position({"e5": "b1", "e8": "w4", "j12": "w0"}, die="3")
    play(state, "e5-e8")
    assert state.owner[INDEX["e8"]] == 0 and state.value[INDEX["e8"]] == 1
    assert state.scores == [4, 0]
    assert state.observation(1)["captured"] == [[4], []]
    assert (
        observed_cones(state.observation(None))["e8"]["value"] is None
    )  # the capturer's value stays


def test_bondo_cone_turns_and_never_revisits() -> None:
    game = new_game()
    state = game.position({"e5": "b1+", "j12": "w0"}, die="2")
    moves = legal(state)
    # any square at king distance 1 or 2 except the start: a turn makes a neighbour reachable
    expected = {
        f"e5-{NAMES[sq]}" for sq in range(120) if max(abs(sq % 10 - 4), abs(sq // 10 - 4)) in (1, 2)
    }
    assert moves == expected
    assert "e5-e5" not in moves
    assert "e5-f6" in moves  # e.g. e6 then f6: a turn


# Over the complexity limit on purpose: the brute force is the test's oracle, kept beside its check.
def test_bondo_walk_matches_brute_force() -> None:  # noqa: C901
    def brute(start: int, steps: int, empty: int, target: int) -> int:
        found = 0
        stack = [(start, steps, 1 << start)]
        while stack:
            square, left, visited = stack.pop()
            file, rank = square % 10, square // 10
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    f, r = file + df, rank + dr
                    if (df or dr) and 0 <= f < 10 and 0 <= r < 12:
                        bit = 1 << (r * 10 + f)
                        if visited & bit:
                            continue
                        if left == 1:
                            found |= bit & target
                        elif empty & bit:
                            stack.append((r * 10 + f, left - 1, visited | bit))
        return found

    rng = random.Random(7)
    for trial in range(200):
        steps = (1, 2, 3, 4, 6, 8)[trial % 6]
        occupied = [0, 0]
        # long walks on sparse boards have millions of paths: keep the brute force quick
        density = rng.random() * 0.6 if steps <= 4 else 0.45 + rng.random() * 0.2
        for sq in range(120):
            if rng.random() < density:
                occupied[rng.randrange(2)] |= 1 << sq
        start = rng.randrange(120)
        occupied[0] |= 1 << start
        occupied[1] &= ~(1 << start)
        empty = ((1 << 120) - 1) & ~(occupied[0] | occupied[1])
        target = empty | occupied[1]
        assert bondo_destinations(start, steps, empty, target) == brute(start, steps, empty, target)


def test_bondo_cone_cannot_pass_through_cones() -> None:
    game = new_game()
    # a1 walled in by own cones on a2, b2, b1: no way out with 2 steps
    state = game.position({"a1": "b0+", "a2": "b0", "b2": "b0", "b1": "b0", "j12": "w0"}, die="2")
    assert not any(move.startswith("a1-") for move in legal(state))


def test_double_bondo_moves_twice_the_roll() -> None:
    game = new_game()
    state = game.position({"a1": "b0#", "j12": "w0"}, die="1")
    moves = legal(state)
    assert "a1-a3" in moves and "a1-c3" in moves
    assert "a1-a4" not in moves
    state = game.position({"a1": "b0#", "j12": "w0"}, die="2")
    assert "a1-a5" in legal(state) and "a1-e5" in legal(state)


def test_rings_pass_to_the_capturer() -> None:
    game = new_game()
    state = game.position({"e5": "b1", "e7": "w4+", "j12": "w0"}, die="2")
    play(state, "e5-e7")
    assert state.rings[INDEX["e7"]] == 1 and state.owner[INDEX["e7"]] == 0
    assert state.scores == [4, 0]
    # a BondO cone capturing a BondO cone becomes a Double BondO
    state = game.position({"e5": "b1+", "e7": "w4+", "j12": "w0"}, die="2")
    play(state, "e5-e7")
    assert state.rings[INDEX["e7"]] == 2
    assert observed_cones(state.observation(1))["e7"]["rings"] == 2


def test_two_bondo_cones_for_one_player() -> None:
    game = new_game()
    state = game.position({"e5": "b1+", "e6": "w2+", "c3": "b0", "j12": "w0"}, die="1")
    play(state, "e5-e6")
    assert state.rings[INDEX["e6"]] == 2  # BondO captured BondO: Double
    state = game.position({"e5": "b1", "e6": "w2+", "c3": "b0+", "j12": "w0"}, die="1")
    play(state, "e5-e6")
    assert state.rings_held(0) == 2 and state.rings[INDEX["e6"]] == 1


def test_pass_when_no_move_exists() -> None:
    game = new_game()
    # every first step from a1 lands on an opponent cone, and the move is 2 steps: no jumping
    state = game.position({"a1": "b0", "a2": "w0", "b1": "w0", "b2": "w0"}, die="2")
    assert legal(state) == {"pass"}
    play(state, "pass")
    assert state.turn_player == 1
    # with a roll of 1 the same cone captures instead
    state = game.position({"a1": "b0", "a2": "w0", "b1": "w0", "b2": "w0"}, die="1")
    assert legal(state) == {"a1-a2", "a1-b1", "a1-b2"}


def test_eye_peeks_at_an_own_cone() -> None:
    game = new_game()
    state = game.position({"c3": "b4", "e5": "b0", "j12": "w2"}, die="eye")
    assert legal(state) == {"peek c3", "peek e5"}
    play(state, "peek c3")
    for seat in (0, 1, None):
        view = state.observation(seat)
        assert view["last_peek"] == "c3" and observed_cones(view)["c3"]["peeked"]
    assert observed_cones(state.observation(1))["c3"]["value"] is None
    assert state.turn_player == 1


def test_ring_face_moves_a_ring() -> None:
    game = new_game()
    state = game.position({"d4": "b0+", "e5": "b2", "f6": "b1", "j12": "w0"}, die="ring")
    assert legal(state) == {"ring d4-e5", "ring d4-f6"}
    play(state, "ring d4-f6")
    assert state.rings[INDEX["f6"]] == 1 and state.rings[INDEX["d4"]] == 0
    state = game.position({"d4": "b0#", "e5": "b2", "j12": "w0"}, die="ring")
    play(state, "ring d4-e5")
    assert state.rings[INDEX["e5"]] == 2  # a Double moves both rings together


def test_ring_face_without_a_ring_is_a_pass() -> None:
    game = new_game()
    state = game.position({"d4": "b0", "e5": "b2", "j12": "w0+"}, die="ring")
    assert legal(state) == {"pass"}


def test_set_aside_ring_goes_to_whoever_rolls_the_ring() -> None:
    game = new_game()
    state = game.position(
        {"d4": "b0+", "e5": "b2", "f6": "b1", "j12": "w0", "i12": "w1"},
        die="ring",
        set_aside=True,
    )
    assert legal(state) == {"ring *-e5", "ring *-f6"}  # onto an ordinary cone only
    play(state, "ring *-e5")
    assert not state.set_aside and state.rings_held(0) == 2
    state = game.position({"j12": "w0", "i12": "w1", "a1": "b0+"}, to_move=1, set_aside=True)
    play(state, "roll ring")
    assert legal(state) == {"ring *-j12", "ring *-i12"}


# ----- battles -----------------------------------------------------------------------------


def _lose_last_ring() -> tuple[BondoConesGame, BondoConesState]:
    game = new_game()
    # white's e7 captures black's only BondO on e5
    state = game.position(
        {"e5": "b2+", "a1": "b4", "b1": "b1", "e7": "w0", "j12": "w8+"}, to_move=1, die="2"
    )
    play(state, "e7-e5")
    return game, state


def test_losing_the_last_ring_opens_a_three_turn_window() -> None:
    _, state = _lose_last_ring()
    assert state.current_player() == 0 and legal(state) == {"battle", "roll"}
    assert state.windows[0] == 2  # this turn uses one
    play(state, "roll", "roll eye", "peek a1", "roll eye", "peek j12")
    assert legal(state) == {"battle", "roll"}  # second turn
    play(state, "roll", "roll eye", "peek a1", "roll eye", "peek j12")
    assert legal(state) == {"battle", "roll"}  # third turn
    play(state, "roll", "roll eye", "peek a1", "roll eye", "peek j12")
    assert state.current_player() == CHANCE  # the window has closed: roll at once
    assert state.windows[0] == 0


def test_no_battle_while_the_opponent_holds_no_ring() -> None:
    game = new_game()
    state = game.position({"a1": "b0", "j12": "w0"}, windows=(3, 0), set_aside=True)
    assert state.current_player() == CHANCE


def test_won_battle_takes_a_ring_then_rolls() -> None:
    _, state = _lose_last_ring()
    play(state, "battle")
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [
        (state.string_to_action("battle won"), 0.5),
        (state.string_to_action("battle lost"), 0.5),
    ]
    play(state, "battle won")
    assert legal(state) == {"take e5>a1", "take e5>b1", "take j12>a1", "take j12>b1"}
    play(state, "take j12>a1")
    assert state.rings[INDEX["a1"]] == 1 and state.rings[INDEX["j12"]] == 0
    assert state.current_player() == CHANCE  # and now the die, as usual
    play(state, "roll 1")
    assert state.turn_player == 0


def test_won_battle_against_a_double_sets_one_ring_aside() -> None:
    game = new_game()
    state = game.position({"a1": "b4", "j12": "w8#"}, windows=(3, 0))
    play(state, "battle", "battle won", "take j12>a1")
    assert state.rings[INDEX["a1"]] == 1 and state.rings[INDEX["j12"]] == 0
    assert state.set_aside
    assert state.windows[1] == 3  # white lost its last ring to the battle


def test_lost_battle_lets_the_opponent_spy() -> None:
    _, state = _lose_last_ring()
    play(state, "battle", "battle lost")
    assert state.current_player() == 1
    assert legal(state) == {"spy a1", "spy b1"}
    play(state, "spy a1")
    assert observed_cones(state.observation(1))["a1"]["value"] == 4
    assert observed_cones(state.observation(None))["a1"]["value"] is None
    assert observed_cones(state.observation(0))["a1"]["spied"]
    assert state.turn_player == 1  # the loser's turn is over
    assert state.windows[0] == 3  # a new window of three turns


def test_lost_battle_against_a_double_lets_the_opponent_seize() -> None:
    game = new_game()
    state = game.position({"a1": "b4", "b1": "b2", "j12": "w8#"}, windows=(3, 0))
    play(state, "battle", "battle lost")
    assert legal(state) == {"seize a1", "seize b1"}
    play(state, "seize a1")
    assert state.owner[INDEX["a1"]] == -1
    assert state.scores == [0, 4]


def test_each_lost_battle_renews_the_window() -> None:
    game = new_game()
    state = game.position({"a1": "b4", "b1": "b2", "j12": "w8+"}, windows=(1, 0))
    play(state, "battle", "battle lost", "spy b1")
    play(state, "roll eye", "peek j12")
    assert legal(state) == {"battle", "roll"}
    assert state.windows[0] == 2


# ----- the end -----------------------------------------------------------------------------


def test_reaching_the_target_wins() -> None:
    game = new_game(target=10)
    state = game.position({"e5": "b1", "e6": "w2", "j12": "w0"}, scores=(8, 0), die="1")
    play(state, "e5-e6")
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, -1.0]


def test_seizing_can_win() -> None:
    game = new_game(target=10)
    state = game.position({"a1": "b4", "b1": "b2", "j12": "w8#"}, windows=(3, 0), scores=(0, 6))
    play(state, "battle", "battle lost", "seize a1")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_turn_cap_is_a_draw() -> None:
    game = new_game(max_turns=2)
    state = play(set_up(game), "first 0", "roll eye", "peek a1")
    assert not state.is_terminal()
    play(state, "roll eye", "peek a12")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.observation(0)["winner"] == "draw"


def test_illegal_actions_are_refused_with_a_reason() -> None:
    game = new_game()
    state = game.position({"e5": "b1", "j12": "w0"}, die="3")
    with pytest.raises(IllegalActionError, match="exactly 3 steps"):
        state.apply_action(state.string_to_action("e5-e6"))
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="value 8"):
        state.apply_action(state.string_to_action("put e5"))


def test_setup_helper_is_a_chosen_setup() -> None:
    state = set_up(new_game())
    assert state.value[INDEX["a1"]] == 8 and state.value[INDEX["d9"]] == 8
    assert setup_puts(0)[0] == "put a1"


def test_losing_the_last_ring_to_a_won_battle_opens_a_window() -> None:
    game = new_game()
    state = game.position({"a1": "b4", "j12": "w8+", "i12": "w0"}, windows=(3, 0))
    play(state, "battle", "battle won", "take j12>a1", "roll eye", "peek a1")
    assert state.turn_player == 1
    assert legal(state) == {"battle", "roll"}  # white may fight for its ring at once
    play(state, "battle", "battle lost")
    assert legal(state) == {"spy j12", "spy i12"}  # black holds a single ring: a spy


def test_random_games_keep_the_invariants() -> None:
    """Values and rings are never created or lost; scores are what was captured."""
    from boneyard.testing import random_action

    rng = random.Random(11)
    for params in ({"target": 10}, {"target": 10, "setup": "random"}):
        game = new_game(**params)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(random_action(state, rng))
                if state.phase <= 1:  # still setting up
                    continue
                for seat in (0, 1):
                    on_board = [state.value[sq] for sq in range(120) if state.owner[sq] == seat]
                    taken = state.captured[1 - seat]
                    assert sorted(on_board + taken) == sorted(VALUES)
                    assert state.scores[seat] == sum(state.captured[seat])
                    assert 0 <= state.windows[seat] <= 3
                assert sum(state.rings) + state.set_aside == 2
            assert max(state.scores) >= 10 or state.turns == game.max_turns


def test_worked_example_bondo_two_forward_then_two_aside() -> None:
    """The rule text: with a 4, a BondO cone may go two steps forward, then two to the side."""
    game = new_game()
    state = game.position({"e3": "b2+", "j12": "w0"}, die="4")
    assert "e3-g5" in legal(state)  # e4, e5, then f5, g5
    plain = game.position({"e3": "b2", "j12": "w0"}, die="4")
    assert "e3-g5" not in legal(plain)  # an ordinary cone keeps its direction


def test_worked_example_the_edge_is_a_barrier() -> None:
    """The rule text: a cone two steps from the right border cannot go four steps right."""
    game = new_game()
    state = game.position({"h5": "b2", "a12": "w0"}, die="4")
    destinations = {move.split("-")[1] for move in legal(state)}
    assert destinations == {"h9", "d9", "d5", "d1", "h1"}  # nothing to the right: i, j too near
