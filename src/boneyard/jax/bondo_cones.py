"""Bond O Cones as a batch engine: set-up, dice, hidden values, rings and battles.

The rules are the rules engine's (``boneyard.games.bondo_cones.rules``, RULINGS.md); it validates
the parameters (``target``, ``max_turns``, ``setup``) and gives the board (start and red fields).
A state keeps per square the owner (-1: empty), the value, the rings and the flags (peeked 1,
spied 2) of the cone there, and the rules engine's phase, actor, turn player, set-up progress,
die, battle windows, set-aside ring, turn count and winner.

Action ids are the rules engine's (``boneyard.games.bondo_cones.notation``); the mask is a
``bool[43923]`` in this layout (``sq`` = ``rank0 * 10 + file0``)::

    0     + from * 120 + to   move a cone (ordinary: straight; BondO cone: a king walk)
    14400 + from * 120 + to   die ring: move the ring(s) of an own cone to a plain own cone
    28800 + from * 120 + to   won battle: take the ring of ``from``, put it on own ``to``
    43200 + sq                set-up: put the next cone (value order) on a free start field
    43320 + sq                set-up: put the ring on a red-field cone
    43440 + sq                die ring: place the set-aside ring
    43560 + sq                die eye: peek at an own cone
    43680 + sq                lost battle: the opponent spies a cone of the loser
    43800 + sq                lost battle against a Double BondO: the opponent seizes a cone
    43920 battle, 43921 roll, 43922 pass

Chance is drawn inside ``init`` and ``step`` with the rules engine's probabilities and kept in
``chance`` as its chance outcome ids, in the order the rules engine meets them (-1: none): the
random set-up (16 cones then the ring, per seat, uniform over the free start fields and the two
red fields), who starts (1/2 each), a battle (won or lost, 1/2 each) and the die (1/6 each face).
A step plays the player's action and then every chance node up to the next player, so
``current_player`` is never a chance node: the state always waits for a seat or is over.

Moves: ordinary cones are found with row bitboards (``int32[12]``, bit ``file`` of row
``rank``) shifted step by step in each direction; a BondO cone's walk of exactly ``n`` king
steps that never enters a square twice is found by enumerating its first ``n - 2`` steps and
taking the last two at once (every square next to a free neighbour, outside the walk) for
``n <= 4``, and by the rules engine's depth-first search (a ``while_loop``) for the longer walks
of a Double BondO (6 and 8 steps); on a batch, the walks of 4 steps and the long walks are made
only for the games whose die asks for them (``_gathered``). Observations are the rules
engine's ``observation_tensor`` per seat: an opponent's cone shows only once its set-up puts are
done, its value only once spied.

The mask is made in two stages. First a few hundred numbers a game: per square the directions an
ordinary cone there can go for the die, the (at most two) BondO cones and the squares their walks
end on, the rows and columns of the ring moves and takes, and the 723 ids past the three
``120 x 120`` regions. Then the regions, as one ``[360, 120]`` block of bytes, each an
elementwise function of those numbers: a straight move ``from -> to`` is legal where the
direction of ``LINE_CODES[from, to]`` is among ``from``'s and its length is the die's. On a
batch this is one pass over the regions' ids (and one copy into the mask); the mask is written
whole each step, so the step costs at least the write of 43,923 ids and the sampler's read of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar

import jax
import jax.numpy as jnp
import numpy as np
from jax.custom_batching import custom_vmap

from boneyard.games.bondo_cones import notation as nt
from boneyard.games.bondo_cones.board import BALL, DIRECTIONS, KING_MASK, RED_FIELDS, START_FIELDS
from boneyard.games.bondo_cones.rules import (
    DRAW,
    PEEKED,
    PUTS,
    SETUP_DONE,
    SETUP_ORDER,
    SPIED,
    WINDOW,
    BondoConesGame,
    Phase,
)
from boneyard.games.bondo_cones.tensor import GLOBALS, PLANES, TENSOR_SIZE
from boneyard.jax.core import Array, Env, State, once
from boneyard.jax.heads import ActionSegment

SQUARES = nt.SQUARES
WIDTH = nt.WIDTH
HEIGHT = nt.HEIGHT
FULL_ROW = (1 << WIDTH) - 1
NONE = SQUARES
"""The square index that stands for "no square" in the tables (an all-zero bitboard)."""

SETUP_PUT, SETUP_RING, FIRST, DECIDE, BATTLE, TAKE, PUNISH, ROLL, ACT, OVER = (
    int(phase) for phase in Phase
)
ORDINARY_MAX = 4
"""The longest straight move (a die shows at most 4)."""
LONGEST_WALK = 8
"""A Double BondO rolling 4."""
RANDOM_SETUP_CHANCE = 2 * (PUTS + 1) + 2
"""Chance outcomes of a random set-up's ``init``: 16 cones and a ring per seat, who starts, the
first die."""
STEP_CHANCE = 2
"""The most chance outcomes one step meets: who starts and the first die (after the last
set-up ring), or a battle, or a die."""

# ----- row bitboards ------------------------------------------------------------------------------


def _rows_of(squares: int) -> np.ndarray:
    """A Python-int bitboard (bit ``sq``) as rows: ``int32[12]``, bit ``file`` of row ``rank``."""
    return np.array([(squares >> (r * WIDTH)) & FULL_ROW for r in range(HEIGHT)], dtype=np.int32)


def _table(masks: list[int]) -> np.ndarray:
    """Rows of each bitboard, one more all-zero row for ``NONE``."""
    return np.stack([_rows_of(m) for m in masks] + [np.zeros(HEIGHT, np.int32)])


BIT = _table([1 << sq for sq in range(SQUARES)])
KING = _table(list(KING_MASK))
BALL_ROWS = np.stack(
    [np.stack([_rows_of(BALL[sq][r]) for r in range(LONGEST_WALK + 1)]) for sq in range(SQUARES)]
    + [np.zeros((LONGEST_WALK + 1, HEIGHT), np.int32)]
)
"""``[sq, r]``: the squares within ``r`` king steps of ``sq``."""


def _neighbours() -> np.ndarray:
    """``[sq, d]``: the square next to ``sq`` in direction ``d``, ``NONE`` off the board."""
    table = np.full((SQUARES + 1, 8), NONE, dtype=np.int32)
    for sq in range(SQUARES):
        file, rank = sq % WIDTH, sq // WIDTH
        for d, (df, dr) in enumerate(DIRECTIONS):
            if 0 <= file + df < WIDTH and 0 <= rank + dr < HEIGHT:
                table[sq, d] = (rank + dr) * WIDTH + file + df
    return table


NEIGHBOURS = _neighbours()


def _file_shift(rows: Array, df: int) -> Array:
    if df > 0:
        return (rows << 1) & FULL_ROW
    if df < 0:
        return rows >> 1
    return rows


def _rank_shift(rows: Array, dr: int) -> Array:
    """Rows moved ``dr`` ranks up (``result[r] = rows[r - dr]``), zeros shifted in."""
    if dr == 0:
        return rows
    zero = jnp.zeros_like(rows[..., :1])
    if dr > 0:
        return jnp.concatenate([zero, rows[..., :-1]], axis=-1)
    return jnp.concatenate([rows[..., 1:], zero], axis=-1)


def _shift(rows: Array, df: int, dr: int) -> Array:
    """Every square of ``rows`` moved one step ``(df, dr)``; squares leaving the board drop."""
    return _rank_shift(_file_shift(rows, df), dr)


def _next_to(rows: Array) -> Array:
    """The squares next to (a king step from) any square of ``rows``: the rules' ``expand``."""
    beside = _file_shift(rows, 1) | _file_shift(rows, -1)
    three = beside | rows
    return beside | _rank_shift(three, 1) | _rank_shift(three, -1)


def _to_rows(squares: Array) -> Array:
    """``bool[120]`` -> rows."""
    cells = squares.reshape(HEIGHT, WIDTH).astype(jnp.int32)
    return jnp.sum(cells << jnp.arange(WIDTH, dtype=jnp.int32), axis=-1, dtype=jnp.int32)


def _from_rows(rows: Array) -> Array:
    """Rows -> ``bool[..., 120]``."""
    bits = (rows[..., :, None] >> jnp.arange(WIDTH, dtype=jnp.int32)) & 1
    return bits.astype(bool).reshape(*rows.shape[:-1], SQUARES)


def _has(rows: Array, square: Array) -> Array:
    """Whether ``square`` (``NONE``: never) is in ``rows``."""
    return jnp.any((rows & jnp.asarray(BIT)[square]) != 0, axis=-1)


# ----- BondO walks -------------------------------------------------------------------------------


def _walk_short(start: Array, steps: Array, empty: Array, target: Array) -> Array:
    """The squares a BondO cone on ``start`` ends on after exactly ``steps`` (1 to 4) king
    steps through empty squares, never entering a square twice, ending on ``target``."""
    king, bit, nbrs = jnp.asarray(KING), jnp.asarray(BIT), jnp.asarray(NEIGHBOURS)
    home = bit[start]
    one = king[start]
    two = _next_to(one & empty) & ~home
    # three steps: start, a, then the last two at once (every square next to a free neighbour
    # of a, outside the walk)
    first = nbrs[start]  # [8]
    first_ok = _has(empty, first)
    seen1 = home | bit[first]  # [8, 12]
    three = _next_to(king[first] & empty & ~seen1) & ~seen1
    three = jnp.bitwise_or.reduce(jnp.where(first_ok[:, None], three, 0), axis=0)
    four = _four_step_walks(start, steps, empty, target, steps == 4)
    found = jnp.select([steps == 1, steps == 2, steps == 3], [one, two, three], four)
    return found & target


def _reachable(start: Array, steps: Array, empty: Array) -> Array:
    """Squares some king walk (repeats allowed) from ``start`` through empty squares reaches in
    at most ``steps`` steps: a superset of every walk's squares (the rules' ``reachable``)."""
    seen = jnp.asarray(BIT)[start]
    front = seen
    for i in range(LONGEST_WALK):
        grown = _next_to(front) & ~seen
        live = i < steps
        seen = jnp.where(live, seen | grown, seen)
        front = grown & empty
    return seen & ~jnp.asarray(BIT)[start]


def _walk_long(start: Array, steps: Array, empty: Array, target: Array, active: Array) -> Array:
    """The squares a Double BondO on ``start`` ends on after exactly ``steps`` (5 to 8) king
    steps: the rules engine's depth-first search over walks, one child of the deepest walk a
    round. A child three steps from the end is finished in the same round (its free neighbours,
    then every square next to those: the last two steps at once); a child is only entered while
    some square not yet found could still end its walk (within reach of it through free
    squares). Nothing is searched where ``active`` is false."""
    king, bit, nbrs = jnp.asarray(KING), jnp.asarray(BIT), jnp.asarray(NEIGHBOURS)
    home = bit[start]
    candidates = jnp.asarray(BALL_ROWS)[start, steps] & target & ~home
    candidates = candidates & _reachable(start, steps, empty)
    levels = jnp.arange(LONGEST_WALK)
    directions = jnp.arange(8)

    def free_directions(square: Array, visited: Array) -> Array:
        free = _has(empty & ~visited, nbrs[square])
        return jnp.sum(jnp.where(free, 1 << directions, 0))

    carry: Any = (
        jnp.int32(0),  # depth: steps taken so far
        jnp.zeros(LONGEST_WALK, jnp.int32).at[0].set(start),  # the walk's squares
        jnp.zeros(LONGEST_WALK, jnp.int32).at[0].set(free_directions(start, home)),  # untried
        home,  # visited
        jnp.zeros(HEIGHT, jnp.int32),  # found
        ~active | ~jnp.any(candidates != 0),  # done
    )

    def going(carry: Any) -> Array:
        return ~carry[-1]

    def advance(carry: Any) -> Any:
        depth, walk, untried, visited, found, _ = carry
        here = levels == depth
        current = jnp.sum(jnp.where(here, walk, 0))
        open_ = jnp.sum(jnp.where(here, untried, 0))
        exhausted = open_ == 0
        direction = jnp.argmax((open_ >> directions) & 1)
        untried = jnp.where(here, open_ & ~(1 << direction), untried)
        child = nbrs[current, direction]
        now = visited | bit[child]
        left = steps - depth - 1  # steps left once on the child
        wanted = candidates & ~found & ~now
        promising = ~exhausted & jnp.any((_reachable(child, left, empty & ~now) & wanted) != 0)
        # three steps left: every free neighbour of the child, then the last two steps at once
        grand = nbrs[child]  # [8]
        grand_ok = _has(empty & ~now, grand)
        seen = now | bit[grand]
        ends = _next_to(king[grand] & empty & ~seen) & ~seen
        ends = jnp.bitwise_or.reduce(jnp.where(grand_ok[:, None], ends, 0), axis=0)
        found = jnp.where(promising & (left == 3), found | ends, found)
        push = promising & (left > 3)
        deeper = levels == depth + 1
        walk = jnp.where(push & deeper, child, walk)
        untried = jnp.where(push & deeper, free_directions(child, now), untried)
        visited = jnp.where(push, now, jnp.where(exhausted, visited & ~bit[current], visited))
        depth = jnp.where(push, depth + 1, jnp.where(exhausted, depth - 1, depth))
        done = (depth < 0) | ~jnp.any((candidates & ~found) != 0)
        return depth, walk, untried, visited, found, done

    found = jax.lax.while_loop(going, advance, carry)[4]
    return found & candidates


def _gathered(walk: Callable[..., Array], lanes: Callable[[int], int]) -> Any:
    """``walk(start, steps, empty, target, active)`` (the rows found; none where not
    ``active``) as a function that, on a batch of ``size`` games, runs only the games where
    ``active``, gathered ``lanes(size)`` at a time.

    Under ``vmap`` every game of the batch does the work of every game (and a ``while_loop``
    runs as long as its longest game); a walk that few games need (a die of 4, a Double BondO
    rolling 3 or 4) is cheaper made for those games by themselves.
    """

    @custom_vmap
    def gathered(start: Array, steps: Array, empty: Array, target: Array, active: Array) -> Array:
        return walk(start, steps, empty, target, active)

    @gathered.def_vmap
    def batched_rule(
        size: int,
        batched: Any,
        start: Array,
        steps: Array,
        empty: Array,
        target: Array,
        active: Array,
    ) -> tuple[Array, bool]:
        start, steps, empty, target, active = (
            x if b else jnp.broadcast_to(x, (size, *jnp.shape(x)))
            for x, b in zip((start, steps, empty, target, active), batched, strict=True)
        )
        width = min(size, lanes(size))
        search = jax.vmap(walk)

        def more(carry: tuple[Array, Array]) -> Array:
            return jnp.any(carry[1])

        def next_lanes(carry: tuple[Array, Array]) -> tuple[Array, Array]:
            found, waiting = carry
            games = jnp.nonzero(waiting, size=width, fill_value=size)[0]
            real = games < size
            at = jnp.minimum(games, size - 1)
            ends = search(start[at], steps[at], empty[at], target[at], real & active[at])
            found = found.at[games].set(ends, mode="drop")
            waiting = waiting.at[games].set(False, mode="drop")
            return found, waiting

        found = jnp.zeros((size, HEIGHT), jnp.int32)
        found, _ = jax.lax.while_loop(more, next_lanes, (found, active))
        return found, True

    return gathered


LONG_WALK_LANES = 32
"""Games searched together by ``_long_walks`` on a batch."""
_long_walks = _gathered(_walk_long, lambda size: LONG_WALK_LANES)
"""``_walk_long``; on a batch, only the games where ``active`` are searched."""


def _walk_four(start: Array, steps: Array, empty: Array, target: Array, active: Array) -> Array:
    """``_walk_short``'s walks of 4 steps (none where not ``active``): start, a, b, then the
    last two steps at once."""
    king, bit, nbrs = jnp.asarray(KING), jnp.asarray(BIT), jnp.asarray(NEIGHBOURS)
    first = nbrs[start]  # [8]
    seen1 = bit[start] | bit[first]  # [8, 12]
    second = nbrs[first]  # [8, 8]
    second_ok = (_has(empty, first)[:, None] & _has(empty, second)) & active
    seen2 = seen1[:, None, :] | bit[second]  # [8, 8, 12]
    four = _next_to(king[second] & empty & ~seen2) & ~seen2
    return jnp.bitwise_or.reduce(
        jnp.where(second_ok[..., None], four, 0).reshape(64, HEIGHT), axis=0
    )


_four_step_walks = _gathered(_walk_four, lambda size: max(LONG_WALK_LANES, size // 4))
"""``_walk_four``; on a batch, only the games where ``active`` (a quarter of the batch at a
time: about one game in six rolls a 4)."""


# ----- the moves of a die -----------------------------------------------------------------------


def _line_codes() -> np.ndarray:
    """``[from, to]``: ``4 * d + k - 1`` where ``to`` is ``k`` (1 to 4) squares from ``from`` in
    direction ``d``, else ``NO_LINE``."""
    codes = np.full((SQUARES, SQUARES), NO_LINE, dtype=np.int8)
    for origin in range(SQUARES):
        file, rank = origin % WIDTH, origin // WIDTH
        for d, (df, dr) in enumerate(DIRECTIONS):
            for k in range(1, ORDINARY_MAX + 1):
                if 0 <= file + k * df < WIDTH and 0 <= rank + k * dr < HEIGHT:
                    codes[origin, (rank + k * dr) * WIDTH + file + k * df] = 4 * d + k - 1
    return codes


NO_LINE = 4 * len(DIRECTIONS)
"""A code whose direction (``code >> 2``) is past the last one: no straight move has it."""
LINE_CODES = _line_codes()


def _straight_directions(movers: Array, empty: Array, target: Array, steps: Array) -> Array:
    """``int32[120]``: per square, bit ``d`` set where a cone of ``movers`` there moves
    ``steps`` (1 to 4) squares in direction ``d``: through empty squares onto ``target``."""
    origins = []
    for df, dr in DIRECTIONS:
        # walking back from the targets: the squares ``k`` steps before one, empty between
        chain = target
        found = jnp.zeros_like(movers)
        for k in range(1, ORDINARY_MAX + 1):
            back = _shift(chain, -df, -dr)
            found = jnp.where(steps == k, back & movers, found)
            chain = back & empty
        origins.append(found)
    can_go = _from_rows(jnp.stack(origins)).astype(jnp.int32)  # [8, 120]
    return jnp.sum(can_go << jnp.arange(len(DIRECTIONS))[:, None], axis=0, dtype=jnp.int32)


def _bondo_ends(
    rings: Array, ringed: Array, steps: Array, empty: Array, target: Array, moving: Array
) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
    """The (at most two) BondO cones of ``ringed``, the first and the last ringed square
    (``NONE``: none), and ``bool[120]`` each: where its walk ends for a die of ``steps``
    (all false unless ``moving``)."""
    squares = jnp.arange(SQUARES)
    low = jnp.min(jnp.where(ringed, squares, NONE))
    high = jnp.max(jnp.where(ringed, squares, -1))
    ends = []
    for square in (low, high):
        square = jnp.where(square < 0, NONE, square)
        walk = jnp.where(rings[jnp.minimum(square, SQUARES - 1)] == 2, 2 * steps, steps)
        # (no walk where not moving: a walk of 4 is made only for the games that need one)
        short = _walk_short(square, jnp.where(moving, jnp.minimum(walk, 4), 0), empty, target)
        long_ = _long_walks(square, walk, empty, target, moving & (square < NONE) & (walk > 4))
        ends.append(jnp.where(moving, jnp.where(walk > 4, long_, short), 0))
    return (low, jnp.where(high < 0, NONE, high)), (_from_rows(ends[0]), _from_rows(ends[1]))


# ----- the state ---------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class BondoConesState(State):
    game_id: ClassVar[str] = "bondo_cones"
    _owner: Array
    """int8[120]: the seat of the cone on the square, or -1."""
    _value: Array
    """int8[120]: the value of the cone there, or -1."""
    _rings: Array
    """int8[120]: the rings the cone there carries (0, 1 or 2)."""
    _flags: Array
    """int8[120]: 1 its owner peeked at it, 2 the opponent spied it."""
    _scores: Array
    _phase: Array
    _actor: Array
    _turn_player: Array
    _setup_progress: Array
    _die: Array
    """The face rolled this turn (0-3: 1-4, 4 eye, 5 ring), or -1."""
    _windows: Array
    """int32[2]: turns left in each seat's battle window."""
    _set_aside: Array
    _turns: Array
    _winner: Array
    """A seat, 2 for a draw, -1 while the game runs."""
    _last_move: Array
    """int32[2]: from and to of the last move, or -1."""
    _chance: Array
    """int32[k]: this step's chance outcomes as the rules engine's ids, in order (-1: none)."""


Cone = tuple[Any, Any, Any, Any]
"""A square's cone as the state's four columns hold it: owner, value, rings, flags."""
_EMPTY_CONE: Cone = (jnp.int8(-1), jnp.int8(-1), jnp.int8(0), jnp.int8(0))


def _pick(cond: Array, new: Cone, old: Cone) -> Cone:
    a, b, c, d = (jnp.where(cond, x, y).astype(jnp.int8) for x, y in zip(new, old))
    return (a, b, c, d)


@dataclasses.dataclass
class _Change:
    """One action of a step, decoded, and what it changes, filled in by the step's parts (each
    part writes only where its phase and kind hold): at most two squares, ``a`` and ``b``, each
    with its new cone, and the small fields. Plain Python: it lives while the step is traced."""

    state: BondoConesState
    action: Array
    me: Array
    kind: Array
    """0 move, 1 ring move, 2 take, 3 put, 4 set-up ring, 5 set-aside ring, 6 peek, 7 spy,
    8 seize, 9 battle / roll / pass."""
    origin: Array
    target: Array
    square: Array
    o: Array
    """``origin``, ``target`` and ``square`` clipped to the board, to read a column at."""
    t: Array
    s: Array
    a: Array
    a_cone: Cone
    b: Array
    b_cone: Cone
    next_phase: Array
    actor: Array
    progress: Array
    set_aside: Array
    last_move: Array
    gained: Array
    """Points the action captured (a capture or a seizure)."""
    fill: Array
    """The last set-up put: the zeros fill the free start fields."""
    end_turn: Array

    @classmethod
    def of(cls, state: BondoConesState, action: Array) -> _Change:
        pair = action % (SQUARES * SQUARES)
        origin, target = pair // SQUARES, pair % SQUARES
        square = (action - nt.PUT_BASE) % SQUARES
        kind = jnp.where(action < nt.PUT_BASE, action // (SQUARES * SQUARES), 3)
        kind = jnp.where(action >= nt.PUT_BASE, 3 + (action - nt.PUT_BASE) // SQUARES, kind)
        o = jnp.minimum(origin, SQUARES - 1)
        t = jnp.minimum(target, SQUARES - 1)
        columns = (state._owner, state._value, state._rings, state._flags)
        a_cone: Cone = (columns[0][o], columns[1][o], columns[2][o], columns[3][o])
        b_cone: Cone = (columns[0][t], columns[1][t], columns[2][t], columns[3][t])
        none = jnp.int32(NONE)
        return cls(
            state=state,
            action=action,
            me=state._actor,
            kind=kind,
            origin=origin,
            target=target,
            square=square,
            o=o,
            t=t,
            s=jnp.minimum(square, SQUARES - 1),
            a=none,
            a_cone=a_cone,
            b=none,
            b_cone=b_cone,
            next_phase=state._phase,
            actor=state._actor,
            progress=state._setup_progress,
            set_aside=state._set_aside,
            last_move=state._last_move,
            gained=jnp.int32(0),
            fill=jnp.bool_(False),
            end_turn=jnp.bool_(False),
        )

    def cone(self, square: Array, *, rings: Any = None, flags: Any = None) -> Cone:
        """The cone on ``square`` (clipped), with its rings or flags replaced where given."""
        state = self.state
        return (
            state._owner[square],
            state._value[square],
            state._rings[square] if rings is None else rings,
            state._flags[square] if flags is None else flags,
        )

    def change_a(self, cond: Array, square: Array, cone: Cone) -> None:
        """Where ``cond``: square ``a`` is ``square``, and its new cone ``cone``."""
        self.a = jnp.where(cond, square, self.a)
        self.a_cone = _pick(cond, cone, self.a_cone)

    def change_b(self, cond: Array, square: Array, cone: Cone) -> None:
        """Where ``cond``: square ``b`` is ``square``, and its new cone ``cone``."""
        self.b = jnp.where(cond, square, self.b)
        self.b_cone = _pick(cond, cone, self.b_cone)


class BondoConesEnv(Env):
    """Bond O Cones with the rules engine's parameters (target, max_turns, setup)."""

    id = "bondo_cones"
    step_draws_chance = True
    chance_node_sizes = (2, 6)
    """A battle (0 lost, 1 won) or who starts (the seat), then the die (a face)."""

    def __init__(self, **params: Any) -> None:
        game = BondoConesGame(**params)
        self.game = game
        super().__init__(num_players=2, num_actions=nt.NUM_DISTINCT_ACTIONS)
        self.target = game.target
        self.max_turns = game.max_turns
        self.random_setup = game.random_setup
        self.chance_slots = RANDOM_SETUP_CHANCE if game.random_setup else STEP_CHANCE
        start = np.zeros((2, SQUARES), dtype=bool)
        red = np.zeros((2, SQUARES), dtype=bool)
        for seat in (0, 1):
            start[seat, list(START_FIELDS[seat])] = True
            red[seat, list(RED_FIELDS[seat])] = True
        self.start_fields = jnp.asarray(start)
        self.red_fields = jnp.asarray(red)
        self.start_squares = jnp.asarray(np.array(START_FIELDS, dtype=np.int32))
        self.red_squares = jnp.asarray(np.array(RED_FIELDS, dtype=np.int32))
        self.setup_order = jnp.asarray(np.array(SETUP_ORDER, dtype=np.int8))
        # the observation's fractions, rounded to float32 as the rules engine's floats are
        turns = np.arange(self.max_turns + 1)
        self.turn_fraction = jnp.asarray(turns / self.max_turns, jnp.float32)
        self.score_fraction = jnp.asarray(np.arange(64) / 41, jnp.float32)
        self.progress_fraction = jnp.asarray(np.arange(SETUP_DONE + 1) / 17, jnp.float32)
        self.window_fraction = jnp.asarray(np.arange(WINDOW + 1) / 3, jnp.float32)
        value_plane = np.full(9, -1, dtype=np.int32)
        for plane, value in enumerate((0, 1, 2, 4, 8)):
            value_plane[value] = plane
        self.value_plane = jnp.asarray(value_plane)
        first_put = np.zeros(nt.NUM_DISTINCT_ACTIONS, dtype=bool)
        first_put[nt.PUT_BASE + np.array(START_FIELDS[0])] = True
        self.first_put_mask = jnp.asarray(first_put)

    # ----- the mask ---------------------------------------------------------------------------

    def _mask(self, state: BondoConesState) -> Array:
        """The legal mask: first per-square vectors (a few hundred numbers a game), then the
        43,923 ids as elementwise functions of them."""
        phase, me, die = state._phase, state._actor, state._die
        owner = state._owner
        mine = owner == me
        theirs = owner == 1 - me
        ringed = state._rings > 0
        act = phase == ACT
        moving = act & (die >= 0) & (die < 4)
        steps = die + 1
        empty_sq = owner < 0
        empty = _to_rows(empty_sq)
        target = _to_rows(empty_sq | theirs)
        plain = mine & ~ringed
        # the moves of the die: straight (per origin, the directions it can go) and the BondO
        # cones' walks (per BondO cone, where it ends); nothing unless the die is a number
        directions = jnp.where(
            moving, _straight_directions(_to_rows(plain), empty, target, steps), 0
        )
        bondos, ends = _bondo_ends(state._rings, mine & ringed, steps, empty, target, moving)
        ring_die = act & (die == nt.FACE_RING)
        # the ring moves and the takes: from any square of the first to any of the second
        ring_moves = (mine & ringed & ring_die & ~state._set_aside, plain)
        takes = (theirs & ringed & (phase == TAKE), mine)
        set_aside = plain & ring_die & state._set_aside
        double = jnp.any(mine & (state._rings == 2))
        punish = phase == PUNISH
        decide = phase == DECIDE
        any_move = jnp.any(directions != 0) | jnp.any(ends[0] | ends[1])
        stuck = (
            (moving & ~any_move)
            | (act & (die == nt.FACE_EYE) & ~jnp.any(mine))
            | (ring_die & ~jnp.any(set_aside) & ~(jnp.any(mine & ringed) & jnp.any(plain)))
            | (punish & ~jnp.any(theirs))
        )
        small = jnp.concatenate(
            [
                self.start_fields[me] & (owner < 0) & (phase == SETUP_PUT),  # puts
                self.red_fields[me] & (phase == SETUP_RING),  # set-up rings
                set_aside,
                mine & act & (die == nt.FACE_EYE),  # peeks
                theirs & punish & ~double,  # spies
                theirs & punish & double,  # seizes
                jnp.stack([decide, decide, stuck]),
            ]
        )
        # the regions are elementwise functions of per-square bytes made once a game: XLA
        # would make them again for every id of a region (``once``), and loops over bytes of
        # one type are the fastest it makes. The three are made as one [360, 120] block: a
        # loop over each [120, 120] region flattened to 14,400 ids finds a square's row and
        # column by a division per id and gathers the columns one byte at a time
        u8 = jnp.uint8
        directions, die, low, high = (once(x.astype(u8)) for x in (directions, die, *bondos))
        low_ends, high_ends = (once(x.astype(u8)) for x in ends)
        ring_from, ring_to, take_from, take_to = (once(x.astype(u8)) for x in (*ring_moves, *takes))
        squares = jnp.arange(SQUARES, dtype=u8)
        code = jnp.asarray(LINE_CODES.astype(np.uint8))
        straight = (directions[:, None] >> (code >> 2)) & ((code & 3) == die)
        walks = ((squares[:, None] == low) & low_ends[None, :]) | (
            (squares[:, None] == high) & high_ends[None, :]
        )
        regions = jnp.concatenate(
            [
                straight | walks,
                ring_from[:, None] & ring_to[None, :],
                take_from[:, None] & take_to[None, :],
            ]
        )
        return jnp.concatenate([(regions != 0).reshape(-1), small])

    # ----- playing ----------------------------------------------------------------------------

    def action_segments(self) -> list[ActionSegment]:
        """Each kind of action of the id layout above: the three ``from x to`` regions, the six
        kinds of one square, the three single actions."""
        squares = nt.SQUARES
        pairs = [("move", nt.MOVE_BASE), ("ring move", nt.RING_MOVE_BASE), ("take", nt.TAKE_BASE)]
        singles = [
            ("put", nt.PUT_BASE),
            ("setup ring", nt.SETUP_RING_BASE),
            ("set aside", nt.SET_ASIDE_BASE),
            ("peek", nt.PEEK_BASE),
            ("spy", nt.SPY_BASE),
            ("seize", nt.SEIZE_BASE),
        ]
        return (
            [ActionSegment(name, base, squares, squares) for name, base in pairs]
            + [ActionSegment(name, base, 1, squares) for name, base in singles]
            + [
                ActionSegment("battle", nt.BATTLE, 1, 1),
                ActionSegment("roll", nt.BATTLE + 1, 1, 1),
                ActionSegment("pass", nt.BATTLE + 2, 1, 1),
            ]
        )

    def _init(self, key: Array) -> BondoConesState:
        fields = self.base_fields(jnp.int32(0), jnp.bool_(False), jnp.zeros(2), jnp.zeros(0, bool))
        state = BondoConesState(
            **fields,
            _owner=jnp.full(SQUARES, -1, jnp.int8),
            _value=jnp.full(SQUARES, -1, jnp.int8),
            _rings=jnp.zeros(SQUARES, jnp.int8),
            _flags=jnp.zeros(SQUARES, jnp.int8),
            _scores=jnp.zeros(2, jnp.int32),
            _phase=jnp.int32(SETUP_PUT),
            _actor=jnp.int32(0),
            _turn_player=jnp.int32(0),
            _setup_progress=jnp.zeros(2, jnp.int32),
            _die=jnp.int32(-1),
            _windows=jnp.zeros(2, jnp.int32),
            _set_aside=jnp.bool_(False),
            _turns=jnp.int32(0),
            _winner=jnp.int32(-1),
            _last_move=jnp.full(2, -1, jnp.int32),
            _chance=jnp.full(self.chance_slots, -1, jnp.int32),
        )
        if not self.random_setup:
            # seat 0 puts its first cone: no chance, the same state every game (a constant)
            return state.replace(legal_action_mask=self.first_put_mask)
        return self._random_setup(state, key)

    def _random_setup(self, state: BondoConesState, key: Array) -> BondoConesState:
        """Both seats' cones and rings placed by chance, then who starts and the first die."""
        owner, value, rings = state._owner, state._value, state._rings
        outcomes = []
        keys = jax.random.split(key, 5)
        for seat in (0, 1):
            # the i-th cone goes on a uniformly random free start field: a random order of them
            order = jax.random.permutation(keys[2 * seat], self.start_squares[seat])
            placed = order[:PUTS]
            values = jnp.zeros(SQUARES, jnp.int8).at[placed].set(self.setup_order)
            owner = jnp.where(self.start_fields[seat], jnp.int8(seat), owner)
            value = jnp.where(self.start_fields[seat], values, value)
            red = self.red_squares[seat, jax.random.randint(keys[2 * seat + 1], (), 0, 2)]
            rings = rings.at[red].set(1)
            outcomes += [nt.CHANCE_PUT_BASE + placed, (nt.CHANCE_RING_BASE + red)[None]]
        state = state.replace(
            _owner=owner,
            _value=value,
            _rings=rings,
            _setup_progress=jnp.full(2, SETUP_DONE, jnp.int32),
            _phase=jnp.int32(FIRST),
        )
        settled = self._settle(state, jnp.bool_(False), self._draw_nodes(keys[4]))
        chance = jnp.concatenate([*outcomes, settled._chance[:STEP_CHANCE]]).astype(jnp.int32)
        return settled.replace(_chance=chance)

    def _step(self, state: BondoConesState, action: Array, key: Array) -> BondoConesState:
        return self._step_drawn(state, action, self._draw_nodes(key))

    def _nodes_met(self, state: BondoConesState) -> Array:
        first = state._chance[0]
        battle_or_first = jnp.where(
            first == nt.BATTLE_WON,
            1,
            jnp.where(first == nt.BATTLE_LOST, 0, jnp.where(first >= 0, first - nt.FIRST_BASE, -1)),
        )
        return jnp.stack([battle_or_first, state._chance[1]]).astype(jnp.int32)

    def _step_drawn(self, state: BondoConesState, action: Array, draws: Array) -> BondoConesState:
        change = _Change.of(state, action)
        self._setup_action(change)
        self._battle_action(change)
        self._die_action(change)
        return self._settle(self._changed(change), change.end_turn, draws)

    def _setup_action(self, c: _Change) -> None:
        """A set-up put (the next cone in value order; the last put fills the zeros) or the
        set-up ring."""
        state, me = c.state, c.me
        progress = state._setup_progress
        put = (state._phase == SETUP_PUT) & (c.kind == 3)
        done = progress[me] + 1
        put_cone = (me, self.setup_order[jnp.minimum(progress[me], PUTS - 1)], 0, 0)
        c.change_a(put, c.square, put_cone)
        c.progress = jnp.where(put, progress.at[me].set(done), c.progress)
        c.fill = put & (done == PUTS)
        c.next_phase = jnp.where(put, jnp.where(done == PUTS, SETUP_RING, SETUP_PUT), c.next_phase)
        ring_put = (state._phase == SETUP_RING) & (c.kind == 4)
        c.change_a(ring_put, c.square, c.cone(c.s, rings=1))
        c.progress = jnp.where(ring_put, c.progress.at[me].set(SETUP_DONE), c.progress)
        c.actor = jnp.where(ring_put & (me == 0), 1, c.actor)
        c.next_phase = jnp.where(ring_put, jnp.where(me == 0, SETUP_PUT, FIRST), c.next_phase)

    def _battle_action(self, c: _Change) -> None:
        """Battle or roll; after a won battle, a ring taken (a Double's other ring is set
        aside); after a lost one, the opponent's spy or seizure (or pass)."""
        phase, rings = c.state._phase, c.state._rings
        decide = phase == DECIDE
        c.next_phase = jnp.where(
            decide, jnp.where(c.action == nt.BATTLE, BATTLE, ROLL), c.next_phase
        )
        take = phase == TAKE
        c.change_a(take, c.origin, c.cone(c.o, rings=0))
        c.change_b(take, c.target, c.cone(c.t, rings=1))
        c.set_aside = c.set_aside | (take & (rings[c.o] == 2))
        c.next_phase = jnp.where(take, ROLL, c.next_phase)
        punish = phase == PUNISH
        seize = punish & (c.kind == 8)
        spy = punish & (c.kind == 7)
        c.a = jnp.where(seize | spy, c.square, c.a)
        c.a_cone = _pick(seize, _EMPTY_CONE, c.a_cone)
        c.a_cone = _pick(spy, c.cone(c.s, flags=c.state._flags[c.s] | SPIED), c.a_cone)
        c.gained = jnp.where(seize, c.state._value[c.s].astype(jnp.int32), c.gained)
        c.end_turn = c.end_turn | punish

    def _die_action(self, c: _Change) -> None:
        """What the die allowed: a move (a capture scores and takes the rings), a ring moved,
        a peek, the set-aside ring placed."""
        state, o, t = c.state, c.o, c.t
        owner, value, rings, flags = state._owner, state._value, state._rings, state._flags
        act = state._phase == ACT
        move = act & (c.kind == 0)
        capture = move & (owner[t] == 1 - c.me)
        c.change_a(move, c.origin, _EMPTY_CONE)
        moved = (c.me, value[o], rings[o] + jnp.where(capture, rings[t], 0), flags[o])
        c.change_b(move, c.target, moved)
        c.gained = jnp.where(capture, value[t].astype(jnp.int32), c.gained)
        c.last_move = jnp.where(move, jnp.stack([c.origin, c.target]), c.last_move)
        ring_move = act & (c.kind == 1)
        c.change_a(ring_move, c.origin, c.cone(o, rings=0))
        c.change_b(ring_move, c.target, c.cone(t, rings=rings[o]))
        peek = act & (c.kind == 6)
        c.change_a(peek, c.square, c.cone(c.s, flags=flags[c.s] | PEEKED))
        placed = act & (c.kind == 5)
        c.change_a(placed, c.square, c.cone(c.s, rings=1))
        c.set_aside = c.set_aside & ~placed
        c.end_turn = c.end_turn | act

    def _changed(self, c: _Change) -> BondoConesState:
        """The state with ``c``'s squares written (and the zeros filled after the last put),
        the score, the winner and the battle windows."""
        state, me = c.state, c.me
        them = 1 - me
        squares = jnp.arange(SQUARES)
        at_a = squares == c.a
        at_b = squares == c.b
        old = (state._owner, state._value, state._rings, state._flags)
        owner, value, rings, flags = (
            jnp.where(at_a, new_a, jnp.where(at_b, new_b, column))
            for column, new_a, new_b in zip(old, c.a_cone, c.b_cone)
        )
        filled = c.fill & self.start_fields[me] & (owner < 0)
        owner = jnp.where(filled, me.astype(jnp.int8), owner)
        value = jnp.where(filled, jnp.int8(0), value)
        scores = state._scores.at[me].add(c.gained)
        winner = jnp.where(scores[me] >= self.target, me, state._winner)
        had = jnp.any((state._owner == them) & (state._rings > 0))
        has = jnp.any((owner == them) & (rings > 0))
        windows = jnp.where(had & ~has, state._windows.at[them].set(WINDOW), state._windows)
        return state.replace(
            _owner=owner,
            _value=value,
            _rings=rings,
            _flags=flags,
            _scores=scores,
            _phase=c.next_phase.astype(jnp.int32),
            _actor=c.actor.astype(jnp.int32),
            _setup_progress=c.progress,
            _windows=windows,
            _set_aside=c.set_aside,
            _winner=winner.astype(jnp.int32),
            _last_move=c.last_move.astype(jnp.int32),
        )

    def _settle(self, state: BondoConesState, end_turn: Array, draws: Array) -> BondoConesState:
        """Play the chance nodes up to the next player (a battle or who starts, ``draws[0]``; the
        die, ``draws[1]``), ending the turn first where ``end_turn``; then the mask, the flags
        and the rewards."""
        phase, tp = state._phase, state._turn_player
        windows, actor = state._windows, state._actor
        # a declared battle, won or lost (1/2 each)
        battle = phase == BATTLE
        won = draws[0] == 1
        windows = jnp.where(battle, windows.at[tp].set(jnp.where(won, 0, WINDOW)), windows)
        actor = jnp.where(battle & ~won, 1 - tp, actor)
        phase = jnp.where(battle, jnp.where(won, TAKE, PUNISH), phase)
        # the end of a turn: over, capped, or the next player's turn
        winner = state._winner
        over = end_turn & (winner >= 0)
        capped = end_turn & ~over & (state._turns >= self.max_turns)
        winner = jnp.where(capped, DRAW, winner)
        phase = jnp.where(over | capped, OVER, phase)
        # who starts (1/2 each)
        first = phase == FIRST
        starter = draws[0]
        starts = first | (end_turn & ~over & ~capped)
        seat = jnp.where(first, starter, 1 - tp)
        owner, rings = state._owner, state._rings
        holds = jnp.stack([jnp.any((owner == s) & (rings > 0)) for s in (0, 1)])
        may_battle = (windows[seat] > 0) & ~holds[seat] & holds[1 - seat]
        windows = jnp.where(
            starts, windows.at[seat].set(jnp.maximum(windows[seat] - 1, 0)), windows
        )
        turns = jnp.where(starts, state._turns + 1, state._turns)
        tp = jnp.where(starts, seat, tp)
        actor = jnp.where(starts, seat, actor)
        die = jnp.where(starts, -1, state._die)
        phase = jnp.where(starts, jnp.where(may_battle, DECIDE, ROLL), phase)
        # the die (1/6 each face)
        rolls = phase == ROLL
        face = draws[1]
        die = jnp.where(rolls, face, die)
        phase = jnp.where(rolls, ACT, phase)
        chance = jnp.full(self.chance_slots, -1, jnp.int32)
        chance = chance.at[0].set(
            jnp.where(
                battle,
                jnp.where(won, nt.BATTLE_WON, nt.BATTLE_LOST),
                jnp.where(first, nt.FIRST_BASE + starter, -1),
            )
        )
        chance = chance.at[1].set(jnp.where(rolls, face, -1))
        ended = phase == OVER
        sign = jnp.where(winner == 0, 1.0, -1.0)
        rewards = jnp.where(ended & (winner < DRAW), jnp.stack([sign, -sign]), 0.0)
        state = state.replace(
            _phase=phase.astype(jnp.int32),
            _actor=actor.astype(jnp.int32),
            _turn_player=tp.astype(jnp.int32),
            _windows=windows.astype(jnp.int32),
            _turns=turns.astype(jnp.int32),
            _die=die.astype(jnp.int32),
            _winner=winner.astype(jnp.int32),
            _chance=chance,
            current_player=actor.astype(jnp.int32),
            terminated=ended,
            rewards=rewards.astype(jnp.float32),
        )
        # a finished game's mask is all false here (its phase is over), all true once
        # ``Env.step`` / ``Env.init`` fill it
        return state.replace(legal_action_mask=self._mask(state))

    # ----- what each seat sees ----------------------------------------------------------------

    def _observe(self, state: BondoConesState, seat: Array) -> Array:
        owner, rings, flags = state._owner, state._rings, state._flags
        them = 1 - seat
        shown = state._setup_progress >= PUTS
        mine = owner == seat
        theirs = (owner == them) & shown[them]
        seen = mine | theirs
        spied = (flags & SPIED) != 0
        known = mine | (theirs & spied)
        half = rings.astype(jnp.float32) / 2
        plane = self.value_plane[jnp.clip(state._value, 0, 8)]
        values = (plane[None, :] == jnp.arange(5)[:, None]) & known[None, :]
        squares = jnp.arange(SQUARES)
        last = (squares == state._last_move[0]) | (squares == state._last_move[1])
        planes = jnp.concatenate(
            [
                jnp.stack([mine, theirs]).astype(jnp.float32),
                jnp.stack([jnp.where(mine, half, 0.0), jnp.where(theirs, half, 0.0)]),
                values.astype(jnp.float32),
                jnp.stack(
                    [
                        theirs & ~known,
                        seen & ((flags & PEEKED) != 0),
                        seen & spied,
                        last,
                    ]
                ).astype(jnp.float32),
            ]
        )
        phase = jnp.arange(10) == state._phase
        die = jnp.arange(6) == state._die
        acting = (state._actor == seat) & ~state.terminated
        tail = jnp.concatenate(
            [
                jnp.stack(
                    [
                        self.score_fraction[state._scores[seat]],
                        self.score_fraction[state._scores[them]],
                        self.score_fraction[self.target],
                        self.turn_fraction[state._turns],
                    ]
                ),
                phase.astype(jnp.float32),
                die.astype(jnp.float32),
                jnp.stack(
                    [
                        acting.astype(jnp.float32),
                        self.window_fraction[state._windows[seat]],
                        self.window_fraction[state._windows[them]],
                        state._set_aside.astype(jnp.float32),
                        self.progress_fraction[state._setup_progress[seat]],
                        self.progress_fraction[state._setup_progress[them]],
                    ]
                ),
            ]
        )
        assert PLANES * SQUARES + GLOBALS == TENSOR_SIZE
        return jnp.concatenate([planes.reshape(-1), tail])
