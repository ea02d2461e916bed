"""Obonto as a batch engine: a match of one or more games, solo phases and scores included.

The rules engine (``boneyard.games.obonto.rules``) validates the parameters and gives the paths:
every way an animal of each kind can walk from each square, as the squares it enters. Here those
paths are one table, ``[kind, square, path, step]``, padded to the camel's 36 paths of 3 steps
(a lion's or zebra's path repeats its last square; missing paths are marked invalid). A move is
open when none of its path's squares is dark and its last square has no animal.

Action ids are the rules engine's: ``from * 81 + to``. No chance. Rewards: the match returns
(the difference of the totals) on the step that ends the match. ``current_player`` is the seat
to move (in the solo phase the winner, who moves alone).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import jax
import jax.numpy as jnp
import numpy as np

from boneyard.games.obonto.notation import NUM_ACTIONS, SQUARES, STEPS
from boneyard.games.obonto.rules import PATHS, START_DARK_MASK, ObontoGame
from boneyard.jax.core import Array, Env, State
from boneyard.jax.heads import ActionSegment

MOST_PATHS = 36
"""Paths of a camel in the middle of the board (4 * 3 * 3); the table's width."""


def _path_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    entered = np.zeros((3, SQUARES, MOST_PATHS, 3), dtype=np.int32)
    target = np.zeros((3, SQUARES, MOST_PATHS), dtype=np.int32)
    valid = np.zeros((3, SQUARES, MOST_PATHS), dtype=bool)
    for kind, steps in enumerate(STEPS):
        for square in range(SQUARES):
            row = 0
            for end, masks in PATHS[kind][square]:
                for mask in masks:
                    cells = [c for c in range(SQUARES) if mask >> c & 1]
                    assert len(cells) == steps and end in cells
                    entered[kind, square, row] = (cells + [end] * 3)[:3]
                    target[kind, square, row] = end
                    valid[kind, square, row] = True
                    row += 1
    return entered, target, valid


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class ObontoState(State):
    game_id: ClassVar[str] = "obonto"
    _dark: Array
    """bool[81]"""
    _animals: Array
    """int32[6]: the squares of seat 0's lion, zebra, camel, then seat 1's."""
    _to_move: Array
    _loser: Array
    """The seat stuck in this game (the other moves alone), or -1."""
    _solo_moves: Array
    _game_index: Array
    _games_played: Array
    _totals: Array
    _over: Array


GAME_FIELDS = (
    "_dark",
    "_animals",
    "_to_move",
    "_loser",
    "_solo_moves",
    "_game_index",
    "_games_played",
    "_totals",
    "_over",
)
"""The fields of ``ObontoState`` that are the game itself (the rest is the protocol's)."""


class ObontoEnv(Env):
    """An Obonto match with the rules engine's parameters (games, target, start, first)."""

    id = "obonto"

    def __init__(self, **params: Any) -> None:
        game = ObontoGame(**params)
        self.game = game
        super().__init__(num_players=2, num_actions=NUM_ACTIONS)
        self.games = game.games
        self.target = game.target
        entered, target, valid = _path_table()
        self.entered = jnp.asarray(entered)
        self.targets = jnp.asarray(target)
        self.valid = jnp.asarray(valid)
        self.start_dark = jnp.asarray([bool(START_DARK_MASK >> c & 1) for c in range(SQUARES)])
        self.start_animals = jnp.asarray(game.start_animals, dtype=jnp.int32)
        self.first = game.first
        self._start = jax.tree_util.tree_map(np.asarray, jax.jit(self._first_state)())

    def _open(self, dark: Array, animals: Array, seat: Array) -> tuple[Array, Array]:
        """The seat's three animals' paths: (open: bool[3, 36], action id: int32[3, 36])."""
        occupied = jnp.zeros(SQUARES, bool).at[animals].set(True)
        origins = jax.lax.dynamic_slice(animals, (3 * seat,), (3,))
        kinds = jnp.arange(3)
        entered = self.entered[kinds, origins]
        targets = self.targets[kinds, origins]
        valid = self.valid[kinds, origins]
        open_ = valid & ~jnp.any(dark[entered], axis=-1) & ~occupied[targets]
        return open_, origins[:, None] * SQUARES + targets

    def _mask(
        self, state: ObontoState, open_: Array, ids: Array, last: tuple[Array, Array]
    ) -> Array:
        """The mask of ``state``: the ``last`` mask (with ``last``'s rows to wipe: the origins of
        the animals of the seat that was to move) with those rows wiped and the rows of the seat
        to move's animals written. Only these rows change, so XLA updates the mask in place: a
        fresh mask would write all 6,561 ids of every game on each step."""
        kinds = jnp.broadcast_to(jnp.arange(3)[:, None], open_.shape)
        spot = jnp.where(open_, ids % SQUARES, SQUARES)
        reach = jnp.zeros((3, SQUARES + 1), bool).at[kinds, spot].set(True)[:, :SQUARES]
        origins = jax.lax.dynamic_slice(state._animals, (3 * state._to_move,), (3,))
        last_mask, wipe = last
        # In place only if every read of the old mask (the caller's sampler and the legality
        # check, which XLA recomputes inside the fusions that use the action) comes before the
        # write; they all feed the settled game, so rows that depend on it (the condition is
        # always true) are written last. Otherwise XLA copies the whole mask twice a step.
        wipe = jnp.where(state._games_played >= 0, wipe, SQUARES)
        rows = last_mask.reshape(SQUARES, SQUARES).at[wipe].set(False, mode="drop")
        rows = rows.at[origins].set(reach & ~state._over)
        return rows.reshape(NUM_ACTIONS)

    def _settle(self, state: ObontoState, last: tuple[Array, Array]) -> ObontoState:
        """The seat to move has a move: a stuck player loses, a stuck winner ends the game, and an
        ended game starts the next one or ends the match (the rules engine's ``_settle``);
        ``last``: the mask before the step and its rows to wipe (``_mask``).

        The loop carries only the game's own small fields and the open paths of the seat to
        move (made once a round): carrying the whole state would select the 6,561-id mask and
        the observation of every game in the batch on each round."""

        def stuck(carry: tuple[dict[str, Array], Array, Array]) -> Array:
            game, open_, _ = carry
            return ~game["_over"] & ~jnp.any(open_)

        def resolve(
            carry: tuple[dict[str, Array], Array, Array],
        ) -> tuple[dict[str, Array], Array, Array]:
            s = carry[0]
            in_play = s["_loser"] < 0
            # in play: the stuck seat loses and the other moves on alone
            lost = {**s, "_loser": s["_to_move"], "_to_move": 1 - s["_to_move"]}
            # in the solo phase: the winner is stuck too, the game is scored
            winner = 1 - s["_loser"]
            totals = s["_totals"].at[winner].add(1 + s["_solo_moves"])
            played = s["_games_played"] + 1
            over = played >= self.games
            if self.target:
                over = over | (jnp.max(totals) >= self.target)
            scored = {
                **s,
                "_totals": totals,
                "_games_played": played,
                "_over": over,
                "_dark": jnp.where(over, s["_dark"], self.start_dark),
                "_to_move": jnp.where(over, s["_to_move"], s["_loser"]),
                "_loser": jnp.where(over, s["_loser"], -1),
                "_solo_moves": jnp.where(over, s["_solo_moves"], 0),
                "_game_index": jnp.where(over, s["_game_index"], s["_game_index"] + 1),
            }
            game = jax.tree_util.tree_map(lambda a, b: jnp.where(in_play, a, b), lost, scored)
            open_, ids = self._open(game["_dark"], game["_animals"], game["_to_move"])
            return game, open_, ids

        game = {name: getattr(state, name) for name in GAME_FIELDS}
        open_, ids = self._open(state._dark, state._animals, state._to_move)
        game, open_, ids = jax.lax.while_loop(stuck, resolve, (game, open_, ids))
        state = state.replace(**game)
        difference = (state._totals[0] - state._totals[1]).astype(jnp.float32)
        rewards = jnp.where(state._over, jnp.stack([difference, -difference]), 0.0)
        return state.replace(
            current_player=state._to_move,
            terminated=state._over,
            rewards=rewards,
            legal_action_mask=self._mask(state, open_, ids, last),
        )

    def _first_state(self) -> ObontoState:
        fields = self.base_fields(
            jnp.int32(self.first), jnp.bool_(False), jnp.zeros(2), jnp.zeros(NUM_ACTIONS, bool)
        )
        state = ObontoState(
            **fields,
            _dark=self.start_dark,
            _animals=self.start_animals,
            _to_move=jnp.int32(self.first),
            _loser=jnp.int32(-1),
            _solo_moves=jnp.int32(0),
            _game_index=jnp.int32(0),
            _games_played=jnp.int32(0),
            _totals=jnp.zeros(2, jnp.int32),
            _over=jnp.bool_(False),
        )
        nothing = jnp.full(3, SQUARES, jnp.int32)  # no rows to wipe (a row past the board)
        return self._settle(state, (jnp.zeros(NUM_ACTIONS, bool), nothing))

    def action_segments(self) -> list[ActionSegment]:
        """One kind: ``from * 81 + to``, the square of the animal that moves, then where to."""
        return [ActionSegment("move", 0, SQUARES, SQUARES)]

    def _init(self, key: Array) -> ObontoState:
        # no chance: every match starts alike, made once (a constant XLA need not compute)
        return jax.tree_util.tree_map(jnp.asarray, self._start)

    def _step(self, state: ObontoState, action: Array, key: Array) -> ObontoState:
        origin, target = action // SQUARES, action % SQUARES
        animals = jnp.where(state._animals == origin, target, state._animals)
        solo = state._loser >= 0
        moved = state.replace(
            _animals=animals,
            _dark=state._dark.at[origin].set(True),
            _to_move=jnp.where(solo, state._to_move, 1 - state._to_move),
            _solo_moves=state._solo_moves + solo,
        )
        # the rows of the mover's animals are wiped from the mask; after an illegal action (the
        # game ends, its mask is all true) none: reading the mask at the action here orders the
        # legality check of ``Env.step`` before the write too
        origins = jax.lax.dynamic_slice(state._animals, (3 * state._to_move,), (3,))
        wipe = jnp.where(state.legal_action_mask[action], origins, SQUARES)
        return self._settle(moved, (state.legal_action_mask, wipe))

    def _observe(self, state: ObontoState, seat: Array) -> Array:
        squares = jnp.arange(SQUARES)
        own = jax.lax.dynamic_slice(state._animals, (3 * seat,), (3,))
        other = jax.lax.dynamic_slice(state._animals, (3 * (1 - seat),), (3,))
        animals = jnp.concatenate([own, other])
        planes = jnp.concatenate(
            [
                (~state._dark)[None],
                animals[:, None] == squares[None, :],
                jnp.broadcast_to((state._to_move == seat) & ~state._over, (1, SQUARES)),
                jnp.broadcast_to((state._loser >= 0) & ~state._over, (1, SQUARES)),
            ]
        )
        return planes.astype(jnp.float32).reshape(9, 9, 9)
