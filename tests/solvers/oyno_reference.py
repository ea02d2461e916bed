"""A plain breadth-first search over OYNO puzzle positions: the reference for the fast code."""

from __future__ import annotations

import itertools
from collections import deque

from boneyard.games.oyno.board import board
from boneyard.games.oyno.search import apply_move, moves_from


def reference_distances(size: int, bones: int) -> dict[tuple[int, int], int]:
    """Plain BFS from every solved position (the move graph is undirected: every move can be
    undone), on tuples of masks: the distance to solved of every solvable position."""
    geometry = board(size)
    distance: dict[tuple[int, int], int] = {}
    queue: deque[tuple[int, int]] = deque()
    for cells in itertools.combinations(geometry.resting, bones):
        occupied = sum(1 << c for c in cells)
        distance[(occupied, occupied)] = 0
        queue.append((occupied, occupied))
    while queue:
        position = queue.popleft()
        for move in moves_from(size, *position):
            after = apply_move(size, *position, *move)
            if after not in distance:
                distance[after] = distance[position] + 1
                queue.append(after)
    return distance
