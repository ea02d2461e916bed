"""Bones as a batch engine.

The rules engine (``boneyard.games.bones.rules``) validates the parameters and its placement
table gives the action ids (``first``/``second`` square of each placement). The state keeps per
square the number of its top piece (-1: empty) and its stack height; white places the even
numbered pieces, black the odd ones, so a square's colour is its top piece's number mod 2. A
placement is forbidden exactly when one piece is the top of both its squares (that piece is
completely visible and would be covered exactly); the first piece must touch the start area.
A placement can only give the mover a line, so the mover wins when five of its colour stand in
a row anywhere. No chance. Rewards: +1 / -1 on the winning step, 0 for a draw.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import jax
import jax.numpy as jnp
import numpy as np

from boneyard.games.bones.notation import LINE
from boneyard.games.bones.rules import BonesGame
from boneyard.jax.core import Array, Env, State


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class BonesState(State):
    game_id: ClassVar[str] = "bones"
    _top_piece: Array
    """int8 (int16 past 127 placements)[squares]: the number of the square's top piece
    (placement order), or -1."""
    _heights: Array
    _placed: Array
    _player: Array
    _winner: Array


class BonesEnv(Env):
    """Bones with the rules engine's parameters (width, height, pieces)."""

    id = "bones"

    def __init__(self, **params: Any) -> None:
        game = BonesGame(**params)
        self.game = game
        table = game.table
        super().__init__(num_players=2, num_actions=table.count)
        self.width, self.height, self.pieces = game.width, game.height, game.pieces
        self.squares = game.width * game.height
        # piece numbers and stack heights in the smallest type that holds them (fewer bytes a step)
        self.piece = jnp.int8 if 2 * self.pieces <= 127 else jnp.int16
        self.first = jnp.asarray(table.first, dtype=jnp.int32)
        self.second = jnp.asarray(table.second, dtype=jnp.int32)
        start_mask = np.zeros(table.count, dtype=bool)
        start_mask[list(table.start_actions)] = True
        self.start_actions = jnp.asarray(start_mask)
        start_plane = np.zeros(self.squares, dtype=bool)
        start_plane[list(table.start_squares)] = True
        self.start_plane = jnp.asarray(start_plane)
        # supply / pieces as the rules engine rounds it to float32
        self.fractions = jnp.asarray(np.arange(self.pieces + 1) / self.pieces, dtype=jnp.float32)
        # the table lists the placements along the ranks, then along the files, square by square:
        # the mask is then two shifted comparisons of the board (no gather of squares)
        width, height = self.width, self.height
        along_ranks = [
            (r * width + c, r * width + c + 1) for r in range(height) for c in range(width - 1)
        ]
        along_files = [(s, s + width) for s in range((height - 1) * width)]
        self.by_lines = list(zip(table.first, table.second)) == along_ranks + along_files
        self._start = jax.tree_util.tree_map(np.asarray, jax.jit(self._first_state)())

    def _mask(self, top: Array, placed: Array) -> Array:
        if self.by_lines:
            grid = top.reshape(self.height, self.width)
            pairs = [(grid[:, :-1], grid[:, 1:]), (grid[:-1, :], grid[1:, :])]
            exactly_on = jnp.concatenate([((a >= 0) & (a == b)).reshape(-1) for a, b in pairs])
        else:
            under = top[self.first]
            exactly_on = (under >= 0) & (under == top[self.second])
        return jnp.where(placed == 0, self.start_actions, ~exactly_on)

    def _init(self, key: Array) -> BonesState:
        # no chance: every game starts alike, made once (a constant XLA need not compute)
        return jax.tree_util.tree_map(jnp.asarray, self._start)

    def _first_state(self) -> BonesState:
        top = jnp.full(self.squares, -1, self.piece)
        fields = self.base_fields(
            jnp.int32(0), jnp.bool_(False), jnp.zeros(2), self._mask(top, jnp.int32(0))
        )
        return BonesState(
            **fields,
            _top_piece=top,
            _heights=jnp.zeros(self.squares, self.piece),
            _placed=jnp.int32(0),
            _player=jnp.int32(0),
            _winner=jnp.int32(-1),
        )

    def _has_line(self, shows: Array) -> Array:
        """Five or more in a row on a rank or a file of the bool board ``shows``."""
        grid = shows.reshape(self.height, self.width)
        found = jnp.bool_(False)
        for board in (grid, grid.T):
            length = board.shape[1]
            if length >= LINE:
                run = board[:, : length - LINE + 1]
                for offset in range(1, LINE):
                    run = run & board[:, offset : length - LINE + 1 + offset]
                found = found | jnp.any(run)
        return found

    def _step(self, state: BonesState, action: Array, key: Array) -> BonesState:
        first, second = self.first[action], self.second[action]
        number = state._placed.astype(self.piece)
        top = state._top_piece.at[first].set(number).at[second].set(number)
        heights = state._heights.at[first].add(1).at[second].add(1)
        colour = state._player
        won = self._has_line((top >= 0) & (top % 2 == colour))
        placed = number + 1
        terminated = won | (placed >= 2 * self.pieces)
        winner = jnp.where(won, colour, -1)
        sign = jnp.where(colour == 0, 1.0, -1.0)
        rewards = jnp.where(won, jnp.stack([sign, -sign]), 0.0)
        player = jnp.where(terminated, colour, 1 - colour)
        return state.replace(
            current_player=player,
            rewards=rewards,
            terminated=terminated,
            legal_action_mask=self._mask(top, placed) & ~terminated,
            _top_piece=top,
            _heights=heights,
            _placed=placed,
            _player=player,
            _winner=winner,
        )

    def _observe(self, state: BonesState, seat: Array) -> Array:
        top, heights = state._top_piece, state._heights
        width = self.width
        colour = jnp.where(top >= 0, top % 2, -1)
        files = jnp.arange(self.squares) % width
        right = jnp.concatenate([top[1:], jnp.full(1, -1, self.piece)])
        up = jnp.concatenate([top[width:], jnp.full(width, -1, self.piece)])
        joined_right = (top >= 0) & (top == right) & (files < width - 1)
        joined_up = (top >= 0) & (top == up)
        supply = self.pieces - (state._placed + 1 - jnp.arange(2)) // 2
        own_supply = self.fractions[supply[seat]]
        other_supply = self.fractions[supply[1 - seat]]
        own_turn = (state._player == seat) & ~state.terminated
        ones = jnp.ones(self.squares, jnp.float32)
        planes = jnp.stack(
            [
                (colour == seat).astype(jnp.float32),
                (colour == 1 - seat).astype(jnp.float32),
                (heights == 1).astype(jnp.float32),
                (heights == 2).astype(jnp.float32),
                (heights >= 3).astype(jnp.float32),
                joined_right.astype(jnp.float32),
                joined_up.astype(jnp.float32),
                (self.start_plane & (state._placed == 0)).astype(jnp.float32),
                ones * own_supply,
                ones * other_supply,
                ones * own_turn,
            ]
        )
        return planes.reshape(11, self.height, self.width)
