"""The OYNO board and its position notation (RULINGS.md, "OYNO board")."""

from __future__ import annotations

import pytest

from boneyard import InvalidPositionError
from boneyard.games.oyno.board import board, format_position, parse_position


def test_default_board_geometry() -> None:
    geometry = board(5)
    assert geometry.name(geometry.center) == "c3"
    assert len(geometry.resting) == 24
    assert geometry.center not in geometry.resting


def test_adjacency_is_by_side_only_and_never_the_center() -> None:
    geometry = board(5)
    names = lambda mask: sorted(geometry.name(c) for c in geometry.cells_of(mask))  # noqa: E731
    assert names(geometry.neighbours[geometry.grid.parse("a1")]) == ["a2", "b1"]
    assert names(geometry.neighbours[geometry.grid.parse("b2")]) == ["a2", "b1", "b3", "c2"]
    # c2 touches the center c3, which is no resting cell
    assert names(geometry.neighbours[geometry.grid.parse("c2")]) == ["b2", "c1", "d2"]


def test_example_position_round_trips() -> None:
    text = "U...D/.D.../..o../...U./D...U"
    size, bones = parse_position(text, "UD")
    assert size == 5
    named = {board(5).name(c): char for c, char in bones.items()}
    assert named == {"a5": "U", "e5": "D", "b4": "D", "d2": "U", "a1": "D", "e1": "U"}
    assert format_position(5, bones) == text


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("U...D/.D.../..o../...U.", "4 ranks"),
        ("U...D/.D.../..o../...U./D...", "rank 1 ('D...') has 4 cells"),
        ("U...D/.D.../..o../...U./D..xU", "rank 1, cell d1: 'x' is not one of U, D, ., o"),
        ("U...D/.D.../..U../...U./D...U", "rank 3, cell c3 is the center"),
        ("U...o/.D.../..o../...U./D...U", "rank 5, cell e5: 'o' marks the center"),
        ("U...D/.R.../..o../...U./D...U", "rank 4, cell b4: 'R' is not one of"),
        ("UD", "1 rank"),
    ],
)
def test_malformed_positions_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(InvalidPositionError) as error:
        parse_position(text, "UD")
    assert fragment in str(error.value)


def test_malformed_position_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_position("nonsense", "UD")
