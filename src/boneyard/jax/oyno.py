"""OYNO as batch engines: the puzzle (``oyno_puzzle``) and the two-player game (``oyno``).

The rules are the rules engine's (``boneyard.games.oyno``); the parameters are validated by it
and its board gives the geometry. Cells are ``rank0 * size + file0`` as there; a board is a bool
array per layer (``occupied``, ``up``; the two-player game has ``red`` and ``white``), and
reversing the bones beside a cell is an XOR with that cell's row of the neighbour matrix.

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

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from boneyard.core.errors import InvalidParameterError
from boneyard.games.oyno.board import Board
from boneyard.games.oyno.duel import Oyno
from boneyard.games.oyno.puzzle import OynoPuzzle
from boneyard.jax.core import Array, Env, State, state_class


def _bits(mask: int, cells: int) -> np.ndarray:
    return np.array([(mask >> c) & 1 for c in range(cells)], dtype=bool)


def _neighbour_matrix(geometry: Board) -> np.ndarray:
    """``[c, d]``: d is a resting cell beside c."""
    return np.stack([_bits(m, geometry.cells) for m in geometry.neighbours])


# ----- the puzzle -----------------------------------------------------------------------------


@state_class
class PuzzleState(State):
    occupied: Array
    """bool[N]: a bone rests on the cell."""
    up: Array
    """bool[N]: the bone there is up (false on empty cells)."""
    moves: Array
    chance: Array
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
        self.neighbours = jnp.asarray(_neighbour_matrix(geometry))
        self.resting = jnp.asarray(_bits(geometry.resting_mask, n))
        self.resting_cells = jnp.asarray(np.array(geometry.resting, dtype=np.int32))
        self.start = None
        if game.start is not None:
            occupied, up = game.start
            self.start = (jnp.asarray(_bits(occupied, n)), jnp.asarray(_bits(up, n)))

    def _deal(self, key: Array) -> tuple[Array, Array, Array]:
        n, bones = self.cells, self.bones
        cell_key, side_key = jax.random.split(key)
        # distinct cells, uniformly: the resting cells with the largest of i.i.d. uniform keys
        # (top_k: a full argsort is several times slower on XLA's CPU backend)
        _, chosen = jax.lax.top_k(jax.random.uniform(cell_key, (n - 1,)), bones)
        cells = self.resting_cells[chosen]
        if bones == 1:
            sides = jnp.ones(1, bool)  # a single bone is dealt up
        elif bones < 31:
            # uniform among the allowed patterns (not all down, not all up): 1 .. 2^bones - 2
            pattern = jax.random.randint(side_key, (), 1, (1 << bones) - 1)
            sides = (pattern >> jnp.arange(bones)) & 1 == 1
        else:
            # the same distribution by redrawing the two excluded patterns (rarely needed)
            def redraw(carry: tuple[Array, Array]) -> tuple[Array, Array]:
                key, _ = carry
                key, draw = jax.random.split(key)
                return key, jax.random.bernoulli(draw, 0.5, (bones,))

            _, sides = jax.lax.while_loop(
                lambda carry: jnp.all(carry[1]) | ~jnp.any(carry[1]),
                redraw,
                redraw((side_key, jnp.zeros(bones, bool))),
            )
        occupied = jnp.zeros(n, bool).at[cells].set(True)
        up = jnp.zeros(n, bool).at[cells].set(sides)
        chance = jnp.stack([cells, n + sides.astype(jnp.int32)], axis=1).reshape(-1)
        return occupied, up, chance.astype(jnp.int32)

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
        solved = ~jnp.any(occupied & ~up)
        terminated = solved | (moves >= self.max_moves)
        rewards = jnp.where(terminated & solved, 1.0, 0.0).reshape(1)
        empty = self.resting & ~occupied
        mask = (up[:, None] & empty[None, :]).reshape(-1) & ~terminated
        fields = self.base_fields(jnp.int32(0), terminated, rewards, mask)
        if state is not None:
            fields.update(observation=state.observation, _step_count=state._step_count)
        return PuzzleState(**fields, occupied=occupied, up=up, moves=moves, chance=chance)

    def _step(self, state: PuzzleState, action: Array, key: Array) -> PuzzleState:
        start, end = action // self.cells, action % self.cells
        nbr = self.neighbours
        occupied = state.occupied.at[start].set(False)
        # the bone goes to the center; the bones beside the cell it left are reversed
        up = state.up.at[start].set(False) ^ (nbr[start] & occupied)
        # it comes down up on the new cell; the bones beside that cell are reversed
        up = up.at[end].set(True) ^ (nbr[end] & occupied)
        occupied = occupied.at[end].set(True)
        chance = jnp.full_like(state.chance, -1)
        return self._settle(occupied, up, state.moves + 1, chance, state)

    def _observe(self, state: PuzzleState, seat: Array) -> Array:
        occupied = state.occupied & self.resting
        planes = jnp.stack(
            [occupied & state.up, occupied & ~state.up, self.resting & ~state.occupied]
        )
        return planes.astype(jnp.float32).reshape(3, self.size, self.size)


# ----- the two-player game --------------------------------------------------------------------

CELLS_PER_WORD = 10
"""Cells packed into one uint32 of a position key (3 bits each)."""


@state_class
class DuelState(State):
    red: Array
    white: Array
    up: Array
    supply: Array
    """int32[2]: bones in each seat's supply."""
    player: Array
    moves: Array
    winner: Array
    """-1 while nobody has won."""
    history: Array
    """uint32[max_moves + 1, words]: the position keys since the game began, in order."""
    history_length: Array
    phase_start: Array
    """The first history entry with today's supplies: no earlier position can come back, since
    supplies only go down."""
    chance: Array
    """int32[1]: the wild roll of this step (0 down, 1 up) or -1."""


class OynoEnv(Env):
    """Two-player OYNO (red is seat 0 and moves first), with the wild variant."""

    id = "oyno"

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
        self.place_any_time = game.place_any_time
        self.max_moves = game.max_moves
        self.neighbours = jnp.asarray(_neighbour_matrix(geometry))
        self.resting = jnp.asarray(_bits(geometry.resting_mask, n))
        self.words = -(-n // CELLS_PER_WORD)
        # supply / bones_per_player as the rules engine rounds it (XLA may divide less exactly)
        self.fractions = jnp.asarray(
            np.arange(self.per_player + 1) / self.per_player, dtype=jnp.float32
        )
        self.start = game.start

    def _key(self, red: Array, white: Array, up: Array, player: Array) -> Array:
        """The position (board and player; supplies are the phase's) packed in uint32 words."""
        down = (~up).astype(jnp.uint32)
        code = red.astype(jnp.uint32) * (1 + down) + white.astype(jnp.uint32) * (3 + down)
        code = jnp.pad(code, (0, self.words * CELLS_PER_WORD - self.cells))
        shifts = (3 * jnp.arange(CELLS_PER_WORD, dtype=jnp.uint32))[None, :]
        words = jnp.sum(code.reshape(self.words, CELLS_PER_WORD) << shifts, axis=1)
        return words.astype(jnp.uint32).at[0].add(player.astype(jnp.uint32) << 30)

    def _has_won(self, own: Array, up: Array, supply: Array) -> Array:
        return (supply == 0) & ~jnp.any(own & ~up)

    def _mask(self, red: Array, white: Array, up: Array, supply: Array, player: Array) -> Array:
        own = jnp.where(player == 0, red, white)
        empty = self.resting & ~(red | white)
        must_place = (supply[player] > 0) & ~jnp.any(own & ~up)
        may_place = must_place | (self.place_any_time & (supply[player] > 0))
        place = empty & may_place
        moves = (own[:, None] & empty[None, :]).reshape(-1) & ~must_place
        flips = own & ~up & ~must_place
        wild = jnp.bool_(self.wild)
        return jnp.concatenate([place, place & wild, moves, moves & wild, flips])

    def _init(self, key: Array) -> DuelState:
        n = self.cells
        if self.start is not None:
            red_mask, white_mask, up_mask, first = self.start
            red, white = jnp.asarray(_bits(red_mask, n)), jnp.asarray(_bits(white_mask, n))
            up = jnp.asarray(_bits(up_mask, n))
        else:
            red = white = up = jnp.zeros(n, bool)
            first = 0
        player = jnp.int32(first)
        supply = self.per_player - jnp.stack([red.sum(), white.sum()]).astype(jnp.int32)
        # a start can be won already: by the player who moved last, else by the other
        last = jnp.int32(1 - first)
        own_last, own_next = (white, red) if first == 0 else (red, white)
        won_last = self._has_won(own_last, up, supply[last])
        won_next = self._has_won(own_next, up, supply[player])
        winner = jnp.where(won_last, last, jnp.where(won_next, player, -1)).astype(jnp.int32)
        history = jnp.zeros((self.max_moves + 1, self.words), jnp.uint32)
        history = history.at[0].set(self._key(red, white, up, player))
        terminated = winner >= 0
        fields = self.base_fields(
            jnp.where(terminated, last, player),
            terminated,
            self._returns(winner),
            self._mask(red, white, up, supply, player) & ~terminated,
        )
        return DuelState(
            **fields,
            red=red,
            white=white,
            up=up,
            supply=supply,
            player=player,
            moves=jnp.int32(0),
            winner=winner,
            history=history,
            history_length=jnp.int32(1),
            phase_start=jnp.int32(0),
            chance=jnp.full(1, -1, jnp.int32),
        )

    def _returns(self, winner: Array) -> Array:
        return jnp.where(
            winner == 0,
            jnp.array([1.0, -1.0]),
            jnp.where(winner == 1, jnp.array([-1.0, 1.0]), jnp.zeros(2)),
        ).astype(jnp.float32)

    def _step(self, state: DuelState, action: Array, key: Array) -> DuelState:
        n = self.cells
        nbr = self.neighbours
        p = state.player
        is_place = action < 2 * n
        is_flip = action >= 2 * n + 2 * n * n
        is_move = ~is_place & ~is_flip
        code = action - 2 * n
        start = (code % (n * n)) // n
        cell = jnp.where(is_place, action % n, code % n)
        wild = jnp.where(is_place, action // n, code // (n * n)) == 1
        flip_cell = jnp.clip(action - 2 * n - 2 * n * n, 0, n - 1)

        # a move first lifts the bone to the center: the bones beside its cell are reversed
        lifted = jnp.zeros(n, bool).at[start].set(is_move)
        red = state.red & ~lifted
        white = state.white & ~lifted
        up = state.up & ~lifted
        up = up ^ (nbr[start] & (red | white) & is_move)
        # a placed or moved bone comes down up, or rolled; the bones beside it are reversed
        put = is_place | is_move
        roll = jax.random.bernoulli(key)
        side = jnp.where(wild, roll, True)
        everything = red | white
        landed = jnp.zeros(n, bool).at[cell].set(put)
        red = red | (landed & (p == 0))
        white = white | (landed & (p == 1))
        up = jnp.where(put, up.at[cell].set(side) ^ (nbr[cell] & everything), up)
        # a flip turns an own down bone up
        up = up.at[flip_cell].set(up[flip_cell] | is_flip)
        supply = state.supply.at[p].add(-is_place.astype(jnp.int32))
        chance = jnp.where(put & wild, roll.astype(jnp.int32), -1).reshape(1)

        moves = state.moves + 1
        own = jnp.where(p == 0, red, white)
        other = jnp.where(p == 0, white, red)
        winner = jnp.where(
            self._has_won(own, up, supply[p]),
            p,
            jnp.where(self._has_won(other, up, supply[1 - p]), 1 - p, -1),
        ).astype(jnp.int32)
        won = winner >= 0
        player = jnp.where(won, p, 1 - p).astype(jnp.int32)
        position = self._key(red, white, up, player)
        index = state.history_length
        history = state.history.at[index].set(position)
        phase_start = jnp.where(is_place, index, state.phase_start)
        rows = jnp.arange(history.shape[0])
        same = jnp.all(history == position, axis=1) & (rows >= phase_start) & (rows <= index)
        draw = ~won & ((jnp.sum(same) >= 3) | (moves >= self.max_moves))
        terminated = won | draw
        return state.replace(
            current_player=player,
            rewards=self._returns(winner),
            terminated=terminated,
            legal_action_mask=self._mask(red, white, up, supply, player) & ~terminated,
            red=red,
            white=white,
            up=up,
            supply=supply,
            player=player,
            moves=moves,
            winner=winner,
            history=history,
            history_length=index + 1,
            phase_start=phase_start,
            chance=chance,
        )

    def _observe(self, state: DuelState, seat: Array) -> Array:
        red, white, up = state.red, state.white, state.up
        planes = jnp.concatenate(
            [red & up, red & ~up, white & up, white & ~up, self.resting & ~(red | white)]
        ).astype(jnp.float32)
        white_to_move = (state.player == 1) & ~state.terminated
        tail = jnp.concatenate(
            [self.fractions[state.supply], white_to_move[None].astype(jnp.float32)]
        )
        return jnp.concatenate([planes, tail.astype(jnp.float32)])


__all__ = ["DuelState", "OynoEnv", "OynoPuzzleEnv", "PuzzleState"]
