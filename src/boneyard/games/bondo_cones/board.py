"""Bond O Cones board geometry, the cones on bitboards, and fast move generation.

A bitboard is a Python int whose bit ``sq`` stands for square ``sq`` (``rank0 * 10 + file0``).
Ordinary cones move by shifting whole bitboards one step at a time in each of the eight
directions, so every ordinary move of a roll is found with a few dozen integer operations.
BondO cones walk king steps without revisiting a square; their destinations come from a depth-first
search that stops exploring a branch once every square it could still end on is already known
to be reachable.

``ConeBoards`` is where the cones stand and how they move, written once: the rules' state
(``rules.BondoConesState``) and the lookahead's picture of one seat (``search.Position``) are
both built on it, and ``Cones`` is it alone (for the heuristic, from an observation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boneyard.games.bondo_cones.notation import (
    HEIGHT,
    INDEX,
    SQUARES,
    WIDTH,
    observed_cones,
)
from boneyard.games.bondo_cones.observation import BondoObservation

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


_WALKS: dict[tuple[int, int, int], int] = {}
WALK_CACHE_SIZE = 1 << 17
"""How many BondO walks ``cached_walk`` remembers before it forgets them all and starts over."""


def cached_walk(square: int, steps: int, empty: int, target: int) -> int:
    """``bondo_destinations(square, steps, empty, target)``, cached on the squares within
    ``steps`` king steps of ``square`` (nothing farther can change the answer): a search meets
    the same neighbourhood of a ring cone again and again."""
    ball = BALL[square][steps]
    key = (square << 4 | steps, empty & ball, target & ball)
    found = _WALKS.get(key)
    if found is None:
        if len(_WALKS) >= WALK_CACHE_SIZE:
            _WALKS.clear()
        found = _WALKS[key] = bondo_destinations(square, steps, empty, target)
    return found


# ----- the cones on the board --------------------------------------------------------------------


class ConeBoards:
    """Where each side's cones stand and which carry rings, and how they move (RULINGS.md).

    ``cones[s]``: seat s's cones; ``ringed[s]``: those carrying a ring; ``double[s]``: those
    carrying both rings (Double BondOs, in ``ringed`` too). A class built on it keeps the three
    lists and, beside them, whatever else a cone carries (its value, what a seat knows of it).
    """

    __slots__ = ()

    cones: list[int]
    ringed: list[int]
    double: list[int]

    def walk(self, square: int, steps: int, empty: int, target: int) -> int:
        """A BondO cone's walk (``bondo_destinations``; a search uses ``cached_walk``)."""
        return bondo_destinations(square, steps, empty, target)

    def empty(self) -> int:
        """The squares no cone stands on."""
        return BOARD & ~(self.cones[0] | self.cones[1])

    def rings_on(self, seat: int, square: int) -> int:
        """How many rings ``seat``'s cone on ``square`` carries (0 where it has none there)."""
        return (self.ringed[seat] >> square & 1) + (self.double[seat] >> square & 1)

    def rings_held(self, seat: int) -> int:
        """How many rings ``seat``'s cones carry."""
        return self.ringed[seat].bit_count() + self.double[seat].bit_count()

    def has_double(self, seat: int) -> bool:
        """Whether a cone of ``seat`` carries both rings."""
        return self.double[seat] != 0

    # ----- changes ------------------------------------------------------------------------------

    def put_cone(self, seat: int, square: int, rings: int = 0) -> None:
        """A cone of ``seat`` with ``rings`` rings on the empty ``square``."""
        self.cones[seat] |= 1 << square
        self.set_rings(seat, square, rings)

    def lift_cone(self, seat: int, square: int) -> int:
        """``seat``'s cone off ``square``; the rings it carried."""
        rings = self.rings_on(seat, square)
        keep = ~(1 << square)
        self.cones[seat] &= keep
        self.ringed[seat] &= keep
        self.double[seat] &= keep
        return rings

    def set_rings(self, seat: int, square: int, rings: int) -> None:
        """``seat``'s cone on ``square`` carries ``rings`` rings (0, 1 or 2)."""
        bit = 1 << square
        self.ringed[seat] = self.ringed[seat] | bit if rings else self.ringed[seat] & ~bit
        self.double[seat] = self.double[seat] | bit if rings >= 2 else self.double[seat] & ~bit

    def move_cone(self, seat: int, origin: int, target: int) -> bool:
        """``seat``'s cone from ``origin`` to ``target``. A cone of the other side there is
        captured, and the rings it carried pass to the mover. True where it captured."""
        # lift_cone and put_cone written out: a search makes this move at every node
        o_bit, t_bit = 1 << origin, 1 << target
        cones, ringed, double = self.cones, self.ringed, self.double
        rings = (ringed[seat] & o_bit != 0) + (double[seat] & o_bit != 0)
        other = 1 - seat
        captured = cones[other] & t_bit != 0
        if captured:
            rings += (ringed[other] & t_bit != 0) + (double[other] & t_bit != 0)
            cones[other] ^= t_bit
            ringed[other] &= ~t_bit
            double[other] &= ~t_bit
        cones[seat] ^= o_bit | t_bit
        ringed[seat] &= ~o_bit
        double[seat] &= ~o_bit
        if rings:
            ringed[seat] |= t_bit
            if rings >= 2:
                double[seat] |= t_bit
        return captured

    def move_rings(self, seat: int, origin: int, target: int) -> None:
        """The ring(s) of ``seat``'s cone on ``origin`` onto its cone on ``target`` (the die's
        ring face); ``origin`` -1: the ring set aside after a won battle."""
        rings = 1 if origin < 0 else self.rings_on(seat, origin)
        if origin >= 0:
            self.set_rings(seat, origin, 0)
        self.set_rings(seat, target, rings)

    def take_ring(self, seat: int, origin: int, target: int) -> bool:
        """A won battle: the other side's ring(s) come off its cone on ``origin`` and one goes
        onto ``seat``'s cone on ``target``. True where the cone carried both: the second ring
        is set aside until the ring face."""
        other = 1 - seat
        both = self.rings_on(other, origin) == 2
        self.set_rings(other, origin, 0)
        self.set_rings(seat, target, 1)
        return both

    # ----- moves --------------------------------------------------------------------------------

    def cone_moves(self, seat: int, roll: int) -> list[int]:
        """Every move (``origin * 120 + target``, the rules' action ids) of ``seat`` for a
        rolled 1-4, sorted; empty where there is none (the rules then allow only ``pass``)."""
        empty = self.empty()
        return cone_moves(
            self.cones[seat],
            self.ringed[seat],
            self.double[seat],
            empty,
            empty | self.cones[1 - seat],
            roll,
            self.walk,
        )

    def hit_masks(self, attacker: int, targets: int | None = None) -> list[int]:
        """For each roll 1-4 (index 1-4; index 0 unused), the other side's cones (those in
        ``targets`` if given) that ``attacker`` could capture with that roll: each attacker
        cone's reach worked out once, not a search for each target. Fewer targets let the walk
        searches stop sooner."""
        defender = self.cones[1 - attacker]
        if targets is not None:
            defender &= targets
        hits = [0, 0, 0, 0, 0]
        if defender:
            empty = self.empty()
            ordinary = self.cones[attacker] & ~self.ringed[attacker]
            _straight_hits(ordinary, empty, defender, hits)
            self._walk_hits(attacker, empty, defender, hits)
        return hits

    def _walk_hits(self, attacker: int, empty: int, defender: int, hits: list[int]) -> None:
        """Add to ``hits`` the ``defender`` cones each of ``attacker``'s ring cones reaches."""
        ringed, double = self.ringed[attacker], self.double[attacker]
        land = empty | defender
        while ringed:
            low = ringed & -ringed
            ringed ^= low
            square = low.bit_length() - 1
            factor = 2 if double & low else 1
            for roll in range(1, 5):
                hits[roll] |= self.walk(square, roll * factor, empty, land) & defender


def _straight_hits(ordinary: int, empty: int, defender: int, hits: list[int]) -> None:
    """Add to ``hits`` the ``defender`` cones the ``ordinary`` cones (no ring) reach in a
    straight line, by shifting all of them a step at a time in each direction."""
    for delta, wrap in SHIFTS:
        front = ordinary
        for roll in range(1, 5):
            front = ((front << delta) if delta > 0 else (front >> -delta)) & wrap
            hits[roll] |= front & defender
            front &= empty
            if not front:
                break


@dataclass(slots=True)
class Cones(ConeBoards):
    """The cones alone, as the board shows them (``ConeBoards``' three lists)."""

    cones: list[int]
    ringed: list[int]
    double: list[int]

    @classmethod
    def from_observation(cls, observation: BondoObservation) -> Cones:
        """The cones of ``observation`` (every cone is seen; only values hide)."""
        board = cls([0, 0], [0, 0], [0, 0])
        for name, cone in observed_cones(observation).items():
            board.put_cone(cone["seat"], INDEX[name], cone["rings"])
        return board

    def copy(self) -> Cones:
        return Cones(self.cones[:], self.ringed[:], self.double[:])
