"""The batch-engine protocol: ``State`` and ``Env``, shaped after pgx's ``Env`` and ``State``.

A state is a frozen dataclass of fixed-shape JAX arrays (a pytree), so every function below can
be ``jax.jit``-ed and ``jax.vmap``-ed over a batch of states. The common fields and the meaning
of ``Env.init`` / ``Env.step`` / ``Env.observe`` are pgx's, so code written for pgx runs on
boneyard games:

- ``current_player``: the seat to act (at a terminal state, the seat that acted last; read
  ``terminated`` first);
- ``observation``: ``observe(state, current_player)``;
- ``rewards``: float32, one per seat, what this step gave each seat: the game's return on the
  step that ends the game, zero before (and zero again for a step on a finished state);
- ``terminated`` / ``truncated``: the game is over by its rules / by a cap outside them (every
  boneyard game ends by its own rules, so ``truncated`` stays false);
- ``legal_action_mask``: bool, one per action id of the rules engine; all true once terminated
  (as in pgx, so sampling from a finished state never divides by zero);
- ``_step_count``: steps taken.

Chance (a deal, a die, a wild roll) is drawn inside ``init`` / ``step`` from the key, with the
rules engine's probabilities; the outcomes drawn are kept in the state's ``chance`` field (the
rules engine's chance ids, ``-1`` for none), so a test can force the same outcomes on the rules
engine. An illegal action ends the game at once, as in pgx: the seat that chose it gets ``-1``
and the others share ``+1`` (each ``1 / (players - 1)``, so the rewards sum to zero).
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

import jax
import jax.numpy as jnp
import numpy as np

from boneyard.jax.heads import ActionHeads, ActionSegment

Array = jax.Array

FALSE = jnp.bool_(False)

# Where pgx is installed the engines are pgx.Env and their states pgx.State, so pgx's own tools
# (api_test, a notebook's display, isinstance checks) take them; JAX alone suffices. A state
# draws itself (State.save_svg); pgx's module function pgx.save_svg knows only pgx's games, and
# nothing here patches pgx's private modules to change that.
if TYPE_CHECKING:
    _PgxState = object
    _PgxEnv = object
else:
    try:
        from pgx.core import Env as _PgxEnv
        from pgx.core import State as _PgxState
    except ImportError:  # pragma: no cover - depends on the installation
        _PgxState = object
        _PgxEnv = object

PUBLIC_FIELDS = (
    "current_player",
    "observation",
    "rewards",
    "terminated",
    "truncated",
    "legal_action_mask",
)
"""pgx's public state fields: its ``api_test`` allows no other public attribute on a state."""


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State(_PgxState):
    """The fields every boneyard batch state has (pgx's names); games add their own.

    A game's state is a subclass written as an ordinary frozen dataclass and registered as a
    pytree by JAX's ``register_dataclass``. pgx counts every field but its six public ones as
    internal by a leading underscore (its ``api_test`` fails on any other public attribute), so
    a game's own fields are declared underscored, as pgx's own games declare theirs
    (``_board``), and read and replaced by those names: ``state._board``,
    ``state.replace(_board=...)``.

    ``game_id``: the batch engine's id (``env_id``, as pgx's states have), set by each game's
    state class. A state draws itself (``to_svg``, ``save_svg``, ``_repr_html_`` for a notebook)
    as a card per game: its id, step, seat to act, rewards and whether it is over.
    """

    game_id: ClassVar[str] = ""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (states are immutable), as flax's ``struct`` gives pgx's."""
        return dataclasses.replace(self, **changes)

    @property
    def env_id(self) -> str:
        """The batch engine's id (pgx's ``State.env_id``)."""
        return type(self).game_id

    def to_svg(self, *, color_theme: str | None = None, scale: float | None = None) -> str:
        """An SVG card per game of this state (one, or each of a batch), as pgx's ``to_svg``."""
        return _state_cards_svg(self, 1.0 if scale is None else float(scale))

    def save_svg(
        self, filename: str | Path, *, color_theme: str | None = None, scale: float | None = None
    ) -> None:
        """Write ``to_svg`` to ``filename`` (which must end with ``.svg``, as in pgx)."""
        if not str(filename).endswith(".svg"):
            raise ValueError(f"save_svg writes SVG: the filename must end with .svg: {filename}")
        Path(filename).write_text(self.to_svg(color_theme=color_theme, scale=scale))

    def _repr_html_(self) -> str:
        return self.to_svg()


S = TypeVar("S", bound=State)


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Afterstate:
    """A decision made, its chance not yet drawn (pgx's stochastic state between
    ``step_deterministic`` and ``stochastic_step``): the state the seat acted on and its action.
    The rules' deterministic part is played with the chance outcome in ``chance_step``, so the
    afterstate holds exactly what decides the chance distribution and nothing guessed."""

    state: Any
    action: Array

    @property
    def is_stochastic(self) -> bool:
        """Always true: chance (maybe a single sure outcome) is to be played next."""
        return True

    @property
    def current_player(self) -> Array:
        """The seat that made the decision; the seat to act next is the chance step's state's
        ``current_player``."""
        return self.state.current_player

    @property
    def terminated(self) -> Array:
        """Whether the state decided on had ended (a search never decides there): a reward is
        the mover's where the chance step ends the game, not where it had ended before."""
        return self.state.terminated


def _state_cards_svg(state: State, scale: float) -> str:
    """One card per game of ``state`` (a batch is drawn as a grid of cards)."""
    terminated = np.asarray(state.terminated)
    batch = terminated.shape
    games = int(np.prod(batch)) if batch else 1
    players = np.asarray(state.current_player).reshape(games)
    over = terminated.reshape(games)
    steps = np.asarray(state._step_count).reshape(games)
    rewards = np.asarray(state.rewards).reshape(games, -1)
    width, height, columns = 220, 70, min(games, 4)
    rows = -(-games // columns)
    cards = []
    for game in range(games):
        x, y = (game % columns) * width, (game // columns) * height
        status = "over" if over[game] else f"seat {int(players[game])} to act"
        lines = [
            f"{state.env_id} game {game}" if batch else state.env_id,
            f"step {int(steps[game])}: {status}",
            "rewards " + " ".join(f"{value:g}" for value in rewards[game]),
        ]
        text = "".join(
            f'<text x="{x + 8}" y="{y + 18 + 18 * i}" font-family="sans-serif" '
            f'font-size="13">{html.escape(line)}</text>'
            for i, line in enumerate(lines)
        )
        cards.append(
            f'<rect x="{x + 2}" y="{y + 2}" width="{width - 4}" height="{height - 4}" '
            f'fill="white" stroke="black"/>{text}'
        )
    total_width, total_height = columns * width, rows * height
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_width * scale:g}" '
        f'height="{total_height * scale:g}" viewBox="0 0 {total_width} {total_height}">'
        + "".join(cards)
        + "</svg>"
    )


class Env(_PgxEnv):
    """A game as pure functions over ``State``: ``init``, ``step``, ``observe`` (pgx's ``Env``).

    A game module subclasses it and fills in ``_init``, ``_step`` and ``_observe``; this class
    does the shared work of pgx's ``Env``: a step on a finished state changes nothing but zeroes
    the rewards, an illegal action ends the game with a penalty for its chooser, a finished
    state's mask is all true, and the observation of the seat to act is kept in the state.
    """

    id: str = ""
    version: str = "v0"
    illegal_action_penalty: float = -1.0
    kept_by_game: tuple[str, ...] = ()
    """Fields a game's ``_step`` itself leaves unchanged on a finished game (a large array it
    updates in place: the select that keeps a finished game's fields would copy it whole)."""
    fills_finished_mask: bool = False
    """The game's ``_step`` makes the mask all true itself where the game is finished after the
    step (over before it, ended by it, or by an illegal action): see ``finished``."""
    chance_node_sizes: tuple[int, ...] = ()
    """The chance nodes a step can meet, in the order it meets them, each by its number of
    outcomes, all equally likely (Bond O Cones: a battle or who starts, 2; the die, 6) unless
    the game gives its own ``chance_outcome_probs`` (Bon-Bon: a card by the deck's counts): the
    layout of the split step's joint outcomes. Empty where a step draws nothing, or where the
    split is not built (a Bon-Bon deck that chains too many draws in one step)."""
    step_draws_chance: bool = False
    """A step can draw chance (a die, a card, a wild roll) from its key, so ``step`` refuses to
    run without one, as pgx's stochastic games do: a fixed key would draw the same outcomes at
    every step of every game. A game whose chance is all in ``init`` (a deal) leaves it false."""

    def __init__(self, num_players: int, num_actions: int) -> None:
        self._num_players = num_players
        self._num_actions = num_actions

    @property
    def num_players(self) -> int:
        return self._num_players

    @property
    def num_actions(self) -> int:
        """The size of ``legal_action_mask``: the rules engine's ``num_distinct_actions``."""
        return self._num_actions

    @property
    def action_heads(self) -> ActionHeads:
        """The action ids as three small heads (kind, row, column): ``boneyard.jax.heads``."""
        heads: ActionHeads | None = self.__dict__.get("_action_heads")
        if heads is None:
            heads = self.__dict__["_action_heads"] = ActionHeads(
                self.action_segments(), self.num_actions
            )
        return heads

    def action_segments(self) -> list[ActionSegment]:
        """The kinds of action of the game's ids, in order (see ``boneyard.jax.heads``); a game
        with a small action space keeps one kind of one row."""
        return [ActionSegment("action", 0, 1, self.num_actions)]

    @property
    def observation_shape(self) -> tuple[int, ...]:
        state = self._init(jax.random.PRNGKey(0))
        return tuple(self._observe(state, jnp.int32(0)).shape)

    # ----- the protocol ----------------------------------------------------------------------

    def init(self, key: Array) -> Any:
        """The state at the start of a game, chance (a deal) drawn from ``key``.

        Its rewards are zero, as pgx's: a reward is what a step gave, and no step was taken,
        even where the deal ends the game (an OYNO puzzle dealt solved: ``terminated`` at once;
        its result is the rules engine's return of that deal)."""
        state = self._init(key)
        state = self._finished_mask(state).replace(rewards=jnp.zeros_like(state.rewards))
        return state.replace(observation=self._observe(state, state.current_player))

    def step(self, state: Any, action: Array, key: Array | None = None) -> Any:
        """The state after ``action`` by the seat to act; chance inside is drawn from ``key``."""
        if key is None:
            if self.step_draws_chance:
                raise ValueError(
                    f"{self.id}: step(state, action) needs a key: a step of this game draws "
                    "chance from it (pass a fresh jax.random key every step, as in pgx)"
                )
            # never read: no step of this game draws chance
            key = jax.random.PRNGKey(0)
        action = jnp.asarray(action, dtype=jnp.int32)
        drawn_key = key  # not None from here: the closure's name says so to the type checker
        return self._stepped(state, action, lambda ready: self._step(ready, action, drawn_key))

    def _stepped(self, state: Any, action: Array, play: Callable[[Any], Any]) -> Any:
        """``state`` after ``play`` (the game's step of ``action``) on it, with pgx's handling of
        a finished game and of an illegal action."""
        illegal = ~state.legal_action_mask[action]
        mover = state.current_player
        over = state.terminated | state.truncated
        stepped = play(state.replace(_step_count=state._step_count + 1))
        # a finished game keeps its state (rewards zeroed); the mask and the observation are
        # left out of this select, they are made again below (a per-byte cost on a batch)
        left_out = ("legal_action_mask", "observation", "rewards", *self.kept_by_game)
        kept = {
            field.name: jnp.where(over, getattr(state, field.name), getattr(stepped, field.name))
            for field in dataclasses.fields(state)
            if field.name not in left_out
        }
        penalised = illegal & ~over
        rewards = jnp.where(over, 0.0, stepped.rewards)
        rewards = jnp.where(penalised, self._penalty(mover), rewards)
        state = stepped.replace(**kept)
        state = state.replace(
            rewards=rewards.astype(jnp.float32), terminated=state.terminated | penalised
        )
        if not self.fills_finished_mask:
            state = self._finished_mask(state)
        return state.replace(observation=self._observe(state, state.current_player))

    # ----- the split step: the decision, then chance (pgx's stochastic games) ----------------

    @property
    def num_chance_outcomes(self) -> int:
        """The joint chance outcomes of one step: every combination of one outcome per chance
        node a step can meet (``chance_node_sizes``); 1 in a game whose steps draw nothing."""
        return math.prod(self.chance_node_sizes)

    def decision_step(self, state: Any, action: Array) -> Afterstate:
        """The decision half of ``step``: the afterstate of ``action`` by the seat to act, which
        waits for chance (``chance_outcome_probs``, then ``chance_step``)."""
        if self.step_draws_chance and not self.chance_node_sizes:
            raise NotImplementedError(
                f"{self.id}: the split step is not built for this game (its step draws chance "
                "that is not laid out as chance nodes); use step(state, action, key)"
            )
        return Afterstate(state=state, action=jnp.asarray(action, dtype=jnp.int32))

    def chance_outcome_probs(self, afterstate: Afterstate) -> Array:
        """float32[num_chance_outcomes]: the probability of each joint chance outcome after the
        decision, the rules engine's (a step that meets no chance node, an illegal action or a
        finished game: outcome 0, probability 1)."""
        outcomes = jnp.arange(self.num_chance_outcomes, dtype=jnp.int32)
        draws = jax.vmap(self._outcome_draws)(outcomes)
        if not self.chance_node_sizes:
            return jnp.ones(1, jnp.float32)
        state, action = afterstate.state, afterstate.action
        met = jax.vmap(lambda drawn: self._nodes_met(self._step_drawn(state, action, drawn)))(draws)
        sizes = jnp.asarray(self.chance_node_sizes, jnp.float32)
        # a node met: 1/size per outcome; a node not met: all its weight on outcome 0, so the
        # outcomes that differ only in a node the step never met are not counted twice
        factors = jnp.where(met >= 0, 1.0 / sizes, (draws == 0).astype(jnp.float32))
        probs = jnp.prod(factors, axis=1)
        plain = state.terminated | state.truncated | ~state.legal_action_mask[action]
        return jnp.where(plain, (outcomes == 0).astype(jnp.float32), probs).astype(jnp.float32)

    def chance_step(self, afterstate: Afterstate, outcome: Array) -> Any:
        """The chance half of ``step``: the state after the decision and the joint chance outcome
        ``outcome``. ``step(state, action, key)`` equals ``chance_step(decision_step(state,
        action), drawn_outcome(step(state, action, key)))``."""
        action = afterstate.action
        if not self.chance_node_sizes:
            return self.step(afterstate.state, action, jax.random.PRNGKey(0))
        draws = self._outcome_draws(jnp.asarray(outcome, jnp.int32))
        return self._stepped(
            afterstate.state, action, lambda ready: self._step_drawn(ready, action, draws)
        )

    def drawn_outcome(self, state: Any) -> Array:
        """The joint chance outcome the step that made ``state`` drew (its ``chance`` field read
        back; 0 where it met no chance node)."""
        if not self.chance_node_sizes:
            return jnp.int32(0)
        met = jnp.maximum(self._nodes_met(state), 0)
        outcome = jnp.int32(0)
        for node, size in enumerate(self.chance_node_sizes):
            outcome = outcome * size + met[node]
        return outcome

    def _outcome_draws(self, outcome: Array) -> Array:
        """int32[nodes]: the outcome of each chance node in joint outcome ``outcome`` (mixed
        radix, the first node most significant)."""
        draws = []
        for size in reversed(self.chance_node_sizes):
            draws.append(outcome % size)
            outcome = outcome // size
        return jnp.stack(draws[::-1]).astype(jnp.int32) if draws else jnp.zeros(0, jnp.int32)

    def _draw_nodes(self, key: Array) -> Array:
        """int32[nodes]: one uniform outcome per chance node, drawn from ``key``."""
        keys = jax.random.split(key, len(self.chance_node_sizes))
        return jnp.stack(
            [jax.random.randint(k, (), 0, size) for k, size in zip(keys, self.chance_node_sizes)]
        ).astype(jnp.int32)

    def observe(self, state: Any, player_id: Array | int | None = None) -> Array:
        """What seat ``player_id`` sees (the seat to act by default), as the rules engine's
        ``observation_tensor`` of ``observation(seat)``, shaped ``observation_tensor_shape``."""
        seat = state.current_player if player_id is None else jnp.asarray(player_id, jnp.int32)
        return jax.lax.stop_gradient(self._observe(state, seat))

    # ----- for the games ---------------------------------------------------------------------

    def _init(self, key: Array) -> Any:
        raise NotImplementedError

    def _step(self, state: Any, action: Array, key: Array) -> Any:
        raise NotImplementedError

    def _observe(self, state: Any, seat: Array) -> Array:
        raise NotImplementedError

    def _step_drawn(self, state: Any, action: Array, draws: Array) -> Any:
        """``_step`` with the outcome of each chance node given (``draws``, one per node of
        ``chance_node_sizes``): a game with chance nodes implements this and ``_nodes_met``."""
        raise NotImplementedError

    def _nodes_met(self, state: Any) -> Array:
        """int32[nodes]: the outcome each chance node took in the step that made ``state``,
        read from its ``chance`` field; -1 for a node the step did not meet."""
        raise NotImplementedError

    @staticmethod
    def finished(state: Any, action: Array, ended: Array) -> Array:
        """Whether a game is finished after ``action`` on ``state`` (the state ``_step`` was given)
        that ``ended`` by the rules: it was over before, or the action is illegal."""
        illegal = ~state.legal_action_mask[action]
        return state.terminated | state.truncated | illegal | ended

    def _penalty(self, mover: Array) -> Array:
        """The rewards of an illegal action by ``mover``."""
        penalty = self.illegal_action_penalty
        others = -penalty / max(self.num_players - 1, 1)
        return jnp.full(self.num_players, others, jnp.float32).at[mover].set(penalty)

    def _finished_mask(self, state: Any) -> Any:
        return state.replace(
            legal_action_mask=fill_where(state.legal_action_mask, state.terminated)
        )

    def base_fields(
        self, current_player: Array, terminated: Array, rewards: Array, mask: Array
    ) -> dict[str, Array]:
        """The common fields of a fresh state (the observation is filled in by ``init``)."""
        return {
            "current_player": jnp.asarray(current_player, jnp.int32),
            "observation": jnp.zeros(0, jnp.float32),
            "rewards": rewards.astype(jnp.float32),
            "terminated": jnp.asarray(terminated, jnp.bool_),
            "truncated": FALSE,
            "legal_action_mask": mask,
            "_step_count": jnp.int32(0),
        }


def once(value: Array) -> Array:
    """``value`` unchanged, but computed once a game.

    XLA's CPU fusion copies a chain of cheap operations into every element of each consumer, so
    a board computed by a step (or a deal) would be computed again for each of the N * N mask
    entries and each observation entry. Operations it counts as expensive are not copied into
    a consumer that reads their elements many times: a square root (exact on booleans as 0 and
    1), an integer division by a number it cannot see is 1."""
    if value.dtype == jnp.bool_:
        return jnp.sqrt(value.astype(jnp.float32)) > 0
    bits = value.astype(jnp.uint32)
    nonzero = jnp.maximum(bits, 1)
    return (bits // (nonzero // nonzero)).astype(value.dtype)


FILL_BLOCKS = 9
"""Blocks in which ``fill_where`` writes a large mask (a block's worth of ``True`` is made per
game)."""
SMALL_MASK = 1024
"""Up to this many ids ``fill_where`` selects: cheaper than block writes for a small mask."""


def fill_where(mask: Array, flag: Array) -> Array:
    """``mask`` with every entry true where ``flag`` is, else unchanged.

    Written as a few block writes that skip a game whose flag is false, so XLA updates the mask
    in place: a select (``jnp.where``) would read and write every id of every game of a batch on
    each step, which for a large mask (Obonto's 6,561 ids) costs more than the step itself.
    """
    n = mask.shape[0]
    if n <= SMALL_MASK:
        return jnp.where(flag, True, mask)
    block = -(-n // FILL_BLOCKS)
    numbers = jax.lax.ScatterDimensionNumbers(
        update_window_dims=(0,), inserted_window_dims=(), scatter_dims_to_operand_dims=(0,)
    )
    for start in range(0, n, block):
        size = min(block, n - start)
        # an index past the end drops the block (the game's flag is false)
        index = jnp.where(flag, start, n).reshape(1)
        mask = jax.lax.scatter(
            mask,
            index,
            jnp.ones(size, mask.dtype),
            numbers,
            indices_are_sorted=True,
            unique_indices=True,
            mode=jax.lax.GatherScatterMode.FILL_OR_DROP,
        )
    return mask


def reset_ended(state: Any, ended: Array, fresh: Callable[[Array], Any]) -> Any:
    """A batch of states, or of anything kept a game a row (leading axis: the game), with game
    ``i`` replaced by ``fresh(i)`` where ``ended[i]``, one ended game after another.

    Only the ended games are written (in place), so the cost follows the games that ended rather
    than the batch: a select of fresh states for every game reads and writes the whole batch of
    states (masks and observations included) on every step.
    """
    games = ended.shape[0]
    count = jnp.sum(ended, dtype=jnp.int32)
    (where,) = jnp.nonzero(ended, size=games, fill_value=0)

    def one(j: Array, batch: Any) -> Any:
        i = where[j]
        new = fresh(i)
        return jax.tree_util.tree_map(
            lambda leaf, value: jax.lax.dynamic_update_index_in_dim(leaf, value, i, 0), batch, new
        )

    return jax.lax.fori_loop(0, count, one, state)


WORD_BITS = 32
"""Bits of the words a bitboard engine (OYNO's) packs its cells into."""


def below(bits: Array, bound: Array | int) -> Array:
    """A number in ``[0, bound)`` from 32 random bits: the high word of ``bits * bound`` (16-bit
    halves, as JAX has no 64-bit product without x64); off uniform by under ``bound / 2**32``."""
    bound = jnp.asarray(bound).astype(jnp.uint32)
    x_hi, x_lo = bits >> 16, bits & 0xFFFF
    b_hi, b_lo = bound >> 16, bound & 0xFFFF
    middle = x_hi * b_lo + ((x_lo * b_lo) >> 16)
    carry = (middle & 0xFFFF) + x_lo * b_hi
    return (x_hi * b_hi + (middle >> 16) + (carry >> 16)).astype(jnp.int32)


def nth_set_bit(word: Array, rank: Array) -> Array:
    """The position (0-31) of the ``rank``-th set bit of a uint32 (from 0, low bits first): a
    binary search on the bit counts of the low halves."""
    position = jnp.int32(0)
    for width in (16, 8, 4, 2, 1):
        low = jax.lax.population_count(word & jnp.uint32((1 << width) - 1)).astype(jnp.int32)
        go = rank >= low
        rank = jnp.where(go, rank - low, rank)
        word = jnp.where(go, word >> width, word)
        position = position + jnp.where(go, width, 0)
    return position


def _nth(counts: Array, rank: Array) -> tuple[Array, Array]:
    """The group holding the ``rank``-th legal id (counting from 0) given each group's count of
    legal ids, and the rank within it. The running count is one small matrix product: XLA's
    CPU backend makes ``cumsum`` in several passes (counts stay exact in float32)."""
    n = counts.shape[0]
    lower = jnp.asarray(np.tril(np.ones((n, n), np.float32)))
    before = lower @ counts.astype(jnp.float32)
    group = jnp.sum(before <= rank.astype(jnp.float32), dtype=jnp.int32)
    inside = rank - (jnp.take(before, group, mode="clip").astype(jnp.int32) - counts[group])
    return group, inside


def _draw(key: Array, legal: Array) -> Array:
    """A uniform rank among ``legal`` ids, from one 32-bit random word (``jax.random.randint``
    draws two and splits the key)."""
    return below(jax.random.bits(key, (), jnp.uint32), jnp.maximum(legal, 1))


def random_legal_action(key: Array, mask: Array) -> Array:
    """A uniformly random legal action of one state's ``legal_action_mask``, drawn with one random
    number (a categorical over every action id would draw one per id: 43,923 for Bond O Cones).

    The r-th legal id is found in three levels: the group of ids holding it (from each group's
    count of legal ids), then the word of four ids within the group, then the id. The one pass
    over the whole mask, the groups' counts, reads the mask four ids at a time, as 32-bit words
    whose bytes are the ids (XLA's CPU backend reduces one element at a time, and is bound by
    memory here): a group is a column of a rows x columns grid of words, summed down the rows
    (each byte of a sum counts the legal ids of one byte lane, at most 63 rows so no byte
    overflows), then the bytes of a sum are added by one multiplication. Ids past the grid (a
    few) are one more group.
    """
    n = mask.shape[0]
    words = n // 4
    rows = min(math.isqrt(words), 63)
    columns = words // rows if rows else 0
    if rows < 2:  # a handful of ids: one group
        legal = mask.astype(jnp.int32)
        return _nth(legal, _draw(key, jnp.sum(legal)))[0]
    grid = 4 * rows * columns
    cells = mask[:grid].astype(jnp.uint8).reshape(rows, columns, 4)
    sums = jnp.sum(jax.lax.bitcast_convert_type(cells, jnp.uint32), axis=0, dtype=jnp.uint32)
    tail = mask[grid:].astype(jnp.int32)
    counts = jnp.concatenate(
        [((sums * jnp.uint32(0x01010101)) >> 24).astype(jnp.int32), jnp.sum(tail)[None]]
    )
    pick = _draw(key, jnp.sum(counts))
    column, rank = _nth(counts, pick)
    # column c of the grid holds the ids 4 * (row * columns + c) + lane, row by row: the row
    # from the rows' counts, then the lane among the row's four (a running count of all the
    # column's ids would be a product of rows * 4 squared)
    column_cells = jnp.take(cells, jnp.minimum(column, columns - 1), axis=1)
    row, rank = _nth(jnp.sum(column_cells, axis=1, dtype=jnp.int32), rank)
    lanes = jnp.take(column_cells, jnp.minimum(row, rows - 1), axis=0).astype(jnp.int32)
    lane, before = jnp.int32(0), jnp.int32(0)
    for k in range(3):
        before = before + lanes[k]
        lane = lane + (before <= rank).astype(jnp.int32)
    in_grid = 4 * (row * columns + column) + lane
    in_tail = grid + _nth(tail, rank)[0]
    return jnp.where(column < columns, in_grid, in_tail).astype(jnp.int32)
