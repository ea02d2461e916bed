"""Fewest-move search for the OYNO puzzle on bit masks (numpy, no game objects).

``boneyard.solvers.oyno_puzzle`` wraps it for any puzzle state; the difficulty generator of the
puzzle uses it to measure the set-ups it deals. A position is a pair of masks over the grid cells
(``occupied``, ``up``), as in :mod:`boneyard.games.oyno.board`.

The search is a breadth-first search forward from the position, level by level, with every level
held as numpy arrays and duplicates removed by sorting. Before a level is expanded, each of its
positions is tested for a finish in one move, which needs no expansion: picking up an up bone X
leaves some bones down, and one put-down on an empty cell Y solves the puzzle exactly when the
bones adjacent to Y are those down bones (so Y is a neighbour of the lowest down bone, or, with no
bone down, an empty cell with no neighbour). Because the move graph is undirected (every move can
be undone by one move), the neighbours of a level lie in the level before, the level itself or the
next, so only two levels are kept for removing repeats. The first level with a one-move finish
gives an optimal solution; a level that adds nothing new proves the position unsolvable.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from boneyard.games.oyno.board import board

Masks = npt.NDArray[np.int64]


class SearchLimitError(RuntimeError):
    """The search needed more positions than it was allowed to hold."""


@cache
def _tables(size: int) -> tuple[Masks, Masks, Masks]:
    geometry = board(size)
    neighbours = np.array(geometry.neighbours, dtype=np.int64)
    # up to four neighbouring resting cells of each cell, -1 padded
    adjacent = np.full((geometry.cells, 4), -1, dtype=np.int64)
    for cell in range(geometry.cells):
        for slot, other in enumerate(geometry.cells_of(geometry.neighbours[cell])):
            adjacent[cell, slot] = other
    resting = np.array(geometry.resting, dtype=np.int64)
    return neighbours, adjacent, resting


def _lowest_cell(mask: Masks) -> Masks:
    low = mask & -mask
    return np.round(np.log2(np.maximum(low, 1).astype(np.float64))).astype(np.int64)


def _pick_up(
    x: int, occupied: Masks, up: Masks, neighbours: Masks
) -> tuple[npt.NDArray[np.intp], Masks, Masks]:
    """The first half of a move from cell ``x``, for every position with an up bone there.

    Returns the rows of those positions, their occupied cells without ``x``, and their sides
    once the bones adjacent to ``x`` are reversed.
    """
    bit = np.int64(1) << np.int64(x)
    rows = np.flatnonzero(up & bit)
    occ = occupied[rows] & ~bit
    sides = (up[rows] & ~bit) ^ (neighbours[x] & occ)
    return rows, occ, sides


def _finishes_loop(
    size: int, occupied: Masks, up: Masks
) -> tuple[npt.NDArray[np.intp], Masks, Masks]:
    """Positions (by index) solved by one move, with that move's cells ``(index, X, Y)``."""
    neighbours, _, resting = _tables(size)
    found: list[tuple[npt.NDArray[np.intp], Masks, Masks]] = []
    for x in resting.tolist():
        rows, occ, sides = _pick_up(x, occupied, up, neighbours)
        if rows.size == 0:
            continue
        down = occ & ~sides
        has_down = down != 0
        sub = np.flatnonzero(has_down)
        if sub.size:
            found += _finishes_beside_down(x, rows[sub], occ[sub], down[sub], size)
        sub = np.flatnonzero(~has_down)
        if sub.size:
            found += _finishes_all_up(x, rows[sub], occ[sub], size)
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0, dtype=np.intp), empty, empty
    index, from_cells, to_cells = zip(*found, strict=True)
    return np.concatenate(index), np.concatenate(from_cells), np.concatenate(to_cells)


def _finishes_beside_down(
    x: int, rows: npt.NDArray[np.intp], occ: Masks, down: Masks, size: int
) -> list[tuple[npt.NDArray[np.intp], Masks, Masks]]:
    """With bone ``x`` lifted and some bone down: the put-down cell must be a neighbour of the
    lowest down bone, and turn exactly the down bones over."""
    neighbours, adjacent, _ = _tables(size)
    found = []
    lowest = _lowest_cell(down)
    for slot in range(4):
        y = adjacent[lowest, slot]
        ok = y >= 0
        y_safe = np.where(ok, y, 0)
        ybit = np.int64(1) << y_safe
        ok &= (occ & ybit) == 0
        ok &= y_safe != x
        ok &= (neighbours[y_safe] & occ) == down
        hit = np.flatnonzero(ok)
        if hit.size:
            found.append((rows[hit], np.full(hit.size, x, dtype=np.int64), y_safe[hit]))
    return found


def _finishes_all_up(
    x: int, rows: npt.NDArray[np.intp], occ: Masks, size: int
) -> list[tuple[npt.NDArray[np.intp], Masks, Masks]]:
    """With bone ``x`` lifted and every other bone up: any empty cell other than ``x`` with no
    bone beside it."""
    neighbours, _, resting = _tables(size)
    found = []
    for y in resting.tolist():
        if y == x:
            continue
        free_y = (occ & (np.int64(1) << np.int64(y))) == 0
        hit = np.flatnonzero(free_y & ((neighbours[y] & occ) == 0))
        if hit.size:
            found.append(
                (rows[hit], np.full(hit.size, x, dtype=np.int64), np.full(hit.size, y, np.int64))
            )
    return found


def _expand_loop(size: int, occupied: Masks, up: Masks) -> tuple[Masks, Masks, Masks, Masks]:
    """Every move from every position: (new occupied, new up, parent index, move X*cells+Y)."""
    neighbours, _, resting = _tables(size)
    cells = size * size
    out_occ: list[Masks] = []
    out_up: list[Masks] = []
    out_parent: list[Masks] = []
    out_move: list[Masks] = []
    for x in resting.tolist():
        rows, occ, sides = _pick_up(x, occupied, up, neighbours)
        if rows.size == 0:
            continue
        for y in resting.tolist():
            if y == x:
                continue
            ybit = np.int64(1) << np.int64(y)
            free = np.flatnonzero((occ & ybit) == 0)
            if free.size == 0:
                continue
            o = occ[free]
            out_occ.append(o | ybit)
            out_up.append((sides[free] | ybit) ^ (neighbours[y] & o))
            out_parent.append(rows[free].astype(np.int64))
            out_move.append(np.full(free.size, x * cells + y, dtype=np.int64))
    if not out_occ:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    return (
        np.concatenate(out_occ),
        np.concatenate(out_up),
        np.concatenate(out_parent),
        np.concatenate(out_move),
    )


_BROADCAST_LIMIT = 1 << 21
"""Positions x cells x cells up to which a level is handled in one broadcast (few numpy calls)."""


def one_move_finishes(
    size: int, occupied: Masks, up: Masks
) -> tuple[npt.NDArray[np.intp], Masks, Masks]:
    """Positions (by index) solved by one move, with that move's cells ``(index, X, Y)``."""
    cells = len(board(size).resting)
    if occupied.size * cells * cells > _BROADCAST_LIMIT:
        return _finishes_loop(size, occupied, up)
    neighbours, adjacent, resting = _tables(size)
    x_bits = np.int64(1) << resting
    taken = (up[:, None] & x_bits) != 0
    occ = occupied[:, None] & ~x_bits
    sides = (up[:, None] & ~x_bits) ^ (neighbours[resting] & occ)
    down = occ & ~sides
    has_down = down != 0
    # some bone down: the put-down cell is a neighbour of the lowest down bone
    y = adjacent[_lowest_cell(down)]
    y_safe = np.where(y >= 0, y, 0)
    ok = (y >= 0) & (taken & has_down)[:, :, None]
    ok &= (occ[:, :, None] & (np.int64(1) << y_safe)) == 0
    ok &= y_safe != resting[None, :, None]
    ok &= (neighbours[y_safe] & occ[:, :, None]) == down[:, :, None]
    rows, xi, slot = np.nonzero(ok)
    found_from = [resting[xi]]
    found_to = [y_safe[rows, xi, slot]]
    found_index = [rows]
    # nothing down: an empty cell other than X with no bone beside it
    clear = (taken & ~has_down)[:, :, None] & ~np.eye(cells, dtype=bool)[None, :, :]
    clear &= (occ[:, :, None] & x_bits[None, None, :]) == 0
    clear &= (neighbours[resting][None, None, :] & occ[:, :, None]) == 0
    rows2, xi2, yi2 = np.nonzero(clear)
    found_index.append(rows2)
    found_from.append(resting[xi2])
    found_to.append(resting[yi2])
    return (
        np.concatenate(found_index).astype(np.intp),
        np.concatenate(found_from),
        np.concatenate(found_to),
    )


def _expand(size: int, occupied: Masks, up: Masks) -> tuple[Masks, Masks, Masks, Masks]:
    """Every move from every position: (new occupied, new up, parent index, move X*cells+Y)."""
    count = len(board(size).resting)
    if occupied.size * count * count > _BROADCAST_LIMIT:
        return _expand_loop(size, occupied, up)
    neighbours, _, resting = _tables(size)
    bits = np.int64(1) << resting
    occ = occupied[:, None] & ~bits
    sides = (up[:, None] & ~bits) ^ (neighbours[resting] & occ)
    ok = ((up[:, None] & bits) != 0)[:, :, None] & ~np.eye(count, dtype=bool)[None, :, :]
    ok &= (occ[:, :, None] & bits[None, None, :]) == 0
    rows, xi, yi = np.nonzero(ok)
    o = occ[rows, xi]
    y_bits = bits[yi]
    new_up = (sides[rows, xi] | y_bits) ^ (neighbours[resting[yi]] & o)
    cells = size * size
    return o | y_bits, new_up, rows.astype(np.int64), resting[xi] * cells + resting[yi]


def _keys(size: int, occupied: Masks, up: Masks) -> Masks:
    return (up << np.int64(size * size)) | occupied


def solve_masks(
    size: int,
    occupied: int,
    up: int,
    max_length: int | None = None,
    max_positions: int = 60_000_000,
) -> list[tuple[int, int]] | None:
    """Fewest moves ``[(from_cell, to_cell), ...]`` that make every bone up, or None.

    None means unsolvable, or, with ``max_length``, no solution of at most that many moves.
    ``max_positions`` bounds the positions one level may hold (memory); past it the search
    raises SearchLimitError rather than swap.
    """
    geometry = board(size)
    if 2 * geometry.cells > 62:
        return _solve_python(size, occupied, up, max_length)
    if up == occupied:
        return []
    if up == 0:
        return None
    cells = size * size
    levels_parent: list[Masks] = []
    levels_move: list[Masks] = []
    occ = np.array([occupied], dtype=np.int64)
    ups = np.array([up], dtype=np.int64)
    previous_keys = np.zeros(0, dtype=np.int64)
    while True:
        if max_length is not None and len(levels_parent) >= max_length:
            return None
        index, from_cells, to_cells = one_move_finishes(size, occ, ups)
        if index.size:
            last = (int(from_cells[0]), int(to_cells[0]))
            return _moves_to(int(index[0]), last, levels_parent, levels_move, cells)
        keys, parent, move = _next_level(size, occ, ups)
        current_keys = np.sort(_keys(size, occ, ups))
        fresh = ~(np.isin(keys, current_keys, assume_unique=True))
        if previous_keys.size:
            fresh &= ~np.isin(keys, previous_keys, assume_unique=True)
        if not fresh.any():
            return None
        keys = keys[fresh]
        if keys.size > max_positions:
            raise SearchLimitError(
                f"the search needs more than {max_positions} positions in one level"
            )
        levels_parent.append(parent[fresh])
        levels_move.append(move[fresh])
        previous_keys = current_keys
        occ = keys & np.int64((1 << cells) - 1)
        ups = keys >> np.int64(cells)


def _moves_to(
    row: int, last: tuple[int, int], parents: list[Masks], moves: list[Masks], cells: int
) -> list[tuple[int, int]]:
    """The moves from the start to position ``row`` of the last level, then ``last``: each
    level keeps, per position, its parent row and the move (``X * cells + Y``) that made it."""
    path = [last]
    for parent, move in zip(reversed(parents), reversed(moves), strict=True):
        code = int(move[row])
        path.append((code // cells, code % cells))
        row = int(parent[row])
    path.reverse()
    return path


_EXPAND_ROWS = 100_000


def _next_level(size: int, occ: Masks, ups: Masks) -> tuple[Masks, Masks, Masks]:
    """Distinct positions one move away (sorted keys), each with a parent row and its move."""
    keys_parts: list[Masks] = []
    parent_parts: list[Masks] = []
    move_parts: list[Masks] = []
    for start in range(0, occ.size, _EXPAND_ROWS):
        new_occ, new_up, parent, move = _expand(
            size, occ[start : start + _EXPAND_ROWS], ups[start : start + _EXPAND_ROWS]
        )
        keys, first = np.unique(_keys(size, new_occ, new_up), return_index=True)
        keys_parts.append(keys)
        parent_parts.append(parent[first] + start)
        move_parts.append(move[first])
    if len(keys_parts) == 1:
        return keys_parts[0], parent_parts[0], move_parts[0]
    keys, first = np.unique(np.concatenate(keys_parts), return_index=True)
    return keys, np.concatenate(parent_parts)[first], np.concatenate(move_parts)[first]


def apply_move(size: int, occupied: int, up: int, start: int, end: int) -> tuple[int, int]:
    """The masks after moving the (up) bone on ``start`` to the empty cell ``end``."""
    neighbours = board(size).neighbours
    occ = occupied & ~(1 << start)
    up = (up & ~(1 << start)) ^ (neighbours[start] & occ)
    up = (up | (1 << end)) ^ (neighbours[end] & occ)
    return occ | (1 << end), up


def moves_from(size: int, occupied: int, up: int) -> list[tuple[int, int]]:
    """Every legal move ``(from, to)`` of a puzzle position."""
    geometry = board(size)
    empty = geometry.resting_mask & ~occupied
    targets = geometry.cells_of(empty)
    return [(x, y) for x in geometry.cells_of(up) for y in targets]


def _solve_python(
    size: int, occupied: int, up: int, max_length: int | None
) -> list[tuple[int, int]] | None:
    """Plain breadth-first search (boards too large for packed numpy keys)."""
    return bfs_masks(size, occupied, up, max_length)


def bfs_masks(
    size: int,
    occupied: int,
    up: int,
    max_length: int | None = None,
    max_positions: int | None = None,
) -> list[tuple[int, int]] | None:
    """Plain breadth-first search over positions: the reference the fast search is tested on.

    Past ``max_positions`` positions seen it raises SearchLimitError.
    """
    start = (occupied, up)
    if up == occupied:
        return []
    parents: dict[tuple[int, int], tuple[tuple[int, int], tuple[int, int]] | None] = {start: None}
    frontier = [start]
    depth = 0
    while frontier:
        depth += 1
        if max_length is not None and depth > max_length:
            return None
        following = []
        for position in frontier:
            for move in moves_from(size, *position):
                after = apply_move(size, *position, *move)
                if after in parents:
                    continue
                parents[after] = (position, move)
                if max_positions is not None and len(parents) > max_positions:
                    raise SearchLimitError(f"the search saw more than {max_positions} positions")
                if after[0] == after[1]:
                    return _path_to(after, parents)
                following.append(after)
        frontier = following
    return None


def _path_to(
    node: tuple[int, int],
    parents: dict[tuple[int, int], tuple[tuple[int, int], tuple[int, int]] | None],
) -> list[tuple[int, int]]:
    """The moves from the start (the position without a parent) to ``node``."""
    path = []
    while (link := parents[node]) is not None:
        node, step = link
        path.append(step)
    path.reverse()
    return path
