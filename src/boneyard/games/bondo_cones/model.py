"""A compact Bond O Cones position for lookahead search, built from one seat's observation.

The rules' state is made to be played and checked (lists per square, a history, phases); a
search needs something far smaller. A ``Position`` holds two bitboards of cones, two of ring
cones and two of Double BondO cones, and one list of what each cone is worth to the seat that
observes: its own cones at their true values, the opponent's at the value the observation shows
(captured or spied) or else the mean of what the opponent has left unseen. It is built from
``observation(seat)`` alone (``Position.from_observation``), so a bot that searches it sees
nothing the seat may not know.

Moves are the rules' moves (``moves`` gives the same ids as the state's legal actions for a
rolled 1-4), found with the board module's bitboard shifts and BondO walks; the walks are
cached on the squares a walk can touch, since a search meets the same neighbourhood of a ring
cone again and again. ``hit_masks`` gives, for each roll, the cones one side could capture.
"""

from __future__ import annotations

from dataclasses import dataclass

from boneyard.games.bondo_cones.board import (
    BALL,
    BOARD,
    SHIFTS,
    bondo_destinations,
    cone_moves,
)
from boneyard.games.bondo_cones.notation import INDEX, SQUARES, observed_cones
from boneyard.games.bondo_cones.observation import BondoObservation
from boneyard.games.bondo_cones.rules import VALUES

_WALKS: dict[tuple[int, int, int], int] = {}
WALK_CACHE_SIZE = 1 << 17
"""How many BondO walks ``walk`` remembers before it forgets them all and starts over."""


def walk(square: int, steps: int, empty: int, target: int) -> int:
    """``bondo_destinations(square, steps, empty, target)``, cached on the squares within
    ``steps`` king steps of ``square`` (nothing farther can change the answer)."""
    ball = BALL[square][steps]
    key = (square << 4 | steps, empty & ball, target & ball)
    found = _WALKS.get(key)
    if found is None:
        if len(_WALKS) >= WALK_CACHE_SIZE:
            _WALKS.clear()
        found = _WALKS[key] = bondo_destinations(square, steps, empty, target)
    return found


def popcount(mask: int) -> int:
    return mask.bit_count()


@dataclass(slots=True)
class Position:
    """One seat's picture of the board: the seat is ``me``, the other ``them``.

    ``cones[s]``: seat s's cones; ``ringed[s]``: those carrying a ring; ``double[s]``: those
    carrying two. ``worth[sq]``: the cone on ``sq`` as ``me`` prices it (true value for own
    cones; known or expected value for the opponent's). ``their_view[sq]``: what an own cone
    is worth in the opponent's eyes (its value if captured or spied, else the mean of the values
    the opponent has not seen). ``hidden[sq]``: the opponent cone's value is unknown to ``me``.
    """

    me: int
    cones: list[int]
    ringed: list[int]
    double: list[int]
    worth: list[float]
    their_view: list[float]
    hidden: int
    scores: list[float]
    """Points captured; a capture of an unknown cone adds its expected value."""
    target: int
    unseen: tuple[int, ...]
    """The opponent's values ``me`` has not seen (for win chances of unknown captures)."""

    @classmethod
    def from_observation(cls, observation: BondoObservation) -> Position:
        seat = observation["seat"]
        me = 0 if seat is None else int(seat)
        them = 1 - me
        cones = [0, 0]
        ringed = [0, 0]
        double = [0, 0]
        worth = [0.0] * SQUARES
        their_view = [0.0] * SQUARES
        hidden = 0
        unseen = _values_left(VALUES, observation["captured"][me])
        mine_unknown_to_them = _values_left(VALUES, observation["captured"][them])
        seen = observed_cones(observation)
        for name, cone in seen.items():
            square = INDEX[name]
            bit = 1 << square
            owner = cone["seat"]
            cones[owner] |= bit
            ringed[owner] |= bit if cone["rings"] else 0
            double[owner] |= bit if cone["rings"] == 2 else 0
            value = cone["value"]
            if owner == them:
                if value is None:
                    hidden |= bit
                else:
                    unseen.remove(value)
                    worth[square] = float(value)
            else:
                worth[square] = float(value or 0)
                if cone["spied"]:
                    mine_unknown_to_them.remove(value or 0)
        mean = sum(unseen) / len(unseen) if unseen else 0.0
        mine_mean = (
            sum(mine_unknown_to_them) / len(mine_unknown_to_them) if mine_unknown_to_them else 0.0
        )
        for name, cone in seen.items():
            square = INDEX[name]
            if hidden >> square & 1:
                worth[square] = mean
            elif cone["seat"] == me:
                their_view[square] = worth[square] if cone["spied"] else mine_mean
        return cls(
            me=me,
            cones=cones,
            ringed=ringed,
            double=double,
            worth=worth,
            their_view=their_view,
            hidden=hidden,
            scores=[float(points) for points in observation["scores"]],
            target=int(observation["target"]),
            unseen=tuple(unseen),
        )

    def copy(self) -> Position:
        return Position(
            self.me,
            self.cones[:],
            self.ringed[:],
            self.double[:],
            self.worth[:],
            self.their_view[:],
            self.hidden,
            self.scores[:],
            self.target,
            self.unseen,
        )

    def rings(self, seat: int) -> int:
        """How many rings ``seat``'s cones carry."""
        return popcount(self.ringed[seat]) + popcount(self.double[seat])

    def moves(self, seat: int, roll: int) -> list[int]:
        """Every move (``origin * 120 + target``, the rules' action ids) of ``seat`` for a rolled
        1-4, sorted, by the rules' own ``cone_moves``; empty when there is none (the rules then
        allow only ``pass``)."""
        cones = self.cones
        empty = BOARD & ~(cones[0] | cones[1])
        target = empty | cones[1 - seat]
        ringed, double = self.ringed[seat], self.double[seat]
        return cone_moves(cones[seat], ringed, double, empty, target, roll, walk)

    def move(self, seat: int, origin: int, target: int) -> Position:
        """The position after ``seat`` moves its cone from ``origin`` to ``target`` (a capture
        when the opponent stands there: rings pass to the mover, the value to its score)."""
        child = self.copy()
        child.apply_move(seat, origin, target)
        return child

    def apply_move(self, seat: int, origin: int, target: int) -> None:
        """``move`` in place."""
        other = 1 - seat
        o_bit = 1 << origin
        t_bit = 1 << target
        cones, ringed, double = self.cones, self.ringed, self.double
        rings = (1 if ringed[seat] & o_bit else 0) + (1 if double[seat] & o_bit else 0)
        if cones[other] & t_bit:
            rings += (1 if ringed[other] & t_bit else 0) + (1 if double[other] & t_bit else 0)
            cones[other] ^= t_bit
            ringed[other] &= ~t_bit
            double[other] &= ~t_bit
            self.scores[seat] += self.worth[target]
            self.hidden &= ~t_bit
        if self.hidden & o_bit:
            self.hidden ^= o_bit | t_bit
        cones[seat] ^= o_bit | t_bit
        ringed[seat] &= ~o_bit
        double[seat] &= ~o_bit
        if rings:
            ringed[seat] |= t_bit
            if rings >= 2:
                double[seat] |= t_bit
        worth, view = self.worth, self.their_view
        worth[target], worth[origin] = worth[origin], 0.0
        view[target], view[origin] = view[origin], 0.0

    def move_rings(self, seat: int, origin: int, target: int) -> Position:
        """The position after ``seat`` moves the ring(s) on ``origin`` to its cone on ``target``;
        ``origin`` -1 places the ring set aside after a battle."""
        child = self.copy()
        bit = 1 << target
        child.ringed[seat] |= bit
        if origin >= 0:
            o_bit = 1 << origin
            if child.double[seat] & o_bit:
                child.double[seat] |= bit
            child.ringed[seat] &= ~o_bit
            child.double[seat] &= ~o_bit
        return child

    def remove(self, square: int) -> Position:
        """The position after the cone on ``square`` leaves the board (a seizure), rings too."""
        child = self.copy()
        bit = ~(1 << square)
        for seat in (0, 1):
            child.cones[seat] &= bit
            child.ringed[seat] &= bit
            child.double[seat] &= bit
        child.hidden &= bit
        child.worth[square] = child.their_view[square] = 0.0
        return child

    # Over the complexity limit on purpose: the search's inner loop over rolls and rays: inline for
    # speed.
    def hit_masks(self, attacker: int, targets: int | None = None) -> list[int]:  # noqa: C901
        """For each roll 1-4 (index 1-4), the defender's cones (those in ``targets`` if given)
        that ``attacker`` could capture with that roll."""
        cones = self.cones
        defender = cones[1 - attacker]
        if targets is not None:
            defender &= targets
        hits = [0, 0, 0, 0, 0]
        if not defender:
            return hits
        empty = BOARD & ~(cones[0] | cones[1])
        ringed = self.ringed[attacker]
        ordinary = cones[attacker] & ~ringed
        for delta, wrap in SHIFTS:
            front = ordinary
            if delta > 0:
                for roll in range(1, 5):
                    front = (front << delta) & wrap
                    hits[roll] |= front & defender
                    front &= empty
                    if not front:
                        break
            else:
                back = -delta
                for roll in range(1, 5):
                    front = (front >> back) & wrap
                    hits[roll] |= front & defender
                    front &= empty
                    if not front:
                        break
        double = self.double[attacker]
        enemy = cones[1 - attacker]
        while ringed:
            low = ringed & -ringed
            ringed ^= low
            square = low.bit_length() - 1
            factor = 2 if double & low else 1
            for roll in range(1, 5):
                hits[roll] |= walk(square, roll * factor, empty, empty | enemy) & defender
        return hits


def _values_left(values: tuple[int, ...] | list[int], captured: list[int]) -> list[int]:
    """The cone values of a side not among ``captured`` (each captured value taken once)."""
    left = list(values)
    for value in captured:
        left.remove(value)
    return left
