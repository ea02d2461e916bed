"""Factored actions: a game's flat action ids as three small heads, with exact maps both ways.

A batch engine's ``legal_action_mask`` has one entry per rules-engine id (Obonto 6,561, Bond O
Cones 43,923), so a policy head over it, or a categorical sample of it (pgx's ``act_randomly``),
pays for every id. Each engine declares its ids as a few kinds of action, each a block of ids
laid out as ``rows x columns`` (``ActionSegment``): Obonto's one kind, ``from x to`` (81 x 81);
Bond O Cones' three ``from x to`` kinds (120 x 120), six kinds of one square (1 x 120) and three
single actions (1 x 1). An action is then three choices:

- ``kind``: which segment (``len(segments)`` choices);
- ``row``: the row within it (``max rows`` choices; the ``from`` square of a move);
- ``column``: the column within the row (``max columns`` choices; the ``to`` square).

``to_flat`` and ``to_heads`` are exact inverses on every id. ``head_masks`` gives the mask of each
head given the choices before it, read from the flat mask, so that sampling the heads one after
another (``sample``: a categorical per head over its masked logits) only ever picks a legal id,
and every legal id can be picked. A policy network outputs ``sum(head_sizes)`` logits (Bond O
Cones: 12 + 120 + 120) instead of one per id.

>>> import jax, boneyard.jax                                         # doctest: +SKIP
>>> env = boneyard.jax.make("bondo_cones")                          # doctest: +SKIP
>>> heads = env.action_heads                                        # doctest: +SKIP
>>> heads.head_sizes                                                # doctest: +SKIP
(12, 120, 120)
>>> action = heads.sample(key, state.legal_action_mask)             # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

Array = jax.Array


@dataclasses.dataclass(frozen=True)
class ActionSegment:
    """One kind of action: the ids ``offset + row * columns + column``."""

    name: str
    offset: int
    rows: int
    columns: int

    @property
    def size(self) -> int:
        return self.rows * self.columns


class ActionHeads:
    """The three heads (kind, row, column) of a game's flat action ids (see module doc)."""

    def __init__(self, segments: Sequence[ActionSegment], num_actions: int) -> None:
        segments = tuple(segments)
        covered = sorted((s.offset, s.offset + s.size, s.name) for s in segments)
        position = 0
        for start, end, name in covered:
            if start != position:
                raise ValueError(
                    f"action segments must tile the ids 0..{num_actions - 1} in order: "
                    f"segment {name!r} starts at {start}, expected {position}"
                )
            position = end
        if position != num_actions:
            raise ValueError(
                f"action segments cover ids 0..{position - 1}; the game has {num_actions} ids"
            )
        self.segments = segments
        self.num_actions = num_actions
        self.rows = max(s.rows for s in segments)
        self.columns = max(s.columns for s in segments)
        offsets = np.array([s.offset for s in segments], np.int32)
        widths = np.array([s.columns for s in segments], np.int32)
        self._offsets = jnp.asarray(offsets)
        self._widths = jnp.asarray(widths)
        self._row_counts = jnp.asarray(np.array([s.rows for s in segments], np.int32))
        # per kind, the flat id of every (row, column), num_actions (a False pad) outside it
        table = np.full((len(segments), self.rows, self.columns), num_actions, np.int32)
        kind_of = np.zeros(num_actions, np.int32)
        for k, s in enumerate(segments):
            ids = s.offset + np.arange(s.size, dtype=np.int32).reshape(s.rows, s.columns)
            table[k, : s.rows, : s.columns] = ids
            kind_of[s.offset : s.offset + s.size] = k
        self._table = jnp.asarray(table)
        self._kind_of = jnp.asarray(kind_of)
        starts = np.array([s.offset for s in segments] + [num_actions], np.int32)
        self._segment_starts = starts
        # Where every segment's rows are runs of ``columns`` ids (or it has one row), a kind's
        # grid is one slice of the mask, reshaped: no gather of rows x columns ids a game.
        self._sliced = all(s.columns == self.columns or s.rows == 1 for s in segments)
        self._padding = max(0, max(s.offset for s in segments) + self.rows * self.columns)
        self._padding -= num_actions
        # every segment fills the whole grid: a grid needs no masking of rows or columns
        self._full = all(s.rows == self.rows and s.columns == self.columns for s in segments)

    @property
    def head_sizes(self) -> tuple[int, int, int]:
        """The number of choices of each head: kinds, rows, columns."""
        return len(self.segments), self.rows, self.columns

    # ----- the exact maps ---------------------------------------------------------------------

    def to_flat(self, kind: Array, row: Array, column: Array) -> Array:
        """The flat id of a choice of the three heads (a legal choice of ``head_masks``)."""
        kind = jnp.asarray(kind, jnp.int32)
        return self._offsets[kind] + jnp.asarray(row, jnp.int32) * self._widths[kind] + column

    def to_heads(self, action: Array) -> tuple[Array, Array, Array]:
        """The three heads of a flat id: ``to_flat(*to_heads(a)) == a`` for every id."""
        action = jnp.asarray(action, jnp.int32)
        kind = self._kind_of[action]
        row, column = jnp.divmod(action - self._offsets[kind], self._widths[kind])
        return kind, row, column

    # ----- masks ----------------------------------------------------------------------------

    def kind_mask(self, mask: Array) -> Array:
        """bool[kinds]: the kinds with a legal id, from one state's flat mask."""
        starts = self._segment_starts
        return jnp.stack(
            [jnp.any(mask[starts[k] : starts[k + 1]]) for k in range(len(self.segments))]
        )

    def region(self, mask: Array, kind: Array) -> Array:
        """bool[rows, columns]: kind ``kind``'s ids as its grid (False outside the segment)."""
        if not self._sliced:
            padded = jnp.concatenate([mask, jnp.zeros(1, bool)])
            return padded[self._table[kind]]
        if self._padding:
            mask = jnp.concatenate([mask, jnp.zeros(self._padding, bool)])
        size = self.rows * self.columns
        grid = jax.lax.dynamic_slice(mask, (self._offsets[kind],), (size,))
        grid = grid.reshape(self.rows, self.columns)
        if self._full:
            return grid
        rows = jnp.arange(self.rows)[:, None] < self._row_counts[kind]
        columns = jnp.arange(self.columns)[None, :] < self._widths[kind]
        return grid & rows & columns

    def head_masks(self, mask: Array, kind: Array, row: Array) -> tuple[Array, Array, Array]:
        """The masks of the three heads for one state's flat ``mask``: the kinds, the rows of
        ``kind``, the columns of ``row`` of ``kind``."""
        grid = self.region(mask, kind)
        return self.kind_mask(mask), jnp.any(grid, axis=1), grid[row]

    # ----- sampling ---------------------------------------------------------------------------

    def sample(self, key: Array, mask: Array, logits: Sequence[Array] | None = None) -> Array:
        """A legal flat id of one state, drawn head after head by a categorical over each head's
        masked ``logits`` (uniform where ``None``, drawn then with one random number a head):
        the kind, then its row, then the column.

        Under ``jax.vmap`` it draws for a batch; a finished state's mask is all true, so every
        head has a legal choice."""
        if logits is None:
            return self._sample_uniform(key, mask)
        # one draw of Gumbel noise for the three heads (a key split per head would run the
        # generator four times a game)
        sizes = self.head_sizes
        noise = jax.random.gumbel(key, (sum(sizes),))
        kind_noise, row_noise, column_noise = jnp.split(noise, [sizes[0], sizes[0] + sizes[1]])
        kinds, rows, columns = logits
        kind = _pick(kinds, self.kind_mask(mask), kind_noise)
        grid = self.region(mask, kind)
        row = _pick(rows, jnp.any(grid, axis=1), row_noise)
        column = _pick(columns, grid[row], column_noise)
        return self.to_flat(kind, row, column).astype(jnp.int32)

    def _sample_uniform(self, key: Array, mask: Array) -> Array:
        """``sample`` with uniform logits: the same categorical per head, drawn with one random
        number a head (the rank of the pick among the head's legal entries) instead of Gumbel
        noise for every entry, which costs more than a step of the smaller games."""
        from boneyard.jax.core import below  # core imports this module

        words = jax.random.bits(key, (3,), jnp.uint32)
        if len(self.segments) == 1:
            # one kind: a state always has a legal id (a finished one's mask is all true)
            kind = jnp.int32(0)
        else:
            kind = _uniform_pick(self.kind_mask(mask), words[0], below)
        grid = self.region(mask, kind)
        row = _uniform_pick(jnp.any(grid, axis=1), words[1], below)
        column = _uniform_pick(grid[row], words[2], below)
        return self.to_flat(kind, row, column).astype(jnp.int32)


def _uniform_pick(legal: Array, word: Array, below: Any) -> Array:
    """A uniformly drawn legal entry of ``legal``: the ``rank``-th, ``rank`` below the count."""
    running = jnp.cumsum(legal.astype(jnp.int32))
    rank = below(word, jnp.maximum(running[-1], 1))
    return jnp.argmax(running > rank).astype(jnp.int32)


def _pick(logits: Array | float, legal: Array, noise: Array) -> Array:
    """A categorical draw over the legal entries of ``logits`` by the Gumbel-max trick (what
    ``jax.random.categorical`` does), with ``noise`` drawn by the caller."""
    return jnp.argmax(jnp.where(legal, logits + noise, -jnp.inf)).astype(jnp.int32)
