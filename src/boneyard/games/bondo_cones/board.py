"""Bond O Cones board geometry and fast move generation on bitboards.

A bitboard is a Python int whose bit ``sq`` stands for square ``sq`` (``rank0 * 10 + file0``).
Ordinary cones move by shifting whole bitboards one step at a time in each of the eight
directions, so every ordinary move of a roll is found with a few dozen integer operations.
BondO cones walk king steps without revisiting a square; their destinations come from a depth-first
search that stops exploring a branch once every square it could still end on is already known
to be reachable.
"""

from __future__ import annotations

from collections.abc import Callable

from boneyard.games.bondo_cones.notation import HEIGHT, SQUARES, WIDTH

BOARD = (1 << SQUARES) - 1
FILE_A = sum(1 << (rank * WIDTH) for rank in range(HEIGHT))
FILE_J = FILE_A << (WIDTH - 1)
NOT_A = BOARD & ~FILE_A
NOT_J = BOARD & ~FILE_J

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
"""The eight directions as (file step, rank step)."""

SHIFTS: tuple[tuple[int, int], ...] = tuple(
    (df + dr * WIDTH, NOT_A if df == 1 else NOT_J if df == -1 else BOARD) for df, dr in DIRECTIONS
)
"""Per direction: the index step and the mask that removes squares wrapped around a side."""


def _square(file: int, rank: int) -> int:
    return rank * WIDTH + file


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < WIDTH and 0 <= rank < HEIGHT


def _king_neighbours(square: int) -> tuple[int, ...]:
    file, rank = square % WIDTH, square // WIDTH
    return tuple(
        _square(file + df, rank + dr) for df, dr in DIRECTIONS if _on_board(file + df, rank + dr)
    )


KING_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_king_neighbours(sq) for sq in range(SQUARES))
KING_MASK: tuple[int, ...] = tuple(
    sum(1 << nb for nb in KING_NEIGHBOURS[sq]) for sq in range(SQUARES)
)
MAX_STEPS = 8
"""The longest walk: a Double BondO rolling 4."""


def _ball(square: int, radius: int) -> int:
    file, rank = square % WIDTH, square // WIDTH
    mask = 0
    for other in range(SQUARES):
        if max(abs(other % WIDTH - file), abs(other // WIDTH - rank)) <= radius:
            mask |= 1 << other
    return mask


BALL: tuple[tuple[int, ...], ...] = tuple(
    tuple(_ball(sq, radius) for radius in range(MAX_STEPS + 1)) for sq in range(SQUARES)
)
"""``BALL[sq][r]``: the squares within r king steps of ``sq`` on an empty board."""


def _rays(square: int) -> tuple[tuple[int, ...], ...]:
    file, rank = square % WIDTH, square // WIDTH
    rays = []
    for df, dr in DIRECTIONS:
        ray = []
        f, r = file + df, rank + dr
        while _on_board(f, r):
            ray.append(_square(f, r))
            f, r = f + df, r + dr
        rays.append(tuple(ray))
    return tuple(rays)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_rays(sq) for sq in range(SQUARES))
"""``RAYS[sq][d]``: the squares from ``sq`` outwards in direction ``d``, up to the edge."""

# ----- start fields ------------------------------------------------------------------------------


def _names_to_squares(files: str, rank: int) -> list[int]:
    return [_square(ord(f) - ord("a"), rank - 1) for f in files]


START_FIELDS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(
        sorted(
            _names_to_squares("abcdefghij", 1)
            + _names_to_squares("bcdefghi", 2)
            + _names_to_squares("cdefgh", 3)
            + _names_to_squares("dg", 4)
        )
    ),
    tuple(
        sorted(
            _names_to_squares("abcdefghij", 12)
            + _names_to_squares("bcdefghi", 11)
            + _names_to_squares("cdefgh", 10)
            + _names_to_squares("dg", 9)
        )
    ),
)
"""Each seat's 26 start fields, as sorted square indices."""

RED_FIELDS: tuple[tuple[int, int], tuple[int, int]] = (
    (_square(3, 3), _square(6, 3)),
    (_square(3, 8), _square(6, 8)),
)
"""d4, g4 for seat 0; d9, g9 for seat 1."""


# ----- move generation ---------------------------------------------------------------------------


def squares_of(mask: int) -> list[int]:
    """The squares of a bitboard, in increasing order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def ordinary_moves(movers: int, empty: int, target: int, steps: int, out: list[int]) -> None:
    """Append ``from * 120 + to`` for every straight move of ``steps`` by a cone in ``movers``.

    Every square before the last must be in ``empty``; the last must be in ``target``.
    """
    ids = _TO_ID
    for delta, wrap in SHIFTS:
        through = wrap & empty
        front = movers
        if delta > 0:
            for _ in range(steps - 1):
                front = (front << delta) & through
            front = (front << delta) & wrap & target
        else:
            back = -delta
            for _ in range(steps - 1):
                front = (front >> back) & through
            front = (front >> back) & wrap & target
        # from * 120 + to, with from = to - delta * steps
        shift = delta * steps * SQUARES
        while front:
            to = front.bit_length() - 1
            out.append(ids[to] - shift)
            front ^= 1 << to


_TO_ID = [to * (SQUARES + 1) for to in range(SQUARES)]


Walk = Callable[[int, int, int, int], int]
"""``(square, steps, empty, target) -> destinations`` of a BondO cone's walk
(``bondo_destinations``, or a cache of it)."""


def cone_moves(
    movers: int, ringed: int, double: int, empty: int, target: int, steps: int, walk: Walk
) -> list[int]:
    """Every move (``from * 120 + to``) of a side for a rolled ``steps``, sorted: the cones of
    ``movers`` without a ring straight, the ``ringed`` ones (twice as far where in ``double``)
    on a BondO walk. The rules' legal moves and the lookahead's both come from here."""
    moves: list[int] = []
    ordinary_moves(movers & ~ringed, empty, target, steps, moves)
    while ringed:
        low = ringed & -ringed
        ringed ^= low
        square = low.bit_length() - 1
        dests = walk(square, steps * 2 if double & low else steps, empty, target)
        base = square * SQUARES
        while dests:
            bit = dests & -dests
            moves.append(base + bit.bit_length() - 1)
            dests ^= bit
    moves.sort()
    return moves


def reachable(start: int, steps: int, empty: int) -> int:
    """Squares a king walk from ``start`` can reach through ``empty`` squares in 1..steps steps,
    ignoring the no-revisit rule (a superset of every walk's squares)."""
    seen = 1 << start
    front = seen
    for _ in range(steps):
        grown = 0
        for delta, wrap in SHIFTS:
            grown |= ((front << delta) if delta > 0 else (front >> -delta)) & wrap
        front = grown & ~seen
        seen |= front
        front &= empty
        if not front:
            break
    return seen & ~(1 << start)


_EXPANSIONS: dict[int, int] = {}


def expand(mask: int) -> int:
    """The squares next to any square of ``mask`` (cached: callers pass small neighbourhoods)."""
    grown = _EXPANSIONS.get(mask)
    if grown is None:
        grown = 0
        for square in squares_of(mask):
            grown |= KING_MASK[square]
        if len(_EXPANSIONS) < 1 << 16:
            _EXPANSIONS[mask] = grown
    return grown


def bondo_destinations(start: int, steps: int, empty: int, target: int) -> int:
    """The bitboard of squares a BondO cone on ``start`` can end on after exactly ``steps``
    king steps, never revisiting a square (``start`` included), passing only through ``empty``
    squares and ending on a ``target`` square (empty or an opponent cone).

    The last two steps of every walk are done at once: from a square with visited set V, the
    walk can end on any square next to a free neighbour, outside V.
    """
    start_bit = 1 << start
    king = KING_MASK
    if steps == 1:
        return king[start] & target
    if steps == 2:
        return expand(king[start] & empty) & target & ~start_bit
    candidates = BALL[start][steps] & target & ~start_bit
    if steps > 4:
        candidates &= reachable(start, steps, empty)
    neighbours = NEIGHBOUR_BITS
    ball = BALL
    found = 0

    def walk(square: int, left: int, visited: int) -> None:
        nonlocal found
        free = empty & ~visited
        if left == 2:
            found |= expand(king[square] & free) & ~visited
            return
        for nb, bit in neighbours[square]:
            if free & bit:
                now = visited | bit
                if ball[nb][left - 1] & candidates & ~found & ~now:
                    walk(nb, left - 1, now)

    walk(start, steps, start_bit)
    return found & candidates


NEIGHBOUR_BITS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((nb, 1 << nb) for nb in KING_NEIGHBOURS[sq]) for sq in range(SQUARES)
)
