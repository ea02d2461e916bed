"""Lookahead for Bond O Cones: a value for each legal action of one seat, from its observation.

The greedy heuristic (``heuristic.py``) judges the position right after a move: points, rings,
and what the opponent's next roll could capture. It cannot see the seat's own threats for the
roll after, nor which of the opponent's answers are forced. This search looks three plies deep
on a ``Position``, one seat's picture of the board built from its observation alone:

1. each own action (a move of the rolled die, a ring move, a pass);
2. every roll of the opponent (1-4; the eye and the ring change no square), and for each its
   answer as a one-ply player would choose it: the most points and rings it wins (valuing the
   seat's cones as the opponent can know them: spied values, else the mean it has not seen)
   minus what the seat could then capture back; equal answers are averaged;
3. the seat's own next roll, scored at the leaf (``leaf_value``): points and rings ahead, plus
   ``THREAT_WEIGHT`` times the expected best capture of that roll, minus ``EXPOSURE_WEIGHT``
   times the expected best capture the opponent holds.

Captures near the target count as wins (``WIN`` points) with the chance that the captured cone
is worth enough (an unknown cone's chance comes from the values the seat has not seen).

The other decisions are rules of thumb: the set-up hides the 8 and the 4s on the back rank
behind the other cones (``SAFETY_ORDER``) and puts the ring on a 0; a player who may fight a
BondO battle fights it (a won battle is worth two rings' swing and the turn goes on, a lost one
costs the turn and a spied or seized cone); a won battle takes the ring that leaves the best
position; a spy looks at the unknown cone the seat threatens most; a seizure takes the most
valuable cone.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from boneyard.games.bondo_cones import notation as nt
from boneyard.games.bondo_cones.board import ConeBoards, cached_walk
from boneyard.games.bondo_cones.heuristic import RING_WORTH
from boneyard.games.bondo_cones.observation import BondoObservation
from boneyard.games.bondo_cones.rules import VALUES

WIN = 40.0
"""Points a won game is worth over any count of points, in the search's eyes."""
THREAT_WEIGHT = 0.8
"""How much of the expected best capture of the seat's next roll counts at a leaf."""
EXPOSURE_WEIGHT = 0.5
"""How much of the opponent's expected best capture counts at a leaf (the seat moves first)."""
RING_BEARER = 0.25
"""Points a leaf loses for each point of value the seat's ring cones carry: a ring draws the
opponent's attacks, so it is better carried by a cone worth little."""
SOFT_SHARE = 0.7
"""Share of the time limit after which no further action's search is started."""
MAX_TIED = 4
"""The most equally good opponent answers whose leaves are averaged (spread over the list)."""
QUIET_ROLLS = 2
"""Die faces (eye, ring) on which the opponent moves no cone."""

SAFETY_ORDER = (
    ("e1", "f1"),
    ("d1", "g1"),
    ("c1", "h1"),
    ("e2", "f2"),
    ("d2", "g2"),
    ("b1", "i1"),
    ("c2", "h2"),
    ("a1", "j1"),
    ("b2", "i2"),
    ("e3", "f3"),
    ("d3", "g3"),
    ("c3", "h3"),
    ("d4", "g4"),
)
"""Seat 0's start fields from the most sheltered to the most exposed, in mirror pairs (seat 1
uses the same files on the mirrored ranks). The set-up fills them in value order."""


def _mirror(name: str, seat: int) -> int:
    if seat == 0:
        return nt.INDEX[name]
    return nt.INDEX[f"{name[0]}{nt.HEIGHT + 1 - int(name[1:])}"]


@dataclass(slots=True)
class Position(ConeBoards):
    """One seat's picture of the board, for the search: the seat is ``me``, the other ``them``.

    Where the cones stand and how they move are the rules' own (``ConeBoards``: ``cones``,
    ``ringed``, ``double`` per seat). Beside them, what the seat may know: ``worth[sq]``, the
    cone on ``sq`` as ``me`` prices it (true value for own cones; the value the observation
    shows for the opponent's, captured or spied, else the mean of what the opponent has left
    unseen); ``their_view[sq]``, what an own cone is worth in the opponent's eyes (its value if
    spied, else the mean of the values the opponent has not seen); ``hidden``, the opponent
    cones whose value ``me`` does not know. It is built from ``observation(seat)`` alone
    (``from_observation``), so a bot that searches it sees nothing the seat may not know.
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

    def walk(self, square: int, steps: int, empty: int, target: int) -> int:
        return cached_walk(square, steps, empty, target)

    @classmethod
    def from_observation(cls, observation: BondoObservation) -> Position:
        seat = observation["seat"]
        me = 0 if seat is None else int(seat)
        position = cls(
            me=me,
            cones=[0, 0],
            ringed=[0, 0],
            double=[0, 0],
            worth=[0.0] * nt.SQUARES,
            their_view=[0.0] * nt.SQUARES,
            hidden=0,
            scores=[float(points) for points in observation["scores"]],
            target=int(observation["target"]),
            unseen=(),
        )
        position._read_cones(observation)
        return position

    def _read_cones(self, observation: BondoObservation) -> None:
        """The observation's cones and the worth of each, as ``me`` and the opponent see it."""
        me = self.me
        unseen = _values_left(VALUES, observation["captured"][me])
        mine_unseen_by_them = _values_left(VALUES, observation["captured"][1 - me])
        seen = nt.observed_cones(observation)
        worth, hidden = self.worth, 0
        for name, cone in seen.items():
            square = nt.INDEX[name]
            self.put_cone(cone["seat"], square, cone["rings"])
            value = cone["value"]
            if cone["seat"] == me:
                worth[square] = float(value or 0)
                if cone["spied"]:
                    mine_unseen_by_them.remove(value or 0)
            elif value is None:
                hidden |= 1 << square
            else:
                unseen.remove(value)
                worth[square] = float(value)
        mean = _mean(unseen)
        mine_mean = _mean(mine_unseen_by_them)
        for name, cone in seen.items():
            square = nt.INDEX[name]
            if hidden >> square & 1:
                worth[square] = mean
            elif cone["seat"] == me:
                self.their_view[square] = worth[square] if cone["spied"] else mine_mean
        self.hidden = hidden
        self.unseen = tuple(unseen)

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

    def moves(self, seat: int, roll: int) -> list[int]:
        """Every move of ``seat`` for a rolled 1-4: the rules' own (``cone_moves``)."""
        return self.cone_moves(seat, roll)

    def move(self, seat: int, origin: int, target: int) -> Position:
        """The position after ``seat`` moves its cone from ``origin`` to ``target`` (a capture
        when the opponent stands there: rings pass to the mover, the value to its score)."""
        child = self.copy()
        child.apply_move(seat, origin, target)
        return child

    def apply_move(self, seat: int, origin: int, target: int) -> None:
        """``move`` in place."""
        t_bit = 1 << target
        if self.move_cone(seat, origin, target):
            self.scores[seat] += self.worth[target]
            self.hidden &= ~t_bit
        if self.hidden >> origin & 1:
            self.hidden ^= 1 << origin | t_bit
        worth, view = self.worth, self.their_view
        worth[target], worth[origin] = worth[origin], 0.0
        view[target], view[origin] = view[origin], 0.0

    def ring_moved(self, seat: int, origin: int, target: int) -> Position:
        """The position after ``seat`` moves the ring(s) on ``origin`` to its cone on
        ``target``; ``origin`` -1 places the ring set aside after a battle."""
        child = self.copy()
        child.move_rings(seat, origin, target)
        return child

    def removed(self, square: int) -> Position:
        """The position after the cone on ``square`` leaves the board (a seizure), rings too."""
        child = self.copy()
        child.lift_cone(0 if child.cones[0] >> square & 1 else 1, square)
        child.hidden &= ~(1 << square)
        child.worth[square] = child.their_view[square] = 0.0
        return child


def _values_left(values: tuple[int, ...] | list[int], captured: list[int]) -> list[int]:
    """The cone values of a side not among ``captured`` (each captured value taken once)."""
    left = list(values)
    for value in captured:
        left.remove(value)
    return left


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


class _OutOfTime(Exception):
    """The time limit passed in the middle of an action's search."""


class Lookahead:
    """The search over one observation; ``values(actions)`` prices the seat's legal actions."""

    def __init__(
        self, observation: BondoObservation, time_limit: float | None = None, width: int = 10
    ) -> None:
        started = time.perf_counter()
        limit = time_limit if time_limit else math.inf
        self.soft_deadline = started + SOFT_SHARE * limit
        """After it no further action's search is started."""
        self.deadline = started + limit
        """After it a search under way is dropped (its action keeps its quick value)."""
        self.observation = observation
        self.position = Position.from_observation(observation)
        self.me = self.position.me
        self.them = 1 - self.me
        self.width = width
        """How many of the seat's actions (the best at a glance) are searched in full."""
        unseen = self.position.unseen
        # win_table[need]: the chance that an unknown opponent cone is worth ``need`` or more,
        # and below_mean[need] the mean value of one worth less than ``need``.
        self.win_table = [0.0] * 42
        self.below_mean = [0.0] * 42
        for need in range(42):
            enough = [v for v in unseen if v >= need]
            short = [v for v in unseen if v < need]
            self.win_table[need] = len(enough) / len(unseen) if unseen else 0.0
            self.below_mean[need] = sum(short) / len(short) if short else 0.0
        self.searched = 0
        """Root actions searched in full (the rest ran out of time)."""

    # ----- values of positions ------------------------------------------------------------

    def _need(self, p: Position, seat: int) -> int:
        return max(0, math.ceil(p.target - p.scores[seat] - 1e-9))

    def best_captures(self, p: Position, attacker: int) -> float:
        """The expected best capture ``attacker`` has with its next roll (six faces): the most
        ``capture_worth`` among the cones each roll hits."""
        hits = p.hit_masks(attacker)
        defender = 1 - attacker
        need = self._need(p, attacker)
        hidden = p.hidden
        hidden_bonus = WIN * self.win_table[min(need, 41)]
        ringed, double = p.ringed[defender], p.double[defender]
        worths = p.worth
        total = 0.0
        for roll in (1, 2, 3, 4):
            mask = hits[roll]
            best = 0.0
            while mask:
                low = mask & -mask
                mask ^= low
                worth = worths[low.bit_length() - 1]
                if hidden & low:
                    worth += hidden_bonus
                elif worth >= need:
                    worth += WIN
                if ringed & low:
                    worth += (4 if double & low else 2) * RING_WORTH
                if worth > best:
                    best = worth
            total += best
        return total / 6

    def material(self, p: Position) -> float:
        me, them = self.me, self.them
        points = (
            p.scores[me] - p.scores[them] + RING_WORTH * (p.rings_held(me) - p.rings_held(them))
        )
        if p.scores[them] >= p.target:
            return points - WIN
        if p.scores[me] >= p.target:
            return points + WIN
        return points

    def bearer_cost(self, p: Position) -> float:
        """``RING_BEARER`` times the value the seat's ring cones carry."""
        ringed = p.ringed[self.me]
        cost = 0.0
        while ringed:
            low = ringed & -ringed
            ringed ^= low
            cost += p.worth[low.bit_length() - 1]
        return RING_BEARER * cost

    def quick_value(self, p: Position) -> float:
        """The seat's value of ``p`` at a glance, with the opponent to roll next (orders moves)."""
        points = self.material(p)
        if p.scores[self.them] >= p.target or p.scores[self.me] >= p.target:
            return points
        points -= self.bearer_cost(p)
        return points - self.best_captures(p, self.them) + 0.5 * self.best_captures(p, self.me)

    def leaf_value(self, p: Position, threat: float | None = None) -> float:
        """The seat's value of ``p`` with the seat to roll next."""
        points = self.material(p)
        if p.scores[self.them] >= p.target or p.scores[self.me] >= p.target:
            return points
        if threat is None:
            threat = self.best_captures(p, self.me)
        exposure = self.best_captures(p, self.them)
        points -= self.bearer_cost(p)
        return points + THREAT_WEIGHT * threat - EXPOSURE_WEIGHT * exposure

    # ----- the three plies --------------------------------------------------------------------

    def after_own_action(self, p: Position) -> float:
        """The seat's value of ``p`` with the opponent to roll next."""
        if p.scores[self.me] >= p.target:
            return self.material(p)
        total = QUIET_ROLLS * self.leaf_value(p)
        for roll in (1, 2, 3, 4):
            total += self.answer(p, roll)
        return total / 6

    def answer(self, p: Position, roll: int) -> float:
        """The seat's value after the opponent's one-ply answer to ``roll``."""
        if time.perf_counter() > self.deadline:
            raise _OutOfTime
        them = self.them
        replies = p.moves(them, roll)
        if not replies:
            return self.leaf_value(p)
        best = -math.inf
        tied: list[tuple[Position, float]] = []
        view = p.their_view
        mine = p.cones[self.me]
        need = self._need(p, them)
        for reply in replies:
            origin, target = divmod(reply, nt.SQUARES)
            gain = 0.0
            bit = 1 << target
            if mine & bit:
                rings = (1 if p.ringed[self.me] & bit else 0) + (
                    1 if p.double[self.me] & bit else 0
                )
                gain = view[target] + 2 * RING_WORTH * rings
                if p.worth[target] >= need:
                    gain += WIN
            child = p.move(them, origin, target)
            threat = self.best_captures(child, self.me)
            choice = gain - threat
            if choice > best + 1e-9:
                best = choice
                tied = [(child, threat)]
            elif choice > best - 1e-9:
                tied.append((child, threat))
        if len(tied) > MAX_TIED:
            # Many equal quiet answers: a spread of them stands for all.
            step = len(tied) / MAX_TIED
            tied = [tied[int(i * step)] for i in range(MAX_TIED)]
        return sum(self.leaf_value(child, threat) for child, threat in tied) / len(tied)

    # ----- the seat's decisions -----------------------------------------------------------------

    def values(self, actions: list[int]) -> dict[int, float]:
        """A value for each of ``actions`` (the seat's legal actions), higher is better."""
        phase = self.observation["phase"]
        if phase == "setup_put":
            return self._setup_values(actions)
        if phase == "setup_ring":
            return {a: -self.position.worth[a - nt.SETUP_RING_BASE] for a in actions}
        if phase == "decide":
            return {a: 1.0 if a == nt.BATTLE else 0.0 for a in actions}
        if phase == "take":
            return self._take_values(actions)
        if phase == "punish":
            return self._punish_values(actions)
        return self._act_values(actions)

    def _setup_values(self, actions: list[int]) -> dict[int, float]:
        rank: dict[int, float] = {}
        for place, pair in enumerate(SAFETY_ORDER):
            for name in pair:
                rank[_mirror(name, self.me)] = -float(place)
        return {a: rank.get(a - nt.PUT_BASE, -100.0) for a in actions}

    def _act_values(self, actions: list[int]) -> dict[int, float]:
        children = self._children(actions)
        if len({id(child) for _, child, _ in children}) == 1:
            return dict.fromkeys(actions, 0.0)
        # Order by a quick look (points, the opponent's best capture next roll, own threats),
        # then search the best ``width`` of them: the others stay below every searched one.
        quick: dict[int, float] = {}
        for action, child, chance in children:
            quick[action] = chance * WIN + self.quick_value(child)
        first = sorted(children, key=lambda item: -quick[item[0]])
        values: dict[int, float] = {}
        out_of_time = False
        for rank, (action, child, chance) in enumerate(first):
            out_of_time = out_of_time or time.perf_counter() > self.soft_deadline
            if rank >= self.width or out_of_time:
                values[action] = quick[action] - 10 * WIN
                continue
            try:
                value = self.after_own_action(child)
            except _OutOfTime:
                out_of_time = True
                values[action] = quick[action] - 10 * WIN
                continue
            values[action] = chance * (WIN + self.material(child)) + (1 - chance) * value
            self.searched += 1
        return values

    def _children(self, actions: list[int]) -> list[tuple[int, Position, float]]:
        """Each action's position after it, with the chance it wins the game at once (the
        capture of an unknown cone that may be worth enough); inline for speed."""
        p = self.position
        me = self.me
        children: list[tuple[int, Position, float]] = []
        for action in actions:
            if action < nt.RING_MOVE_BASE:
                origin, target = divmod(action, nt.SQUARES)
                bonus = 0.0
                bit = 1 << target
                if p.hidden & bit:
                    # An unknown cone: a won game with the chance it is worth enough; else
                    # go on with what it is worth when it is not.
                    need = self._need(p, me)
                    chance = self.win_table[min(need, 41)]
                    child = p.copy()
                    child.worth[target] = (
                        self.below_mean[min(need, 41)] if chance else p.worth[target]
                    )
                    child.apply_move(me, origin, target)
                    children.append((action, child, chance))
                    continue
                children.append((action, p.move(me, origin, target), bonus))
            elif action < nt.TAKE_BASE:
                origin, target = divmod(action - nt.RING_MOVE_BASE, nt.SQUARES)
                children.append((action, p.ring_moved(me, origin, target), 0.0))
            elif nt.SET_ASIDE_BASE <= action < nt.PEEK_BASE:
                children.append((action, p.ring_moved(me, -1, action - nt.SET_ASIDE_BASE), 0.0))
            else:  # peek, pass
                children.append((action, p, 0.0))
        return children

    def _take_values(self, actions: list[int]) -> dict[int, float]:
        p = self.position
        values: dict[int, float] = {}
        for action in actions:
            origin, target = divmod(action - nt.TAKE_BASE, nt.SQUARES)
            child = p.copy()
            child.take_ring(self.me, origin, target)
            values[action] = self.leaf_value(child)
        return values

    def _punish_values(self, actions: list[int]) -> dict[int, float]:
        p = self.position
        values: dict[int, float] = {}
        hits = p.hit_masks(self.me)
        threatened = hits[1] | hits[2] | hits[3] | hits[4]
        for action in actions:
            if nt.SEIZE_BASE <= action < nt.BATTLE:
                square = action - nt.SEIZE_BASE
                child = p.removed(square)
                child.scores[self.me] += p.worth[square]
                values[action] = self.leaf_value(child)
            elif nt.SPY_BASE <= action < nt.SEIZE_BASE:
                bit = 1 << (action - nt.SPY_BASE)
                values[action] = (2.0 if threatened & bit else 0.0) + (1.0 if p.hidden & bit else 0)
            else:
                values[action] = 0.0
        return values


def lookahead_values(
    observation: BondoObservation, actions: list[int], time_limit: float | None = None
) -> dict[int, float]:
    """A value for each of ``actions`` (the legal actions of the observing seat, which is to
    act), from ``observation`` alone; higher is better. ``time_limit`` (seconds) cuts the search
    short: the actions it had no time for keep their quick value, below every searched one.
    The search is exact on its model, so it needs no random numbers."""
    return Lookahead(observation, time_limit).values(actions)
