"""OYNO as batch engines: the puzzle (``oyno_puzzle``) and the two-player game (``oyno``).

The rules are the rules engine's (``boneyard.games.oyno``); the parameters are validated by it
and its board gives the geometry. Cells are ``rank0 * size + file0`` as there, and a board layer
(``occupied``, ``up``; the two-player game has ``red`` and ``white``) is a bitboard as there:
uint32 words, cell ``c`` at bit ``c % 32`` of word ``c // 32`` (one word up to 5x5). Reversing
the bones beside a cell is an XOR with that cell's neighbour mask. Bitboards keep the state a
few words a game, which is what a vmapped step pays for on XLA's CPU backend (each operation is
a pass over the batch); the masks and observations are unpacked from them once a step.

Action ids are the rules engine's (``boneyard.games.oyno.notation``): puzzle ``X * N + Y``;
two-player ``c`` place, ``N + c`` place wild, ``2N + X * N + Y`` move, ``2N + N*N + X * N + Y``
move wild, ``2N + 2N*N + c`` flip. Chance: the puzzle's deal is drawn in ``init`` (cells
uniformly, sides uniformly among the allowed patterns: at least one up bone, and with two or
more bones at least one down bone, the rules engine's distribution), recorded in ``chance`` as
the rules engine's outcomes, bone after bone: cell, then ``N`` (down) or ``N + 1`` (up). A wild
bone's side is drawn in ``step``, 1/2 each, recorded as ``0`` (down) or ``1`` (up).

Not here: the puzzle's ``difficulty`` deals (they need the solver's ticket table).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import jax
import jax.numpy as jnp
import numpy as np

from boneyard.core.errors import InvalidParameterError
from boneyard.games.oyno.board import Board
from boneyard.games.oyno.duel import Oyno
from boneyard.games.oyno.puzzle import OynoPuzzle
from boneyard.jax.core import (
    WORD_BITS,
    Array,
    Env,
    State,
    below,
    nth_set_bit,
    once,
)
from boneyard.jax.heads import ActionSegment


class Bitboards:
    """Bitboards of one OYNO board: the geometry as word constants, and the word helpers."""

    def __init__(self, geometry: Board) -> None:
        n = geometry.cells
        self.cells = n
        self.words = -(-n // WORD_BITS)
        self.resting = self.constant(geometry.resting_mask)
        # [c]: the resting cells beside c (a row per cell, gathered by the cell of a step)
        self.neighbours = jnp.asarray(np.stack([self._words(m) for m in geometry.neighbours]))
        self.resting_count = len(geometry.resting)

    def _words(self, mask: int) -> np.ndarray:
        chunks = [(mask >> (WORD_BITS * w)) & 0xFFFFFFFF for w in range(self.words)]
        return np.array(chunks, dtype=np.uint32)

    def constant(self, mask: int) -> Array:
        """The words of a Python int bitmask."""
        return jnp.asarray(self._words(mask))

    def cell(self, cell: Array, on: Array | bool = True) -> Array:
        """The words with only ``cell``'s bit (none where ``on`` is false)."""
        cell = cell.astype(jnp.uint32)
        bit = jnp.left_shift(jnp.uint32(1), cell % WORD_BITS)
        word = jnp.arange(self.words, dtype=jnp.uint32) == cell // WORD_BITS
        return jnp.where(word & on, bit, jnp.uint32(0))

    def unpack(self, words: Array) -> Array:
        """bool[..., N]: the cells' bits (words on the last axis)."""
        shifts = jnp.arange(WORD_BITS, dtype=jnp.uint32)
        bits = (words[..., None] >> shifts) & 1
        return bits.reshape(*words.shape[:-1], -1)[..., : self.cells].astype(bool)

    @staticmethod
    def outer(rows: Array, columns: Array) -> Array:
        """bool[N * N]: ``rows[x] & columns[y]`` at ``x * N + y`` (a mask of moves X to Y)."""
        return (rows[:, None] & columns[None, :]).reshape(-1)

    @staticmethod
    def empty(words: Array) -> Array:
        """No bit is set."""
        return ~jnp.any(words != 0)

    def nth_cell(self, words: Array, rank: Array) -> Array:
        """The cell of the ``rank``-th set bit (from 0, in cell order)."""
        counts = jax.lax.population_count(words).astype(jnp.int32)
        if self.words == 1:
            word, x = jnp.int32(0), words[0]
        else:
            through = jnp.cumsum(counts)
            word = jnp.sum(through <= rank).astype(jnp.int32)
            rank = rank - (through[word] - counts[word])
            x = words[word]
        return word * WORD_BITS + nth_set_bit(x, rank)


# ----- the puzzle -----------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class PuzzleState(State):
    game_id: ClassVar[str] = "oyno_puzzle"
    _occupied: Array
    """uint32[words]: the cells a bone rests on."""
    _up: Array
    """uint32[words]: the cells whose bone is up (a subset of ``occupied``)."""
    _moves: Array
    _chance: Array
    """int32[2 * bones]: the deal's outcomes as the rules engine's chance ids (-1: none)."""


class OynoPuzzleEnv(Env):
    """The one-player puzzle: move up bones until every bone is up (reward 1), in ``max_moves``."""

    id = "oyno_puzzle"

    def __init__(self, **params: Any) -> None:
        game = OynoPuzzle(**params)
        if game.difficulty:
            raise InvalidParameterError(
                "the batch engine of oyno_puzzle deals random set-ups or a start position; "
                "'difficulty' deals need the solver's tickets: use the rules engine for them"
            )
        self.game = game
        geometry = game.geometry
        n = geometry.cells
        super().__init__(num_players=1, num_actions=n * n)
        self.size = game.size
        self.cells = n
        self.bones = game.bones
        self.max_moves = game.max_moves
        self.bits = Bitboards(geometry)
        self.start = None
        if game.start is not None:
            occupied, up = game.start
            self.start = (self.bits.constant(occupied), self.bits.constant(up))

    def _sides(self, key: Array) -> Array:
        """bool[bones]: the dealt sides, uniform among the allowed patterns."""
        bones = self.bones
        if bones == 1:
            return jnp.ones(1, bool)  # a single bone is dealt up
        if bones < 31:
            # not all down, not all up: 1 .. 2^bones - 2
            pattern = 1 + below(jax.random.bits(key, (), jnp.uint32), (1 << bones) - 2)
            return (pattern >> jnp.arange(bones)) & 1 == 1

        # the same distribution by redrawing the two excluded patterns (rarely needed)
        def redraw(carry: tuple[Array, Array]) -> tuple[Array, Array]:
            key, _ = carry
            key, draw = jax.random.split(key)
            return key, jax.random.bernoulli(draw, 0.5, (bones,))

        _, sides = jax.lax.while_loop(
            lambda carry: jnp.all(carry[1]) | ~jnp.any(carry[1]),
            redraw,
            redraw((key, jnp.zeros(bones, bool))),
        )
        return sides

    def _deal(self, key: Array) -> tuple[Array, Array, Array]:
        bits, bones = self.bits, self.bones
        cell_key, side_key = jax.random.split(key)
        sides = self._sides(side_key)

        # bone after bone, a uniform cell among the free resting cells (as the rules engine)
        randoms = jax.random.bits(cell_key, (bones,), jnp.uint32)
        free, up = bits.resting, jnp.zeros(bits.words, jnp.uint32)
        chosen = []
        for bone in range(bones):
            cell = once(bits.nth_cell(free, below(randoms[bone], bits.resting_count - bone)))
            free = free & ~bits.cell(cell)
            up = up | bits.cell(cell, sides[bone])
            chosen.append(cell)
        cells = jnp.stack(chosen)
        occupied = bits.resting & ~free
        chance = jnp.stack([cells, self.cells + sides.astype(jnp.int32)], axis=1).reshape(-1)
        return occupied, up, chance.astype(jnp.int32)

    def action_segments(self) -> list[ActionSegment]:
        """One kind: ``from * cells + to``, the bone that moves, then where to."""
        return [ActionSegment("move", 0, self.cells, self.cells)]

    def _init(self, key: Array) -> PuzzleState:
        if self.start is not None:
            occupied, up = self.start
            chance = jnp.full(2 * self.bones, -1, jnp.int32)
        else:
            occupied, up, chance = self._deal(key)
        return self._settle(occupied, up, jnp.int32(0), chance, None)

    def _settle(
        self, occupied: Array, up: Array, moves: Array, chance: Array, state: PuzzleState | None
    ) -> PuzzleState:
        occupied, up = once(occupied), once(up)
        solved = self.bits.empty(occupied & ~up)
        terminated = once(solved | (moves >= self.max_moves))
        rewards = jnp.where(terminated & solved, 1.0, 0.0).reshape(1)
        movers = self.bits.unpack(once(jnp.where(terminated, 0, up)))
        targets = self.bits.unpack(once(self.bits.resting & ~occupied))
        mask = self.bits.outer(movers, targets)
        fields = self.base_fields(jnp.int32(0), terminated, rewards, mask)
        if state is not None:
            fields.update(observation=state.observation, _step_count=state._step_count)
        return PuzzleState(**fields, _occupied=occupied, _up=up, _moves=moves, _chance=chance)

    def _step(self, state: PuzzleState, action: Array, key: Array) -> PuzzleState:
        bits = self.bits
        start, end = action // self.cells, action % self.cells
        # the bone goes to the center; the bones beside the cell it left are reversed
        occupied = state._occupied & ~bits.cell(start)
        up = (state._up & occupied) ^ (bits.neighbours[start] & occupied)
        # it comes down up on the new cell; the bones beside that cell are reversed
        up = (up | bits.cell(end)) ^ (bits.neighbours[end] & occupied)
        occupied = occupied | bits.cell(end)
        chance = jnp.full_like(state._chance, -1)
        return self._settle(occupied, up, state._moves + 1, chance, state)

    def _observe(self, state: PuzzleState, seat: Array) -> Array:
        occupied, up = state._occupied, state._up
        # the planes' words side by side (a stack would put the batch between planes and words,
        # and XLA would transpose it for every entry of the observation)
        empty = self.bits.resting & ~occupied
        words = once(jnp.concatenate([occupied & up, occupied & ~up, empty]))
        cells = self.bits.unpack(words.reshape(3, -1))
        return cells.astype(jnp.float32).reshape(3, self.size, self.size)


# ----- the two-player game --------------------------------------------------------------------

CELLS_PER_KEY_WORD = 13
"""Cells in one uint32 word of a position key: a base-5 digit each (empty, red up, red down,
white up, white down), 5^13 * 2 < 2^32 leaving room for the player to move in the first word."""


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class DuelState(State):
    game_id: ClassVar[str] = "oyno"
    _red: Array
    """uint32[words]: the cells of red's bones."""
    _white: Array
    _up: Array
    """uint32[words]: the cells of up bones (a subset of red | white)."""
    _supply: Array
    """int32[2]: bones in each seat's supply."""
    _player: Array
    _moves: Array
    _winner: Array
    """-1 while nobody has won."""
    _history: Array
    """uint32[2, max_moves // 2 + 1, key words]: the position keys since the game began, entry
    ``i`` (after ``i`` moves) at ``[i % 2, i // 2]``: the player to move alternates, so only the
    entries of one parity can repeat a position (half the history is read a step)."""
    _history_length: Array
    _phase_start: Array
    """The first history entry with today's supplies: no earlier position can come back, since
    supplies only go down."""
    _chance: Array
    """int32[1]: the wild roll of this step (0 down, 1 up) or -1."""


class OynoEnv(Env):
    """Two-player OYNO (red is seat 0 and moves first), with the wild variant."""

    id = "oyno"
    # the history is written in place, one entry a step (never on a finished game), and the
    # finished mask made with the mask: a select over either costs more than the step
    kept_by_game = ("_history",)
    fills_finished_mask = True

    def __init__(self, **params: Any) -> None:
        game = Oyno(**params)
        self.game = game
        geometry = game.geometry
        n = geometry.cells
        super().__init__(num_players=2, num_actions=3 * n + 2 * n * n)
        self.size = game.size
        self.cells = n
        self.per_player = game.bones_per_player
        self.wild = game.wild
        # a wild bone rolls when it is placed or moved: only the wild variant draws in a step
        self.step_draws_chance = game.wild
        # the split step's one chance node: the roll, 0 down, 1 up
        self.chance_node_sizes = (2,) if game.wild else ()
        self.place_any_time = game.place_any_time
        self.max_moves = game.max_moves
        self.bits = Bitboards(geometry)
        self.key_words = -(-n // CELLS_PER_KEY_WORD)
        # supply / bones_per_player as the rules engine rounds it (XLA may divide less exactly)
        self.fractions = jnp.asarray(
            np.arange(self.per_player + 1) / self.per_player, dtype=jnp.float32
        )
        self.start = game.start

    def _key(self, red: Array, white: Array, up: Array, player: Array) -> Array:
        """The position (board and player; supplies are the phase's), exactly, in uint32 words."""
        cells = self.bits.unpack(jnp.stack([red, white, ~up])).astype(jnp.uint32)
        red_cell, white_cell, down = cells[0], cells[1], cells[2]
        digit = red_cell * (1 + down) + white_cell * (3 + down)
        digit = jnp.pad(digit, (0, self.key_words * CELLS_PER_KEY_WORD - self.cells))
        powers = jnp.asarray(5 ** np.arange(CELLS_PER_KEY_WORD), dtype=jnp.uint32)
        words = jnp.sum(digit.reshape(self.key_words, CELLS_PER_KEY_WORD) * powers, axis=1)
        first = player.astype(jnp.uint32) * jnp.uint32(5**CELLS_PER_KEY_WORD)
        return words.astype(jnp.uint32).at[0].add(first)

    def _has_won(self, own: Array, up: Array, supply: Array) -> Array:
        return (supply == 0) & self.bits.empty(own & ~up)

    def _mask(
        self,
        red: Array,
        white: Array,
        up: Array,
        supply: Array,
        player: Array,
        over: Array,
        finished: Array,
    ) -> Array:
        """The legal actions (none once the game is ``over``); all true where ``finished``.

        The finished game's all-true mask is made here, from all-ones words, rather than by a
        pass over the mask afterwards (``Env.fills_finished_mask``)."""
        bits = self.bits
        own = jnp.where(player == 0, red, white)
        in_supply = supply[player] > 0
        must_place = in_supply & bits.empty(own & ~up)
        may_place = (must_place | (self.place_any_time & in_supply)) & ~over
        may_move = ~must_place & ~over
        empty = bits.resting & ~(red | white)
        all_ones = jnp.full(bits.words, 0xFFFFFFFF, jnp.uint32)

        def unpack(words: Array) -> Array:
            return bits.unpack(once(jnp.where(finished, all_ones, words)))

        place = unpack(jnp.where(may_place, empty, 0))
        movers = unpack(jnp.where(may_move, own, 0))
        targets = unpack(empty)
        flips = unpack(jnp.where(may_move, own & ~up, 0))
        wild = self.wild | finished
        moves = bits.outer(movers, targets)
        return jnp.concatenate([place, place & wild, moves, moves & wild, flips])

    def action_segments(self) -> list[ActionSegment]:
        """The five kinds of the id layout: place, place wild (a cell each), move, move wild
        (``from x to``), flip (a cell)."""
        n = self.cells
        return [
            ActionSegment("place", 0, 1, n),
            ActionSegment("place wild", n, 1, n),
            ActionSegment("move", 2 * n, n, n),
            ActionSegment("move wild", 2 * n + n * n, n, n),
            ActionSegment("flip", 2 * n + 2 * n * n, 1, n),
        ]

    def _init(self, key: Array) -> DuelState:
        bits = self.bits
        if self.start is not None:
            red_mask, white_mask, up_mask, first = self.start
            red, white = bits.constant(red_mask), bits.constant(white_mask)
            up = bits.constant(up_mask)
            counts = (bin(red_mask).count("1"), bin(white_mask).count("1"))
        else:
            red = white = up = jnp.zeros(bits.words, jnp.uint32)
            first, counts = 0, (0, 0)
        player = jnp.int32(first)
        supply = jnp.asarray([self.per_player - counts[0], self.per_player - counts[1]], jnp.int32)
        # a start can be won already: by the player who moved last, else by the other
        last = jnp.int32(1 - first)
        own_last, own_next = (white, red) if first == 0 else (red, white)
        won_last = self._has_won(own_last, up, supply[last])
        won_next = self._has_won(own_next, up, supply[player])
        winner = jnp.where(won_last, last, jnp.where(won_next, player, -1)).astype(jnp.int32)
        history = jnp.zeros((2, self.max_moves // 2 + 1, self.key_words), jnp.uint32)
        history = history.at[0, 0].set(self._key(red, white, up, player))
        terminated = winner >= 0
        fields = self.base_fields(
            jnp.where(terminated, last, player),
            terminated,
            self._returns(winner),
            self._mask(red, white, up, supply, player, terminated, terminated),
        )
        return DuelState(
            **fields,
            _red=red,
            _white=white,
            _up=up,
            _supply=supply,
            _player=player,
            _moves=jnp.int32(0),
            _winner=winner,
            _history=history,
            _history_length=jnp.int32(1),
            _phase_start=jnp.int32(0),
            _chance=jnp.full(1, -1, jnp.int32),
        )

    def _returns(self, winner: Array) -> Array:
        sign = jnp.where(winner == 0, 1.0, jnp.where(winner == 1, -1.0, 0.0))
        return jnp.stack([sign, -sign]).astype(jnp.float32)

    def _step(self, state: DuelState, action: Array, key: Array) -> DuelState:
        draws = self._draw_nodes(key) if self.wild else jnp.zeros(1, jnp.int32)
        return self._step_drawn(state, action, draws)

    def _nodes_met(self, state: DuelState) -> Array:
        return state._chance[:1]

    def _step_drawn(self, state: DuelState, action: Array, draws: Array) -> DuelState:
        n = self.cells
        bits = self.bits
        p = state._player
        is_place = action < 2 * n
        is_flip = action >= 2 * n + 2 * n * n
        is_move = ~is_place & ~is_flip
        code = action - 2 * n
        start = (code % (n * n)) // n
        cell = jnp.where(is_place, action % n, code % n)
        # (a game without wild bones has no wild action: an illegal one ends the game anyway)
        wild = (jnp.where(is_place, action // n, code // (n * n)) == 1) & self.wild
        flip_cell = jnp.clip(action - 2 * n - 2 * n * n, 0, n - 1)

        # a move first lifts the bone to the center: the bones beside its cell are reversed
        lifted = bits.cell(start, is_move)
        red = state._red & ~lifted
        white = state._white & ~lifted
        everything = red | white
        up = (state._up & everything) ^ jnp.where(is_move, bits.neighbours[start] & everything, 0)
        # a placed or moved bone comes down up, or rolled; the bones beside it are reversed
        put = is_place | is_move
        roll = (draws[0] == 1) & self.wild
        side = jnp.where(wild, roll, True)
        landed = bits.cell(cell, put)
        turned = jnp.where(put, bits.neighbours[cell] & everything, 0)
        up = (up | (landed & jnp.where(side, ~jnp.uint32(0), 0))) ^ turned
        red = red | jnp.where(p == 0, landed, 0)
        white = white | jnp.where(p == 1, landed, 0)
        # a flip turns an own down bone up
        up = up | bits.cell(flip_cell, is_flip)
        supply = state._supply - jnp.where(jnp.arange(2) == p, is_place, False).astype(jnp.int32)
        chance = jnp.where(put & wild, roll.astype(jnp.int32), -1).reshape(1)

        red, white, up, supply = once(red), once(white), once(up), once(supply)
        moves = state._moves + 1
        own = jnp.where(p == 0, red, white)
        other = jnp.where(p == 0, white, red)
        winner = jnp.where(
            self._has_won(own, up, supply[p]),
            p,
            jnp.where(self._has_won(other, up, supply[1 - p]), 1 - p, -1),
        ).astype(jnp.int32)
        won = once(winner >= 0)
        player = jnp.where(won, p, 1 - p).astype(jnp.int32)
        position = once(self._key(red, white, up, player))
        index = state._history_length
        phase_start = jnp.where(is_place, index, state._phase_start)
        # the entry is written in place (dropped on a finished game, whose history stays as it
        # was: ``kept_by_game``), then the occurrences in this phase counted, itself included:
        # counted before the write, XLA would copy the whole history to write it
        half = state._history.shape[1]
        over = state.terminated | state.truncated
        parity = index % 2
        history = state._history.at[parity, jnp.where(over, half, index // 2)].set(
            position, mode="drop"
        )
        entries = 2 * jnp.arange(half) + parity  # the moves after which these were written
        same = jnp.all(jnp.take(history, parity, axis=0) == position, axis=1)
        seen = jnp.sum(same & (entries >= phase_start) & (entries <= index))
        draw = ~won & ((seen >= 3) | (moves >= self.max_moves))
        terminated = once(won | draw)
        finished = once(self.finished(state, action, terminated))
        return state.replace(
            current_player=player,
            rewards=self._returns(winner),
            terminated=terminated,
            legal_action_mask=self._mask(red, white, up, supply, player, terminated, finished),
            _red=red,
            _white=white,
            _up=up,
            _supply=supply,
            _player=player,
            _moves=moves,
            _winner=winner,
            _history=history,
            _history_length=index + 1,
            _phase_start=phase_start,
            _chance=chance,
        )

    def _observe(self, state: DuelState, seat: Array) -> Array:
        red, white, up = once(state._red), once(state._white), once(state._up)
        words = once(
            jnp.concatenate(
                [red & up, red & ~up, white & up, white & ~up, self.bits.resting & ~(red | white)]
            )
        )
        cells = self.bits.unpack(words.reshape(5, -1)).reshape(-1).astype(jnp.float32)
        white_to_move = (state._player == 1) & ~state.terminated
        tail = jnp.concatenate(
            [self.fractions[state._supply], white_to_move[None].astype(jnp.float32)]
        )
        return jnp.concatenate([cells, tail.astype(jnp.float32)])


__all__ = ["Bitboards", "DuelState", "OynoEnv", "OynoPuzzleEnv", "PuzzleState"]
