"""Rectangular boards in algebraic notation: files a, b, ... and ranks 1, 2, ... from seat 0.

A square is an index ``rank0 * width + file0`` (``a1`` is 0). Neighbour tables are computed once
per board size, so move generators only look things up.
"""

from __future__ import annotations

from functools import cache

from boneyard.core.errors import InvalidActionStringError

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KING = ORTHOGONAL + DIAGONAL


class Grid:
    """Geometry of a ``width`` x ``height`` board. Get one with ``grid(width, height)``."""

    def __init__(self, width: int, height: int) -> None:
        if not 1 <= width <= 26 or height < 1:
            raise ValueError(
                f"a board is 1 to 26 files wide and at least 1 rank high, not {width}x{height}"
            )
        self.width = width
        self.height = height
        self.size = width * height
        self.names = [self._name(index) for index in range(self.size)]
        self._index_of = {name: index for index, name in enumerate(self.names)}
        self.orthogonal_neighbours = [self._neighbours(i, ORTHOGONAL) for i in range(self.size)]
        self.king_neighbours = [self._neighbours(i, KING) for i in range(self.size)]

    def _name(self, index: int) -> str:
        return f"{chr(ord('a') + index % self.width)}{index // self.width + 1}"

    def _neighbours(self, index: int, directions: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        found = []
        for step in directions:
            target = self.step(index, step)
            if target is not None:
                found.append(target)
        return tuple(found)

    def index(self, file: int, rank: int) -> int:
        """The index of the square at 0-based ``file`` and ``rank``."""
        return rank * self.width + file

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.width and 0 <= rank < self.height

    def step(self, index: int, direction: tuple[int, int]) -> int | None:
        """The square one step from ``index`` in ``direction`` (file, rank); None off the board."""
        file, rank = index % self.width + direction[0], index // self.width + direction[1]
        return self.index(file, rank) if self.on_board(file, rank) else None

    def name(self, index: int) -> str:
        """``0 -> 'a1'``."""
        return self.names[index]

    def parse(self, text: str) -> int:
        """``'a1' -> 0``; anything else raises InvalidActionStringError naming the board."""
        index = self._index_of.get(text.strip().lower())
        if index is None:
            last = self.names[-1]
            raise InvalidActionStringError(
                f"no square {text!r} on a {self.width}x{self.height} board: "
                f"squares are a1 to {last}"
            )
        return index


@cache
def grid(width: int, height: int) -> Grid:
    """The shared ``Grid`` of a board size."""
    return Grid(width, height)
