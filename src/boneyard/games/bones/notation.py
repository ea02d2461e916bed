"""Bones notation: the board's squares, the placements (action ids) and their strings.

Squares are algebraic (``a1`` at seat 0's lower left; files ``a``, ``b``, ... and ranks 1, 2, ...);
a square's index is ``rank0 * width + file0``.

**Placements.** A piece covers two orthogonally adjacent squares. Its string names both squares,
the one nearer ``a1`` first: ``e5-f5`` (horizontal), ``e5-e6`` (vertical). Parsing also accepts
the two squares in the other order (``f5-e5``), as a person clicking them might.

**Action ids** never change meaning for a board size:

* the horizontal placements first, ordered by their left square:
  ``id = rank0 * (width - 1) + file0`` (``a1-b1`` = 0, ``b1-c1`` = 1, ...);
* then the vertical ones, ordered by their lower square:
  ``id = height * (width - 1) + rank0 * width + file0``.

So there are ``height * (width - 1) + (height - 1) * width`` ids (161 on the default 10x9 board),
and sorting ids sorts placements the same way on every board.

**Start area.** The two middle squares of the middle rank. The rank is ``(height - 1) // 2``
(0-based): the middle rank of an odd height; of an even height, the lower of the two middle ranks.
The files are ``(width - 1) // 2`` and the one to its right: the two middle files of an even
width; of an odd width, the middle file and its right neighbour. Default 10x9: ``e5`` and ``f5``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from boneyard.core.errors import InvalidActionStringError
from boneyard.core.squares import Grid, grid

LINE = 5
"""How many consecutive squares of one colour in a rank or file win."""

_PLACEMENT = re.compile(r"^([a-z][0-9]+)\s*-\s*([a-z][0-9]+)$")


def start_area(width: int, height: int) -> tuple[int, int]:
    """The start area's two square indices on a ``width`` x ``height`` board (left one first)."""
    rank0 = (height - 1) // 2
    file0 = (width - 1) // 2
    first = rank0 * width + file0
    return first, first + 1


@dataclass(frozen=True)
class DominoTable:
    """Every placement of one board size, computed once (``domino_table(width, height)``)."""

    width: int
    height: int
    grid: Grid
    count: int
    """How many placements (action ids) the board has."""
    horizontal: int
    """Ids below this are horizontal placements."""
    first: tuple[int, ...]
    """``first[action]``: the square nearer a1 (left or lower)."""
    second: tuple[int, ...]
    """``second[action]``: the other square (right or upper)."""
    actions: tuple[int, ...]
    """``range(count)`` as a tuple (for ``itertools.compress``)."""
    start_squares: tuple[int, int]
    start_actions: tuple[int, ...]
    """The placements that touch the start area (the legal first moves), sorted."""
    by_pair: dict[tuple[int, int], int]
    """``(first, second)`` square indices -> action id."""
    touching: tuple[tuple[int, ...], ...]
    """``touching[square]``: the placements covering that square, sorted."""
    strings: tuple[str, ...]
    """``strings[action]``: the placement's notation."""
    lines: tuple[tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...], ...]
    """``lines[action]``: the three lines a placement can complete (its own direction, and across
    it at each square), each as (squares it covers in that line, the squares before them nearest
    first, the squares after them nearest first), the rays cut to what a line of five needs."""


def _ray(
    width: int, height: int, square: int, step: tuple[int, int], length: int
) -> tuple[int, ...]:
    """Up to ``length`` squares from ``square`` (excluded) in direction ``step``, nearest first."""
    file, rank = square % width, square // width
    ray = []
    for _ in range(length):
        file, rank = file + step[0], rank + step[1]
        if not (0 <= file < width and 0 <= rank < height):
            break
        ray.append(rank * width + file)
    return tuple(ray)


def _lines(
    width: int, height: int, first: int, second: int, horizontal: bool
) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    along, across = ((1, 0), (0, 1)) if horizontal else ((0, 1), (1, 0))
    back = (-along[0], -along[1])
    down = (-across[0], -across[1])
    need = LINE - 1
    return (
        (
            2,
            _ray(width, height, first, back, need - 1),
            _ray(width, height, second, along, need - 1),
        ),
        (1, _ray(width, height, first, down, need), _ray(width, height, first, across, need)),
        (1, _ray(width, height, second, down, need), _ray(width, height, second, across, need)),
    )


@cache
def domino_table(width: int, height: int) -> DominoTable:
    """The shared placement table of a ``width`` x ``height`` board."""
    first: list[int] = []
    second: list[int] = []
    for rank in range(height):
        for file in range(width - 1):
            square = rank * width + file
            first.append(square)
            second.append(square + 1)
    horizontal = len(first)
    for rank in range(height - 1):
        for file in range(width):
            square = rank * width + file
            first.append(square)
            second.append(square + width)
    count = len(first)
    board = grid(width, height)
    start = start_area(width, height)
    touching: list[list[int]] = [[] for _ in range(width * height)]
    for action in range(count):
        touching[first[action]].append(action)
        touching[second[action]].append(action)
    return DominoTable(
        width=width,
        height=height,
        grid=board,
        count=count,
        horizontal=horizontal,
        first=tuple(first),
        second=tuple(second),
        actions=tuple(range(count)),
        start_squares=start,
        start_actions=tuple(a for a in range(count) if first[a] in start or second[a] in start),
        by_pair={(first[a], second[a]): a for a in range(count)},
        touching=tuple(tuple(sorted(t)) for t in touching),
        strings=tuple(f"{board.names[first[a]]}-{board.names[second[a]]}" for a in range(count)),
        lines=tuple(
            _lines(width, height, first[a], second[a], a < horizontal) for a in range(count)
        ),
    )


def action_to_string(table: DominoTable, action: int) -> str:
    """``e5-f5``: the placement's two squares, the one nearer a1 first."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < table.count:
        raise ValueError(
            f"no bones placement {action!r} on a {table.width}x{table.height} board: "
            f"action ids are 0 to {table.count - 1}"
        )
    return table.strings[action]


def string_to_action(table: DominoTable, text: str) -> int:
    """``'e5-f5'`` -> its id; malformed text raises InvalidActionStringError saying why."""
    board = table.grid
    last = board.names[-1]
    match = _PLACEMENT.match(text.strip().lower())
    if match is None:
        raise InvalidActionStringError(
            f"bad bones placement {text!r}: write the two adjacent squares the piece covers, "
            f"joined by '-', for example e5-f5 or e5-e6 (squares a1 to {last})"
        )
    try:
        one, two = (board.parse(name) for name in match.groups())
    except InvalidActionStringError as error:
        raise InvalidActionStringError(f"bad bones placement {text!r}: {error}") from None
    pair = (one, two) if one < two else (two, one)
    action = table.by_pair.get(pair)
    if action is None:
        raise InvalidActionStringError(
            f"bad bones placement {text!r}: a piece covers two orthogonally adjacent squares, "
            "for example e5-f5 or e5-e6"
        )
    return action
