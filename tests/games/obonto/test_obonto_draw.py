"""Obonto drawings (text and SVG), the rule page's pictures, the tensor and the heuristic."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.games.obonto.helpers import all_but, state_at

import boneyard
from boneyard.games.obonto.pictures import PICTURES, draw_picture
from boneyard.games.obonto.tensor import TENSOR_SHAPE

SVG = "{http://www.w3.org/2000/svg}"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules"


def played(*moves: str, **params: object) -> boneyard.State:
    state = boneyard.load_game("obonto", **params).new_initial_state()
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


def test_svg_has_a_clickable_square_for_each_of_the_81_and_shades_dark_ones() -> None:
    state = played("d1-d2")
    root = ET.fromstring(state.game.render_svg(state.observation(None)))
    squares = [el for el in root.iter(f"{SVG}rect") if "square" in el.get("class", "")]
    assert len(squares) == 81
    assert len({el.get("data-square") for el in squares}) == 81
    dark = sorted(el.get("data-square") for el in squares if "dark" in el.get("class", "").split())
    assert dark == ["c3", "c7", "d1", "g3", "g7"]


def test_svg_draws_the_six_animals_where_they_stand() -> None:
    state = played("d1-d2")
    root = ET.fromstring(state.game.render_svg(state.observation(None)))
    animals = {
        (el.get("data-seat"), el.get("data-animal")): el.get("data-square")
        for el in root.iter(f"{SVG}g")
        if el.get("class") == "animal"
    }
    assert animals == {
        ("0", "lion"): "d2",
        ("0", "zebra"): "e1",
        ("0", "camel"): "f1",
        ("1", "lion"): "f9",
        ("1", "zebra"): "e9",
        ("1", "camel"): "d9",
    }


def test_svg_outlines_the_last_move_only_when_asked() -> None:
    state = played("d1-d2")
    observation = state.observation(None)
    with_highlight = ET.fromstring(state.game.render_svg(observation))
    marked = [
        el.get("data-square") for el in with_highlight.iter() if el.get("class") == "last-move"
    ]
    assert sorted(marked) == ["d1", "d2"]
    plain = ET.fromstring(state.game.render_svg(observation, highlight=False))
    assert not [el for el in plain.iter() if el.get("class") == "last-move"]


def square_heights(svg: str, *names: str) -> dict[str, float]:
    """The y coordinate of each named square's clickable ``<rect>``."""
    return {
        str(el.get("data-square")): float(el.get("y", 0))
        for el in ET.fromstring(svg).iter(f"{SVG}rect")
        if el.get("data-square") in names
    }


def test_each_seat_sees_its_own_start_row_below_the_opponents() -> None:
    """South starts on row 1, North on row 9: each one's view draws its own row lower (a larger
    y), and a spectator sees South's side, as the rules' pictures do."""
    state = played()
    north = square_heights(state.game.render_svg(state.observation(1)), "e1", "e9")
    assert north["e9"] > north["e1"], "North's own start row is drawn below South's"
    south = square_heights(state.game.render_svg(state.observation(0)), "e1", "e9")
    assert south["e1"] > south["e9"]
    spectator = square_heights(state.game.render_svg(state.observation(None)), "e1", "e9")
    assert spectator == south
    unturned = state.game.render_svg(state.observation(1), flipped=False)
    assert square_heights(unturned, "e1", "e9") == south, "flipped=False keeps South below"


def test_flipped_svg_puts_i9_at_the_lower_right() -> None:
    state = played()
    root = ET.fromstring(state.game.render_svg(state.observation(None), flipped=True))
    corners = {
        el.get("data-square"): (float(el.get("x", 0)), float(el.get("y", 0)))
        for el in root.iter(f"{SVG}rect")
        if el.get("data-square") in ("a1", "i9")
    }
    assert corners["a1"][0] > corners["i9"][0] and corners["a1"][1] < corners["i9"][1]


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_committed_rule_pictures_equal_what_the_code_draws(name: str) -> None:
    committed = (DOCS / "img" / name).read_text(encoding="utf-8")
    assert committed == draw_picture(PICTURES[name]), (
        f"regenerate with: python -m boneyard.games.obonto.pictures docs/rules/img ({name})"
    )
    assert f"img/{name}" in (DOCS / "obonto.md").read_text(encoding="utf-8")


def test_rule_page_lists_every_parameter() -> None:
    page = (DOCS / "obonto.md").read_text(encoding="utf-8")
    for parameter in boneyard.load_game("obonto").parameters:
        assert f"`{parameter.name}`" in page


def test_text_board_marks_solo_phase_and_match_end() -> None:
    boxed = state_at(
        "e5,a1,i1,a9,i9,e9", dark=all_but("e5", "e4", "a1", "i1", "a9", "i9", "e9"), to_move=1
    )
    assert "seat 1 is stuck; seat 0 moves alone" in str(boxed)
    boxed.apply_action(boxed.string_to_action("e5-e4"))
    assert "match over, seat 0 wins" in str(boxed)
    assert str(boxed) == boxed.game.render_text(boxed.observation(0))


def test_tensor_has_the_declared_size_and_encodes_the_observer() -> None:
    state = played("d1-d2")
    game = state.game
    assert game.observation_tensor_shape() == TENSOR_SHAPE == (9, 9, 9)
    mine = game.observation_tensor(state.observation(0))
    theirs = game.observation_tensor(state.observation(1))
    assert len(mine) == len(theirs) == 9 * 81
    d1, d2, f9 = 3, 12, 77
    assert mine[d1] == 0.0 and mine[d2] == 1.0  # plane 0: light squares
    assert mine[1 * 81 + d2] == 1.0  # seat 0's lion in seat 0's own lion plane
    assert theirs[4 * 81 + d2] == 1.0  # ... and in seat 1's opponent lion plane
    assert theirs[1 * 81 + f9] == 1.0
    assert sum(mine[7 * 81 : 8 * 81]) == 0.0 and sum(theirs[7 * 81 : 8 * 81]) == 81.0
    assert sum(mine[8 * 81 :]) == 0.0


def test_evaluate_stays_in_the_utility_range_and_ends_at_the_returns() -> None:
    game = boneyard.load_game("obonto", games=2)
    low, high = game.utility_range()
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        for seat in (0, 1):
            assert low <= game.evaluate(state, seat) <= high
        state.apply_action(rng.choice(state.legal_actions()))
    assert [game.evaluate(state, seat) for seat in (0, 1)] == state.returns()


def test_evaluate_favours_the_solo_winner_and_the_freer_side() -> None:
    boxed = state_at(
        "e5,a1,i1,a9,i9,e9", dark=all_but("e5", "e4", "e3", "a1", "i1", "a9", "i9", "e9"), to_move=1
    )
    game = boxed.game
    assert game.evaluate(boxed, 0) >= 1 + 1 > 0 > game.evaluate(boxed, 1)
    # Seat 1's animals boxed into a corner region have fewer moves than seat 0's.
    cramped = state_at("d1,e1,f1,a9,b9,a8", dark=("c3", "g3", "c7", "g7", "c9", "c8", "b7", "a7"))
    assert game.evaluate(cramped, 0) > 0 > game.evaluate(cramped, 1)


def test_evaluate_reads_the_same_as_from_the_observation() -> None:
    from boneyard.games.obonto.heuristic import evaluate_observation as evaluate

    game = boneyard.load_game("obonto", games=2)
    rng = random.Random(12)
    state = game.new_initial_state()
    while not state.is_terminal():
        for seat in (0, 1):
            assert game.evaluate(state, seat) == evaluate(game, state.observation(seat), seat)
        state.apply_action(rng.choice(state.legal_actions()))


def test_room_counts_the_squares_each_side_reaches_first() -> None:
    from boneyard.games.obonto.heuristic import board_from_observation, room_difference

    state = played()
    dark, animals = board_from_observation(state.observation(None))
    assert room_difference(dark, animals, 0) == 0 == room_difference(dark, animals, 1)
    # Seat 1 walled into the corner a9 b9 a8 b8: seat 0 reaches every other light empty square
    # first (81 - 8 dark - 4 in the corner - 3 animals), seat 1 only b8.
    cramped = state_at("d1,e1,f1,a9,b9,a8", dark=("c3", "g3", "c7", "g7", "c9", "c8", "b7", "a7"))
    dark, animals = board_from_observation(cramped.observation(None))
    expected = (81 - 8 - 4 - 3) - 1
    assert room_difference(dark, animals, 0) == expected == -room_difference(dark, animals, 1)


def test_svg_animals_are_three_distinct_drawn_shapes_not_letters() -> None:
    state = played("d1-d2")
    root = ET.fromstring(state.game.render_svg(state.observation(None), names=("Ann", "Bob")))
    animals = [el for el in root.iter(f"{SVG}g") if el.get("class") == "animal"]
    titles = sorted(el.findtext(f"{SVG}title") or "" for el in animals)
    assert titles == [
        "Ann's camel",
        "Ann's lion",
        "Ann's zebra",
        "Bob's camel",
        "Bob's lion",
        "Bob's zebra",
    ]
    for el in animals:
        assert not list(el.iter(f"{SVG}text")), "an animal is a picture, not a letter"
        (emblem,) = el.iter(f"{SVG}use")
        assert emblem.get("href") == f"#obonto-{el.get('data-animal')}"
    symbols = {el.get("id"): ET.tostring(el) for el in root.iter(f"{SVG}symbol")}
    shapes = [symbols[f"obonto-{kind}"] for kind in ("lion", "zebra", "camel")]
    assert len(set(shapes)) == 3 and all(b"<ns0:path" in s or b"<ns0:polygon" in s for s in shapes)


def test_svg_tiles_are_octagons_light_or_dark_side_up() -> None:
    state = played("d1-d2")
    root = ET.fromstring(state.game.render_svg(state.observation(None)))
    tiles = {el.get("id"): el for el in root.iter(f"{SVG}g") if el.get("id")}
    for side in ("obonto-light", "obonto-dark"):
        points = tiles[side].find(f"{SVG}polygon").get("points").split()
        assert len(points) == 8
    faces = [tiles[s].findall(f"{SVG}polygon")[1].get("fill") for s in tiles]
    assert len(set(faces)) == 2
    shown = {el.get("href"): 0 for el in root.iter(f"{SVG}use")}
    for el in root.iter(f"{SVG}use"):
        shown[el.get("href")] += 1
    assert shown["#obonto-dark"] == 5 and shown["#obonto-light"] == 76


def test_a_mark_after_a_square_lies_under_the_animals() -> None:
    """The web page puts its marks (last move, selection, targets) right after a square's first
    element: every square must come before every animal, so no mark repaints an animal."""
    state = played("d1-d2")
    elements = list(ET.fromstring(state.game.render_svg(state.observation(None))))
    order = [el.get("class", "") for el in elements]
    last_square = max(i for i, c in enumerate(order) if c.startswith("square"))
    first_animal = min(i for i, c in enumerate(order) if c == "animal")
    assert last_square < first_animal
    outline = next(el for el in elements if el.get("class") == "last-move")
    assert outline.get("fill") == "none" and outline.get("stroke")
