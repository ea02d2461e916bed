"""Text and SVG drawings of both OYNO games, and the pictures on docs/rules/oyno.md.

The committed pictures must equal what the code draws. After an intended change of the drawing,
rewrite them with ``.venv/bin/python tests/games/oyno/test_oyno_draw.py``.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import boneyard

IMG = Path(__file__).resolve().parents[3] / "docs" / "rules" / "img"
SVG = "{http://www.w3.org/2000/svg}"

# file name -> (game, parameters, actions to play, drawing options)
PICTURES: dict[str, tuple[str, dict[str, Any], list[str], dict[str, Any]]] = {
    "oyno-puzzle-start.svg": (
        "oyno_puzzle",
        {"start": "U...D/.D.../..o../...U./D...U"},
        [],
        {},
    ),
    "oyno-move-before.svg": (
        "oyno_puzzle",
        {"start": "...U./D...D/..o../D...U/UU..U"},
        [],
        {"highlight": ["a1", "e5"]},
    ),
    "oyno-move-after.svg": (
        "oyno_puzzle",
        {"start": "...U./D...D/..o../D...U/UU..U"},
        ["a1-e5"],
        {"highlight": ["a1", "e5"]},
    ),
    "oyno-duel.svg": (
        "oyno",
        {"start": "R...w/.W.../..o../...r./.r..W"},
        [],
        {},
    ),
}


def draw(name: str) -> str:
    game_name, params, actions, options = PICTURES[name]
    game = boneyard.load_game(game_name, **params)
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(state.string_to_action(action))
    return game.render_svg(state.observation(None), **options)


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_committed_pictures_equal_the_drawing(name: str) -> None:
    assert (IMG / name).read_text() == draw(name)


def squares(svg: str) -> dict[str, ET.Element]:
    """Square name -> its cell: the first element that names the square (a page marks it)."""
    found: dict[str, ET.Element] = {}
    for element in ET.fromstring(svg).iter():
        if "data-square" in element.attrib:
            found.setdefault(element.attrib["data-square"], element)
    return found


def bones(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.attrib["data-square"]: g for g in root.iter(f"{SVG}g") if g.get("class") == "bone"}


def test_svg_has_a_clickable_square_for_every_cell() -> None:
    game = boneyard.load_game("oyno_puzzle", start="U...D/.D.../..o../...U./D...U")
    found = squares(game.render_svg(game.new_initial_state().observation(0)))
    assert len(found) == 25
    assert found["c3"].attrib["data-center"] == "true"
    assert found["a5"].attrib["data-bone"] == "U"
    assert found["e5"].attrib["data-bone"] == "D"
    assert found["b2"].attrib["data-bone"] == "."


def test_svg_draws_standing_and_lying_bones_differently() -> None:
    game = boneyard.load_game("oyno_puzzle", start="U...D/.D.../..o../...U./D...U")
    svg = game.render_svg(game.new_initial_state().observation(0))
    found = bones(svg)
    up, down = found["a5"], found["e5"]
    assert (up.get("data-face"), down.get("data-face")) == ("up", "down")
    assert up.find(f"{SVG}use").get("href") == "#oyno-up"
    assert down.find(f"{SVG}use").get("href") == "#oyno-down"
    assert "standing" in (up.findtext(f"{SVG}title") or "")
    assert "lying" in (down.findtext(f"{SVG}title") or "")
    symbols = {el.get("id"): ET.tostring(el) for el in ET.fromstring(svg).iter(f"{SVG}symbol")}
    assert symbols["oyno-up"] != symbols["oyno-down"]
    legend = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text") if "up" in (t.text or "")]
    assert legend == ["standing: up"]


def test_a_mark_after_a_cell_lies_under_its_bone_in_both_colours() -> None:
    """The page puts its marks right after a square's first element: that must be the cell,
    drawn before the bone, so no mark repaints a red or a white bone."""
    game = boneyard.load_game("oyno", start="R...w/.W.../..o../...r./.....")
    svg = game.render_svg(game.new_initial_state().observation(0))
    elements = list(ET.fromstring(svg))
    for square, colour in (("a5", "#c0392b"), ("e5", "#fbfbf8"), ("b4", "#fbfbf8")):
        cell = next(i for i, el in enumerate(elements) if el.get("data-square") == square)
        bone = next(
            i
            for i, el in enumerate(elements)
            if el.get("class") == "bone" and el.get("data-square") == square
        )
        assert elements[cell].tag == f"{SVG}rect" and cell < bone
        assert elements[bone].find(f"{SVG}use").get("fill") == colour


def test_svg_of_two_player_game_shows_colours() -> None:
    game = boneyard.load_game("oyno", start="R...w/.W.../..o../...r./.....")
    found = squares(game.render_svg(game.new_initial_state().observation(1)))
    assert found["a5"].attrib["data-bone"] == "R"
    assert found["e5"].attrib["data-bone"] == "w"


def test_text_board_of_the_puzzle() -> None:
    state = boneyard.load_game(
        "oyno_puzzle", start="U...D/.D.../..o../...U./D...U"
    ).new_initial_state()
    assert str(state).splitlines() == [
        "5 U . . . D",
        "4 . D . . .",
        "3 . . o . .",
        "2 . . . U .",
        "1 D . . . U",
        "  a b c d e",
        "move 1 (of at most 200); 3 of 6 bones up",
    ]


def test_text_marks_a_bone_being_dealt_or_rolled() -> None:
    state = boneyard.load_game("oyno_puzzle", size=3, bones=2).new_initial_state()
    state.apply_action(state.string_to_action("bone a1"))
    assert str(state).splitlines()[2] == "1 ? . ."
    duel = boneyard.load_game("oyno", size=3, bones_per_player=2, wild=True).new_initial_state()
    duel.apply_action(duel.string_to_action("place a1 wild"))
    assert str(duel).splitlines()[2] == "1 ? . ."
    assert "red rolls the bone on a1" in str(duel)


def test_text_board_of_the_two_player_game() -> None:
    state = boneyard.load_game("oyno", start="R...w/.W.../..o../...r./.....").new_initial_state()
    text = str(state)
    assert text.splitlines()[0] == "5 R . . . w"
    assert "supply: red (R/r) 6, white (W/w) 6" in text
    assert "red to move" in text


if __name__ == "__main__":
    IMG.mkdir(parents=True, exist_ok=True)
    for picture in sorted(PICTURES):
        (IMG / picture).write_text(draw(picture))
        print("wrote", IMG / picture, file=sys.stderr)
