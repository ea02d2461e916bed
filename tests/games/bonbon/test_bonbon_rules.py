"""Bon-Bon rules: every ruling of RULINGS.md "Bon-Bon" and the rule text's worked examples."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.games.bonbon.bonbon_helpers import game, new, play, run_of, strings, write_deck

from boneyard import CHANCE, TERMINAL, IllegalActionError
from boneyard.games.bonbon.rules import (
    COLLECTIVE_LIMITS,
    DRAWING,
    ELIMINATED,
    IN_PLAY,
    PASSED,
    TILES,
    score_run,
)

# ----- the start of a round -------------------------------------------------------------------


def test_a_round_starts_with_the_tile_draw_weighted_by_ways() -> None:
    state = new()
    assert state.current_player() == CHANCE
    outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    # Tiles 1,1,2,2,3,3: C(6,3) = 20 draws; "1 2 3" in 2*2*2 = 8 ways, "1 1 2" in 1*2 = 2.
    assert outcomes["tiles 1 2 3"] == pytest.approx(8 / 20)
    assert outcomes["tiles 1 1 2"] == pytest.approx(2 / 20)
    assert "tiles 1 1 1" not in outcomes
    assert len(outcomes) == 7
    assert sum(outcomes.values()) == pytest.approx(1)


def test_seat_0_starts_the_first_round() -> None:
    state = new("tiles 1 2 3", players=4)
    assert state.current_player() == 0


def test_bonus_tile_values_are_a_parameter() -> None:
    state = new(tiles="0,5,5,9")
    outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert outcomes == pytest.approx({"tiles 0 5 5": 0.25, "tiles 0 5 9": 0.5, "tiles 5 5 9": 0.25})


# ----- taking or passing ----------------------------------------------------------------------


def test_the_first_to_pass_takes_one_of_the_tiles_on_offer() -> None:
    state = new("tiles 1 1 3", players=3)
    assert strings(state) == ["draw", "bonus 1", "bonus 3"]
    with pytest.raises(IllegalActionError, match="bonus tile"):
        play(state, "pass")
    play(state, "bonus 3")
    assert state.tile_taken == [3, -1, -1]
    assert state.status[0] == PASSED
    assert strings(state) == ["pass", "draw"]
    with pytest.raises(IllegalActionError, match="first player to pass"):
        play(state, "bonus 1")


def test_a_draw_is_a_chance_event_weighted_by_the_cards_left() -> None:
    state = new("tiles 1 2 3", "draw")
    assert state.current_player() == CHANCE
    outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert outcomes["card 1"] == pytest.approx(12 / 77)
    assert outcomes["card 6!"] == pytest.approx(2 / 77)
    assert outcomes["card caught"] == pytest.approx(2 / 77)
    play(state, "card 1", "down", "draw")
    outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert outcomes["card 1"] == pytest.approx(11 / 76)


def test_the_turn_passes_clockwise_to_the_next_seat_in_play() -> None:
    state = new("tiles 1 2 3", "draw", "card 1", "up", players=4)
    assert state.current_player() == 1
    play(state, "bonus 2", "pass")  # seats 1 and 2 pass
    assert state.current_player() == 3
    play(state, "draw", "card 2", "down")
    assert state.current_player() == 0


def test_a_round_ends_when_no_seat_is_in_play() -> None:
    state = new("tiles 1 2 3", "draw", "card 4", "down", "bonus 3")
    assert state.current_player() == 0  # seat 0 alone goes on
    play(state, "draw", "card 2", "up", "pass")
    assert state.rounds_played == 1
    assert state.phase == TILES


# ----- face up, face down, face-up-only ---------------------------------------------------------


def test_face_up_moves_the_marker_and_face_down_does_not() -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "up", "draw", "card 2", "down", players=3)
    assert state.marker == 3
    assert state.up_total == [3, 0, 0]
    assert run_of(state, 0) == ["3"]
    assert run_of(state, 1) == ["(2)"]


def test_face_up_only_cards_go_face_up_without_a_choice() -> None:
    state = new("tiles 1 2 3", "draw", "card 4!", players=3)
    assert run_of(state, 0) == ["4!"]
    assert state.marker == 4
    assert state.current_player() == 1


def test_a_plain_card_asks_up_or_down() -> None:
    state = new("tiles 1 2 3", "draw", "card 4")
    assert strings(state) == ["up", "down"]
    assert state.current_player() == 0


# ----- limits ---------------------------------------------------------------------------------


def test_the_collective_limit_table() -> None:
    assert COLLECTIVE_LIMITS == {2: 10, 3: 15, 4: 20, 5: 30, 6: 36}
    for players, limit in COLLECTIVE_LIMITS.items():
        assert game(players=players).collective_limit == limit


def test_the_personal_limit_eliminates_above_10_and_the_round_goes_on() -> None:
    # 4 players: the collective limit is 20.
    state = new("tiles 1 2 3", "draw", "card 5!", "draw", "card 1", "down", players=4)
    play(state, "bonus 1", "pass", "draw", "card 5!")
    assert state.up_total[0] == 10
    assert state.status[0] == IN_PLAY  # exactly 10 is allowed
    play(state, "draw", "card 1", "down", "draw", "card 1", "up")
    assert state.up_total[0] == 11
    assert state.status == [ELIMINATED, IN_PLAY, PASSED, PASSED]
    assert state.current_player() == 1
    assert state.rounds_played == 0
    play(state, "pass")
    assert state.last_scores == [None, 3, 1, 0]  # seat 1: two face-down 1s in a group


def test_the_personal_limit_shrinks_by_one_per_round_won() -> None:
    state = game(players=4).new_initial_state()
    state.wins = [1, 0, 0, 0]
    play(state, "tiles 1 2 3", "draw", "card 6!", "draw", "card 6!")
    play(state, "draw", "card 1", "down", "draw", "card 1", "down")
    play(state, "draw", "card 4!")
    assert state.up_total[0] == 10
    assert state.status[0] == ELIMINATED  # limit 9
    play(state, "draw", "card 4!")
    assert state.up_total[1] == 10
    assert state.marker == 20
    assert state.status[1] == IN_PLAY  # limit 10


def test_breaking_the_collective_limit_eliminates_the_responsible_and_ends_the_round() -> None:
    # Two players, collective limit 10; seat 1's 6! takes the marker to 11.
    state = new("tiles 1 2 3", "draw", "card 5!", "draw", "card 6!")
    assert state.rounds_played == 1
    assert state.last_scores == [5, None]
    assert state.wins == [1, 0]


def test_the_collective_limit_is_checked_before_the_personal_limit() -> None:
    state = new("tiles 1 2 3", "draw", "card 1", "down", "draw", "card 5!")
    play(state, "draw", "card 2", "down", "draw", "card 6!")  # seat 1: 11 up, marker 11
    assert state.rounds_played == 1
    # The round ended at once: seat 0 (in play) lost its trailing face-down cards.
    assert state.last_scores == [0, None]
    assert state.last_cards == [0, 2]


def test_johns_run_loses_its_last_two_face_down_cards() -> None:
    """Rule text example: the collective limit breaks; face-down cards after the last face-up
    card are discarded, the earlier ones are safe."""
    state = new("tiles 1 2 3", players=3)
    play(state, "draw", "card 2", "down")  # seat 0: (2)
    play(state, "draw", "card 5", "up")  # seat 1, marker 5
    play(state, "draw", "card 5", "up")  # seat 2, marker 10
    play(state, "draw", "card 1", "up")  # seat 0: (2) 1, marker 11
    play(state, "bonus 3")  # seat 1 passes with the tile worth 3
    play(state, "draw", "card 4", "down")  # seat 2
    play(state, "draw", "card 3", "down")  # seat 0: (2) 1 (3)
    play(state, "draw", "card 1", "down")  # seat 2
    play(state, "draw", "card 2", "down")  # seat 0: (2) 1 (3) (2)
    assert run_of(state, 0) == ["(2)", "1", "(3)", "(2)"]
    play(state, "draw", "card 5!")  # seat 2 takes the marker to 16 > 15
    assert state.rounds_played == 1
    assert state.last_cards == [2, 1, 4]  # seat 0 kept (2) 1
    assert state.last_scores == [3, 8, None]  # seat 1: its 5 and the tile worth 3
    assert state.last_winners == [1]


def test_passed_players_keep_their_face_down_cards_when_the_collective_limit_breaks() -> None:
    state = new("tiles 1 2 3", "draw", "card 4", "down", "draw", "card 5!", "bonus 2")
    play(state, "draw", "card 6!")  # seat 1: marker 11
    assert state.last_scores == [6, None]  # 4 + tile 2
    assert state.last_cards == [1, 2]


# ----- empty wrappers -------------------------------------------------------------------------


def test_susans_wrapper_reveals_3_points_and_offers_another_card() -> None:
    """Rule text example: the wrapper turns up the face-down cards back to the last face-up
    card; they are worth 3, no limit breaks, and Susan may take another card."""
    state = new("tiles 1 2 3", players=3)
    play(state, "draw", "card 2", "down")  # seat 0: (2), stays hidden: before a face-up card
    play(state, "bonus 1", "pass")
    play(state, "draw", "card 1", "up", "draw", "card 2", "down", "draw", "card 1", "down")
    assert run_of(state, 0) == ["(2)", "1", "(2)", "(1)"]
    assert state.marker == 1
    play(state, "draw", "card wrapper")
    assert run_of(state, 0) == ["(2)", "1", "2", "1", "wrapper"]
    assert state.marker == 4
    assert state.up_total[0] == 4
    assert state.current_player() == 0
    assert strings(state) == ["draw", "end"]
    play(state, "draw")
    assert state.current_player() == CHANCE


def test_ending_after_a_wrapper_passes_the_turn() -> None:
    state = new("tiles 1 2 3", "draw", "card wrapper", players=3)
    assert strings(state) == ["draw", "end"]
    play(state, "end")
    assert state.current_player() == 1


def test_a_wrapper_that_breaks_a_limit_offers_nothing() -> None:
    state = new("tiles 1 2 3", "draw", "card 5!", "draw", "card 1", "down", players=4)
    play(state, "bonus 1", "pass", "draw", "card 4", "down", "draw", "card 1", "down")
    play(state, "draw", "card 3", "down", "draw", "card 1", "down", "draw", "card wrapper")
    assert state.up_total[0] == 12
    assert state.status[0] == ELIMINATED
    assert state.current_player() == 1
    assert strings(state) == ["pass", "draw"]


def test_no_extra_card_after_a_wrapper_when_the_deck_is_empty(tmp_path: Path) -> None:
    deck = write_deck(
        tmp_path / "tiny.toml",
        ("one", 1, 1, False, "none"),
        ("wrapper", 0, 1, True, "wrapper"),
    )
    state = new("tiles 1 2 3", "draw", "card 1", "down", "draw", "card wrapper", deck=deck)
    assert state.deck_left == 0
    assert state.current_player() == 0  # seat 1's turn ended; seat 0 may only pass
    assert strings(state) == ["bonus 1", "bonus 2", "bonus 3"]


def test_only_passing_is_left_when_the_deck_is_empty(tmp_path: Path) -> None:
    deck = write_deck(tmp_path / "one.toml", ("one", 1, 1, False, "none"))
    state = new("tiles 1 2 3", "draw", "card 1", "up", "bonus 2", deck=deck)
    assert strings(state) == ["pass"]
    with pytest.raises(IllegalActionError, match="deck is empty"):
        play(state, "draw")


# ----- effect cards ---------------------------------------------------------------------------


def test_peek_shows_the_top_card_to_the_drawer_and_it_is_the_next_draw() -> None:
    state = new("tiles 1 2 3", "draw", "card peek", "down")
    assert state.current_player() == CHANCE  # the peek
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1)
    assert len(outcomes) == 14
    peek_four = state.string_to_action("card 4")
    assert state.action_string_for(0, peek_four) == "card 4"
    assert state.action_string_for(1, peek_four) == "card ?"
    assert state.action_string_for(None, peek_four) == "card ?"
    play(state, "card 4")
    assert state.current_player() == 1
    assert state.observation(0)["peek"] == {"by": 0, "card": "4"}
    assert state.observation(1)["peek"] == {"by": 0, "card": None}
    play(state, "draw")
    assert state.chance_outcomes() == [(peek_four, 1.0)]
    play(state, "card 4", "down")
    # The peeker knows the card seat 1 played face down; the drawer does too.
    assert state.observation(0)["runs"][1] == [{"card": "4", "up": False, "seen_by": [0, 1]}]
    assert state.observation(0)["peek"] is None
    assert state.counts[state.game.label_kind["4"]] == 7


def test_second_helping_makes_the_drawer_draw_again_at_once() -> None:
    state = new("tiles 1 2 3", "draw", "card second", "up", players=3)
    assert state.phase == DRAWING
    assert state.turn == 0
    play(state, "card 2", "down")
    assert run_of(state, 0) == ["second", "(2)"]
    assert state.current_player() == 1


def test_no_effect_when_the_effect_card_eliminates_its_drawer() -> None:
    state = new("tiles 1 2 3", "draw", "card 5!", "draw", "card 1", "down", players=4)
    play(state, "bonus 1", "pass", "draw", "card 5!", "draw", "card 1", "down")
    play(state, "draw", "card second", "up")  # 11 > 10: eliminated, no second draw
    assert state.status[0] == ELIMINATED
    assert state.current_player() == 1
    assert strings(state) == ["pass", "draw"]


def test_a_gift_goes_face_up_at_the_end_of_another_players_run() -> None:
    state = new("tiles 1 2 3", "draw", "card 1", "down", "draw", "card gift", players=3)
    assert strings(state) == ["gift 0", "gift 2"]
    play(state, "gift 0")
    assert run_of(state, 0) == ["(1)", "gift"]
    assert run_of(state, 1) == []
    assert state.up_total == [2, 0, 0]
    assert state.marker == 2
    assert state.current_player() == 2


def test_the_gifted_player_is_responsible_when_a_limit_breaks() -> None:
    state = new("tiles 1 2 3", "draw", "card 6!", "draw", "card 6!", "bonus 1", players=3)
    # Marker 12 of 15; seat 0 draws a gift and gives it to seat 1 (face-up 8): marker 14.
    play(state, "draw", "card gift", "gift 1")
    assert state.up_total == [6, 8, 0]
    assert state.status == [IN_PLAY, IN_PLAY, PASSED]
    play(state, "draw", "card 1", "down", "draw", "card gift", "gift 1")  # marker 16
    assert state.rounds_played == 1
    assert state.last_scores == [6, None, 1]  # seat 1, the receiver, is out


def test_a_gift_with_nobody_else_in_play_goes_into_the_own_run() -> None:
    state = new("tiles 1 2 3", "bonus 1", "draw", "card gift")
    assert run_of(state, 1) == ["gift"]
    assert state.up_total == [0, 2]
    assert state.current_player() == 1


def test_caught_reveals_another_players_trailing_face_down_cards() -> None:
    state = new("tiles 1 2 3", players=3)
    play(state, "draw", "card 1", "up")
    play(state, "draw", "card 2", "down", "draw", "card 3", "down")  # seats 1 and 2
    play(state, "draw", "card 4", "down")  # seat 0
    play(state, "draw", "card caught")  # seat 1
    assert run_of(state, 1) == ["(2)", "caught"]
    assert strings(state) == ["catch 0", "catch 2"]
    play(state, "catch 0")
    assert run_of(state, 0) == ["1", "4"]
    assert state.marker == 5
    assert state.up_total == [5, 0, 0]
    assert state.current_player() == 2


def test_the_caught_player_is_eliminated_if_its_limit_breaks() -> None:
    state = new("tiles 1 2 3", players=4)
    play(state, "draw", "card 5!", "draw", "card caught")  # seat 1: nobody has face-down cards
    play(state, "catch 0")  # nothing to reveal
    assert state.marker == 5
    play(state, "bonus 1", "pass")  # seats 2 and 3
    play(state, "draw", "card 4", "down", "draw", "card 2", "down", "draw", "card 2", "down")
    play(state, "draw", "card caught", "catch 0")  # seat 1 catches seat 0: 5 + 6 = 11
    assert state.up_total[0] == 11
    assert state.status[0] == ELIMINATED
    assert state.status[1] == IN_PLAY
    assert state.current_player() == 1


def test_caught_with_nobody_else_in_play_does_nothing_more() -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "down", "bonus 2", "draw", "card caught")
    assert run_of(state, 0) == ["(3)", "caught"]
    assert state.current_player() == 0
    assert strings(state) == ["pass", "draw"]


# ----- scoring and round winners ----------------------------------------------------------------


def test_the_score_of_14() -> None:
    """Rule text example: printed values 12, face-down groups of one and of three cards: 14."""
    run = [(3, True), (2, False), (1, True), (2, False), (2, False), (2, False)]
    assert sum(v for v, _ in run) == 12
    assert score_run(run) == 14
    assert score_run(run, tile=3) == 17


def test_the_score_of_14_in_play() -> None:
    state = new("tiles 1 2 3", "bonus 1")  # seat 0 passes at once; seat 1 plays alone
    play(state, "draw", "card 3", "up", "draw", "card 2", "down", "draw", "card 1", "up")
    for _ in range(3):
        play(state, "draw", "card 2", "down")
    play(state, "pass")
    assert state.last_scores == [1, 14]
    assert state.last_winners == [1]


def test_a_face_down_group_counts_its_size_minus_one() -> None:
    assert score_run([(1, False)]) == 1
    assert score_run([(1, False), (1, False)]) == 3
    assert score_run([(1, False), (1, True), (1, False)]) == 3
    assert score_run([]) == 0


def test_a_tie_goes_to_the_player_with_more_cards() -> None:
    state = new("tiles 1 2 3", "draw", "card 4", "down", "draw", "card 1", "down", "bonus 1")
    play(state, "draw", "card 1", "down", "draw", "card 1", "down", "pass")
    # seat 0: 4 + tile 1 = 5 with 1 card; seat 1: 1+1+1 + 2 = 5 with 3 cards.
    assert state.last_scores == [5, 5]
    assert state.last_cards == [1, 3]
    assert state.last_winners == [1]
    assert state.wins == [0, 1]


def test_a_full_tie_is_shared() -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "down", "draw", "card 2", "down", "bonus 1")
    play(state, "pass")
    assert state.last_scores == [4, 2]
    state = new("tiles 1 2 3", "draw", "card 3", "up", "draw", "card 4", "up", "bonus 1")
    play(state, "pass")
    assert state.last_scores == [4, 4]
    assert state.last_winners == [0, 1]
    assert state.wins == [1, 1]


def test_eliminated_players_do_not_score() -> None:
    state = new("tiles 1 2 3", "draw", "card 1", "up", "draw", "card 5!", "bonus 1")
    play(state, "draw", "card 5!")  # seat 1: 10, marker 11 > 10
    assert state.last_scores == [2, None]
    assert state.last_winners == [0]


def test_everyone_eliminated_means_no_round_winner() -> None:
    state = new("tiles 1 2 3", players=3)
    play(state, "draw", "card 6!", "draw", "card 5!", "bonus 1")
    play(state, "draw", "card 5!")  # seat 0: 11 > 10, but first the marker 16 > 15 ends it
    assert state.last_scores == [None, 5, 1]
    state = game().new_initial_state()
    state.wins = [2, 0]
    play(state, "tiles 1 2 3", "draw", "card 5!", "draw", "card 1", "down", "draw", "card 4!")
    assert state.status[0] == ELIMINATED  # 9 > 8, marker 9
    play(state, "draw", "card 3!")  # seat 1: marker 12 > 10
    assert state.last_scores == [None, None]
    assert state.last_winners == []
    assert state.wins == [2, 0]


def _five_player_round(*last: str, players: int = 5) -> list[int]:
    state = new("tiles 1 2 3", players=players)
    play(state, "draw", "card 5", "down", "draw", "card 4", "down", "draw", "card 4", "down")
    play(state, "draw", "card 1", "down")
    play(state, *last)
    while state.rounds_played == 0:
        play(state, "pass")
    return state.last_winners


def test_two_winners_with_five_or_six_players_and_ties_with_the_last() -> None:
    # Scores 5, 4, 4, 1, and seat 4 passes first with the tile worth 3.
    assert _five_player_round("bonus 3") == [0, 1, 2]
    assert _five_player_round("draw", "card 3", "down", "bonus 1", players=6) == [0, 1, 2]
    assert _five_player_round("draw", "card 5", "down", "bonus 1", players=6) == [0, 4]


def test_one_winner_with_four_players() -> None:
    state = new("tiles 1 2 3", players=4)
    play(state, "draw", "card 5", "down", "draw", "card 4", "down", "draw", "card 4", "down")
    play(state, "bonus 1", "pass", "pass", "pass")
    assert state.last_winners == [0]


# ----- the next round and the end of the game ---------------------------------------------------


def test_the_next_round_starts_after_the_last_seat_that_drew() -> None:
    state = new("tiles 1 2 3", "draw", "card 1", "down", "bonus 1", players=3)
    play(state, "draw", "card 1", "down", "pass", "pass")
    assert state.last_drawer == 2
    assert state.round_starter == 0
    play(state, "tiles 1 2 3", "draw", "card 2", "up", "bonus 1", "pass", "pass")
    assert state.round_starter == 1
    play(state, "tiles 1 2 3")
    assert state.current_player() == 1
    # Nobody draws this round: the seat after the last one that drew (0, last round) starts.
    play(state, "bonus 1", "pass", "pass")
    assert state.round_starter == 1


def test_the_seat_after_the_starter_starts_when_nobody_has_drawn_yet() -> None:
    state = new("tiles 1 2 3", "bonus 1", "pass", players=3)
    play(state, "pass")
    assert state.round_starter == 1
    play(state, "tiles 1 2 3", "bonus 1", "pass", "pass")
    assert state.round_starter == 2


def test_the_game_ends_when_a_player_wins_its_third_round() -> None:
    state = game().new_initial_state()
    state.wins = [2, 2]
    play(state, "tiles 1 2 3", "draw", "card 3", "up", "bonus 1", "pass")
    assert state.current_player() == TERMINAL
    assert state.winners == [0]
    assert state.returns() == [1.0, 0.0]
    assert state.legal_actions() == []


def _third_wins(first: tuple[str, ...], second: tuple[str, ...]) -> list[int]:
    state = game(players=5).new_initial_state()
    state.wins = [2, 2, 0, 0, 0]
    play(state, "tiles 1 2 3", *first, *second, "bonus 1", "pass", "pass")
    while not state.is_terminal():
        play(state, "pass")
    return state.winners


def test_simultaneous_third_wins_go_to_the_higher_score() -> None:
    winners = _third_wins(("draw", "card 5", "up"), ("draw", "card 4", "up"))
    assert winners == [0]


def test_simultaneous_third_wins_then_to_more_cards() -> None:
    state = game(players=5).new_initial_state()
    state.wins = [2, 2, 0, 0, 0]
    play(state, "tiles 1 2 3", "draw", "card 4", "up", "draw", "card 3", "up")
    play(state, "bonus 1", "pass", "pass", "pass", "draw", "card 1", "up", "pass")
    assert state.is_terminal()
    assert state.last_scores == [4, 4, 1, 0, 0]
    assert state.last_cards[:2] == [1, 2]
    assert state.last_winners == [0, 1]
    assert state.winners == [1]
    assert state.returns() == [0.0, 1.0, 0.0, 0.0, 0.0]


def test_a_full_tie_of_third_wins_is_shared() -> None:
    winners = _third_wins(("draw", "card 4", "up"), ("draw", "card 4", "up"))
    assert winners == [0, 1]


def test_the_round_cap_ends_the_game_and_the_most_chocolates_win() -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "up", "bonus 1", "pass", max_rounds=1)
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    state = new("tiles 1 2 3", "draw", "card 3", "up", "bonus 1", "pass", max_rounds=2)
    play(state, "tiles 1 2 3", "draw", "card 3", "up", "bonus 1", "pass")
    assert state.wins == [1, 1]
    assert state.is_terminal()
    assert state.winners == [0, 1]


def test_the_deck_is_whole_again_each_round() -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "up", "bonus 1", "pass")
    assert state.deck_left == 77
    assert state.counts == state.game.full_counts
    assert all(run == [] for run in state.runs)
    assert state.tile_taken == [-1, -1]
    assert state.marker == 0


def test_max_game_length_bounds_a_round_of_every_card() -> None:
    g = game(players=6)
    assert g.info.max_game_length == 40 * (1 + 4 * 77 + 6)


@pytest.mark.parametrize("effect", ["peek", "second"])
def test_peek_and_second_helping_do_nothing_once_the_deck_is_empty(
    tmp_path: Path, effect: str
) -> None:
    deck = write_deck(
        tmp_path / "d.toml", ("one", 1, 1, False, "none"), (effect, 1, 1, False, effect)
    )
    state = new(
        "tiles 1 2 3", "draw", "card 1", "down", "draw", f"card {effect}", "down", deck=deck
    )
    assert state.deck_left == 0
    assert state.current_player() == 0  # no peek, no second draw: seat 0's turn
    assert state.observation(0)["runs"][1] == [{"card": None, "up": False, "seen_by": [1]}]
    # Seat 0 can tell that the hidden card is the effect card: it is the only one unseen.
    sampled = state.resample(0, random.Random(0))
    assert sampled.runs[1][0][0] == state.game.label_kind[effect]
    state = new("tiles 1 2 3", "draw", f"card {effect}", "down", deck=deck)
    assert state.current_player() == CHANCE  # with a card left, the effect happens
    assert state.observation(1)["runs"][0][0]["card"] == effect
