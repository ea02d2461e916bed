"""Exhaustive analysis of the OYNO puzzle: the optimal solution length of every position.

The move graph is undirected: a move X->Y leaves the moved bone up on Y and X empty, so the move
Y->X from the new position reverses the same neighbours again (the board around each cell is
occupied exactly as it was) and puts the bone back on X, up, as it was. The distance to "solved"
of every position is therefore one breadth-first search *from* all solved positions at once.

The search runs over two layers, like the physical move: a *board* position (``k`` bones) and a
*hand* position (``k - 1`` bones on the board, one in the center). Picking up an up bone leads
from a board position to a hand position; putting the bone down leads back. A move is a pick-up
followed by a put-down, so board distances are half the distances in this two-layer graph (putting
the bone back where it came from reverses the same bones twice: a self-loop that never shortens a
path). The hand layer has far fewer edges per position than the move graph, which keeps the work
to about ``positions * (bones + empty cells)`` table look-ups.

Positions are ranked, never stored as objects: the set of occupied resting cells by the
combinatorial number system (colex rank) and the sides of the bones as a ``k``-bit number in the
order of their cells, so a position is the integer ``occupancy_rank * 2**k + sides``. Distances are
one ``uint8`` per position (255: not reachable), in a numpy array (188 MB for 8 bones on 5x5).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

UNREACHED = 255
_CHUNK = 1 << 22
MAX_POSITIONS = 1 << 31
HEADLINE = ("size", "bones", "setups", "solvable", "gods_number")
"""The keys of a summary worth one line at the terminal."""
"""The most positions one analysis holds (one byte each, plus the hand layer)."""

IntArray = npt.NDArray[np.int64]


def position_count(size: int, bones: int) -> int:
    """Positions with ``bones`` bones: cell sets times side patterns."""
    return math.comb(size * size - 1, bones) << bones


def resting_cells(size: int) -> list[int]:
    """Grid indices (``rank * size + file``) of the resting cells: every cell but the center."""
    center = (size * size) // 2
    return [cell for cell in range(size * size) if cell != center]


def resting_neighbours(size: int) -> list[list[int]]:
    """For each resting cell (by its number among the resting cells) the adjacent resting cells."""
    cells = resting_cells(size)
    number = {cell: i for i, cell in enumerate(cells)}
    result = []
    for cell in cells:
        file, rank = cell % size, cell // size
        found = []
        for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            f, r = file + df, rank + dr
            if 0 <= f < size and 0 <= r < size and r * size + f in number:
                found.append(number[r * size + f])
        result.append(sorted(found))
    return result


def colex_rank(cells: npt.NDArray[Any]) -> IntArray:
    """Colex ranks of sorted k-subsets, one per row of ``cells`` (shape ``(n, k)``)."""
    n, k = cells.shape
    rank = np.zeros(n, dtype=np.int64)
    table = _binomial_table(int(cells.max(initial=0)) + 1, k)
    for j in range(k):
        rank += table[cells[:, j], j + 1]
    return rank


def _binomial_table(n: int, k: int) -> IntArray:
    table = np.zeros((max(n, 1), k + 2), dtype=np.int64)
    for a in range(table.shape[0]):
        for b in range(k + 2):
            table[a, b] = math.comb(a, b)
    return table


def subsets(count: int, k: int) -> npt.NDArray[np.int16]:
    """All k-subsets of ``range(count)`` as sorted rows; row ``i`` has colex rank ``i``."""
    total = math.comb(count, k)
    if k == 0:
        return np.zeros((1, 0), dtype=np.int16)
    flat = np.fromiter(
        (c for combo in combinations(range(count), k) for c in combo),
        dtype=np.int16,
        count=total * k,
    )
    rows = flat.reshape(total, k)
    order = np.empty(total, dtype=np.int64)
    order[colex_rank(rows)] = np.arange(total)
    return rows[order]


@dataclass
class Layer:
    """Look-up tables of the moves out of one layer of positions with ``k`` bones."""

    k: int
    cells: npt.NDArray[np.int16]
    # pick-up of the j-th bone: the rank of what remains and the bones it reverses (in the
    # side bits of what remains)
    pick_rank: IntArray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    pick_flip: IntArray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    # put-down on the e-th empty cell: the rank afterwards, the new bone's position among the
    # bones, and the bones it reverses (side bits afterwards)
    put_rank: IntArray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    put_position: IntArray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    put_flip: IntArray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))


def _neighbour_bits(size: int) -> list[int]:
    return [sum(1 << n for n in ns) for ns in resting_neighbours(size)]


def build_pick_tables(size: int, k: int, cells: npt.NDArray[np.int16]) -> tuple[IntArray, IntArray]:
    """For every k-subset and bone j: rank of the subset without j, and the reversal mask."""
    count = len(resting_cells(size))
    neighbours = np.array(_neighbour_bits(size), dtype=np.int64)
    total = cells.shape[0]
    pick_rank = np.zeros((total, k), dtype=np.int64)
    pick_flip = np.zeros((total, k), dtype=np.int64)
    for j in range(k):
        rest = np.delete(cells, j, axis=1)
        pick_rank[:, j] = colex_rank(rest) if k > 1 else 0
        removed = cells[:, j].astype(np.int64)
        flip = np.zeros(total, dtype=np.int64)
        for i in range(k - 1):
            adjacent = (neighbours[removed] >> rest[:, i].astype(np.int64)) & 1
            flip |= adjacent << i
        pick_flip[:, j] = flip
    del count
    return pick_rank, pick_flip


def build_put_tables(
    size: int, k: int, cells: npt.NDArray[np.int16]
) -> tuple[IntArray, IntArray, IntArray]:
    """For every k-subset and empty cell e: rank of the (k+1)-subset, position, reversal mask."""
    count = len(resting_cells(size))
    neighbours = np.array(_neighbour_bits(size), dtype=np.int64)
    total = cells.shape[0]
    empties = count - k
    put_rank = np.zeros((total, empties), dtype=np.int64)
    put_position = np.zeros((total, empties), dtype=np.int64)
    put_flip = np.zeros((total, empties), dtype=np.int64)
    occupied = np.zeros(total, dtype=np.int64)
    for j in range(k):
        occupied |= np.int64(1) << cells[:, j].astype(np.int64)
    # the e-th empty cell of each subset
    empty_cells = np.zeros((total, empties), dtype=np.int64)
    filled = np.zeros(total, dtype=np.int64)
    for cell in range(count):
        free = ((occupied >> cell) & 1) == 0
        rows = np.flatnonzero(free)
        empty_cells[rows, filled[rows]] = cell
        filled[rows] += 1
    for e in range(empties):
        new_cell = empty_cells[:, e]
        position = np.zeros(total, dtype=np.int64)
        for j in range(k):
            position += cells[:, j] < new_cell
        combined = np.zeros((total, k + 1), dtype=np.int64)
        for j in range(k):
            combined[:, j] = cells[:, j]
        combined[:, k] = new_cell
        combined.sort(axis=1)
        put_rank[:, e] = colex_rank(combined)
        put_position[:, e] = position
        flip = np.zeros(total, dtype=np.int64)
        adjacent_of_new = neighbours[new_cell]
        for i in range(k + 1):
            flip |= ((adjacent_of_new >> combined[:, i]) & 1) << i
        put_flip[:, e] = flip
    return put_rank, put_position, put_flip


def _frontier(distance: npt.NDArray[np.uint8], level: int) -> Iterator[IntArray]:
    """Indices of positions at ``level``, in chunks."""
    for start in range(0, distance.size, _CHUNK * 8):
        block = np.flatnonzero(distance[start : start + _CHUNK * 8] == level)
        for piece in range(0, block.size, _CHUNK):
            yield block[piece : piece + _CHUNK].astype(np.int64) + start


Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called as the work goes on."""


def distance_table(
    size: int, bones: int, progress: Progress | None = None
) -> npt.NDArray[np.uint8]:
    """The optimal solution length of every position with ``bones`` bones (255: unsolvable).

    Position ``rank * 2**bones + sides``: ``rank`` is the colex rank of the occupied resting
    cells (numbered in grid order, center left out), bit ``j`` of ``sides`` is 1 when the bone on
    the j-th occupied cell is up.
    """
    count = len(resting_cells(size))
    if not 1 <= bones < count:
        raise ValueError(f"bones must be 1 to {count - 1} on a {size}x{size} board, not {bones}")
    k = bones
    board_cells = subsets(count, k)
    hand_cells = subsets(count, k - 1)
    picks = build_pick_tables(size, k, board_cells)
    puts = build_put_tables(size, k - 1, hand_cells)
    board_total = board_cells.shape[0] << k
    board = np.full(board_total, UNREACHED, dtype=np.uint8)
    hand = np.full(hand_cells.shape[0] << (k - 1), UNREACHED, dtype=np.uint8)
    board[(np.arange(board_cells.shape[0], dtype=np.int64) << k) + (1 << k) - 1] = 0
    done = board_cells.shape[0]
    level = 0
    low_masks = np.array([(1 << j) - 1 for j in range(k + 1)], dtype=np.int64)
    while True:
        if progress:
            progress(f"level {level}", done, board_total)
        if _pick_up_level(board, hand, level, k, picks, low_masks) == 0:
            break
        _put_down_level(board, hand, level, k, count, puts, low_masks)
        reached_board = int(np.count_nonzero(board == level + 1))
        done += reached_board
        level += 1
        if reached_board == 0:
            break
    if progress:
        progress("done", board_total, board_total)
    return board


def _pick_up_level(
    board: npt.NDArray[np.uint8],
    hand: npt.NDArray[np.uint8],
    level: int,
    k: int,
    picks: tuple[Any, Any],
    low_masks: npt.NDArray[np.int64],
) -> int:
    """Mark, at ``level``, each hand position reached by picking up an up bone from a board
    position at ``level``; how many were newly reached."""
    pick_rank, pick_flip = picks
    all_up = (1 << k) - 1
    reached = 0
    for index in _frontier(board, level):
        rank = index >> k
        sides = index & all_up
        for j in range(k):
            up = ((sides >> j) & 1).astype(bool)
            if not up.any():
                continue
            s = sides[up]
            r = rank[up]
            rest = ((s >> (j + 1)) << j) | (s & low_masks[j])
            rest ^= pick_flip[r, j]
            target = (pick_rank[r, j] << (k - 1)) | rest
            new = hand[target] == UNREACHED
            hand[target[new]] = level
            reached += int(new.sum())
    return reached


def _put_down_level(
    board: npt.NDArray[np.uint8],
    hand: npt.NDArray[np.uint8],
    level: int,
    k: int,
    count: int,
    puts: tuple[Any, Any, Any],
    low_masks: npt.NDArray[np.int64],
) -> None:
    """Mark, at ``level + 1``, each board position reached by putting the bone in hand on an
    empty resting cell from a hand position at ``level``."""
    put_rank, put_position, put_flip = puts
    for index in _frontier(hand, level):
        rank = index >> (k - 1)
        sides = index & ((1 << (k - 1)) - 1)
        for e in range(count - k + 1):
            position = put_position[rank, e]
            low = sides & low_masks[position]
            new_sides = ((sides >> position) << (position + 1)) | (1 << position) | low
            new_sides ^= put_flip[rank, e]
            target = (put_rank[rank, e] << k) | new_sides
            new = board[target] == UNREACHED
            board[target[new]] = level + 1


def summarize(size: int, bones: int, board: npt.NDArray[np.uint8]) -> dict[str, Any]:
    """The analysis results over legal set-ups (at least one up and one down bone)."""
    k = bones
    occupancies = board.size >> k
    counts = np.bincount(board, minlength=256).astype(np.int64)
    # the solved positions (all up) are the distance-0 ones; the all-down positions have no move
    legal_total = occupancies * ((1 << k) - 2) if k >= 2 else 0
    all_down = board[np.arange(occupancies, dtype=np.int64) << k]
    distribution = {
        str(length): int(counts[length]) for length in range(1, UNREACHED) if counts[length]
    }
    solvable = int(sum(distribution.values()))
    unreached_all_down = int((all_down == UNREACHED).sum())
    unsolvable = int(counts[UNREACHED]) - unreached_all_down if k >= 2 else 0
    if k < 2:
        distribution = {}
        solvable = 0
    return {
        "size": size,
        "bones": bones,
        "positions": int(board.size),
        "setups": int(legal_total),
        "solvable": solvable,
        "unsolvable": unsolvable,
        "gods_number": max((int(x) for x in distribution), default=None),
        "distribution": distribution,
    }


def write_results(summary: dict[str, Any], out_dir: Path) -> tuple[Path, Path | None]:
    """Save ``oyno-<size>x<size>-<bones>.json`` and (with matplotlib) a PNG bar chart."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"oyno-{summary['size']}x{summary['size']}-{summary['bones']}"
    json_path = out_dir / f"{stem}.json"
    json_path.write_text(json.dumps(summary, indent=2) + "\n")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return json_path, None
    lengths = [int(x) for x in summary["distribution"]]
    values = [summary["distribution"][str(x)] for x in lengths]
    figure, axes = plt.subplots(figsize=(6.4, 3.8))
    bars = axes.bar(lengths, values, color="#8a6d3b")
    axes.bar_label(bars, labels=[f"{v:,}" for v in values], fontsize=7, padding=2)
    axes.set_xlabel("optimal solution length (moves)")
    axes.set_ylabel("legal set-ups")
    axes.set_title(
        f"OYNO puzzle {summary['size']}x{summary['size']}, {summary['bones']} bones\n"
        f"{summary['solvable']:,} of {summary['setups']:,} legal set-ups solvable",
        fontsize=10,
    )
    axes.set_xticks(lengths)
    axes.margins(y=0.12)
    figure.tight_layout()
    png_path = out_dir / f"{stem}.png"
    figure.savefig(png_path, dpi=100, metadata={"Software": None})
    plt.close(figure)
    return json_path, png_path


def analyze(size: int, bones: int, progress: Progress | None = None) -> dict[str, Any]:
    """Distance table and summary in one call."""
    return summarize(size, bones, distance_table(size, bones, progress))


RARE_FRACTION = 1 / 200
"""Difficulties rarer than this among legal set-ups get their set-ups listed (see below)."""


def rare_setups(
    size: int, bones: int, progress: Progress | None = None
) -> dict[int, npt.NDArray[np.int32]]:
    """Optimal length -> position indices of every set-up with that length, for the lengths
    rarer than ``RARE_FRACTION`` (rejection sampling would take too long to deal them)."""
    table = distance_table(size, bones, progress)
    summary = summarize(size, bones, table)
    found = {}
    for length, count in summary["distribution"].items():
        if count < RARE_FRACTION * summary["setups"]:
            found[int(length)] = np.flatnonzero(table == int(length)).astype(np.int32)
    return found


def write_rare_setups(path: Path, size: int, bone_counts: range) -> None:
    """Save the rare set-ups of several bone counts as ``b{bones}_k{length}`` arrays (npz)."""
    arrays: dict[str, npt.NDArray[np.int32]] = {}
    for bones in bone_counts:
        for length, indices in rare_setups(size, bones).items():
            arrays[f"b{bones}_k{length}"] = indices
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
