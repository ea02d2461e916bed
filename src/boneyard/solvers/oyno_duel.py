"""Exact retrograde solver for small two-player OYNO duels (3x3 and 5x5 boards, few bones).

A position is three bit masks over the board cells, as in :mod:`boneyard.games.oyno.board` (red
bones, white bones, up bones) and the player to move; the supplies follow from the counts. A bone
never leaves the board, so positions fall into *layers* by the number of red and white bones on
the board, and an action either stays in its layer (move, flip) or goes to a layer with one bone
more (place). The layers are solved from the fullest down; inside a layer the values come from
passes by distance to the end: pass ``d`` settles every position that wins in ``d`` plies (one
action reaches a position lost in ``d - 1``) or loses in ``d`` (every action reaches a position
won in at most ``d - 1``, and one in exactly ``d - 1``). A position no pass settles is a draw:
neither side can force a win, and either side can keep the game going forever, which the rules'
repetition draw and move cap turn into a draw. The repetition rule itself is not modelled (a
position's value does not depend on its history), the usual convention for such solvers.

``restrict`` makes one seat play the project's ``greedy`` bot: at that seat's turns only the
actions that maximise ``duel_score`` (games/oyno/heuristic.py) one ply ahead, as the ``greedy``
bot scores them (a won end 3, a lost end -3), are allowed. A win for the other seat in that game
is a win against *every* tie-break greedy can make: perfect play beats greedy for sure.

Only boards of at most 25 cells (size 3 and 5) are supported: a position's index is its base-5
code (empty, red up, red down, white up, white down per cell), which fits 64 bits up to 27 cells.
The wild variant is not modelled. Both readings of the place rule are (the game's parameter
``place_rule``): ``supply``, where a player may place whenever its supply holds a bone, and
``all_up``, where it may place only when every own bone on the board is up.

``solve(..., engine="native")`` solves the same duel in Rust (``native/engine/src/solvers/
oyno_duel.rs``: the same layers and passes, positions ranked instead of searched), with the same
values and plies for every position and the same reading methods, some thirteen times faster
(5x5 with two bones a side: 1.3 s of CPU against 17) in a fraction of the memory; it has no
``restrict`` (the greedy seat stays Python).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from boneyard.games.oyno.board import board
from boneyard.games.oyno.duel import DEFAULT_PLACE_RULE, PLACE_RULES

if TYPE_CHECKING:
    from boneyard.core.game import State
    from boneyard.games.oyno.duel import DuelState

Array = npt.NDArray[np.int64]

WIN, DRAW, LOSS = 1, 0, -1
"""Values for the player to move."""

_ABSENT = -1
"""An edge slot with no action (a flip of an up bone)."""
_TERMINAL = -2
"""An edge whose outcome is known without looking up a position in this layer."""

GREEDY_WIN = 3.0
"""What the greedy bot scores a won end (``utility + width``); a lost end is the negative."""


@dataclass
class Layer:
    """The positions with ``red`` red and ``white`` white bones on the board, sorted by code."""

    red: int
    white: int
    codes: Array
    red_mask: Array
    white_mask: Array
    up: Array
    value: list[npt.NDArray[np.int8]] = field(default_factory=list)
    """``value[player][i]``: WIN, DRAW or LOSS for ``player`` to move in position ``i``."""
    plies: list[npt.NDArray[np.int32]] = field(default_factory=list)
    """``plies[player][i]``: actions to the end under best play (0 for a draw)."""
    chance: list[npt.NDArray[np.float64]] = field(default_factory=list)
    """With a restricted (greedy) seat: the probability that the other seat wins from position
    ``i`` with ``player`` to move, playing for it, when greedy breaks its ties at random."""

    def find(self, codes: Array) -> npt.NDArray[np.intp]:
        return np.searchsorted(self.codes, codes)


@cache
def _geometry(size: int) -> tuple[Array, list[Array], int]:
    """Neighbour masks, the code tables of 5-cell chunks, and the resting mask."""
    geometry = board(size)
    if geometry.cells > 25:
        raise ValueError(f"the duel solver handles boards of at most 25 cells, not {size}x{size}")
    neighbours = np.array(geometry.neighbours, dtype=np.int64)
    tables: list[Array] = []
    for chunk in range((geometry.cells + 4) // 5):
        table = np.zeros(1 << 15, dtype=np.int64)
        index = np.arange(1 << 15, dtype=np.int64)
        for j in range(5):
            cell = 5 * chunk + j
            if cell >= geometry.cells:
                break
            r = (index >> j) & 1
            w = (index >> (5 + j)) & 1
            u = (index >> (10 + j)) & 1
            digit = r * (1 + (1 - u)) + w * (3 + (1 - u))
            table += digit * (5**cell)
        tables.append(table)
    return neighbours, tables, geometry.resting_mask


def encode(size: int, red: Array, white: Array, up: Array) -> Array:
    """The base-5 code of each position (red, white, up masks)."""
    _, tables, _ = _geometry(size)
    code = np.zeros(red.shape, dtype=np.int64)
    for chunk, table in enumerate(tables):
        shift = 5 * chunk
        index = (
            ((red >> shift) & 31) | (((white >> shift) & 31) << 5) | (((up >> shift) & 31) << 10)
        )
        code += table[index]
    return code


def _cells_of(masks: Array, count: int) -> list[Array]:
    """The ``count`` lowest set cells of each mask, lowest first (each mask has that many)."""
    cells: list[Array] = []
    rest = masks.copy()
    for _ in range(count):
        low = rest & -rest
        cells.append(np.round(np.log2(np.maximum(low, 1).astype(np.float64))).astype(np.int64))
        rest ^= low
    return cells


def _layer_positions(size: int, red: int, white: int) -> Layer:
    resting = board(size).resting
    red_sets = np.array(
        [sum(1 << c for c in combo) for combo in itertools.combinations(resting, red)],
        dtype=np.int64,
    )
    white_sets = np.array(
        [sum(1 << c for c in combo) for combo in itertools.combinations(resting, white)],
        dtype=np.int64,
    )
    grid_r, grid_w = np.meshgrid(red_sets, white_sets, indexing="ij")
    r, w = grid_r.ravel(), grid_w.ravel()
    keep = (r & w) == 0
    r, w = r[keep], w[keep]
    bones = red + white
    cells = _cells_of(r | w, bones)
    ups = []
    for subset in range(1 << bones):
        u = np.zeros(r.shape, dtype=np.int64)
        for j in range(bones):
            if (subset >> j) & 1:
                u |= np.int64(1) << cells[j]
        ups.append(u)
    up = np.concatenate(ups) if ups else np.zeros(0, dtype=np.int64)
    r = np.tile(r, 1 << bones)
    w = np.tile(w, 1 << bones)
    codes = encode(size, r, w, up)
    order = np.argsort(codes, kind="stable")
    return Layer(red, white, codes[order], r[order], w[order], up[order])


def _wins_next(
    own: Array, opp: Array, up: Array, supply: int, neighbours: Array, resting_mask: int
) -> npt.NDArray[np.bool_]:
    """``heuristic.wins_next`` for the player owning ``own``, to move, over arrays."""
    down = own & ~up
    if supply == 0:
        return (down != 0) & ((down & (down - 1)) == 0)
    if supply == 1:
        empty = resting_mask & ~(own | opp)
        found = np.zeros(own.shape, dtype=bool)
        for cell in _bits(resting_mask):
            bit = np.int64(1) << np.int64(cell)
            found |= ((empty & bit) != 0) & ((neighbours[cell] & own) == 0)
        return (down == 0) & found
    return np.zeros(own.shape, dtype=bool)


def _bits(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if (mask >> c) & 1]


def greedy_scores(
    size: int,
    bones: int,
    red: Array,
    white: Array,
    up: Array,
    mover: int,
) -> npt.NDArray[np.float64]:
    """What the greedy bot of seat ``mover`` scores each position reached by its action
    (``mover`` has just moved; the other seat is to move): ``duel_score`` or +-3 at a won end."""
    neighbours, _, resting_mask = _geometry(size)
    occupied = (red, white)
    own, opp = occupied[mover], occupied[1 - mover]
    supply_own = bones - _popcount(own)
    supply_opp = bones - _popcount(opp)
    mover_won = (supply_own == 0) & ((own & ~up) == 0)
    opp_won = (supply_opp == 0) & ((opp & ~up) == 0)
    mine = 2 * (bones - supply_own) + _popcount(own & up)
    theirs = 2 * (bones - supply_opp) + _popcount(opp & up)
    # the other seat is to move: it must place when it has supply and no down bone
    theirs = theirs + ((supply_opp > 0) & ((opp & ~up) == 0))
    score = 0.8 * (mine - theirs) / (3 * bones + 1)
    # wins_next for the player to move (the other seat), evaluated row by row on its supply
    threat = np.zeros(red.shape, dtype=bool)
    for supply in np.unique(supply_opp).tolist():
        rows = supply_opp == supply
        threat[rows] = _wins_next(
            opp[rows], own[rows], up[rows], int(supply), neighbours, resting_mask
        )
    score = np.where(threat, -0.9, score)
    score = np.where(opp_won, -GREEDY_WIN, score)
    return np.where(mover_won, GREEDY_WIN, score)


def _popcount(masks: Array) -> Array:
    count = np.zeros(masks.shape, dtype=np.int64)
    rest = masks.copy()
    while np.any(rest):
        count += rest & 1
        rest >>= 1
    return count


@dataclass
class _Edges:
    """The actions of the rows of one player in one layer, as a rows x slots table."""

    child: npt.NDArray[np.int64]
    """Index of the child in this layer (other player to move), or _ABSENT / _TERMINAL."""
    result: npt.NDArray[np.int8]
    """For _TERMINAL slots: WIN, LOSS or DRAW for the mover."""
    plies: npt.NDArray[np.int32]
    """For _TERMINAL slots: plies to the end counted from the mover's position."""
    outer: npt.NDArray[np.int64]
    """For a place: the child's index in the layer with one bone more, else -1."""


class _EdgeTable:
    """The edges of one player's rows in one layer, being built: per row and action slot (moves,
    own x empties; flips, own; places, empties, after the others where a bone may be placed any
    time) the child or the end it reaches (``_Edges``' arrays)."""

    def __init__(self, solver: DuelSolution, layer: Layer, player: int) -> None:
        self.solver, self.layer, self.player = solver, layer, player
        size, bones = solver.size, solver.bones
        self.neighbours, _, resting_mask = _geometry(size)
        occupied = (layer.red_mask, layer.white_mask)
        self.own, self.opp = occupied[player], occupied[1 - player]
        self.occ = self.own | self.opp
        self.count_own = (layer.red, layer.white)[player]
        self.supply_own = bones - self.count_own
        self.supply_opp = bones - (layer.red, layer.white)[1 - player]
        rows = layer.codes.size
        self.empties = len(board(size).resting) - layer.red - layer.white
        self.place_any_time = solver.place_rule == "supply" and self.supply_own > 0
        self.moves_and_flips = self.count_own * self.empties + self.count_own
        slots = (
            self.moves_and_flips + self.empties
            if self.place_any_time
            else max(self.moves_and_flips, self.empties)
        )
        self.child = np.full((rows, slots), _ABSENT, dtype=np.int64)
        self.result = np.zeros((rows, slots), dtype=np.int8)
        self.plies = np.zeros((rows, slots), dtype=np.int32)
        self.outer = np.full((rows, slots), -1, dtype=np.int64)
        self.greedy = np.full((rows, slots), -np.inf) if solver.restrict == player else None
        self.must_place = (self.supply_own > 0) & ((self.own & ~layer.up) == 0)
        self.empty_cells = _cells_of(resting_mask & ~self.occ, self.empties)
        self.own_cells = _cells_of(self.own, self.count_own)

    def add_places(self) -> None:
        """Placing on every empty cell, for the rows that must place (and, under the supply
        reading, for every row while the supply lasts, in the slots after moves and flips)."""
        place_any_time = self.place_any_time
        sel = np.flatnonzero(np.ones_like(self.must_place) if place_any_time else self.must_place)
        first = self.moves_and_flips if place_any_time else 0
        if not sel.size:
            return
        up, occ = self.layer.up[sel], self.occ[sel]
        for e in range(self.empties):
            y = self.empty_cells[e][sel]
            bit = np.int64(1) << y
            u = (up | bit) ^ (self.neighbours[y] & occ)
            self._record(first + e, sel, self.own[sel] | bit, self.opp[sel], u, True)

    def add_moves_and_flips(self) -> None:
        """Moving each own bone to each empty cell, and flipping each own down bone."""
        sel = np.flatnonzero(~self.must_place)
        if not sel.size:
            return
        own, opp, up, occ = self.own, self.opp, self.layer.up, self.occ
        empties, neighbours = self.empties, self.neighbours
        for j in range(self.count_own):
            x = self.own_cells[j][sel]
            xbit = np.int64(1) << x
            o0 = own[sel] & ~xbit
            occ0 = occ[sel] & ~xbit
            u0 = (up[sel] & ~xbit) ^ (neighbours[x] & occ0)
            for e in range(empties):
                y = self.empty_cells[e][sel]
                ybit = np.int64(1) << y
                u = (u0 | ybit) ^ (neighbours[y] & occ0)
                self._record(j * empties + e, sel, o0 | ybit, opp[sel], u, False)
            down = np.flatnonzero((up[sel] & xbit) == 0)
            if down.size:
                rows_down = sel[down]
                self._record(
                    self.count_own * empties + j,
                    rows_down,
                    own[rows_down],
                    opp[rows_down],
                    up[rows_down] | xbit[down],
                    False,
                )

    def _record(
        self, slot: int, sel: npt.NDArray[np.intp], o: Array, p: Array, u: Array, placed: bool
    ) -> None:
        """Fill slot ``slot`` of rows ``sel`` with the child (own, opponent, up masks)."""
        player, layer = self.player, self.layer
        size = self.solver.size
        supply_o = self.supply_own - (1 if placed else 0)
        mover_won = (supply_o == 0) & ((o & ~u) == 0)
        opp_won = (self.supply_opp == 0) & ((p & ~u) == 0) & ~mover_won
        red_c, white_c = (o, p) if player == 0 else (p, o)
        if self.greedy is not None:
            self.greedy[sel, slot] = greedy_scores(
                size, self.solver.bones, red_c, white_c, u, player
            )
        self.result[sel[mover_won], slot] = WIN
        self.result[sel[opp_won], slot] = LOSS
        ended = mover_won | opp_won
        self.plies[sel[ended], slot] = 1
        self.child[sel[ended], slot] = _TERMINAL
        going = ~ended
        if not np.any(going):
            return
        codes = encode(size, red_c[going], white_c[going], u[going])
        target_rows = sel[going]
        if not placed:
            self.child[target_rows, slot] = layer.find(codes)
            return
        grown = (layer.red + 1, layer.white) if player == 0 else (layer.red, layer.white + 1)
        target = self.solver.layers[grown]
        found = target.find(codes)
        value = target.value[1 - player][found]
        self.child[target_rows, slot] = _TERMINAL
        self.outer[target_rows, slot] = found
        self.result[target_rows, slot] = -value
        self.plies[target_rows, slot] = np.where(
            value != DRAW, target.plies[1 - player][found] + 1, 0
        )

    def edges(self) -> _Edges:
        """The table; where the player is restricted to greedy play, only the actions of the
        best greedy score (ties within 1e-12) are kept."""
        if self.greedy is not None:
            best = self.greedy.max(axis=1, keepdims=True)
            drop = (self.greedy < best - 1e-12) & (self.child != _ABSENT)
            self.child[drop] = _ABSENT
        return _Edges(self.child, self.result, self.plies, self.outer)


class SolvedDuel:
    """What every solved duel answers (both engines): the value of a position, and from it the
    values and the best of a state's actions. ``size``, ``bones``, ``restrict`` and
    ``place_rule`` say which duel it is."""

    size: int
    bones: int
    restrict: int | None
    place_rule: str

    def value(self, red: int, white: int, up: int, player: int) -> tuple[int, int]:
        """``(WIN/DRAW/LOSS for the player to move, plies to the end)`` of a position."""
        raise NotImplementedError

    def win_chance(self, red: int, white: int, up: int, player: int) -> float:
        """With a greedy seat: the chance that the other seat wins (see ``Layer.chance``)."""
        raise NotImplementedError

    def counts(self) -> dict[str, int]:
        """How many positions (with the player to move) are won, drawn and lost for the mover;
        positions where a side has already won (the game is over) are left out."""
        raise NotImplementedError

    def action_values(self, state: DuelState) -> dict[int, tuple[int, int, float]]:
        """For each legal action of ``state`` (a duel of this size and bone count, not wild):
        ``(WIN/DRAW/LOSS for the mover, plies to the end, the mover's win chance)`` after it.

        The win chance is the other seat's chance against greedy (``Layer.chance``) read for the
        mover when the mover is the perfect seat, else 0."""
        if (
            state.game.size != self.size
            or state.game.bones_per_player != self.bones
            or state.game.params["place_rule"] != self.place_rule
        ):
            raise ValueError("the state is not a position of this duel")
        mover = state.current_player()
        found: dict[int, tuple[int, int, float]] = {}
        for action in state.legal_actions():
            child = state.clone()
            child.seen = {}
            child.apply_action(action)
            if child.is_terminal():
                won = child.winner == mover
                found[action] = (WIN if won else LOSS, 1, 1.0 if won else 0.0)
                continue
            red, white = child.occupied
            value, plies = self.value(red, white, child.up, child.player)
            chance = 0.0
            if self.restrict is not None and mover != self.restrict:
                chance = self.win_chance(red, white, child.up, child.player)
            found[action] = (-value, plies + 1 if value != DRAW else 0, chance)
        return found

    def best_actions(self, state: DuelState) -> list[int]:
        """The actions of best play: the fastest win, else a draw, else the slowest loss; with a
        greedy seat, the perfect seat first maximises its win chance against greedy."""
        scored = self.action_values(state)

        def rank(item: tuple[int, int, float]) -> tuple[float, int, int]:
            value, plies, chance = item
            return (chance, value, -plies if value == WIN else plies)

        top = max(rank(item) for item in scored.values())
        return sorted(action for action, item in scored.items() if rank(item) == top)


class DuelSolution(SolvedDuel):
    """Every position of a small duel, solved in numpy; build with :func:`solve`."""

    def __init__(
        self,
        size: int,
        bones: int,
        restrict: int | None = None,
        place_rule: str = DEFAULT_PLACE_RULE,
    ) -> None:
        if place_rule not in PLACE_RULES:
            raise ValueError(f"place_rule is one of {', '.join(PLACE_RULES)}, not {place_rule!r}")
        geometry = board(size)
        if not 1 <= bones <= (len(geometry.resting) - 1) // 2:
            raise ValueError(f"bones_per_player {bones} does not fit a {size}x{size} board")
        if restrict not in (None, 0, 1):
            raise ValueError(f"restrict is a seat (0 or 1) or None, not {restrict}")
        _geometry(size)
        self.size = size
        self.bones = bones
        self.restrict = restrict
        self.place_rule = place_rule
        self.layers: dict[tuple[int, int], Layer] = {}
        for total in range(2 * bones, -1, -1):
            for red in range(min(bones, total), -1, -1):
                white = total - red
                if white > bones:
                    continue
                self._solve_layer(red, white)

    # ----- building -----------------------------------------------------------------------

    def _edges(self, layer: Layer, player: int) -> _Edges:
        table = _EdgeTable(self, layer, player)
        table.add_places()
        table.add_moves_and_flips()
        return table.edges()

    def _solve_layer(self, red: int, white: int) -> None:
        layer = _layer_positions(self.size, red, white)
        self.layers[(red, white)] = layer
        edges = [self._edges(layer, player) for player in (0, 1)]
        rows = layer.codes.size
        value = [np.zeros(rows, dtype=np.int8) for _ in (0, 1)]
        plies = [np.zeros(rows, dtype=np.int32) for _ in (0, 1)]
        layer.value, layer.plies = value, plies
        # the outcome of every terminal slot is fixed; in-layer slots are read pass by pass
        fixed_top = 0
        for e in edges:
            terminal = e.child == _TERMINAL
            if np.any(terminal):
                fixed_top = max(fixed_top, int(e.plies[terminal].max()))
        depth = 0
        while True:
            depth += 1
            changed = False
            new_value = [v.copy() for v in value]
            for player in (0, 1):
                e = edges[player]
                open_rows = np.flatnonzero(value[player] == DRAW)
                if open_rows.size == 0:
                    continue
                child = e.child[open_rows]
                inside = child >= 0
                safe = np.where(inside, child, 0)
                other_value = value[1 - player][safe]
                other_plies = plies[1 - player][safe]
                result = np.where(inside, -other_value, e.result[open_rows])
                result = np.where(child == _ABSENT, -2, result).astype(np.int8)
                length = np.where(inside, other_plies + 1, e.plies[open_rows])
                # a win in exactly `depth`: some action reaches a loss for the other in depth-1
                wins = np.any((result == WIN) & (length == depth), axis=1)
                # a loss in `depth`: every action loses, the longest in exactly `depth`
                real = result != -2
                all_lose = np.all((result == LOSS) | ~real, axis=1) & np.any(real, axis=1)
                longest = np.where((result == LOSS) & real, length, 0).max(axis=1)
                loses = all_lose & (longest == depth) & ~wins
                if np.any(wins) or np.any(loses):
                    changed = True
                    won_rows = open_rows[wins]
                    lost_rows = open_rows[loses]
                    new_value[player][won_rows] = WIN
                    plies[player][won_rows] = depth
                    new_value[player][lost_rows] = LOSS
                    plies[player][lost_rows] = depth
            value[0][:], value[1][:] = new_value[0], new_value[1]
            if not changed and depth > fixed_top:
                break
        if self.restrict is not None:
            self._chances(layer, edges)

    def _chances(self, layer: Layer, edges: list[_Edges]) -> None:
        """Fill ``layer.chance`` by value iteration (from below, so cycles count as no win)."""
        greedy_seat = self.restrict
        assert greedy_seat is not None
        perfect = 1 - greedy_seat
        known = [self._known_chances(layer, edges[player], player, perfect) for player in (0, 1)]
        chance = [known[0][0], known[1][0]]
        fixed = [known[0][1], known[1][1]]
        layer.chance = chance
        open_rows = [np.flatnonzero(chance[player] < 1.0) for player in (0, 1)]
        for _ in range(5000):
            # both seats from the last sweep's chances, then both written
            new = [
                _chance_sweep(
                    edges[player],
                    open_rows[player],
                    chance[1 - player],
                    fixed[player],
                    player == perfect,
                )
                for player in (0, 1)
            ]
            biggest = 0.0
            for player, result in enumerate(new):
                if result is not None:
                    change = np.abs(result - chance[player][open_rows[player]]).max()
                    biggest = max(biggest, float(change))
            for player, result in enumerate(new):
                if result is not None:
                    chance[player][open_rows[player]] = result
            if biggest < 1e-10:
                break

    def _known_chances(
        self, layer: Layer, e: _Edges, player: int, perfect: int
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The perfect seat's win chance, with ``player`` to move, known before any sweep: per
        row (1 where the perfect seat has won or the greedy seat to move has lost, else 0), and
        per slot, what an ending or a place (read in the layer with one bone more) gives."""
        chance = np.zeros(layer.codes.size)
        if player == perfect:
            chance[layer.value[player] == WIN] = 1.0
        else:
            chance[layer.value[player] == LOSS] = 1.0
        base = np.zeros(e.child.shape)
        mover_perfect = player == perfect
        base[(e.result == WIN) & (e.child == _TERMINAL)] = 1.0 if mover_perfect else 0.0
        base[(e.result == LOSS) & (e.child == _TERMINAL)] = 0.0 if mover_perfect else 1.0
        placed = e.outer >= 0
        if np.any(placed):
            grown = (layer.red + 1, layer.white) if player == 0 else (layer.red, layer.white + 1)
            target = self.layers[grown]
            base[placed] = target.chance[1 - player][e.outer[placed]]
        return chance, base

    # ----- reading ------------------------------------------------------------------------

    def value(self, red: int, white: int, up: int, player: int) -> tuple[int, int]:
        """``(WIN/DRAW/LOSS for the player to move, plies to the end)`` of a position."""
        layer = self.layers[(bin(red).count("1"), bin(white).count("1"))]
        index = self._index(layer, red, white, up)
        return int(layer.value[player][index]), int(layer.plies[player][index])

    def win_chance(self, red: int, white: int, up: int, player: int) -> float:
        """With a greedy seat: the chance that the other seat wins (see ``Layer.chance``)."""
        layer = self.layers[(bin(red).count("1"), bin(white).count("1"))]
        if not layer.chance:
            raise ValueError("win chances are computed only with a restricted (greedy) seat")
        return float(layer.chance[player][self._index(layer, red, white, up)])

    def _index(self, layer: Layer, red: int, white: int, up: int) -> int:
        code = encode(
            self.size,
            np.array([red], dtype=np.int64),
            np.array([white], dtype=np.int64),
            np.array([up], dtype=np.int64),
        )
        index = int(layer.find(code)[0])
        if index >= layer.codes.size or layer.codes[index] != code[0]:
            raise ValueError("not a position of this duel")
        return index

    def counts(self) -> dict[str, int]:
        """How many positions (with the player to move) are won, drawn and lost for the mover;
        positions where a side has already won (the game is over) are left out."""
        totals = {"win": 0, "draw": 0, "loss": 0}
        for layer in self.layers.values():
            live = ~self._finished(layer)
            for player in (0, 1):
                v = layer.value[player][live]
                totals["win"] += int(np.count_nonzero(v == WIN))
                totals["draw"] += int(np.count_nonzero(v == DRAW))
                totals["loss"] += int(np.count_nonzero(v == LOSS))
        return totals

    def _finished(self, layer: Layer) -> npt.NDArray[np.bool_]:
        """Rows where a side has every bone on the board and up: the game is already over."""
        red_done = (layer.red == self.bones) & ((layer.red_mask & ~layer.up) == 0)
        white_done = (layer.white == self.bones) & ((layer.white_mask & ~layer.up) == 0)
        return np.asarray(red_done | white_done)


def _chance_sweep(
    e: _Edges,
    sel: npt.NDArray[np.intp],
    other: npt.NDArray[np.float64],
    fixed: npt.NDArray[np.float64],
    perfect_moves: bool,
) -> npt.NDArray[np.float64] | None:
    """One sweep of the open rows ``sel`` of a seat: the perfect seat takes its best action,
    the greedy one each of its kept actions alike; ``other`` is the other seat's row chances,
    ``fixed`` the slots' known ones. None where no row is open."""
    if sel.size == 0:
        return None
    child = e.child[sel]
    inside = child >= 0
    values = np.where(inside, other[np.where(inside, child, 0)], fixed[sel])
    real = child != _ABSENT
    if perfect_moves:
        result: npt.NDArray[np.float64] = np.where(real, values, -1.0).max(axis=1)
        return result
    return np.asarray(np.where(real, values, 0.0).sum(axis=1) / real.sum(axis=1))


class NativeDuelSolution(SolvedDuel):
    """Every position of a small duel, solved by the native engine (``engine="native"``): the
    Python solver's values and plies, without a greedy seat. Build with :func:`solve`."""

    def __init__(
        self,
        size: int,
        bones: int,
        place_rule: str = DEFAULT_PLACE_RULE,
        edge_budget: int | None = None,
    ) -> None:
        """``edge_budget``: the most actions a layer keeps in memory while it is solved (default
        the engine's, 100 million); a larger layer generates them again at every pass."""
        if place_rule not in PLACE_RULES:
            raise ValueError(f"place_rule is one of {', '.join(PLACE_RULES)}, not {place_rule!r}")
        from boneyard.native import _engine  # the extension module, built by `make`

        self.size = size
        self.bones = bones
        self.restrict = None
        self.place_rule = place_rule
        self._solved = _engine.solve_oyno_duel(size, bones, place_rule, edge_budget)

    def value(self, red: int, white: int, up: int, player: int) -> tuple[int, int]:
        return self._solved.value(red, white, up, player)

    def values(
        self, red: Array, white: Array, up: Array, player: int
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
        """``value`` of many positions (arrays of masks) at once."""
        found, plies = self._solved.values(red.tolist(), white.tolist(), up.tolist(), player)
        return np.array(found, dtype=np.int8), np.array(plies, dtype=np.int32)

    def win_chance(self, red: int, white: int, up: int, player: int) -> float:
        raise ValueError("win chances are computed only with a restricted (greedy) seat")

    def counts(self) -> dict[str, int]:
        win, draw, loss = self._solved.counts()
        return {"win": win, "draw": draw, "loss": loss}


ENGINES = ("python", "native")
"""The solver's engines: numpy (``python``, with the greedy seat) or Rust (``native``)."""


def solve(
    size: int,
    bones: int,
    restrict: int | None = None,
    place_rule: str = DEFAULT_PLACE_RULE,
    engine: str = "python",
) -> SolvedDuel:
    """Solve every position of the ``size`` x ``size`` duel with ``bones`` bones a side, under
    the game's ``place_rule`` (``all_up`` or ``supply``), in numpy (``engine="python"``) or in
    Rust (``engine="native"``: the same values, faster, no ``restrict``)."""
    if engine not in ENGINES:
        raise ValueError(f"engine is one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "native":
        if restrict is not None:
            raise ValueError("the native solver has no greedy seat: restrict needs engine='python'")
        return NativeDuelSolution(size, bones, place_rule)
    return DuelSolution(size, bones, restrict, place_rule)


PLAY_LIMIT = 300_000
"""The most positions a duel may have for ``best_action`` to solve it during play (a fraction of
a second: every 3x3 duel and the 5x5 duel with one bone a side; 5x5 with two has 1.3 million)."""


def position_count(size: int, bones: int) -> int:
    """How many positions (board and sides, without the player to move) the duel has."""
    resting = len(board(size).resting)
    return sum(
        math.comb(resting, red) * math.comb(resting - red, white) * 2 ** (red + white)
        for red in range(bones + 1)
        for white in range(bones + 1)
    )


@cache
def _solution_for_play(size: int, bones: int, place_rule: str) -> SolvedDuel:
    """The native solve where the engine is built (the same values: 0.03 s of CPU for the 3x3
    duel with three bones a side where numpy takes 0.26 s), else the numpy one."""
    try:
        return solve(size, bones, place_rule=place_rule, engine="native")
    except (ImportError, AttributeError):  # Rust not built, or built before the solver
        return solve(size, bones, place_rule=place_rule)


def best_action(state: State) -> int | None:
    """The solver registry's entry (``boneyard.solvers``): for a duel small enough to solve at
    once (``PLAY_LIMIT``; not the wild variant), an action of best play, preferring among equals
    the one the game's heuristic values most; ``None`` for any other state."""
    from boneyard.games.oyno.duel import DuelState

    if not isinstance(state, DuelState) or state.game.wild or state.is_chance_node():
        return None
    game = state.game
    if game.size * game.size > 25 or position_count(game.size, game.bones_per_player) > PLAY_LIMIT:
        return None
    solution = _solution_for_play(game.size, game.bones_per_player, str(game.params["place_rule"]))
    best = solution.best_actions(state)
    mover = state.current_player()

    def estimate(action: int) -> float:
        child = state.clone()
        child.apply_action(action)
        return 0.0 if child.is_terminal() else game.evaluate(child, mover)

    return max(best, key=estimate)
