"""Exact solver for the Obonto solo phase: the most moves the winner can still make alone.

Once one player is stuck, the other (the winner) moves alone and scores one point per move, so
the best play is a longest sequence of moves. The loser's animals never move again: they are
obstacles the winner's animals may pass over but not land on.

The search is a depth-first search over positions with three speed-ups that keep it exact:

* **Components.** Only the light squares the winner's animals can reach (over light squares,
  animals included) matter. When the winner's animals stand in separate regions, the regions are
  independent and their best counts add up, so each is solved on its own.
* **Memoisation.** A region is identified by its set of light squares and the winner's animals
  in it (the obstacles are fixed during a solo phase), so exact values are stored under that key
  and kept for the next call with the same obstacles: later moves of the same solo phase reuse
  the work of earlier ones.
* **Bounds.** Every move uses up one light empty square of the region (the target fills, the
  square left turns dark), so a region with ``n`` light empty squares allows at most ``n`` more
  moves. A lone animal has sharper bounds: a zebra lands only on squares of its own colour, a
  lion or camel on the two colours in turn, and a lone lion's path passes no dead end before
  its last square. A move whose bound cannot beat the best found is skipped, the search of a
  position stops as soon as a move reaches the bound, and a move is searched only as far as it
  takes to show it cannot beat the best found so far (such a result is kept as an upper bound).
* **Cheap split test.** Whether the square left behind cuts a region in two is first decided from
  its eight neighbours; only a possible cut costs a flood fill.

``solve`` returns the count with one best line. A ``node_limit`` or ``time_limit`` makes the search
give up on huge regions (the longest-path problem underneath is hard); the answer is then the
first move whose greedy continuation is longest, followed by that continuation, flagged
``exact=False``. At the start of a solo phase in random games about nine in ten positions are
solved exactly within a second.
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

BEST_ACTION_TIME_LIMIT = 0.6
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


def upper_bound(light: int, animals: Sequence[int], obstacles: int) -> int:
    """Light empty squares reachable by the winner's animals: no more moves than that remain."""
    seed = 0
    for square in animals:
        if square >= 0:
            seed |= 1 << square
    region = flood(seed, light)
    return (region & ~obstacles & ~seed).bit_count()


def _ring(square: int) -> tuple[tuple[int, int], ...]:
    """The 8 squares around ``square`` in circular order, as (bit in the pattern, square)."""
    file, rank = square % SIZE, square // SIZE
    steps = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
    ring = []
    for bit, (df, dr) in enumerate(steps):
        if 0 <= file + df < SIZE and 0 <= rank + dr < SIZE:
            ring.append((1 << bit, (rank + dr) * SIZE + file + df))
    return tuple(ring)


def _locally_connected(pattern: int) -> bool:
    """Whether the present orthogonal neighbours in a ring pattern touch one another around it.

    Bits 0, 2, 4, 6 are the orthogonal neighbours, the odd bits the diagonal ones between them.
    """
    runs_with_a_neighbour = 0
    if pattern == 0xFF:
        return True
    # Start just after a gap, so that runs do not wrap around.
    begin = next(bit for bit in range(8) if not pattern >> bit & 1) + 1
    in_run = has_neighbour = False
    for offset in range(8):
        bit = (begin + offset) % 8
        if pattern >> bit & 1:
            in_run = True
            has_neighbour = has_neighbour or bit % 2 == 0
        else:
            if in_run and has_neighbour:
                runs_with_a_neighbour += 1
            in_run = has_neighbour = False
    if in_run and has_neighbour:
        runs_with_a_neighbour += 1
    return runs_with_a_neighbour <= 1


RINGS = tuple(_ring(square) for square in range(SQUARES))
LOCALLY_CONNECTED = tuple(_locally_connected(pattern) for pattern in range(256))
"""Removing a square whose light neighbours are connected around it never splits a region."""

_COLOUR = sum(1 << square for square in range(SQUARES) if (square // SIZE + square % SIZE) % 2)
"""The squares of one colour of the chequerboard (b1, a2, ...)."""


def _one_neighbour(squares: int) -> int:
    """The squares of ``squares`` with exactly one orthogonal neighbour in ``squares``."""
    up = (squares >> SIZE) & squares
    down = (squares << SIZE) & squares
    right = ((squares & _NOT_FILE_A) >> 1) & squares
    left = ((squares & _NOT_FILE_I) << 1) & squares
    first, first_both = up ^ down, up & down
    second, second_both = right ^ left, right & left
    return (first & ~second & ~second_both) | (second & ~first & ~first_both)


class _Search:
    def __init__(self, obstacles: int) -> None:
        self.obstacles = obstacles
        self.node_limit: int | None = None
        self.deadline: float | None = None
        self.nodes = 0
        # (region, animals) -> (best count, best action or -1, exact?); an inexact count is an
        # upper bound, enough to refute a move that needs more.
        self.memo: dict[tuple[int, Animals], tuple[int, int, bool]] = {}

    def limit(self, node_limit: int | None, time_limit: float | None) -> None:
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = None if time_limit is None else time.monotonic() + time_limit

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
        """No more moves than this remain in a group (each move fills a new light empty square).

        Sharper for a lone animal: a zebra (two steps) lands only on its own colour, a lion or a
        camel (odd steps) lands on the two colours in turn, and a lone lion (it cannot pass over
        anything) visits at most one dead end, the last square of its path.
        """
        seed = 0
        present = 0
        for square in members:
            if square >= 0:
                seed |= 1 << square
                present += 1
        empty = region & ~self.obstacles & ~seed
        total = empty.bit_count()
        if present != 1 or total == 0:
            return total
        kind = next(kind for kind, square in enumerate(members) if square >= 0)
        square = members[kind]
        same_colour = _COLOUR if _COLOUR >> square & 1 else FULL & ~_COLOUR
        same = (empty & same_colour).bit_count()
        if kind == 1:
            return same
        other = total - same
        bound = min(total, 2 * other, 2 * same + 1)
        if kind == 0:
            walk = flood(seed, empty | seed)
            reachable = (walk & ~seed).bit_count()
            dead_ends = (_one_neighbour(walk) & ~seed).bit_count()
            bound = min(bound, reachable - max(0, dead_ends - 1))
        return bound

    def solve_group(self, region: int, members: Animals, alpha: int = -1) -> int:
        """The most moves in one group, exact whenever it is more than ``alpha``.

        When the answer is ``alpha`` or less, the value returned is only an upper bound that is
        itself at most ``alpha`` (all the caller needs to know: this group cannot beat it).
        """
        key = (region, members)
        known = self.memo.get(key)
        if known is not None and (known[2] or known[0] <= alpha):
            return known[0]
        limit = self.bound(region, members)
        if limit <= alpha:
            return limit
        self._count_node()
        best, best_action = 0, -1
        if limit > 0:
            for child_bound, action, parts in self._ordered_moves(region, members, limit):
                floor = max(best, alpha)
                if 1 + child_bound <= floor:
                    break
                if len(parts) == 1:
                    # Only a child worth more than floor - 1 matters; it answers exactly then.
                    value = 1 + self.solve_group(parts[0][0], parts[0][1], floor - 1)
                else:
                    value = 1 + sum(self.solve_group(part, animals) for part, animals in parts)
                if value > best:
                    best, best_action = value, action
                    if best >= limit:
                        break
        if best > alpha:
            self.memo[key] = (best, best_action, True)
            return best
        # Every move was shown to be worth at most alpha: remember that bound only.
        self.memo[key] = (alpha, -1, False)
        return alpha

    def _count_node(self) -> None:
        """One more node searched; _NodeLimitReached past the node limit or the deadline (the
        clock is read every 256 nodes)."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _NodeLimitReached
        if self.deadline is not None and not self.nodes & 255 and time.monotonic() > self.deadline:
            raise _NodeLimitReached

    def _ordered_moves(
        self, region: int, members: Animals, limit: int
    ) -> list[tuple[int, int, list[tuple[int, Animals]]]]:
        """Each move of the group's animals as ``(bound, action, groups after it)``, the most
        promising (largest bound) first; ``limit`` is the group's own bound."""
        dark = FULL & ~region
        occupied = self.obstacles
        for square in members:
            if square >= 0:
                occupied |= 1 << square
        children: list[tuple[int, int, list[tuple[int, Animals]]]] = []
        several = sum(1 for square in members if square >= 0) > 1
        for kind, origin in enumerate(members):
            if origin < 0:
                continue
            rest = region & ~(1 << origin)
            pattern = 0
            for bit, neighbour in RINGS[origin]:
                if rest >> neighbour & 1:
                    pattern |= bit
            whole = LOCALLY_CONNECTED[pattern]
            for action in animal_moves(kind, origin, dark, occupied):
                moved = list(members)
                moved[kind] = action % SQUARES
                child: Animals = (moved[0], moved[1], moved[2])
                if whole:
                    parts = [(rest, child)]
                    # With two or more animals the bound is the count of empty squares,
                    # and a move that splits nothing uses up exactly one of them.
                    child_bound = limit - 1 if several else self.bound(rest, child)
                else:
                    parts = self.groups(rest, child)
                    child_bound = sum(self.bound(part, animals) for part, animals in parts)
                children.append((child_bound, action, parts))
        children.sort(key=lambda item: -item[0])
        return children

    def line(self, light: int, animals: Animals) -> list[int]:
        """One best line from a solved position (groups one after the other)."""
        actions: list[int] = []
        for region, members in self.groups(light, animals):
            current_region, current = region, members
            while True:
                _, action, _ = self.memo[(current_region, current)]
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


_searches: dict[int, _Search] = {}
"""The search of the last obstacle set: its exact values serve the next moves of a solo phase."""
_MEMO_LIMIT = 100_000


def clear_memo() -> None:
    """Forget the values kept from earlier solves (they stay correct; this only frees memory)."""
    _searches.clear()


def _search_for(obstacles: int) -> _Search:
    search = _searches.get(obstacles)
    if search is None or len(search.memo) > _MEMO_LIMIT:
        _searches.clear()
        search = _searches[obstacles] = _Search(obstacles)
    return search


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
    search may give up; the line is then a good one found by look-ahead (``exact=False``).
    """
    squares = [*winner_animals, *obstacles]
    if len(winner_animals) != 3 or not all(
        isinstance(square, int) and 0 <= square < SQUARES for square in squares
    ):
        raise ValueError(
            f"solve_board needs the winner's 3 animal squares and the obstacles' squares as "
            f"indices 0 to {SQUARES - 1}; got {list(winner_animals)!r} and {list(obstacles)!r}"
        )
    if len(set(squares)) != len(squares) or any(dark >> square & 1 for square in squares):
        raise ValueError("solve_board: the animals stand on different squares, all of them light")
    animals: Animals = (winner_animals[0], winner_animals[1], winner_animals[2])
    obstacle_mask = 0
    for square in obstacles:
        obstacle_mask |= 1 << square
    light = FULL & ~dark
    search = _search_for(obstacle_mask)
    search.limit(node_limit, time_limit)
    try:
        moves = search.value_of(light, animals)
    except _NodeLimitReached:
        line = _fallback_line(search, light, animals, time_limit)
        return SoloSolution(len(line), tuple(line), exact=False)
    line = search.line(light, animals)
    if len(line) != moves:  # a broken invariant, not bad input
        raise RuntimeError(f"solo solver line has {len(line)} moves, value is {moves}")
    return SoloSolution(moves, tuple(line), exact=True)


def _children(
    search: _Search, light: int, animals: Animals
) -> list[tuple[tuple[int, int], int, int, Animals]]:
    """Every move as (greedy score, action, light squares after, animals after).

    The greedy score prefers the most room left (the bound after the move), then the most moves.
    """
    dark = FULL & ~light
    occupied = search.obstacles
    for square in animals:
        occupied |= 1 << square
    found = []
    for kind, origin in enumerate(animals):
        for action in animal_moves(kind, origin, dark, occupied):
            moved = list(animals)
            moved[kind] = action % SQUARES
            child: Animals = (moved[0], moved[1], moved[2])
            child_light = light & ~(1 << origin)
            child_occupied = search.obstacles
            for square in child:
                child_occupied |= 1 << square
            onward = sum(
                len(animal_moves(k, child[k], FULL & ~child_light, child_occupied))
                for k in range(3)
            )
            room = sum(
                search.bound(part, members) for part, members in search.groups(child_light, child)
            )
            found.append(((room, onward), action, child_light, child))
    return found


def _greedy_line(search: _Search, light: int, animals: Animals) -> list[int]:
    """The line that always takes the move with the best greedy score."""
    line: list[int] = []
    while True:
        children = _children(search, light, animals)
        if not children:
            return line
        _, action, light, animals = max(children, key=lambda child: child[0])
        line.append(action)


def _fallback_line(
    search: _Search, light: int, animals: Animals, time_limit: float | None
) -> list[int]:
    """When the exact search gives up: the first move whose greedy continuation is longest.

    The first moves are tried best greedy score first, for about half ``time_limit`` more.
    """
    children = sorted(_children(search, light, animals), key=lambda child: child[0], reverse=True)
    if not children:
        return []
    deadline = time.monotonic() + (time_limit / 2 if time_limit is not None else 0.5)
    best: list[int] = []
    for number, (_, action, child_light, child) in enumerate(children):
        if number and time.monotonic() > deadline:
            break
        line = [action, *_greedy_line(search, child_light, child)]
        if len(line) > len(best):
            best = line
    return best


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
