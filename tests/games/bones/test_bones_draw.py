"""Bones drawings: the text board, the SVG board and the observation tensor."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from boneyard.games.bones.draw import render_svg, render_text
from boneyard.games.bones.rules import BonesGame, BonesState
from boneyard.games.bones.tensor import TENSOR_PLANES, observation_tensor

SVG = "{http://www.w3.org/2000/svg}"


def play(text: str, **params: int) -> BonesState:
    state = BonesGame(**params).new_initial_state()
    for word in text.split():
        state.apply_action(state.string_to_action(word))
    return state


def text_cell(board: str, name: str) -> str:
    """The text of one square's cell in the text board."""
    lines = board.splitlines()
    header = lines[1]
    column = header.index(name[0])
    row = next(line for line in lines if line[:2].strip() == name[1:] and line[2:4] == "  ")
    return row[column : column + 4].strip()


# ----- text --------------------------------------------------------------------------------------


def test_text_shows_top_colour_and_stack_height() -> None:
    state = play("e5-f5 f5-f6 f4-f5")
    board = str(state)
    assert text_cell(board, "e5") == "W1"
    assert text_cell(board, "f6") == "B1"
    assert text_cell(board, "f5") == "W3*"  # last piece, three high
    assert text_cell(board, "f4") == "W1*"
    assert text_cell(board, "a1") == "."
    assert "black to move" in board.splitlines()[0]


def test_text_marks_the_start_area_before_the_first_piece() -> None:
    board = str(play(""))
    assert text_cell(board, "e5") == "+" and text_cell(board, "f5") == "+"
    assert text_cell(board, "d5") == "."
    assert "+: start area" in board
    board = str(play("e5-e6"))
    assert text_cell(board, "f5") == "." and text_cell(board, "e5") == "W1*"
    assert "+" not in board


def test_text_status_for_win_and_draw() -> None:
    board = str(play("e5-f5 a1-b1 c5-d5 a9-b9 g5-h5"))
    assert board.splitlines()[0].startswith("Bones 10x9: white wins with five in a line")
    board = str(play("b2-c2 a1-a2 d1-d2 a3-a4", width=4, height=4, pieces=2))
    assert "draw: both supplies are empty" in board.splitlines()[0]


def test_text_is_drawn_from_the_observation_alone() -> None:
    state = play("e5-f5 f5-f6")
    assert render_text(state.observation(0)) == str(state)
    assert state.game.render_text(state.observation(1)) == str(state)


def test_text_board_has_every_rank_and_file() -> None:
    board = str(play("", width=7, height=4))
    lines = board.splitlines()
    assert lines[1].split() == list("abcdefg") == lines[-2].split()
    assert [line[:2].strip() for line in lines[2:6]] == ["4", "3", "2", "1"]


# ----- SVG ---------------------------------------------------------------------------------------


def test_svg_has_one_clickable_square_each() -> None:
    state = play("e5-f5 f5-f6")
    root = ET.fromstring(render_svg(state.observation(None)))
    squares = [e.get("data-square") for e in root.iter(f"{SVG}rect") if e.get("data-square")]
    assert sorted(squares) == sorted(f"{chr(97 + f)}{r + 1}" for f in range(10) for r in range(9))


def test_svg_pieces_show_boundaries_and_heights() -> None:
    state = play("e5-f5 f5-f6 a1-b1")
    root = ET.fromstring(state.game.render_svg(state.observation(None)))
    pieces = {
        e.get("data-squares"): e.get("class")
        for e in root.iter(f"{SVG}rect")
        if (e.get("class") or "").startswith("piece")
    }
    # e5-f5 is partly covered: only e5 shows; the two completely visible ones show whole.
    assert pieces == {"e5": "piece white", "f5 f6": "piece black", "a1 b1": "piece white"}
    heights = sorted(
        e.text or "" for e in root.iter(f"{SVG}text") if e.get("class") == "stack-height"
    )
    assert heights == ["1", "1", "1", "1", "2"]


def test_svg_draws_a_proposed_placement_legal_or_not() -> None:
    observation = play("").observation(None)
    legal = ET.fromstring(render_svg(observation, placement="e5-e6"))
    illegal = ET.fromstring(render_svg(observation, placement="c5-d5", legal=False, caption="x<y"))
    assert [e.get("class") for e in legal.iter() if e.get("data-placement")] == ["placement legal"]
    assert [e.get("class") for e in illegal.iter() if e.get("data-placement")] == [
        "placement illegal"
    ]
    assert any(e.get("class") == "cross" for e in illegal.iter())
    assert not any(e.get("class") == "cross" for e in legal.iter())
    assert any(e.text == "x<y" for e in illegal.iter(f"{SVG}text"))


def test_svg_rings_the_winning_line() -> None:
    state = play("e5-f5 a1-b1 c5-d5 a9-b9 g5-h5")
    root = ET.fromstring(render_svg(state.observation(None)))
    rings = [e.get("data-winning") for e in root.iter(f"{SVG}circle")]
    assert rings == ["c5", "d5", "e5", "f5", "g5", "h5"]


# ----- tensor ------------------------------------------------------------------------------------


def planes(state: BonesState, seat: int | None) -> dict[str, list[float]]:
    game = state.game
    tensor = game.observation_tensor(state.observation(seat))
    count, height, width = game.observation_tensor_shape()
    assert count == len(TENSOR_PLANES) and len(tensor) == math.prod((count, height, width))
    size = height * width
    return {name: tensor[i * size : (i + 1) * size] for i, name in enumerate(TENSOR_PLANES)}


def test_tensor_planes() -> None:
    state = play("e5-f5 f5-f6 a1-b1", pieces=4)  # black to move
    e5, f5, f6, a1, b1 = 44, 45, 55, 0, 1
    white, black = planes(state, 0), planes(state, 1)
    assert [i for i, v in enumerate(white["own_top"]) if v] == [a1, b1, e5]
    assert [i for i, v in enumerate(white["opponent_top"]) if v] == [f5, f6]
    assert white["own_top"] == black["opponent_top"] and white["opponent_top"] == black["own_top"]
    assert [i for i, v in enumerate(white["height_2"]) if v] == [f5]
    assert [i for i, v in enumerate(white["height_1"]) if v] == [a1, b1, e5, f6]
    assert not any(white["height_3_or_more"])
    assert [i for i, v in enumerate(white["joined_right"]) if v] == [a1]
    assert [i for i, v in enumerate(white["joined_up"]) if v] == [f5]
    assert not any(white["start_area"])
    assert set(white["own_supply"]) == {0.5} and set(white["opponent_supply"]) == {0.75}
    assert set(white["own_turn"]) == {0.0} and set(black["own_turn"]) == {1.0}
    assert planes(state, None) == white


def test_tensor_marks_the_start_area_before_the_first_piece() -> None:
    start = planes(play("", width=6, height=5), 0)["start_area"]
    assert [i for i, v in enumerate(start) if v] == [2 * 6 + 2, 2 * 6 + 3]  # c3, d3


def test_tensor_is_built_from_the_observation_alone() -> None:
    state = play("e5-f5 f5-f6")
    assert observation_tensor(state.game, state.observation(1)) == state.game.observation_tensor(
        state.clone().observation(1)
    )


def test_text_columns_widen_for_tall_stacks() -> None:
    moves = ["e5-f5", "e4-e5", "d5-e5", "e5-e6"] * 3  # every placement covers e5
    state = play(" ".join(moves))
    board = str(state)
    assert state.stack_height(44) == 12
    assert text_cell(board, "e5").startswith("B12")
    for line in board.splitlines()[2:11]:
        assert len(line.split()) == 1 + 10, f"cells run together: {line!r}"
    # Every cell still starts under its file letter.
    header = board.splitlines()[1]
    row5 = next(line for line in board.splitlines() if line.startswith(" 5"))
    for name, letter in (("f5", "f"), ("e5", "e"), ("d5", "d")):
        position = header.index(letter)
        assert row5[position] in "WB", name


def test_svg_squares_lie_under_the_pieces_so_marks_never_repaint_one() -> None:
    """A page puts its marks right after a square: squares must come before every piece."""
    state = play("e5-f5 e4-e5")
    elements = list(ET.fromstring(state.game.render_svg(state.observation(0))))
    classes = [el.get("class", "") for el in elements]
    last_square = max(i for i, c in enumerate(classes) if c == "square")
    first_stack = min(i for i, c in enumerate(classes) if c == "stack")
    assert last_square < first_stack
    assert all(el.get("pointer-events") == "none" for el in elements if el.get("class") == "stack")


def test_svg_shows_a_stack_and_a_partly_covered_piece() -> None:
    state = play("e5-f5 e4-e5")
    root = ET.fromstring(state.game.render_svg(state.observation(0)))
    stacks = [g for g in root.iter(f"{SVG}g") if g.get("class") == "stack"]
    titles = sorted(g.findtext(f"{SVG}title") or "" for g in stacks)
    assert titles == [
        "black piece on e4 e5, 1 high on e4, 2 high on e5",
        "white piece on f5, 1 high on f5 (its other half is covered)",
    ]
    by_title = {g.findtext(f"{SVG}title"): g for g in stacks}
    covered = next(g for t, g in by_title.items() if "covered" in (t or ""))
    top = next(g for t, g in by_title.items() if "covered" not in (t or ""))
    piece = next(r for r in covered.iter(f"{SVG}rect") if "piece" in r.get("class", ""))
    assert piece.get("stroke-dasharray")
    # the stack two high shows an edge of the piece below it, the lone piece none
    assert len(list(top.iter(f"{SVG}rect"))) > len(list(covered.iter(f"{SVG}rect")))
