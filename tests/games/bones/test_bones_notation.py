"""Bones notation: action ids, placement strings and their errors."""

from __future__ import annotations

import pytest

from boneyard import InvalidActionStringError
from boneyard.games.bones.notation import (
    action_to_string,
    domino_table,
    start_area,
    string_to_action,
)
from boneyard.games.bones.rules import BonesGame


def test_ids_count_horizontal_then_vertical() -> None:
    table = domino_table(10, 9)
    assert table.count == 9 * 9 + 8 * 10 == 161
    assert BonesGame().info.num_distinct_actions == 161
    assert action_to_string(table, 0) == "a1-b1"
    assert action_to_string(table, 1) == "b1-c1"
    assert action_to_string(table, 8) == "i1-j1"
    assert action_to_string(table, 9) == "a2-b2"
    assert action_to_string(table, 80) == "i9-j9"
    assert action_to_string(table, 81) == "a1-a2"
    assert action_to_string(table, 82) == "b1-b2"
    assert action_to_string(table, 91) == "a2-a3"
    assert action_to_string(table, 160) == "j8-j9"


@pytest.mark.parametrize(("width", "height"), [(10, 9), (6, 5), (2, 2), (7, 4), (26, 26)])
def test_the_documented_formula(width: int, height: int) -> None:
    table = domino_table(width, height)
    for rank in range(height):
        for file in range(width):
            square = rank * width + file
            if file < width - 1:
                action = rank * (width - 1) + file
                assert (table.first[action], table.second[action]) == (square, square + 1)
            if rank < height - 1:
                action = height * (width - 1) + rank * width + file
                assert (table.first[action], table.second[action]) == (square, square + width)
    assert table.count == height * (width - 1) + (height - 1) * width


def test_strings_name_the_square_nearer_a1_first_and_round_trip() -> None:
    table = domino_table(10, 9)
    for action in range(table.count):
        text = action_to_string(table, action)
        one, two = text.split("-")
        assert (int(one[1:]), one[0]) < (int(two[1:]), two[0])
        assert string_to_action(table, text) == action
        assert string_to_action(table, f"{two}-{one}") == action
        assert string_to_action(table, text.upper()) == action


def test_examples_from_the_rules() -> None:
    table = domino_table(10, 9)
    assert action_to_string(table, string_to_action(table, "e5-f5")) == "e5-f5"
    assert action_to_string(table, string_to_action(table, "e5-e6")) == "e5-e6"
    assert string_to_action(table, "f5-e5") == string_to_action(table, "e5-f5")
    assert string_to_action(table, "e5 - f5") == string_to_action(table, "e5-f5")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("e5", "two adjacent squares"),
        ("e5f5", "two adjacent squares"),
        ("", "two adjacent squares"),
        ("e5-g5", "orthogonally adjacent"),
        ("e5-f6", "orthogonally adjacent"),
        ("e5-e5", "orthogonally adjacent"),
        ("j1-a2", "orthogonally adjacent"),
        ("k5-j5", "squares are a1 to j9"),
        ("e9-e10", "squares are a1 to j9"),
    ],
)
def test_bad_strings_say_what_is_allowed(text: str, why: str) -> None:
    state = BonesGame().new_initial_state()
    with pytest.raises(InvalidActionStringError, match=why):
        state.string_to_action(text)


def test_bad_ids_are_refused() -> None:
    table = domino_table(10, 9)
    for bad in (-1, 161, True):
        with pytest.raises(ValueError, match="0 to 160"):
            action_to_string(table, bad)


def test_start_area_formula() -> None:
    assert start_area(10, 9) == (44, 45)  # e5, f5
    assert start_area(9, 9) == (40, 41)  # e5, f5
    assert start_area(10, 8) == (34, 35)  # e4, f4
    assert start_area(2, 2) == (0, 1)  # a1, b1
    table = domino_table(10, 9)
    assert [table.strings[a] for a in table.start_actions] == [
        "d5-e5",
        "e5-f5",
        "f5-g5",
        "e4-e5",
        "f4-f5",
        "e5-e6",
        "f5-f6",
    ]
