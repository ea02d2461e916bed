"""Bond O Cones drawings: text and SVG show what the observation shows, and the docs pictures."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.games.bondo_cones.bondo_helpers import new_game, play, set_up

from boneyard.games.bondo_cones.pictures import PICTURES

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules"
SVG = "{http://www.w3.org/2000/svg}"


def test_docs_pictures_are_what_the_code_draws() -> None:
    for name, draw in PICTURES.items():
        committed = (DOCS / "img" / name).read_text(encoding="utf-8")
        assert committed == draw(), (
            f"{name} is stale: python -m boneyard.games.bondo_cones.pictures"
        )


def test_docs_page_shows_every_picture_and_parameter() -> None:
    page = (DOCS / "bondo_cones.md").read_text(encoding="utf-8")
    for name in PICTURES:
        assert f"img/{name}" in page
    for parameter in new_game().parameters:
        assert f"`{parameter.name}`" in page


def test_svg_has_every_square_and_shows_only_visible_values() -> None:
    game = new_game()
    state = play(set_up(game), "first 0")
    svg = game.render_svg(state.observation(0))
    squares = re.findall(r'data-square="([a-j]\d+)"', svg)
    assert len(squares) == 120 and len(set(squares)) == 120
    values = re.findall(r'data-seat="(\d)" data-value="(\d?)"', svg)
    assert len(values) == 52
    assert all(value != "" for seat, value in values if seat == "0")
    assert all(value == "" for seat, value in values if seat == "1")
    spectator = game.render_svg(state.observation(None))
    assert all(
        value == "" for _, value in re.findall(r'data-seat="(\d)" data-value="(\d?)"', spectator)
    )


def test_svg_draws_rings_and_double_rings() -> None:
    game = new_game()
    state = game.position({"d4": "b0#", "e5": "b1", "g9": "w4+"})
    svg = game.render_svg(state.observation(0))
    assert svg.count('data-rings="2"') == 1 and svg.count('data-rings="1"') == 1
    assert svg.count('stroke="#c8102e"') == 3 + 1  # three on the cones, one in the legend


def test_svg_turns_the_board_for_white() -> None:
    game = new_game()
    state = game.position({"a1": "b0", "j12": "w0"})
    for seat, a1_on_top in ((0, False), (1, True)):
        svg = game.render_svg(state.observation(seat))
        a1 = re.search(r'data-square="a1" class="[a-z-]+" x="\d+" y="(\d+)"', svg)
        j12 = re.search(r'data-square="j12" class="[a-z-]+" x="\d+" y="(\d+)"', svg)
        assert a1 and j12
        assert (int(a1.group(1)) < int(j12.group(1))) == a1_on_top


def test_text_board() -> None:
    game = new_game()
    state = game.position({"d4": "b4+", "e5": "b1", "g9": "w2#"}, die="3")
    black = game.render_text(state.observation(0))
    white = game.render_text(state.observation(1))
    assert "b4+" in black and "w?#" in black
    assert "b?+" in white and "w2#" in white
    assert "die 3" in black and "black to act on the die" in black
    rows = black.splitlines()
    assert rows[0].split() == list("abcdefghij")
    assert rows[1].startswith("12") and rows[12].startswith(" 1")
    assert "*" in rows[1 + 12 - 4]  # the empty red field g4
    # the referee's board (str) shows every value
    assert "w2#" in str(state) and "b4+" in str(state)


def test_svg_marks_peeked_and_spied_cones() -> None:
    game = new_game()
    state = game.position({"c3": "b4", "e5": "b0", "j12": "w2"}, die="eye")
    play(state, "peek c3")
    state.flags[119] |= 2  # black spied j12
    svg = game.render_svg(state.observation(0))
    assert 'data-cone="c3" data-seat="0" data-value="4" data-rings="0" data-peeked="1"' in svg
    assert 'data-cone="j12" data-seat="1" data-value="2" data-rings="0" data-peeked="0" ' in svg
    assert 'data-spied="1"' in svg


def test_a_hidden_cone_shows_a_question_mark_and_nothing_of_its_value() -> None:
    game = new_game()
    state = play(set_up(game), "first 0")
    root = ET.fromstring(game.render_svg(state.observation(0)))
    cones = [g for g in root.iter(f"{SVG}g") if g.get("class") == "cone"]
    hidden = [g for g in cones if g.get("data-seat") == "1"]
    assert len(hidden) == 26
    for cone in hidden:
        assert [t.text for t in cone.iter(f"{SVG}text")] == ["?"]
        title = cone.findtext(f"{SVG}title") or ""
        assert "value unknown" in title and not re.search(r"value \d", title)
    mine = [g for g in cones if g.get("data-seat") == "0"]
    assert all((g.find(f"{SVG}text").text or "").isdigit() for g in mine)
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    assert "value unknown" in [t.text for t in legend.iter(f"{SVG}text")]


def test_rings_peeks_and_spies_are_explained_where_they_are_shown() -> None:
    game = new_game()
    state = game.position({"c3": "b4", "e5": "b0+", "j12": "w2"}, die="eye")
    play(state, "peek c3")
    state.flags[119] |= 2  # black spied j12
    root = ET.fromstring(game.render_svg(state.observation(0)))
    titles = {
        g.get("data-cone"): g.findtext(f"{SVG}title") or ""
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "cone"
    }
    assert "you peeked at it" in titles["c3"]
    assert "with the BondO ring" in titles["e5"]
    assert "you spied it" in titles["j12"]
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    assert [t.text for t in legend.iter(f"{SVG}text")] == ["BondO ring", "you peeked", "you spied"]
