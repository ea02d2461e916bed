"""OYNO in words: the puzzle's and the duel's prompts for each decision, actions, panel, results."""

from __future__ import annotations

import random

import boneyard
from boneyard.core.game import State


def play(state: State, *moves: str) -> State:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_the_puzzle_prompt_counts_the_bones_still_down() -> None:
    game = boneyard.load_game("oyno_puzzle", start="U...D/.D.../..o../...U./D...U")
    state = game.new_initial_state()
    words = game.prompt(state.observation(0), 0)
    assert words.startswith("Make every bone stand up (3 bones still down)")
    assert "turn over" in words
    # (a spectator reads the same line as the player: no "you")
    assert game.describe_action(state.observation(0), 0, "a5-b4") == (
        "Moved the bone from a5 to b4."
    )


def test_the_puzzle_panel_and_its_results() -> None:
    game = boneyard.load_game("oyno_puzzle", size=3, start="U.U/.o./...")
    state = game.new_initial_state()
    assert state.is_terminal()  # every bone dealt up: solved before a move
    observation = state.observation(0)
    assert game.result(observation, 0, state.returns()).startswith("Solved before any move")
    panel = {item.label: item.value for item in game.panel(observation, 0)}
    assert panel == {"Up": "2 of 2 bones", "Moves": "0 of at most 200"}
    unsolved = boneyard.load_game("oyno_puzzle", size=3, start="U.D/.o./...", max_moves=1)
    state = unsolved.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    words = unsolved.result(state.observation(0), 0, state.returns())
    assert words in ("Not solved: the 1 move ran out.", "Solved in 1 move: every bone is up.")


def test_a_puzzle_deal_is_told_in_one_line_as_its_last_bone_lands() -> None:
    game = boneyard.load_game("oyno_puzzle", bones=5)
    rng = random.Random(3)
    state = game.new_initial_state()
    told = []
    while state.is_chance_node():
        action = rng.choice(state.legal_actions())
        string = state.action_to_string(action)
        told.append(game.describe_action(state.observation(0), None, string))
        state.apply_action(action)
    up = state.observation(0)["up"]
    assert told[:-1] == [""] * (len(told) - 1)  # the board shows each bone as it lands
    assert told[-1] == f"The puzzle is dealt: 5 bones, {up} of them up."


def test_the_duel_prompt_says_a_new_bone_must_be_placed_when_all_are_up() -> None:
    game = boneyard.load_game("oyno")
    state = game.new_initial_state()
    words = game.prompt(state.observation(0), 0)
    assert words.startswith("Place your first bone: put it up on any empty cell")
    assert "all 8 of your bones" in words
    play(state, "place a1", "place e5")
    words = game.prompt(state.observation(0), 0)
    assert words.startswith("All your bones on the board are up, so you must place a new one")
    assert state.why_illegal("move a1-b3").startswith("Every red bone on the board is up")


def test_the_duel_prompt_explains_why_a_down_bone_forbids_placing() -> None:
    game = boneyard.load_game("oyno", place_rule="all_up")
    state = play(game.new_initial_state(), "place b2", "place b3")  # white's b3 turns red's b2 down
    assert state.observation(0)["position"].count("r") == 1
    words = game.prompt(state.observation(0), 0)
    assert words.startswith("You have 1 down bone on the board, so you cannot place a new one")
    assert "turn one of your down bones up" in words
    assert state.why_illegal("place e5").startswith("Red has a down bone on the board")
    assert game.action_label(state.observation(0), "flip b2") == "Turn the bone on b2 up"
    assert game.describe_action(state.observation(1), 0, "move b2-e5") == (
        "Red moved a bone from b2 to e5, up."
    )


def test_under_the_supply_rule_a_player_with_a_down_bone_may_still_place() -> None:
    game = boneyard.load_game("oyno", place_rule="supply")
    state = play(game.new_initial_state(), "place b2", "place b3")  # white's b3 turns red's b2 down
    words = game.prompt(state.observation(0), 0)
    assert words.startswith("You still hold 7 bones: put a new one up on an empty cell")
    assert "turn one of your down bones up" in words
    assert state.why_illegal("place e5") == ""  # legal


def test_the_duel_prompt_once_every_bone_is_on_the_board() -> None:
    game = boneyard.load_game("oyno", bones_per_player=2, start="Rr.../...../..o../...../Ww...")
    state = game.new_initial_state()
    assert game.prompt(state.observation(0), 0).startswith("All your bones are on the board:")


def test_wild_rolls_are_offered_and_described() -> None:
    game = boneyard.load_game("oyno", wild=True)
    state = game.new_initial_state()
    assert "roll it" in game.prompt(state.observation(0), 0)
    label = game.action_label(state.observation(0), "place b2 wild")
    assert label == "Place a bone on b2 and roll it"
    play(state, "place b2 wild")
    assert game.describe_action(state.observation(1), None, "down") == (
        "The bone on b2 landed down."
    )


def test_duel_results_in_words() -> None:
    game = boneyard.load_game("oyno", size=3, bones_per_player=1)
    state = play(game.new_initial_state(), "place a1")
    assert state.is_terminal()  # one bone, placed up: red has won at once
    observation = state.observation(None)
    assert game.result(observation, 0, state.returns()) == (
        "You won: all your bones are on the board and up."
    )
    assert game.result(observation, 1, state.returns()) == (
        "You lost: all Red's bones are on the board and up."
    )
    assert game.result(observation, None, state.returns()).startswith("Red won")
    capped = boneyard.load_game("oyno", max_moves=1)
    state = play(capped.new_initial_state(), "place b2")
    assert capped.result(state.observation(0), 0, state.returns()) == (
        "Draw: no winner after 1 move."
    )
