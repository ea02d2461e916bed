"""The OYNO board, shared by the puzzle and the two-player game.

An odd ``size`` x ``size`` board: cell ``rank0 * size + file0`` (``a1`` is 0), the middle cell is
the round *center* where no bone rests. Bones live in bit masks over the cells: ``occupied`` has
bit ``c`` set when a bone rests on cell ``c``, ``up`` when that bone is up (the two-player game has
one occupied mask per colour). Reversing the bones adjacent to a cell is one XOR with the cell's
neighbour mask, restricted to the occupied cells.

Position notation (the ``start`` parameter): ranks from the highest down to 1, separated by
``/``, one character a cell: ``U`` up bone, ``D`` down bone, ``.`` empty, ``o`` the center; the
two-player game writes ``R``/``r`` (red up/down) and ``W``/``w`` (white up/down) instead of U/D.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from boneyard.core.errors import InvalidPositionError
from boneyard.core.parameters import About
from boneyard.core.squares import Grid, grid

CENTER_CHAR = "o"
EMPTY_CHAR = "."


@dataclass(frozen=True)
class Board:
    """Geometry of one board size: cells, the center, neighbour masks."""

    size: int
    grid: Grid
    cells: int
    center: int
    resting: tuple[int, ...]
    resting_mask: int
    neighbours: tuple[int, ...]
    """``neighbours[c]``: bit mask of the resting cells that share a side with cell ``c``."""
    chunk_cells: tuple[tuple[tuple[int, ...], ...], ...]
    """``chunk_cells[i][b]``: the cells of the bits ``b`` of the i-th 12-bit chunk of a mask."""

    def name(self, cell: int) -> str:
        return self.grid.names[cell]

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # Pickled by size: a game sent from a worker process shares the one cached Board of
        # its size (its tables are megabytes) instead of bringing its own copy.
        return (board, (self.size,))

    def cells_of(self, mask: int) -> tuple[int, ...]:
        """The cells of ``mask``, ascending."""
        tables = self.chunk_cells
        if len(tables) == 3:
            return tables[0][mask & 0xFFF] + tables[1][(mask >> 12) & 0xFFF] + tables[2][mask >> 24]
        found: tuple[int, ...] = ()
        for table in tables:
            found += table[mask & 0xFFF]
            mask >>= 12
        return found


def check_size(size: int) -> str | None:
    """Why ``size`` is not an OYNO board size, or None."""
    if size < 3 or size % 2 == 0:
        return "the board size is odd and at least 3"
    if size > 25:
        return "the board size is at most 25"
    return None


DEFAULT_SIZE = 5
"""The usual board: 5x5."""

SIZE = About(
    "board size (odd); the middle cell is the center",
    minimum=3,
    maximum=25,
    check=check_size,
    question="How many cells along each side? (an odd number; 5 is the usual board)",
)
"""The board-size parameter both OYNO games declare (``size: Annotated[int, SIZE]``)."""


@cache
def board(size: int) -> Board:
    """The shared ``Board`` of a size (odd, at least 3)."""
    problem = check_size(size)
    if problem:
        raise ValueError(f"bad OYNO board size {size}: {problem}")
    geometry = grid(size, size)
    cells = size * size
    center = cells // 2
    resting = tuple(c for c in range(cells) if c != center)
    neighbours = tuple(
        sum(1 << n for n in geometry.orthogonal_neighbours[c] if n != center) for c in range(cells)
    )
    chunks = (cells + 11) // 12
    chunk_cells = tuple(_chunk_table(12 * i, min(12, cells - 12 * i)) for i in range(chunks))
    return Board(
        size=size,
        grid=geometry,
        cells=cells,
        center=center,
        resting=resting,
        resting_mask=sum(1 << c for c in resting),
        neighbours=neighbours,
        chunk_cells=chunk_cells,
    )


@cache
def _chunk_table(offset: int, bits: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(bits) if (b >> i) & 1) for b in range(1 << bits))


def format_position(size: int, symbols: dict[int, str]) -> str:
    """Notation of a board whose bones are ``symbols`` (cell -> character)."""
    geometry = board(size)
    ranks = []
    for rank in range(size - 1, -1, -1):
        row = []
        for file in range(size):
            cell = rank * size + file
            if cell == geometry.center:
                row.append(CENTER_CHAR)
            else:
                row.append(symbols.get(cell, EMPTY_CHAR))
        ranks.append("".join(row))
    return "/".join(ranks)


def parse_position(text: str, pieces: str) -> tuple[int, dict[int, str]]:
    """Parse notation into ``(size, {cell: character})``; ``pieces`` are the bone characters.

    A malformed string raises InvalidPositionError naming the rank and the character at fault.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position is text, not {type(text).__name__}")
    ranks = text.strip().split("/")
    size = len(ranks)
    if size < 3 or size % 2 == 0:
        raise InvalidPositionError(
            f"bad position {text!r}: it has {size} rank{'s' if size != 1 else ''} separated by "
            "'/'; a board has an odd number of ranks, at least 3 (5 for the 5x5 board)"
        )
    if size > 25:
        raise InvalidPositionError(f"bad position {text!r}: at most 25 ranks")
    bones: dict[int, str] = {}
    for row, rank_text in enumerate(ranks):
        rank = size - 1 - row
        if len(rank_text) != size:
            raise InvalidPositionError(
                f"bad position {text!r}: rank {rank + 1} ({rank_text!r}) has {len(rank_text)} "
                f"cells; every rank of a {size}x{size} board has {size}"
            )
        for file, char in enumerate(rank_text):
            cell = rank * size + file
            if _cell_holds_a_bone(text, board(size), rank, cell, char, pieces):
                bones[cell] = char
    return size, bones


def _cell_holds_a_bone(
    text: str, geometry: Board, rank: int, cell: int, char: str, pieces: str
) -> bool:
    """Whether ``char`` at ``cell`` of a position is a bone; InvalidPositionError where the
    character does not belong there (the center's mark elsewhere, anything on the center)."""
    where = f"bad position {text!r}: rank {rank + 1}, cell {geometry.name(cell)}"
    if cell == geometry.center:
        if char != CENTER_CHAR:
            raise InvalidPositionError(
                f"{where} is the center and must be written {CENTER_CHAR!r}, not {char!r}"
            )
        return False
    if char == CENTER_CHAR:
        raise InvalidPositionError(
            f"{where}: {char!r} marks the center, which is {geometry.name(geometry.center)}"
        )
    if char == EMPTY_CHAR:
        return False
    if char not in pieces:
        allowed = ", ".join([*pieces, EMPTY_CHAR, CENTER_CHAR])
        raise InvalidPositionError(f"{where}: {char!r} is not one of {allowed}")
    return True
