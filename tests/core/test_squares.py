from __future__ import annotations

import pytest

from boneyard.core.errors import InvalidActionStringError
from boneyard.core.squares import grid


def test_algebraic_names() -> None:
    board = grid(9, 9)
    assert board.name(0) == "a1"
    assert board.name(8) == "i1"
    assert board.name(80) == "i9"
    assert board.parse("d1") == 3
    assert board.parse(" E5 ") == board.index(4, 4)


def test_neighbours() -> None:
    board = grid(3, 3)
    assert sorted(board.name(i) for i in board.orthogonal_neighbours[0]) == ["a2", "b1"]
    assert len(board.king_neighbours[4]) == 8


def test_bad_square_names_the_board() -> None:
    with pytest.raises(InvalidActionStringError, match="no square 'j1' on a 9x9 board"):
        grid(9, 9).parse("j1")
