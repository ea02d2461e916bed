"""Bon-Bon as a batch engine: rounds, limits, face-down runs, effects, bonus tiles, 2-6 players.

The rules are the rules engine's (``boneyard.games.bonbon.rules``, RULINGS.md "Bon-Bon"); it
validates the parameters (``players``, ``deck``, ``tiles``, ``max_rounds``) and gives the deck's
kinds of card, their values, flags, effects and chance ids. Action ids are the rules engine's 27
(``boneyard.games.bonbon.notation``: pass, draw, up, down, end, gift S, catch S, bonus V).

A run is not kept card by card but as what the rules and the observation read from it, per
seat: its length, face-down cards, trailing face-down cards (after the last face-up card: the
only ones a wrapper or caught! reveals and a broken collective limit discards), printed value,
the bonus of its closed face-down groups, and per kind of card how many it holds
(``own_kinds``), how many trail (``trail_kinds``), and, per observing seat, how many are face
down and unknown to that seat (``hidden[owner, seat, kind]``, ``trail_hidden`` for the trailing
ones): a face-down card is known to its owner and to the seat that peeked at it before it was
drawn, and to everyone once its effect showed it.

Chance is drawn in ``init`` and ``step``, with the rules engine's
probabilities: a card by how many of each kind the deck holds (or the card a peek showed), a
peek the same way, the round's three bonus tiles as three of the tiles uniformly. A step plays
the waiting card (or a gift, a catch), then draws a card (a draw, a second helping) and, where
that card is a second helping that must go face up (only in a deck that makes it so), the next,
then a peek or the next round's tiles, in that order: ``chance`` holds one slot per draw a step
can make and a last one for the peek or the tiles (the rules engine's chance ids, ``-1`` for
none). The random numbers are one hash of the key (``random_words``); a draw among ``m`` cards
is Lemire's multiply-shift of one 32-bit word, off the exact odds by less than ``m / 2**32``.
The split step (``decision_step``, ``chance_outcome_probs``, ``chance_step``) lays the same
draws out as chance nodes: one per card a step can draw (a kind), then the peek (a kind) or the
next round's tiles (a distinct triple), each outcome's probability from the deck the state holds.
Rewards: the rules engine's returns (1 to each winner of the game) on the step that ends it.

Observations are the rules engine's ``observation_tensor`` of ``observation(seat)``; its
fractions (``wins / 3``, ``marker / limit``, ...) come from one table of float32 numbers made
as the rules engine makes them (XLA's CPU division is not correctly rounded), read with one
gather per observation.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any, ClassVar

import jax
import jax.numpy as jnp
import numpy as np

from boneyard.games.bonbon import notation as nt
from boneyard.games.bonbon.rules import (
    CAUGHT,
    ELIMINATED,
    GIFT,
    IN_PLAY,
    NONE,
    PASSED,
    PEEK,
    PERSONAL_LIMIT,
    SECOND,
    WINS_TO_WIN,
    WRAPPER,
    BonBonGame,
    Phase,
)
from boneyard.jax.core import Afterstate, Array, Env, State, below

TURN, PLACE, GIFTING, CATCHING, WRAPPED, OVER = (
    Phase.TURN,
    Phase.PLACE,
    Phase.GIFTING,
    Phase.CATCHING,
    Phase.WRAPPED,
    Phase.OVER,
)
PHASES = len(Phase)
TILE_VALUES = nt.MAX_TILE_VALUE + 1

MAX_JOINT_OUTCOMES = 4096
"""The most joint chance outcomes the split step lays out (the default deck has 14 x 14 = 196;
a deck with face-up second helpings, which chain draws within one step, can have far more)."""

# Classes of observation numbers: a number of class c with numerator x is TABLE[c, x].
IDENTITY, THIRDS, TENTHS, TWENTIETHS, NINTHS, OF_LIMIT, OF_DECK, OF_ROUNDS, OF_36 = range(9)


def _mix(x: Array) -> Array:
    """MurmurHash3's 32-bit finaliser: every bit of ``x`` reaches every bit of the result."""
    x = x ^ (x >> 16)
    x = x * jnp.uint32(0x85EBCA6B)
    x = x ^ (x >> 13)
    x = x * jnp.uint32(0xC2B2AE35)
    return x ^ (x >> 16)


def random_words(key: Array, count: int) -> Array:
    """``count`` random 32-bit words from ``key`` (uint32[count]): the key's words hashed with a
    counter. ``jax.random.bits`` would give them too, but its threefry runs as a loop of five
    rounds on XLA's CPU, a pass over the batch per round; this is one fused pass."""
    data = jax.random.key_data(key).reshape(-1).astype(jnp.uint32)
    x = jnp.arange(count, dtype=jnp.uint32) * jnp.uint32(0x9E3779B9) + data[0]
    for word in data[1:]:
        x = _mix(x) ^ word
    return _mix(_mix(x))


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class BonBonState(State):
    game_id: ClassVar[str] = "bonbon"
    _chance: Array
    """int32[draws + 1]: the cards the step drew, then the peek or the next round's tiles, as
    the rules engine's chance ids (-1: none)."""
    _phase: Array
    """The rules engine's ``Phase`` (never a chance phase here)."""
    _turn: Array
    _round_starter: Array
    _last_drawer: Array
    _rounds: Array
    _wins: Array
    """int32[players], and likewise every per-seat field below."""
    _status: Array
    _tile_taken: Array
    _up_total: Array
    _run_length: Array
    _face_down: Array
    _trailing: Array
    """Face-down cards after the run's last face-up card."""
    _value_sum: Array
    _trail_value: Array
    _closed_bonus: Array
    """(size - 1) summed over the run's face-down groups that a face-up card closed."""
    _tile_counts: Array
    """int32[10]: the tiles on offer this round, a count per value."""
    _tiles_open: Array
    _marker: Array
    _counts: Array
    """int32[kinds]: the deck."""
    _deck_left: Array
    _drawn: Array
    """The kind of the card waiting to be played, or -1."""
    _drawn_knows: Array
    """bool[players]: the seats that know the waiting card."""
    _peek_kind: Array
    _peeker: Array
    _own_kinds: Array
    """int32[players, kinds]"""
    _trail_kinds: Array
    _hidden: Array
    """int32[owner, seat, kinds]: face-down cards of the owner's run that the seat does not know."""
    _trail_hidden: Array


@dataclasses.dataclass
class _Runs:
    """Every seat's run as one card event changes it, seat by seat (plain Python: it lives while
    the step is traced): its length, face-down cards, the trailing face-down cards (a count,
    their value and kinds), the value of the run, the bonus of closed groups, the kinds of its
    cards, and per seat and kind the cards each seat has not seen (all, and trailing)."""

    length: Array
    face_down: Array
    trailing: Array
    value_sum: Array
    trail_value: Array
    closed_bonus: Array
    own_kinds: Array
    trail_kinds: Array
    hidden: Array
    trail_hidden: Array

    @classmethod
    def of(cls, s: BonBonState) -> _Runs:
        return cls(
            s._run_length,
            s._face_down,
            s._trailing,
            s._value_sum,
            s._trail_value,
            s._closed_bonus,
            s._own_kinds,
            s._trail_kinds,
            s._hidden,
            s._trail_hidden,
        )

    def fields(self) -> dict[str, Array]:
        """The state's fields that hold the runs."""
        return {
            "_run_length": self.length,
            "_face_down": self.face_down,
            "_trailing": self.trailing,
            "_value_sum": self.value_sum,
            "_trail_value": self.trail_value,
            "_closed_bonus": self.closed_bonus,
            "_own_kinds": self.own_kinds,
            "_trail_kinds": self.trail_kinds,
            "_hidden": self.hidden,
            "_trail_hidden": self.trail_hidden,
        }

    def turn_up_trailing(self, revealing: Array) -> Array:
        """The trailing face-down cards of the ``revealing`` seats turn face up (seen by all);
        their value."""
        revealed = jnp.sum(jnp.where(revealing, self.trail_value, 0))
        self.hidden = self.hidden - jnp.where(revealing[:, None, None], self.trail_hidden, 0)
        self.face_down = self.face_down - jnp.where(revealing, self.trailing, 0)
        return revealed

    def close_trailing(self, closing: Array, bonus: Array) -> None:
        """The trailing cards of the ``closing`` seats end (a face-up card or a reveal); where
        ``bonus``, a face-up card closed a group of them: one point per card but the first."""
        self.closed_bonus = self.closed_bonus + jnp.where(
            bonus, jnp.maximum(self.trailing - 1, 0), 0
        )
        self.trailing = jnp.where(closing, 0, self.trailing)
        self.trail_value = jnp.where(closing, 0, self.trail_value)
        self.trail_kinds = jnp.where(closing[:, None], 0, self.trail_kinds)
        self.trail_hidden = jnp.where(closing[:, None, None], 0, self.trail_hidden)

    def add_card(
        self, landing: Array, going_down: Array, value: Array, kind_hot: Array, knows: Array
    ) -> None:
        """The card (``kind_hot``, worth ``value``) enters the ``landing`` seat's run, face down
        where ``going_down``: then it trails, unseen by the seats that do not ``know`` it."""
        into = (landing[:, None] & kind_hot[None, :]).astype(jnp.int32)
        self.length = self.length + landing
        self.value_sum = self.value_sum + jnp.where(landing, value, 0)
        self.own_kinds = self.own_kinds + into
        self.face_down = self.face_down + going_down
        self.trailing = self.trailing + going_down
        self.trail_value = self.trail_value + jnp.where(going_down, value, 0)
        self.trail_kinds = self.trail_kinds + (going_down[:, None] & kind_hot[None, :])
        unknown = going_down[:, None, None] & ~knows[None, :, None] & kind_hot[None, None, :]
        self.hidden = self.hidden + unknown
        self.trail_hidden = self.trail_hidden + unknown

    def discard_trailing(self, dropping: Array) -> None:
        """The ``dropping`` seats discard their trailing cards (a broken collective limit)."""
        trailing = self.trailing
        self.hidden = self.hidden - jnp.where(dropping[:, None, None], self.trail_hidden, 0)
        self.own_kinds = self.own_kinds - jnp.where(dropping[:, None], self.trail_kinds, 0)
        self.length = self.length - jnp.where(dropping, trailing, 0)
        self.face_down = self.face_down - jnp.where(dropping, trailing, 0)
        self.value_sum = self.value_sum - jnp.where(dropping, self.trail_value, 0)
        self.trail_hidden = jnp.where(dropping[:, None, None], 0, self.trail_hidden)
        self.trail_kinds = jnp.where(dropping[:, None], 0, self.trail_kinds)
        self.trail_value = jnp.where(dropping, 0, self.trail_value)
        self.trailing = jnp.where(dropping, 0, trailing)

    def show(self, shown: Array, knows: Array, kind_hot: Array) -> None:
        """The face-down card just placed by a ``shown`` seat is shown to every seat."""
        unshown = shown[:, None, None] & ~knows[None, :, None] & kind_hot[None, None, :]
        self.hidden = self.hidden - unshown
        self.trail_hidden = self.trail_hidden - unshown


class BonBonEnv(Env):
    """Bon-Bon with the rules engine's parameters (players, deck, tiles, max_rounds)."""

    id = "bonbon"
    step_draws_chance = True

    def __init__(self, **params: Any) -> None:
        game = BonBonGame(**params)
        self.game = game
        n = game.players
        super().__init__(num_players=n, num_actions=nt.NUM_ACTIONS)
        kinds = len(game.labels)
        self.players, self.kinds = n, kinds
        self.seats = jnp.arange(n, dtype=jnp.int32)
        self.kind_ids = jnp.arange(kinds, dtype=jnp.int32)
        self.values = jnp.asarray(game.values, dtype=jnp.int32)
        self.face_up_only = jnp.asarray(game.face_up_only, dtype=bool)
        self.effects = jnp.asarray(game.effects, dtype=jnp.int32)
        self.kind_outcome = jnp.asarray(game.kind_outcome, dtype=jnp.int32)
        self.full_counts = jnp.asarray(game.full_counts, dtype=jnp.int32)
        self.deck_size = game.deck.size
        self.limit = game.collective_limit
        self.max_rounds = game.max_rounds
        self.places = 2 if n >= 5 else 1
        # Card events a step can have: the waiting card, a draw, and one more draw for each
        # second helping the deck holds that must go face up (it draws again at once).
        chained = sum(
            count
            for count, effect, up_only in zip(game.full_counts, game.effects, game.face_up_only)
            if effect == SECOND and up_only
        )
        self.events = 2 + chained
        # Small integer types where the deck allows them: a step's passes over the batch cost
        # by the byte. Arithmetic inside a step is in int32; the state is stored in these.
        total_value = sum(v * c for v, c in zip(game.values, game.full_counts))
        count_type = jnp.int8 if self.deck_size <= 127 else jnp.int16
        value_type = jnp.int16 if total_value + 2 * self.deck_size + 10 <= 32767 else jnp.int32
        self.field_types: dict[str, Any] = {
            name: jnp.int8 for name in ("_wins", "_status", "_tile_taken", "_tile_counts")
        }
        for name in ("_up_total", "_value_sum", "_trail_value", "_marker"):
            self.field_types[name] = value_type
        for name in (
            "_run_length",
            "_face_down",
            "_trailing",
            "_closed_bonus",
            "_counts",
            "_deck_left",
            "_own_kinds",
            "_trail_kinds",
            "_hidden",
            "_trail_hidden",
        ):
            self.field_types[name] = count_type
        # The round's tiles: every three of the tiles, equally likely.
        tiles = game.tile_values
        rows = list(itertools.combinations(range(len(tiles)), 3))
        tile_counts = np.zeros((len(rows), TILE_VALUES), dtype=np.int32)
        tile_ids = np.zeros(len(rows), dtype=np.int32)
        for row, picked in enumerate(rows):
            low, middle, high = sorted(tiles[i] for i in picked)
            triple = (low, middle, high)
            for value in triple:
                tile_counts[row, value] += 1
            tile_ids[row] = game.triple_id[triple]
        self.tile_rows = jnp.asarray(tile_counts)
        self.tile_ids = jnp.asarray(tile_ids)
        self._make_split_tables()
        self._make_table()

    # ----- the split step's layout ------------------------------------------------------------

    def _make_split_tables(self) -> None:
        """The split step's chance nodes: one per card a step can draw (a kind of card), then
        one for the peek or the next round's tiles (a kind of card, or one of the distinct
        triples of tiles, ``tile_outcomes``' order); and the map from the rules engine's chance
        ids back to the node outcomes."""
        game = self.game
        triples = [outcome for outcome, _ in game.tile_outcomes]
        last = max(self.kinds, len(triples))
        sizes = (self.kinds,) * (self.events - 1) + (last,)
        if math.prod(sizes) <= MAX_JOINT_OUTCOMES:
            self.chance_node_sizes = sizes
        # else: a deck whose face-up second helpings chain many draws; the split is not built
        triple_counts = np.zeros((last, TILE_VALUES), dtype=np.int32)
        triple_probs = np.zeros(last, dtype=np.float32)
        for row, (outcome, probability) in enumerate(game.tile_outcomes):
            for value in game.triples[outcome - game.tile_base]:
                triple_counts[row, value] += 1
            triple_probs[row] = probability
        self.triple_counts = jnp.asarray(triple_counts)
        self.triple_ids = jnp.asarray(
            np.asarray(triples + [-1] * (last - len(triples)), dtype=np.int32)
        )
        self.triple_probs = jnp.asarray(triple_probs)
        ids = max([*game.kind_outcome, *triples]) + 1
        node_outcome = np.full(ids, -1, dtype=np.int32)
        for kind, outcome in enumerate(game.kind_outcome):
            node_outcome[outcome] = kind
        for row, outcome in enumerate(triples):
            node_outcome[outcome] = row
        self.node_outcome = jnp.asarray(node_outcome)

    # ----- the observation's numbers ----------------------------------------------------------

    def _make_table(self) -> None:
        """The fractions of the observation tensor, float32 as the rules engine rounds them."""
        total_value = sum(v * c for v, c in zip(self.game.values, self.game.full_counts))
        width = max(total_value, self.deck_size, self.max_rounds, self.limit, 10) + 2
        divisors = {
            THIRDS: WINS_TO_WIN,
            TENTHS: 10,
            TWENTIETHS: 20,
            NINTHS: 9,
            OF_LIMIT: self.limit,
            OF_DECK: max(self.deck_size, 1),
            OF_ROUNDS: self.max_rounds,
            OF_36: 36,
        }
        table = np.zeros((9, width), dtype=np.float32)
        table[IDENTITY] = np.arange(width, dtype=np.float32)
        for row, divisor in divisors.items():
            table[row] = np.asarray([x / divisor for x in range(width)], dtype=np.float32)
        self.table = jnp.asarray(table.reshape(-1))
        n, kinds = self.players, self.kinds
        per_seat = [IDENTITY] * 3 + [THIRDS, TENTHS, TENTHS] + [TWENTIETHS] * 3
        per_seat += [IDENTITY, NINTHS]
        classes = [IDENTITY] * (2 * n + 2 + PHASES) + per_seat * n
        classes += [OF_LIMIT, OF_36, OF_DECK, OF_ROUNDS] + [THIRDS] * TILE_VALUES + [IDENTITY]
        classes += [TENTHS] * kinds + [IDENTITY] * (2 * kinds + 2) + [TENTHS] * kinds
        self.table_base = jnp.asarray(np.asarray(classes, dtype=np.int32) * width)

    def _observe(self, state: BonBonState, seat: Array) -> Array:
        s = state
        n = self.players
        me = self.seats == seat
        over = s._phase == OVER
        phase_hot = jnp.arange(PHASES) == s._phase
        head = jnp.concatenate(
            [me, (self.seats == s._turn) & ~over, jnp.stack([jnp.bool_(False), over]), phase_hot]
        ).astype(jnp.int32)
        status_hot = (s._status[:, None] == jnp.arange(3)[None, :]).astype(jnp.int32)
        taken = s._tile_taken >= 0
        seats = jnp.concatenate(
            [
                status_hot,
                jnp.stack(
                    [
                        s._wins,
                        PERSONAL_LIMIT - s._wins,
                        s._up_total,
                        s._run_length,
                        s._face_down,
                        s._trailing,
                        taken.astype(jnp.int32),
                        jnp.maximum(s._tile_taken, 0),
                    ],
                    axis=1,
                ),
            ],
            axis=1,
        ).reshape(n * 11)
        board = jnp.concatenate(
            [
                jnp.stack([s._marker, jnp.int32(self.limit), s._deck_left, s._rounds + ~over]),
                s._tile_counts,
                s._tiles_open.astype(jnp.int32)[None],
            ]
        )
        kind_hot_drawn = self.kind_ids == s._drawn
        drawn_known = (s._drawn >= 0) & jnp.any(me & s._drawn_knows)
        drawn_hidden = (s._drawn >= 0) & ~drawn_known
        peek_hot = self.kind_ids == s._peek_kind
        peek_known = (s._peek_kind >= 0) & (s._peeker == seat)
        peek_hidden = (s._peek_kind >= 0) & ~peek_known
        hidden = jnp.sum(jnp.where(me[None, :, None], s._hidden, 0), axis=(0, 1))
        unseen = s._counts + hidden + (kind_hot_drawn & drawn_hidden) - (peek_hot & peek_known)
        own = jnp.sum(jnp.where(me[:, None], s._own_kinds, 0), axis=0)
        cards = jnp.concatenate(
            [
                unseen,
                (kind_hot_drawn & drawn_known).astype(jnp.int32),
                drawn_hidden.astype(jnp.int32)[None],
                (peek_hot & peek_known).astype(jnp.int32),
                peek_hidden.astype(jnp.int32)[None],
                own,
            ]
        )
        numerators = jnp.concatenate([head, seats, board, cards])
        return self.table[self.table_base + numerators]

    # ----- legal actions ----------------------------------------------------------------------

    def _mask(self, s: BonBonState) -> Array:
        phase = s._phase
        turn_phase = phase == TURN
        wrapped = phase == WRAPPED
        placing = phase == PLACE
        others = (s._status == IN_PLAY) & (self.seats != s._turn)
        pad = jnp.zeros(nt.MAX_SEATS - self.players, bool)
        return jnp.concatenate(
            [
                jnp.stack(
                    [
                        turn_phase & ~s._tiles_open,
                        (turn_phase & (s._deck_left > 0)) | wrapped,
                        placing,
                        placing,
                        wrapped,
                    ]
                ),
                others & (phase == GIFTING),
                pad,
                others & (phase == CATCHING),
                pad,
                turn_phase & s._tiles_open & (s._tile_counts > 0),
            ]
        )

    # ----- chance -----------------------------------------------------------------------------

    def _card(self, word: Array, counts: Array, left: Array) -> Array:
        """A kind of card from the deck ``counts`` (``left`` cards), each card equally likely."""
        pick = below(word, jnp.maximum(left, 1))
        return jnp.sum(jnp.cumsum(counts.astype(jnp.int32)) <= pick).astype(jnp.int32)

    def _tiles(self, word: Array) -> tuple[Array, Array]:
        """The round's tiles (counts per value) and their chance id."""
        row = below(word, self.tile_ids.shape[0])
        return self.tile_rows[row], self.tile_ids[row]

    # ----- a game and a round -----------------------------------------------------------------

    def _round_fields(self, tile_counts: Array) -> dict[str, Array]:
        n, kinds = self.players, self.kinds
        zeros = jnp.zeros(n, jnp.int32)
        return {
            "_status": jnp.full(n, IN_PLAY, jnp.int32),
            "_tile_taken": jnp.full(n, -1, jnp.int32),
            "_up_total": zeros,
            "_run_length": zeros,
            "_face_down": zeros,
            "_trailing": zeros,
            "_value_sum": zeros,
            "_trail_value": zeros,
            "_closed_bonus": zeros,
            "_tile_counts": tile_counts,
            "_tiles_open": jnp.bool_(True),
            "_marker": jnp.int32(0),
            "_counts": self.full_counts,
            "_deck_left": jnp.int32(self.deck_size),
            "_drawn": jnp.int32(-1),
            "_drawn_knows": jnp.zeros(n, bool),
            "_peek_kind": jnp.int32(-1),
            "_peeker": jnp.int32(-1),
            "_own_kinds": jnp.zeros((n, kinds), jnp.int32),
            "_trail_kinds": jnp.zeros((n, kinds), jnp.int32),
            "_hidden": jnp.zeros((n, n, kinds), jnp.int32),
            "_trail_hidden": jnp.zeros((n, n, kinds), jnp.int32),
        }

    def _init(self, key: Array) -> BonBonState:
        tile_counts, tiles_id = self._tiles(random_words(key, 1)[0])
        chance = jnp.full(self.events, -1, jnp.int32).at[-1].set(tiles_id)
        n = self.players
        fields = self.base_fields(
            jnp.int32(0), jnp.bool_(False), jnp.zeros(n), jnp.zeros(nt.NUM_ACTIONS, bool)
        )
        state = BonBonState(
            **fields,
            _chance=chance,
            _phase=jnp.int32(TURN),
            _turn=jnp.int32(0),
            _round_starter=jnp.int32(0),
            _last_drawer=jnp.int32(-1),
            _rounds=jnp.int32(0),
            _wins=jnp.zeros(n, jnp.int32),
            **self._round_fields(tile_counts),
        )
        return self._typed(state.replace(legal_action_mask=self._mask(state)))

    def _typed(self, state: BonBonState) -> BonBonState:
        """``state`` with every field in its stored type (``field_types``)."""
        return state.replace(
            **{name: getattr(state, name).astype(kind) for name, kind in self.field_types.items()}
        )

    # ----- a step -----------------------------------------------------------------------------

    def _drawn_card(
        self, s: BonBonState, active: Array, word: Array, forced: Array | None
    ) -> tuple[Array, Array, Array, Array]:
        """The card the seat to act draws where ``active``: whether it draws, the kind (the
        peeked card, else one drawn from ``word``, or ``forced``), the kind's probability (see
        ``_event``) and the seats that know it (the drawer and whoever peeked at it)."""
        seats, counts, deck_left = self.seats, s._counts, s._deck_left
        peeked = s._peek_kind >= 0
        if forced is None:
            kind = jnp.where(peeked, s._peek_kind, self._card(word, counts, deck_left))
            probability = jnp.float32(1.0)
        else:
            kind = forced
            held = jnp.sum(jnp.where(self.kind_ids == kind, counts, 0)).astype(jnp.float32)
            chance = jnp.where(
                peeked,
                (kind == s._peek_kind).astype(jnp.float32),
                held / jnp.maximum(deck_left, 1).astype(jnp.float32),
            )
            probability = jnp.where(active, chance, (kind == 0).astype(jnp.float32))
        knows = (seats == s._turn) | (peeked & (seats == s._peeker))
        return active, kind, probability, knows

    def _event(
        self,
        s: BonBonState,
        active: Array,
        draws: bool,
        owner: Array,
        down: Array | bool,
        catch: Array | bool,
        plain: Array | bool,
        word: Array,
        forced: Array | None = None,
    ) -> tuple[BonBonState, dict[str, Array]]:
        """One card event: a card drawn by the seat to act (``draws``) or the waiting card, into
        ``owner``'s run face up or face ``down``, or a caught! reveal of ``owner``'s trailing
        cards (``catch``); the limits; then the card's effect (none when ``plain``: a gift or a
        catch).

        ``forced``: the kind drawn, given (the split step's chance step) instead of drawn from
        ``word``; ``out["probability"]`` is then its probability (1 where nothing is drawn and
        ``forced`` is 0, 0 for an outcome this event cannot have)."""
        seats = self.seats
        down, catch, plain = (jnp.asarray(f, bool) for f in (down, catch, plain))
        turn = s._turn
        me = seats == turn
        if draws:
            drawing, kind, probability, knows = self._drawn_card(s, active, word, forced)
            kind_hot = self.kind_ids == kind
            counts = s._counts - (drawing & kind_hot)
            deck_left = s._deck_left - drawing
        else:
            drawing, probability = jnp.bool_(False), jnp.float32(1.0)
            kind, knows = s._drawn, s._drawn_knows
            kind_hot = self.kind_ids == kind
            counts, deck_left = s._counts, s._deck_left
        value = jnp.sum(jnp.where(kind_hot, self.values, 0))
        effect = jnp.sum(jnp.where(kind_hot, self.effects, 0))
        up_only = jnp.any(kind_hot & self.face_up_only)
        others_before = (s._status == IN_PLAY) & ~me
        to_place = drawing & ~up_only
        to_gift = drawing & up_only & (effect == GIFT) & jnp.any(others_before)
        waits = to_place | to_gift
        lands = active & ~catch & ~waits
        face_up = lands & ~down
        face_down = lands & down
        reveal = (face_up & (effect == WRAPPER)) | (active & catch)
        own = seats == owner
        runs = _Runs.of(s)
        # the owner's trailing face-down cards turn face up (a wrapper, a caught!), or a face-up
        # card closes them into a group; then the card enters the run
        revealed = runs.turn_up_trailing(own & reveal)
        runs.close_trailing(own & (face_up | reveal), own & face_up & ~reveal)
        runs.add_card(own & lands, own & face_down, value, kind_hot, knows)
        # the limits, for the owner: a broken collective limit makes the players still in play
        # discard their trailing cards
        added = jnp.where(face_up, value, 0) + revealed
        marker, up_total, collective, status = self._limits(s, own, face_up | reveal, added)
        runs.discard_trailing((status == IN_PLAY) & collective)
        # the card's effect, if the drawer is still in play and the round goes on
        settled = active & ~waits & ~collective
        effect = jnp.where(plain, NONE, effect)
        live = settled & jnp.any(me & (status == IN_PLAY))
        stocked = deck_left > 0
        catching = live & (effect == CAUGHT) & jnp.any((status == IN_PLAY) & ~me)
        wrapped = live & (effect == WRAPPER) & stocked
        peeks = live & (effect == PEEK) & stocked
        second = live & (effect == SECOND) & stocked
        # the effect shows the card to everyone, even face down
        shown = (peeks | second) & face_down
        runs.show(shown & me, knows, kind_hot)
        phase = jnp.select(
            [active & to_place, active & to_gift, catching, wrapped],
            [jnp.int32(PLACE), jnp.int32(GIFTING), jnp.int32(CATCHING), jnp.int32(WRAPPED)],
            s._phase,
        )
        s = s.replace(
            **runs.fields(),
            _phase=phase,
            _status=status,
            _up_total=up_total,
            _marker=marker,
            _counts=counts,
            _deck_left=deck_left,
            _drawn=jnp.where(active, jnp.where(waits, kind, -1), s._drawn),
            _drawn_knows=jnp.where(waits, to_gift | knows, s._drawn_knows),
            _peek_kind=jnp.where(drawing, -1, s._peek_kind),
            _peeker=jnp.where(drawing, -1, s._peeker),
            _last_drawer=jnp.where(drawing, turn, s._last_drawer),
        )
        out = {
            "outcome": jnp.where(drawing, jnp.sum(jnp.where(kind_hot, self.kind_outcome, 0)), -1),
            "end_turn": settled & ~catching & ~wrapped & ~second,
            "second": second,
            "peeks": peeks,
            "collective": collective,
            "probability": probability,
        }
        return s, out

    def _limits(
        self, s: BonBonState, own: Array, checks: Array, added: Array
    ) -> tuple[Array, Array, Array, Array]:
        """The limits after ``added`` points turned face up in the owner's run (``own``), where
        ``checks``: the collective marker, the seats' face-up totals, whether the collective
        limit broke, and the seats' status (the owner out where a limit broke)."""
        marker = s._marker + added
        up_total = s._up_total + jnp.where(own, added, 0)
        collective = checks & (marker > self.limit)
        owner_total = jnp.sum(jnp.where(own, up_total, 0))
        owner_limit = PERSONAL_LIMIT - jnp.sum(jnp.where(own, s._wins, 0))
        personal = checks & ~collective & (owner_total > owner_limit)
        status = jnp.where(own & (collective | personal), ELIMINATED, s._status)
        return marker, up_total, collective, status

    def _step(self, state: BonBonState, action: Array, key: Array) -> BonBonState:
        return self._play(state, action, random_words(key, self.events + 1), None)[0]

    def _step_drawn(self, state: BonBonState, action: Array, draws: Array) -> BonBonState:
        words = jnp.zeros(self.events + 1, jnp.uint32)  # not read: every outcome is given
        return self._play(state, action, words, draws)[0]

    def _nodes_met(self, state: BonBonState) -> Array:
        chance = state._chance
        return jnp.where(chance >= 0, self.node_outcome[jnp.maximum(chance, 0)], -1)

    def chance_outcome_probs(self, afterstate: Afterstate) -> Array:
        """float32[num_chance_outcomes]: each joint outcome's probability, the rules engine's: a
        card by how many of its kind the deck holds at that draw (the peeked card for sure), the
        peek likewise, the tiles by ``tile_outcomes``; a node the step does not meet puts all
        its weight on outcome 0. Plays the step once per joint outcome (vmapped)."""
        state, action = afterstate.state, afterstate.action
        if not self.chance_node_sizes:
            self.decision_step(state, action)  # raises: the split is not built for this deck
        outcomes = jnp.arange(self.num_chance_outcomes, dtype=jnp.int32)
        draws = jax.vmap(self._outcome_draws)(outcomes)
        words = jnp.zeros(self.events + 1, jnp.uint32)
        ready = state.replace(_step_count=state._step_count + 1)
        probs = jax.vmap(lambda drawn: self._play(ready, action, words, drawn)[1])(draws)
        plain = state.terminated | state.truncated | ~state.legal_action_mask[action]
        return jnp.where(plain, (outcomes == 0).astype(jnp.float32), probs).astype(jnp.float32)

    def _play(
        self, state: BonBonState, action: Array, words: Array, forced: Array | None
    ) -> tuple[BonBonState, Array]:
        """The step, its chance drawn from ``words`` or, where ``forced`` is given, one outcome
        per chance node (``chance_node_sizes``) taken from it; the state, and the probability of
        the forced outcomes (1 when drawn)."""
        n = self.players
        seats = self.seats
        s = state
        phase, turn = s._phase, s._turn
        me = seats == turn
        # pass (the first to pass takes a tile)
        passing = (phase == TURN) & ((action == nt.PASS) | (action >= nt.BONUS))
        bonus = passing & (action >= nt.BONUS)
        s = s.replace(
            _status=jnp.where(me & passing, PASSED, s._status),
            _tile_taken=jnp.where(me & bonus, action - nt.BONUS, s._tile_taken),
            _tiles_open=s._tiles_open & ~bonus,
        )
        end_turn = passing | ((phase == WRAPPED) & (action == nt.END))
        # the waiting card played (up, down, a gift) or a catch; then the cards drawn: by the
        # action, by a second helping
        gifting, catching = phase == GIFTING, phase == CATCHING
        target = jnp.where(gifting, action - nt.GIFT, action - nt.CATCH)
        s, out = self._event(
            s,
            active=(phase == PLACE) | gifting | catching,
            draws=False,
            owner=jnp.where(gifting | catching, target, turn),
            down=(phase == PLACE) & (action == nt.DOWN),
            catch=catching,
            plain=gifting | catching,
            word=words[0],
        )
        outcomes = []
        probability = jnp.float32(1.0)
        end_turn = end_turn | out["end_turn"]
        collective = out["collective"]
        peeks = out["peeks"]
        pending = out["second"] | (((phase == TURN) | (phase == WRAPPED)) & (action == nt.DRAW))
        for event in range(1, self.events):
            s, out = self._event(
                s,
                active=pending,
                draws=True,
                owner=s._turn,
                down=False,
                catch=False,
                plain=False,
                word=words[event - 1],
                forced=None if forced is None else forced[event - 1],
            )
            probability = probability * out["probability"]
            outcomes.append(out["outcome"])
            end_turn = end_turn | out["end_turn"]
            collective = collective | out["collective"]
            peeks = peeks | out["peeks"]
            pending = out["second"]
        # a peek: the top card, seen by the drawer alone, stays in the deck
        peek_chance = jnp.float32(1.0)
        if forced is None:
            peek_kind = self._card(words[-2], s._counts, s._deck_left)
        else:
            peek_kind = forced[-1]
            held = jnp.sum(jnp.where(self.kind_ids == peek_kind, s._counts, 0))
            peek_chance = held.astype(jnp.float32) / jnp.maximum(s._deck_left, 1).astype(
                jnp.float32
            )
        peek_outcome = jnp.sum(jnp.where(self.kind_ids == peek_kind, self.kind_outcome, 0))
        s = s.replace(
            _peek_kind=jnp.where(peeks, peek_kind, s._peek_kind),
            _peeker=jnp.where(peeks, turn, s._peeker),
        )
        # the turn passes to the next seat in play, or the round ends
        in_play = s._status == IN_PLAY
        order = (seats - turn - 1) % n
        following = jnp.argmin(jnp.where(in_play, order, n)).astype(jnp.int32)
        round_over = collective | (end_turn & ~jnp.any(in_play))
        moving_on = end_turn & ~round_over
        s = s.replace(
            _turn=jnp.where(moving_on, following, s._turn),
            _phase=jnp.where(moving_on, jnp.int32(TURN), s._phase),
        )
        s, tiles_outcome = self._end_round(
            s, round_over, words[-1], None if forced is None else forced[-1]
        )
        last = jnp.where(peeks, peek_outcome, tiles_outcome)
        if forced is not None:
            row = jnp.minimum(forced[-1], self.triple_probs.shape[0] - 1)
            tiles_chance = self.triple_probs[row]
            last_chance = jnp.where(
                peeks,
                peek_chance,
                jnp.where(tiles_outcome >= 0, tiles_chance, (forced[-1] == 0).astype(jnp.float32)),
            )
            probability = probability * last_chance
        state = self._typed(s.replace(_chance=jnp.stack([*outcomes, last]).astype(jnp.int32)))
        return state, probability

    def _end_round(
        self, s: BonBonState, round_over: Array, word: Array, triple: Array | None = None
    ) -> tuple[BonBonState, Array]:
        """Score the round where ``round_over``; then the game ends or the next round starts."""
        n = self.players
        scores = (
            s._value_sum.astype(jnp.int32)
            + jnp.maximum(s._tile_taken, 0)
            + s._closed_bonus
            + jnp.maximum(s._trailing - 1, 0)
        )
        scored = s._status != ELIMINATED
        # rank by (score, cards): a seat wins if fewer than ``places`` scored seats beat it
        rank_key = scores * (self.deck_size + 1) + s._run_length
        beaten_by = jnp.sum(scored[None, :] & (rank_key[None, :] > rank_key[:, None]), axis=1)
        winners = round_over & scored & (beaten_by < self.places)
        wins = s._wins + winners
        rounds = s._rounds + round_over
        champions = winners & (wins >= WINS_TO_WIN)
        any_champion = jnp.any(champions)
        game_over = round_over & (any_champion | (rounds >= self.max_rounds))
        best = jnp.max(jnp.where(champions, rank_key, -1))
        game_winners = jnp.where(any_champion, champions & (rank_key == best), wins == wins.max())
        rewards = jnp.where(game_over, game_winners.astype(jnp.float32), 0.0)
        # the game ends: the scored runs are shown to all
        ended = s.replace(
            _phase=jnp.where(game_over, jnp.int32(OVER), s._phase),
            _hidden=jnp.where(game_over & scored[:, None, None], 0, s._hidden),
            _drawn=jnp.where(game_over, -1, s._drawn),
            _peek_kind=jnp.where(game_over, -1, s._peek_kind),
            _peeker=jnp.where(game_over, -1, s._peeker),
        )
        # or the next round starts after the last seat that drew
        new_round = round_over & ~game_over
        starter = jnp.where(s._last_drawer >= 0, s._last_drawer + 1, s._round_starter + 1) % n
        starter = jnp.where(new_round, starter, s._round_starter)
        if triple is None:
            tile_counts, tiles_id = self._tiles(word)
        else:  # the split step: one of the distinct triples, given
            row = jnp.minimum(triple, self.triple_ids.shape[0] - 1)
            tile_counts, tiles_id = self.triple_counts[row], self.triple_ids[row]
        fresh = self._round_fields(tile_counts)
        changes = {
            name: jnp.where(new_round, value, getattr(ended, name)) for name, value in fresh.items()
        }
        s = ended.replace(
            **changes,
            _wins=wins,
            _rounds=rounds,
            _round_starter=starter,
            _turn=jnp.where(new_round, starter, ended._turn),
            _phase=jnp.where(new_round, jnp.int32(TURN), ended._phase),
        )
        s = s.replace(
            current_player=s._turn,
            terminated=game_over,
            rewards=rewards,
            legal_action_mask=self._mask(s) & ~game_over,
        )
        return s, jnp.where(new_round, tiles_id, -1)
