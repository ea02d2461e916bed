"""Every rule of two-player OYNO (RULINGS.md, "OYNO two-player")."""

from __future__ import annotations

import pytest

import boneyard
from boneyard import CHANCE, TERMINAL, IllegalActionError, InvalidParameterError


def duel(start: str | None = None, **params: object) -> boneyard.State:
    if start is not None:
        params["start"] = start
    # the tests below the place_rule section were written for the all_up reading: they name it
    params.setdefault("place_rule", "all_up")
    return boneyard.load_game("oyno", **params).new_initial_state()


def play(state: boneyard.State, *actions: str) -> None:
    for action in actions:
        state.apply_action(state.string_to_action(action))


def position(state: boneyard.State) -> str:
    return str(state.observation(None)["position"])


def strings(state: boneyard.State) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def test_red_moves_first_on_an_empty_board_and_must_place() -> None:
    state = duel()
    assert state.current_player() == 0
    assert position(state) == "...../...../..o../...../....."
    assert strings(state) == {f"place {c}{r}" for c in "abcde" for r in "12345"} - {"place c3"}
    assert state.observation(None)["supply"] == [8, 8]


def test_place_puts_the_bone_up_and_reverses_neighbours_of_both_colours() -> None:
    # red places on b2: a2 (white up) and b1 (red up) turn down, c2 (white down) turns up
    state = duel("...../...../..o../W.w../.R...", bones_per_player=3)
    assert state.current_player() == 0
    play(state, "place b2")
    assert position(state) == "...../...../..o../wRW../.r..."
    assert state.observation(None)["supply"] == [1, 1]
    assert state.current_player() == 1


def test_place_is_forced_while_every_own_bone_is_up() -> None:
    state = duel("...../...../..o../...../R...W", bones_per_player=3)
    assert strings(state) == {f"place {c}{r}" for c in "abcde" for r in "12345"} - {
        "place c3",
        "place a1",
        "place e1",
    }


def test_with_a_down_bone_no_place_but_moves_and_flips() -> None:
    state = duel("...../...../..o../...../r...W", bones_per_player=3)
    legal = strings(state)
    assert not any(s.startswith("place") for s in legal)
    assert "flip a1" in legal
    assert "move a1-b2" in legal
    assert not any(s.startswith("move e1") or s == "flip e1" for s in legal)
    with pytest.raises(IllegalActionError, match="down bone on the board"):
        play(state, "place b2")


def test_with_an_empty_supply_moves_of_up_bones_are_allowed() -> None:
    state = duel("...../...../..o../...../Rr..W", bones_per_player=2)
    legal = strings(state)
    assert "move a1-e5" in legal and "move b1-e5" in legal and "flip b1" in legal
    assert not any(s.startswith("place") for s in legal)


def test_flip_turns_one_own_down_bone_up_and_nothing_else() -> None:
    state = duel("...../...../..o../w..../r...W", bones_per_player=3)
    play(state, "flip a1")
    assert position(state) == "...../...../..o../w..../R...W"


def test_move_takes_a_down_bone_and_reverses_around_both_cells() -> None:
    # red's down bone a1 goes to a3 and lands up. Leaving a1 reverses a2 (white) and b1 (red);
    # landing on a3 reverses a2 back, and a4 (white) and b3 (red).
    state = duel("...../W..../.Ro../w..../rR...", bones_per_player=4)
    play(state, "move a1-a3")
    assert position(state) == "...../w..../Rro../w..../.r..."


def test_win_when_all_own_bones_are_placed_and_up() -> None:
    state = duel("...../...../..o../...../r...w", bones_per_player=1)
    play(state, "flip a1")
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, -1.0]


def test_opponent_wins_when_the_move_completes_only_the_opponent() -> None:
    # red must move its down bone; landing on b5 reverses white a5 (down -> up): white has every
    # bone placed and up, red still has a down bone: white wins on red's move.
    state = duel("w..../...../..o.W/...../r...R", bones_per_player=2)
    play(state, "move e1-b5")
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]


def test_mover_wins_first_when_a_move_completes_both_players() -> None:
    # red moves its up bone e1 to b5: beside b5 are a5 (white down -> up) and c5 (red down ->
    # up). Both sets are now complete: the mover (red) wins.
    state = duel("w.r../...../..o.W/...../....R", bones_per_player=2)
    play(state, "move e1-b5")
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]


def test_third_repetition_is_a_draw() -> None:
    state = duel("r...w/...../..o../...../R...W", bones_per_player=2)
    cycle = ["move a1-b1", "move e1-d1", "move b1-a1", "move d1-e1"]
    play(state, *cycle)
    assert not state.is_terminal()
    assert state.observation(None)["repetitions"] == 2
    play(state, *cycle[:3])
    assert not state.is_terminal()
    play(state, cycle[3])
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.observation(None)["draw"] is True


def test_max_moves_is_a_draw() -> None:
    state = duel(max_moves=3)
    play(state, "place a1", "place e5", "place a5")
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]


# ----- wild variant -----------------------------------------------------------------------------


def test_wild_actions_only_with_the_variant() -> None:
    assert not any("wild" in s for s in strings(duel()))
    state = duel(wild=True)
    assert "place b2 wild" in strings(state)
    with pytest.raises(IllegalActionError, match="wild variant"):
        plain = duel()
        plain.apply_action(plain.string_to_action("place b2 wild"))


@pytest.mark.parametrize(("roll", "side"), [("up", "R"), ("down", "r")])
def test_wild_place_rolls_then_reverses_neighbours(roll: str, side: str) -> None:
    state = duel("...../...../..o../W..../.....", wild=True, bones_per_player=2)
    play(state, "place b2 wild")
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["down", "up"]
    # the neighbours are reversed only after the roll
    assert position(state) == "...../...../..o../W..../....."
    assert state.observation(None)["rolling"] == "b2"
    play(state, roll)
    assert position(state) == f"...../...../..o../w{side}.../....."
    assert state.current_player() == 1


def test_wild_move_rolls_the_landing_side() -> None:
    state = duel("...../...../..o../...../r...W", wild=True, bones_per_player=2)
    play(state, "move a1-a5 wild")
    assert state.current_player() == CHANCE
    play(state, "down")
    assert position(state) == "r..../...../..o../...../....W"
    assert state.current_player() == 1


# ----- parameters and notation ------------------------------------------------------------------


def test_action_ids_follow_the_documented_layout() -> None:
    state = duel(wild=True)
    n = 25
    assert state.string_to_action("place b2") == 6
    assert state.string_to_action("place b2 wild") == n + 6
    assert state.string_to_action("move b2-d4") == 2 * n + 6 * n + 18
    assert state.string_to_action("move b2-d4 wild") == 2 * n + n * n + 6 * n + 18
    assert state.string_to_action("flip b2") == 2 * n + 2 * n * n + 6


def test_bad_action_strings_explain() -> None:
    state = duel()
    with pytest.raises(boneyard.InvalidActionStringError, match="'place b2', 'move b2-d4'"):
        state.string_to_action("jump b2")
    with pytest.raises(boneyard.InvalidActionStringError, match="center"):
        state.string_to_action("place c3")


@pytest.mark.parametrize(
    ("start", "fragment"),
    [
        ("R...w/.W.../..o../...U./.....", "rank 2, cell d2: 'U' is not one of R, r, W, w"),
        ("R...w/.W.../..o../...r./..... x", "'r' (red to move) or 'w'"),
        ("R...w/.W.../..o../...r.", "4 ranks"),
    ],
)
def test_bad_start_names_the_fault(start: str, fragment: str) -> None:
    with pytest.raises(InvalidParameterError) as error:
        boneyard.load_game("oyno", start=start)
    assert fragment in str(error.value)


def test_start_with_white_to_move_and_supplies() -> None:
    state = duel("R...w/.W.../..o../...r./..... w", bones_per_player=4)
    assert state.current_player() == 1
    assert state.observation(None)["supply"] == [2, 2]


def test_too_many_bones_for_the_board() -> None:
    with pytest.raises(InvalidParameterError, match="allowed is 1 to 3"):
        boneyard.load_game("oyno", size=3, bones_per_player=4)


def test_evaluate_compares_placed_and_up_bones() -> None:
    # red: 3 placed, 2 up (2*3 + 2 = 8); white: 2 placed, 1 up (5); nobody must place
    game = boneyard.load_game("oyno", start="RR..w/.W.../..o../...r./.....", bones_per_player=4)
    state = game.new_initial_state()
    assert game.evaluate(state, 0) == pytest.approx(0.8 * (8 - 5) / (3 * 4 + 1))
    assert game.evaluate(state, 1) == pytest.approx(-0.8 * (8 - 5) / (3 * 4 + 1))


def test_observation_tensor_has_the_declared_shape() -> None:
    game = boneyard.load_game("oyno")
    tensor = game.observation_tensor(game.new_initial_state().observation(0))
    assert (len(tensor),) == game.observation_tensor_shape()


# ----- place_rule=supply: "if you hold a bone" read as "if your supply holds one" ----------


def test_place_rule_defaults_to_supply_and_refuses_other_words() -> None:
    # supply became the default: under it the small duels can be won (docs/rules/oyno.md)
    state = boneyard.load_game("oyno", start="...../...../..o../...../r...W").new_initial_state()
    assert state.game.params["place_rule"] == "supply"
    assert "place b2" in strings(state) and "flip a1" in strings(state)
    with pytest.raises(InvalidParameterError, match="'supply', 'all_up'"):
        boneyard.load_game("oyno", place_rule="always")


def test_supply_reading_allows_a_place_beside_moves_and_flips_with_a_down_bone() -> None:
    state = duel("...../...../..o../...../r...W", bones_per_player=3, place_rule="supply")
    legal = strings(state)
    empty = {f"{c}{r}" for c in "abcde" for r in "12345"} - {"c3", "a1", "e1"}
    assert {s for s in legal if s.startswith("place")} == {f"place {cell}" for cell in empty}
    assert "flip a1" in legal and "move a1-b2" in legal
    assert state.legal_actions() == sorted(state.legal_actions())
    with pytest.raises(IllegalActionError, match="e1 is not empty"):
        play(state, "place e1")
    # the place does what a forced one does: the bone up, the neighbours reversed (a1 turns up)
    play(state, "place b1")
    assert position(state) == "...../...../..o../...../RR..W"
    assert state.observation(None)["supply"] == [1, 2]


def test_supply_reading_still_forces_the_place_while_every_own_bone_is_up() -> None:
    forced = duel("...../...../..o../...../R...W", bones_per_player=3, place_rule="supply")
    assert all(s.startswith("place") for s in strings(forced))
    with pytest.raises(IllegalActionError, match="must place a new bone"):
        play(forced, "move a1-b2")


def test_supply_reading_allows_no_place_from_an_empty_supply() -> None:
    state = duel("...../...../..o../...../Rr..W", bones_per_player=2, place_rule="supply")
    assert not any(s.startswith("place") for s in strings(state))
    with pytest.raises(IllegalActionError, match="no bone left in supply"):
        play(state, "place c1")


def test_supply_reading_place_can_win_by_turning_own_down_bones_up() -> None:
    # red's last bone goes on b1: it stands up and turns a1 (red, down) up: every red bone up
    state = duel("...../...../..o../...../r...W", bones_per_player=2, place_rule="supply")
    play(state, "place b1")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_supply_reading_wild_place_beside_moves() -> None:
    state = duel(
        "...../...../..o../...../r...W", bones_per_player=3, place_rule="supply", wild=True
    )
    legal = strings(state)
    assert "place b2 wild" in legal and "place b2" in legal and "flip a1" in legal
    play(state, "place b2 wild")
    assert state.current_player() == CHANCE
