"""Bon-Bon in words: a prompt for every decision, actions as each viewer saw them (hidden cards
stay hidden), labels of the buttons, the panel and results."""

from __future__ import annotations

from tests.games.bonbon.bonbon_helpers import game, new

from boneyard.games.bonbon.rules import BonBonState


def words(state: BonBonState) -> str:
    seat = state.current_player()
    return str(state.game.prompt(state.observation(seat), seat))


def test_the_first_turn_explains_the_bonus_tile_for_the_first_to_pass() -> None:
    state = new("tiles 1 2 3")
    assert words(state).startswith(
        "Draw a card or pass. Nobody has passed yet: the first to pass takes a bonus tile "
        "(1, 2 or 3) that adds to their score this round."
    )
    assert "the shared marker is at 0 of 10" in words(state)
    labels = [state.game.action_label(state.observation(0), a) for a in ("draw", "bonus 2")]
    assert labels == ["Draw a card", "Pass, take +2"]
    assert state.why_illegal("pass").startswith("You are the first to pass: take one of")
    assert state.why_illegal("bonus 5") == "No bonus tile is worth 5 (the tiles are 1, 2, 3)."


def test_tiles_of_the_same_value_are_offered_once() -> None:
    state = new("tiles 2 3 3")
    assert "the first to pass takes a bonus tile (2 or 3) that adds" in words(state)
    panel = state.game.panel(state.observation(0), 0)
    assert [item.value for item in panel if item.label == "Bonus tiles"] == [
        "2 or 3, for the first to pass"
    ]


def test_after_the_first_pass_the_turn_is_draw_or_pass() -> None:
    state = new("tiles 1 2 3", "bonus 2")
    assert words(state).startswith("Draw a card, or pass and keep what you have")
    observation = state.observation(1)
    assert state.game.describe_action(observation, 0, "bonus 2") == (
        "Red passed first and took the bonus tile worth 2."
    )
    empty = dict(observation, deck_left=0)
    assert state.game.prompt(empty, 1).startswith("The deck is empty: pass.")


def test_a_drawn_card_is_played_face_up_or_down() -> None:
    state = new("tiles 1 2 3", "draw", "card 3")
    assert words(state).startswith("You drew a chocolate worth 3. Play it face up")
    observation = state.observation(0)
    assert state.game.action_label(observation, "up") == "Play it face up"
    assert state.game.action_label(observation, "down") == "Play it face down"
    assert state.game.describe_action(state.observation(1), 0, "down") == (
        "Red played the card face down."
    )


def test_a_hidden_draw_is_described_without_the_card() -> None:
    state = new("tiles 1 2 3", "draw")
    action = state.string_to_action("card 4")
    blue_sees = state.action_string_for(1, action)
    assert blue_sees == "card ?"
    assert state.game.describe_action(state.observation(1), None, blue_sees) == (
        "Red looked at the card."
    )
    assert state.game.describe_action(state.observation(0), None, "card 4") == (
        "Red's card is a chocolate worth 4."
    )


def test_gift_catch_and_wrapper_prompts() -> None:
    gift = new("tiles 1 2 3", "draw", "card gift", players=3)
    assert words(gift).startswith("You drew a gift: give it face up to another player")
    assert gift.game.action_label(gift.observation(0), "gift 2") == "Give the gift to Green"
    caught = new("tiles 1 2 3", "draw", "card caught", players=3)
    assert words(caught).startswith("You drew a caught! card: choose another player")
    assert caught.game.action_label(caught.observation(0), "catch 1") == "Catch Blue"
    wrapper = new("tiles 1 2 3", "draw", "card wrapper")
    assert words(wrapper).startswith("Your empty wrapper turned up your trailing face-down cards")
    assert wrapper.game.action_label(wrapper.observation(0), "draw") == "Draw another card"
    assert wrapper.game.action_label(wrapper.observation(0), "end") == "End your turn"


def test_a_peek_is_shown_to_the_peeker_only() -> None:
    state = new("tiles 1 2 3", "draw", "card peek", "down")
    assert state.is_chance_node()
    action = state.string_to_action("card 5")
    assert (
        state.game.describe_action(state.observation(1), None, state.action_string_for(1, action))
        == "Red peeked at the top card of the deck."
    )
    assert state.game.describe_action(state.observation(0), None, "card 5") == (
        "Red peeked at the top card: a chocolate worth 5."
    )


def test_the_panel_names_each_player_and_the_limits() -> None:
    state = new("tiles 1 2 3", "bonus 2")
    items = {item.label: item.value for item in state.game.panel(state.observation(1), 1)}
    assert items["Shared marker"] == "0 of 10"
    assert items["Cards left"] == "77"
    assert items["Bonus tiles"] == "taken"
    assert items["Red"] == "0 rounds won, face up 0 of 10, passed, bonus tile 2"
    assert items["Blue (you)"] == "0 rounds won, face up 0 of 10, in play"


def test_seats_are_named_by_colour() -> None:
    assert game(players=6).info.seat_names == ("red", "blue", "green", "yellow", "purple", "orange")


def test_results_in_words() -> None:
    state = new("tiles 1 2 3", "bonus 1", "pass", max_rounds=1)
    assert state.is_terminal()
    observation = state.observation(None)
    assert state.game.result(observation, 0, state.returns()) == (
        "You won with the most rounds won after 1 round (Red 1, Blue 0)."
    )
    # Red wins three rounds: its tile, then a face-down 3 against blue's tile of 1, twice.
    round_won_by_red = ("tiles 1 2 3", "bonus 1", "draw", "card 3", "down", "pass")
    state = new("tiles 1 2 3", "bonus 1", "pass", *round_won_by_red, *round_won_by_red)
    assert state.is_terminal()
    assert state.game.result(state.observation(1), 1, state.returns()) == "You lost: Red won 3-0."
    assert state.game.result(state.observation(None), None, state.returns()) == "Red won 3-0."


def test_the_last_round_names_its_winner() -> None:
    state = new("tiles 1 2 3", "bonus 1", "pass")
    panels = [
        {item.label: item.value for item in state.game.panel(state.observation(seat), seat)}
        for seat in (0, 1)
    ]
    assert panels[0]["Last round"] == "won by you with 1 point"
    assert panels[1]["Last round"] == "won by Red with 1 point"
