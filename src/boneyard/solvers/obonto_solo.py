"""Exact solver for the Obonto solo phase: the most moves the winner can still make alone.

Once one player is stuck, the other (the winner) moves alone and scores one point per move, so
the best play is a longest sequence of moves. The loser's animals never move again: they are
obstacles the winner's animals may pass over but not land on.

The search is a depth-first search over positions with three speed-ups that keep it exact:

* **Components.** Only the light squares the winner's animals can reach (over light squares,
  animals included) matter. When the winner's animals stand in separate regions, the regions are
  independent and their best counts add up, so each is solved on its own.
* **Memoisation.** A region is identified by its set of light squares and the winner's animals
  in it (the obstacles are fixed for one solve), so values are stored under that key.
* **Bounds.** Every move uses up one light empty square of the region (the target fills, the
  square left turns dark), so a region with ``n`` light empty squares allows at most ``n`` more
  moves. A move whose bound cannot beat the best found is skipped, and the search of a position
  stops as soon as a move reaches the bound.

``solve`` returns the count with one best line. A ``node_limit`` or ``time_limit`` makes the search
give up on huge regions; the answer is then a line found by a greedy look-ahead, flagged
``exact=False``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boneyard.games.obonto.notation import SIZE, SQUARES
from boneyard.games.obonto.rules import ObontoState, animal_moves

if TYPE_CHECKING:
    from boneyard.core.game import State

FULL = (1 << SQUARES) - 1
_NOT_FILE_A = FULL & ~sum(1 << (rank * SIZE) for rank in range(SIZE))
_NOT_FILE_I = FULL & ~sum(1 << (rank * SIZE + SIZE - 1) for rank in range(SIZE))

BEST_ACTION_TIME_LIMIT = 1.0
"""Seconds ``best_action`` searches before it settles for the greedy line."""

Animals = tuple[int, int, int]
"""The winner's lion, zebra and camel squares; -1 for an animal outside the region at hand."""


@dataclass(frozen=True)
class SoloSolution:
    """The result of a solve: how many solo moves, one line achieving them, and whether exact."""

    moves: int
    line: tuple[int, ...]
    exact: bool


class _NodeLimitReached(Exception):
    pass


def flood(seed: int, light: int) -> int:
    """The squares of ``light`` reachable from the squares of ``seed`` by orthogonal steps."""
    region = seed & light
    while True:
        grown = (
            region
            | (region << SIZE)
            | (region >> SIZE)
            | ((region & _NOT_FILE_I) << 1)
            | ((region & _NOT_FILE_A) >> 1)
        ) & light
        if grown == region:
            return region
        region = grown


def upper_bound(light: int, animals: Animals, obstacles: int) -> int:
    """Light empty squares reachable by the winner's animals: no more moves than that remain."""
    seed = 0
    for square in animals:
        if square >= 0:
            seed |= 1 << square
    region = flood(seed, light)
    return (region & ~obstacles & ~seed).bit_count()


class _Search:
    def __init__(self, obstacles: int, node_limit: int | None, time_limit: float | None) -> None:
        self.obstacles = obstacles
        self.node_limit = node_limit
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.nodes = 0
        # (region, animals) -> (best count, best action or -1)
        self.memo: dict[tuple[int, Animals], tuple[int, int]] = {}

    # A position is split into groups: (region, animals of the winner inside it).
    def groups(self, light: int, animals: Animals) -> list[tuple[int, Animals]]:
        found: list[tuple[int, Animals]] = []
        done = 0
        for square in animals:
            if square < 0 or done >> square & 1:
                continue
            region = flood(1 << square, light)
            done |= region
            members = tuple(
                other if other >= 0 and region >> other & 1 else -1 for other in animals
            )
            found.append((region, members))  # type: ignore[arg-type]
        return found

    def value_of(self, light: int, animals: Animals) -> int:
        return sum(
            self.solve_group(region, members) for region, members in self.groups(light, animals)
        )

    def bound(self, region: int, members: Animals) -> int:
        seed = 0
        for square in members:
            if square >= 0:
                seed |= 1 << square
        return (region & ~self.obstacles & ~seed).bit_count()

    def bound_of(self, light: int, animals: Animals) -> int:
        return sum(self.bound(region, members) for region, members in self.groups(light, animals))

    def solve_group(self, region: int, members: Animals) -> int:
        key = (region, members)
        known = self.memo.get(key)
        if known is not None:
            return known[0]
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _NodeLimitReached
        if self.deadline is not None and not self.nodes & 255 and time.monotonic() > self.deadline:
            raise _NodeLimitReached
        limit = self.bound(region, members)
        best, best_action = 0, -1
        if limit > 0:
            dark = FULL & ~region
            occupied = self.obstacles
            for square in members:
                if square >= 0:
                    occupied |= 1 << square
            children: list[tuple[int, int, int, Animals]] = []
            for kind, origin in enumerate(members):
                if origin < 0:
                    continue
                for action in animal_moves(kind, origin, dark, occupied):
                    target = action % SQUARES
                    moved = list(members)
                    moved[kind] = target
                    child_light = region & ~(1 << origin)
                    child: Animals = (moved[0], moved[1], moved[2])
                    children.append((self.bound_of(child_light, child), action, child_light, child))
            # Most promising first: the largest bound.
            children.sort(key=lambda item: -item[0])
            for child_bound, action, child_light, child in children:
                if 1 + child_bound <= best:
                    break
                value = 1 + self.value_of(child_light, child)
                if value > best:
                    best, best_action = value, action
                    if best >= limit:
                        break
        self.memo[key] = (best, best_action)
        return best

    def line(self, light: int, animals: Animals) -> list[int]:
        """One best line from a solved position (groups one after the other)."""
        actions: list[int] = []
        for region, members in self.groups(light, animals):
            current_region, current = region, members
            while True:
                _, action = self.memo[(current_region, current)]
                if action < 0:
                    break
                actions.append(action)
                origin, target = divmod(action, SQUARES)
                moved = list(current)
                moved[current.index(origin)] = target
                moved_animals: Animals = (moved[0], moved[1], moved[2])
                rest = current_region & ~(1 << origin)
                # The rest of this group may itself have split; follow each part.
                parts = self.groups(rest, moved_animals)
                if len(parts) == 1:
                    current_region, current = parts[0]
                    continue
                for part_region, part_members in parts:
                    actions.extend(self.line(part_region, part_members))
                break
        return actions


def solve_board(
    dark: int,
    winner_animals: Sequence[int],
    obstacles: Sequence[int],
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> SoloSolution:
    """The most moves the winner can make alone on a board, with one line that makes them.

    ``dark`` is the bitmask of dark squares (bit = square index ``rank0 * 9 + file0``),
    ``winner_animals`` the winner's lion, zebra and camel squares, ``obstacles`` the squares of
    the loser's animals. With ``node_limit`` (positions) or ``time_limit`` (seconds) the exact
    search may give up; a greedy line is then returned instead (``exact=False``).
    """
    animals: Animals = (winner_animals[0], winner_animals[1], winner_animals[2])
    obstacle_mask = 0
    for square in obstacles:
        obstacle_mask |= 1 << square
    light = FULL & ~dark
    search = _Search(obstacle_mask, node_limit, time_limit)
    try:
        moves = search.value_of(light, animals)
    except _NodeLimitReached:
        line = _greedy_line(light, animals, obstacle_mask)
        return SoloSolution(len(line), tuple(line), exact=False)
    line = search.line(light, animals)
    if len(line) != moves:  # a broken invariant, not bad input
        raise RuntimeError(f"solo solver line has {len(line)} moves, value is {moves}")
    return SoloSolution(moves, tuple(line), exact=True)


def _greedy_line(light: int, animals: Animals, obstacles: int) -> list[int]:
    """A line that keeps the most room: each move leaves the largest bound, then most moves."""
    line: list[int] = []
    current = animals
    while True:
        dark = FULL & ~light
        occupied = obstacles
        for square in current:
            occupied |= 1 << square
        best: tuple[int, int, int, Animals, int] | None = None
        for kind, origin in enumerate(current):
            for action in animal_moves(kind, origin, dark, occupied):
                target = action % SQUARES
                moved = list(current)
                moved[kind] = target
                child: Animals = (moved[0], moved[1], moved[2])
                child_light = light & ~(1 << origin)
                child_occupied = obstacles
                for square in child:
                    child_occupied |= 1 << square
                onward = sum(
                    len(animal_moves(k, child[k], FULL & ~child_light, child_occupied))
                    for k in range(3)
                )
                score = (upper_bound(child_light, child, obstacles), onward)
                if best is None or score > best[:2]:
                    best = (score[0], score[1], action, child, child_light)
        if best is None:
            return line
        line.append(best[2])
        current, light = best[3], best[4]


def solve(
    state: State, node_limit: int | None = None, time_limit: float | None = None
) -> SoloSolution | None:
    """The winner's best solo play from an Obonto state; None outside the solo phase."""
    if not isinstance(state, ObontoState):
        return None
    winner = state.solo_winner()
    if winner is None:
        return None
    squares = state.animal_squares()
    winner_animals = squares[winner * 3 : winner * 3 + 3]
    obstacles = squares[(1 - winner) * 3 : (1 - winner) * 3 + 3]
    return solve_board(state.dark_mask(), winner_animals, obstacles, node_limit, time_limit)


def best_action(state: State) -> int | None:
    """The first move of a best solo line, or None outside the solo phase.

    The search is exact unless it needs more than ``BEST_ACTION_TIME_LIMIT`` seconds; then the
    move comes from the greedy line.
    """
    solution = solve(state, time_limit=BEST_ACTION_TIME_LIMIT)
    if solution is None or not solution.line:
        return None
    return solution.line[0]
