"""Bones rules, one test (or more) per RULINGS.md sentence and rule-text point."""

from __future__ import annotations

import random

import pytest

import boneyard
from boneyard import TERMINAL, IllegalActionError
from boneyard.games.bones.rules import BonesGame, BonesState


def play(text: str, **params: int) -> BonesState:
    """A state after the placements in ``text`` (space-separated)."""
    state = BonesGame(**params).new_initial_state()
    for word in text.split():
        state.apply_action(state.string_to_action(word))
    return state


def legal_strings(state: BonesState) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def is_legal(state: BonesState, text: str) -> bool:
    return state.string_to_action(text) in state.legal_actions()


def square_top(state: BonesState, name: str) -> tuple[str, int]:
    """(top letter ``.``/``W``/``B``, stack height) of a square, read from the observation."""
    observation = state.observation(None)
    file, rank = ord(name[0]) - ord("a"), int(name[1:]) - 1
    return observation["top"][rank][file], observation["heights"][rank][file]


# ----- board, parameters, seats ------------------------------------------------------------------


def test_defaults_are_10_by_9_with_30_pieces() -> None:
    game = boneyard.load_game("bones")
    assert game.params == {"width": 10, "height": 9, "pieces": 30}
    observation = game.new_initial_state().observation(None)
    assert (observation["width"], observation["height"]) == (10, 9)
    assert observation["supply"] == [30, 30]
    assert len(observation["top"]) == 9 and all(len(rank) == 10 for rank in observation["top"])


def test_default_start_area_is_e5_and_f5() -> None:
    state = play("")
    assert state.observation(None)["start_area"] == ["e5", "f5"]
    assert legal_strings(state) == {"d5-e5", "e5-f5", "f5-g5", "e4-e5", "f4-f5", "e5-e6", "f5-f6"}


@pytest.mark.parametrize(
    ("width", "height", "area"),
    [
        (10, 9, ("e5", "f5")),  # even width, odd height: the exact middle
        (9, 9, ("e5", "f5")),  # odd width: the middle file and its right neighbour
        (10, 8, ("e4", "f4")),  # even height: the lower of the two middle ranks
        (6, 5, ("c3", "d3")),
        (7, 4, ("d2", "e2")),
        (5, 5, ("c3", "d3")),
        (2, 2, ("a1", "b1")),
        (26, 26, ("m13", "n13")),
    ],
)
def test_start_area_follows_the_board_size(width: int, height: int, area: tuple[str, str]) -> None:
    state = play("", width=width, height=height)
    assert tuple(state.observation(None)["start_area"]) == area
    for text in legal_strings(state):
        assert set(text.split("-")) & set(area), f"{text} does not touch the start area"
    # Every on-board placement touching the area is a legal first move.
    every = {state.action_to_string(a) for a in range(state.game.info.num_distinct_actions)}
    assert legal_strings(state) == {t for t in every if set(t.split("-")) & set(area)}


def test_parameters_are_checked() -> None:
    for bad in ({"width": 1}, {"width": 27}, {"height": 1}, {"pieces": 0}, {"pieces": "many"}):
        with pytest.raises(boneyard.InvalidParameterError, match=next(iter(bad))):
            boneyard.load_game("bones", **bad)
    game = boneyard.load_game("bones", width=6, height=5, pieces=4)
    assert game.info.max_game_length == 8
    assert game.info.num_distinct_actions == 5 * 5 + 4 * 6


def test_white_is_seat_0_and_moves_first_then_the_players_alternate() -> None:
    game = boneyard.load_game("bones")
    assert game.info.seat_names == ("white", "black")
    state = game.new_initial_state()
    assert state.current_player() == 0
    state.apply_action(state.string_to_action("e5-f5"))
    assert state.current_player() == 1
    assert square_top(state, "e5")[0] == "W"
    state.apply_action(state.string_to_action("a1-b1"))
    assert state.current_player() == 0
    assert square_top(state, "a1")[0] == "B"


def test_each_placement_uses_one_piece_of_the_mover() -> None:
    state = play("e5-f5 a1-b1 a9-b9", pieces=5)
    assert state.observation(0)["supply"] == [3, 4]
    assert state.supply(0) == 3 and state.supply(1) == 4


# ----- placement -----------------------------------------------------------------------------


def test_a_piece_lies_entirely_on_the_board() -> None:
    game = boneyard.load_game("bones")
    state = game.new_initial_state()
    for action in range(game.info.num_distinct_actions):
        one, two = state.action_to_string(action).split("-")
        for square in (one, two):
            assert "a" <= square[0] <= "j" and 1 <= int(square[1:]) <= 9
        files = abs(ord(one[0]) - ord(two[0]))
        ranks = abs(int(one[1:]) - int(two[1:]))
        assert files + ranks == 1, "the two squares are orthogonally adjacent"
    for off_board in ("j5-k5", "e9-e10", "a0-a1", "j1-a2"):
        with pytest.raises(boneyard.InvalidActionStringError):
            state.string_to_action(off_board)


def test_the_first_piece_must_touch_the_start_area() -> None:
    state = play("")
    for text in ("c5-d5", "e4-f4", "e6-f6", "a1-b1", "g5-h5"):
        with pytest.raises(IllegalActionError, match="start-area"):
            state.apply_action(state.string_to_action(text))
    assert state.history() == []
    for text in ("d5-e5", "e5-e6", "f4-f5"):
        assert is_legal(state, text)


def test_only_the_first_piece_is_bound_to_the_start_area() -> None:
    state = play("e5-f5")
    assert is_legal(state, "a1-b1") and is_legal(state, "j8-j9")
    assert len(state.legal_actions()) == state.game.info.num_distinct_actions - 1


def test_a_piece_may_cover_empty_squares_and_pieces_of_either_colour() -> None:
    # Black covers half of white's piece, white covers half of black's and half of its own.
    state = play("e5-f5 f5-f6 f6-g6")
    assert square_top(state, "f5") == ("B", 2)
    assert square_top(state, "e5") == ("W", 1)
    assert square_top(state, "f6") == ("W", 2)
    assert square_top(state, "g6") == ("W", 1)
    state = play("e5-f5 f5-f6 e5-e6")  # white covers its own partly covered piece's square
    assert square_top(state, "e5") == ("W", 2)


def test_a_piece_may_cover_squares_at_any_height() -> None:
    # Stack f5 three high, then put a fourth piece across the stack and an empty square.
    state = play("e5-f5 f5-f6 f4-f5 f5-g5")
    assert square_top(state, "f5") == ("B", 4)
    assert square_top(state, "g5") == ("B", 1)
    assert is_legal(state, "f5-f6")
    state.apply_action(state.string_to_action("f5-f6"))
    assert square_top(state, "f5") == ("W", 5)
    assert square_top(state, "f6") == ("W", 2)


@pytest.mark.parametrize("owner", ["white", "black"])
def test_not_exactly_on_top_of_one_completely_visible_piece(owner: str) -> None:
    state = play("e5-f5 a1-b1")  # white to move; e5-f5 is white's, a1-b1 black's
    target = "e5-f5" if owner == "white" else "a1-b1"
    assert not is_legal(state, target)
    with pytest.raises(IllegalActionError, match="completely visible"):
        state.apply_action(state.string_to_action(target))


def test_a_vertical_piece_is_protected_too() -> None:
    state = play("e5-e6 c3-c4")
    assert not is_legal(state, "e5-e6") and not is_legal(state, "c3-c4")
    assert is_legal(state, "e6-e7") and is_legal(state, "e4-e5") and is_legal(state, "c4-d4")


def test_exactly_on_top_of_a_piece_already_partly_covered_is_allowed() -> None:
    state = play("e5-f5 f5-f6")  # f5-f6 covers f5: e5-f5 is no longer completely visible
    assert is_legal(state, "e5-f5")
    state.apply_action(state.string_to_action("e5-f5"))
    assert square_top(state, "e5") == ("W", 2) and square_top(state, "f5") == ("W", 3)
    # The new piece is itself completely visible, so nothing may now lie exactly on it.
    assert not is_legal(state, "e5-f5")


def test_partly_covered_stays_allowed_for_good() -> None:
    state = play("e5-f5 f5-f6 a1-b1 a9-b9 c1-c2 h9-i9")
    assert is_legal(state, "e5-f5")


def test_across_two_pieces_is_allowed_even_if_both_are_completely_visible() -> None:
    state = play("e5-f5 e6-f6")  # two completely visible pieces, one above the other
    for text in ("e5-e6", "f5-f6"):
        assert is_legal(state, text)
    state = play("e5-f5 g5-h5")  # side by side in a rank
    assert is_legal(state, "f5-g5")


def test_the_forbidden_placement_is_the_only_one_a_visible_piece_removes() -> None:
    state = play("e5-f5 a1-b1 c7-c8")
    every = set(range(state.game.info.num_distinct_actions))
    forbidden = {state.string_to_action(t) for t in ("e5-f5", "a1-b1", "c7-c8")}
    assert set(state.legal_actions()) == every - forbidden


# ----- top colour and winning -------------------------------------------------------------------


def test_a_square_shows_the_colour_of_its_top_piece() -> None:
    state = play("e5-f5 f5-f6")
    assert square_top(state, "e5") == ("W", 1)
    assert square_top(state, "f5") == ("B", 2)
    state.apply_action(state.string_to_action("f5-g5"))
    assert square_top(state, "f5") == ("W", 3)


def test_five_in_a_rank_wins_for_the_mover() -> None:
    state = play("e5-f5 a1-b1 c5-d5 a9-b9")
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("g5-g6"))  # c5 d5 e5 f5 g5
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.winner() == 0
    assert state.observation(1)["winning_squares"] == ["c5", "d5", "e5", "f5", "g5"]


def test_five_in_a_file_wins_for_the_mover() -> None:
    # Black builds b2..b6 in file b while white plays elsewhere.
    state = play("e5-f5 b2-b3 h1-i1 b4-b5 h9-i9")
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("b6-c6"))
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]
    assert state.observation(None)["winning_squares"] == ["b2", "b3", "b4", "b5", "b6"]


def test_four_in_a_line_does_not_win() -> None:
    state = play("e5-f5 a1-b1 c5-d5")
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]


def test_a_gap_breaks_the_line() -> None:
    state = play("e5-f5 a1-b1 b5-c5 a9-b9")  # b5 c5 . e5 f5: d5 empty
    assert not state.is_terminal()
    state = play("e5-f5 d5-d6 b5-c5")  # b5 c5 (B) e5 f5: d5 black
    assert not state.is_terminal()


def test_a_diagonal_does_not_win() -> None:
    state = play("e5-e6 a1-a2 f6-f7 a9-b9 g7-g8 j1-j2 h8-h9 c1-d1")
    state.apply_action(state.string_to_action("d4-d3"))  # d4 e5 f6 g7 h8 all white
    assert not state.is_terminal()


def test_six_in_a_line_wins() -> None:
    state = play("e5-f5 a1-b1 c5-d5 a9-b9 h5-i5 j1-j2")  # c5 d5 e5 f5 . h5 i5
    state.apply_action(state.string_to_action("g5-g6"))
    assert state.is_terminal() and state.winner() == 0
    assert len(state.observation(None)["winning_squares"]) == 7


def test_covering_the_opponent_completes_a_line() -> None:
    state = play("e5-f5 g5-g6 c5-d5 b5-b6")  # both ends blocked by black
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("g5-h5"))  # covers black's g5
    assert state.is_terminal() and state.winner() == 0
    assert square_top(state, "g5") == ("W", 2)


def test_a_line_counts_squares_not_pieces() -> None:
    # White's pieces are partly covered by its own later pieces; the line is still five squares.
    state = play("d5-e5 a1-b1 e5-e6 a9-b9 f5-g5 j1-j2")  # d5 e5 f5 g5 white; e5 under e6's piece
    assert square_top(state, "e5") == ("W", 2)
    state.apply_action(state.string_to_action("c4-c5"))
    assert state.is_terminal() and state.winner() == 0


def test_only_the_movers_colour_is_checked_after_a_placement() -> None:
    # Random games: after every placement no line of five of the player who did not move exists,
    # and the game ends exactly when the mover shows five.
    rng = random.Random(7)
    game = BonesGame(width=6, height=6, pieces=18)
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            mover = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            assert not _has_line(state, 1 - mover)
            assert _has_line(state, mover) == (state.winner() == mover)


def _has_line(state: BonesState, colour: int) -> bool:
    letter = "WB"[colour]
    rows = state.observation(None)["top"]
    columns = ["".join(row[f] for row in rows) for f in range(len(rows[0]))]
    return any(letter * 5 in line for line in rows + columns)


# ----- the end -----------------------------------------------------------------------------------


def test_both_supplies_empty_without_a_win_is_a_draw() -> None:
    # A 4x4 board has no line of five: every game is drawn after 2 * pieces placements.
    state = play("b2-c2 a1-a2 d1-d2 a3-a4", width=4, height=4, pieces=2)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == [0.0, 0.0] and state.winner() is None
    assert state.observation(0)["supply"] == [0, 0]
    assert state.legal_actions() == []


def test_the_game_goes_on_until_both_supplies_are_empty() -> None:
    state = play("b2-c2 a1-a2 d1-d2", width=4, height=4, pieces=2)
    assert not state.is_terminal() and state.current_player() == 1
    assert state.observation(0)["supply"] == [0, 1]


def test_a_win_with_the_very_last_piece_is_a_win_not_a_draw() -> None:
    state = play("e5-f5 a1-b1 a9-b9 c1-d1 h9-i9", pieces=3)
    state.apply_action(state.string_to_action("e1-e2"))  # black's last piece: a1..e1
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_after_the_end_nothing_is_legal() -> None:
    state = play("e5-f5 a1-b1 c5-d5 a9-b9 g5-h5")
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(state.string_to_action("a3-a4"))


# ----- against a plain reference implementation ---------------------------------------------------


def _reference_game(width: int, height: int, pieces: int, seed: int) -> None:
    """Play a random game, checking every state against stacks kept the slow, obvious way."""
    rng = random.Random(seed)
    state = BonesGame(width=width, height=height, pieces=pieces).new_initial_state()
    stacks: list[list[int]] = [[] for _ in range(width * height)]
    placed: list[tuple[int, int]] = []
    horizontal = [
        (r * width + f, r * width + f + 1) for r in range(height) for f in range(width - 1)
    ]
    vertical = [
        (r * width + f, (r + 1) * width + f) for r in range(height - 1) for f in range(width)
    ]
    dominoes = horizontal + vertical
    start = {((height - 1) // 2) * width + (width - 1) // 2}
    start.add(min(start) + 1)
    while not state.is_terminal():
        legal = []
        for action, (a, b) in enumerate(dominoes):
            if not placed:
                ok = a in start or b in start
            else:
                exact_visible = any(
                    {p, q} == {a, b} and stacks[a][-1] == k and stacks[b][-1] == k
                    for k, (p, q) in enumerate(placed)
                )
                ok = not exact_visible
            if ok:
                legal.append(action)
        assert state.legal_actions() == legal
        mover = state.current_player()
        action = rng.choice(legal)
        a, b = dominoes[action]
        stacks[a].append(len(placed))
        stacks[b].append(len(placed))
        placed.append((a, b))
        state.apply_action(action)
        colours = [stack[-1] % 2 if stack else -1 for stack in stacks]
        assert state.top_colours() == colours
        assert [state.stack_height(s) for s in range(width * height)] == [len(s) for s in stacks]
        lines = [[colours[r * width + f] for f in range(width)] for r in range(height)]
        lines += [[colours[r * width + f] for r in range(height)] for f in range(width)]
        won = any(
            all(c == mover for c in line[i : i + 5]) for line in lines for i in range(len(line) - 4)
        )
        if won:
            assert state.is_terminal() and state.winner() == mover
        elif len(placed) == 2 * pieces:
            assert state.is_terminal() and state.returns() == [0.0, 0.0]
        else:
            assert state.current_player() == 1 - mover


@pytest.mark.parametrize(
    ("width", "height", "pieces"),
    [(10, 9, 30), (6, 5, 15), (5, 7, 10), (3, 3, 12), (2, 2, 6), (7, 2, 8)],
)
def test_matches_a_plain_reference(width: int, height: int, pieces: int) -> None:
    for seed in range(4):
        _reference_game(width, height, pieces, seed)


def test_some_placement_is_always_legal_even_on_the_smallest_board() -> None:
    # Completely visible pieces are disjoint, so on a board of at least 2x2 they can never
    # forbid every placement; exhaust the 2x2 board with four pieces each.
    game = BonesGame(width=2, height=2, pieces=4)
    frontier = [game.new_initial_state()]
    seen = 0
    while frontier:
        state = frontier.pop()
        seen += 1
        if state.is_terminal():
            continue
        legal = state.legal_actions()
        assert legal
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            frontier.append(child)
    assert seen > 1000
