"""Obonto in words: the prompt of each phase, moves described, illegal clicks explained, results."""

from __future__ import annotations

from tests.games.obonto.helpers import all_but, state_at

import boneyard


def test_the_prompt_of_ordinary_play_names_each_animal_and_the_darkening() -> None:
    game = boneyard.load_game("obonto")
    state = game.new_initial_state()
    words = game.prompt(state.observation(0), 0)
    assert "lion 1 step" in words and "zebra 2" in words and "camel 3" in words
    assert "turns dark" in words


def test_the_solo_phase_prompt_says_the_rival_is_stuck_and_what_a_move_scores() -> None:
    # North (to move) is boxed in; South's lion has room: the state starts in South's solo phase.
    state = state_at("e5,a1,b1,a9,b9,c9", dark=all_but("e5", "e6", "e7"), to_move=1)
    game = state.game
    assert state.current_player() == 0
    words = game.prompt(state.observation(0), 0)
    assert words.startswith("North is stuck") and "1 point so far" in words
    state.apply_action(state.string_to_action("e5-e6"))
    assert "2 points so far" in game.prompt(state.observation(0), 0)


def test_a_move_is_described_with_the_animal_that_made_it() -> None:
    game = boneyard.load_game("obonto")
    state = game.new_initial_state()
    before = state.observation(1)
    assert game.describe_action(before, 0, "e1-c1") == "South moved the zebra from e1 to c1."
    assert game.action_label(before, "d1-d2") == "Move the lion from d1 to d2"


def test_an_illegal_click_gets_one_plain_reason() -> None:
    state = boneyard.load_game("obonto").new_initial_state()
    assert state.why_illegal("f9-f8") == "That is North's lion: it is South's turn."
    assert state.why_illegal("d1-d3").startswith("The lion moves exactly 1 step")
    assert state.why_illegal("c2-c3") == "No animal stands on c2."
    assert state.why_illegal("d1-e1").startswith("e1 is taken")
    assert state.why_illegal("nonsense") == "That move is not allowed now."
    assert state.why_illegal("d1-d2") == ""


def test_the_panel_shows_the_match_and_the_totals() -> None:
    game = boneyard.load_game("obonto", games=3, target=12)
    state = game.new_initial_state()
    panel = {item.label: item.value for item in game.panel(state.observation(0), 0)}
    assert panel["Game"] == "1 of 3"
    assert panel["South (you)"] == "0 points" and panel["North"] == "0 points"
    assert panel["Match ends at"] == "12 points"
    assert panel["To move"] == "South"


def test_results_in_words_for_the_winner_the_loser_and_a_spectator() -> None:
    state = state_at("e5,a1,b1,a9,b9,c9", dark=all_but("e5", "e6"), to_move=1)
    state.apply_action(state.string_to_action("e5-e6"))
    assert state.is_terminal()
    game, returns = state.game, state.returns()
    observation = state.observation(None)
    assert game.result(observation, 0, returns) == (
        "You won 2-0: North was stuck and you then made 1 solo move."
    )
    # The loser is told in the second person, as lichess tells them.
    assert game.result(observation, 1, returns) == (
        "You lost 2-0: you were stuck and South then made 1 solo move."
    )
    assert game.result(observation, None, returns) == (
        "South won 2-0: North was stuck and South then made 1 solo move."
    )


def test_a_drawn_match_is_called_a_draw() -> None:
    from boneyard.games.obonto.prompt import result

    game = boneyard.load_game("obonto", games=2)
    observation = {
        "games": 2,
        "totals": [3, 3],
        "results": [{"winner": 0, "score": 3}, {"winner": 1, "score": 3}],
    }
    assert result(game, observation, 0, [0.0, 0.0]) == "The match is drawn 3-3 after 2 games."
