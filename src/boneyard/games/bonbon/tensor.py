"""Bon-Bon's observation tensor: from an observation, and straight from a state (the fast road).

``state_tensor`` gives the same numbers, by the same arithmetic, as ``observation_tensor(game,
state.observation(seat))``, read from the state's fields without building the observation dict (its
card dicts and ``seen_by`` lists are most of an observation's cost). What a seat may not see is
never read: a card in a run or the drawn card counts as known only where the observation shows it
(face up, or the seat's bit in its mask), and the peeked card only for the peeker, exactly as
``BonBonState._observation`` decides; the conformance suite checks the two roads equal at every
step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boneyard.games.bonbon.heuristic import (
    PHASES,
    STATUSES,
    WINS_TO_WIN,
    _trailing_face_down,
)
from boneyard.games.bonbon.observation import (
    BonBonObservation,
)

if TYPE_CHECKING:
    from boneyard.games.bonbon.rules import BonBonGame, BonBonState

_PHASES = 9
_STATUSES = 3
_OVER = 8
_PERSONAL_LIMIT = 10
_TERMINAL, _CHANCE = -4, -1
_THIRDS = tuple(count / 3 for count in range(4))
"""count / 3 for the tiles of one value on offer (three tiles are on offer at most)."""


class _Tables:
    """What one game's tensors share: the one-hot rows, by kind, for its card labels, and the
    deck size (a property that counts the deck)."""

    def __init__(self, labels: list[str], deck_size: int) -> None:
        self.labels = labels
        self.deck_size = max(deck_size, 1)
        # A card's one-hot row compares labels (as the dict road does), so that two kinds with
        # one label would light both; with distinct labels it is the kind's index.
        self.onehot = [[1.0 if label == other else 0.0 for other in labels] for label in labels]
        self.zeros = [0.0] * len(labels)
        self.distinct = len(set(labels)) == len(labels)
        self.status = [
            [1.0 if s == status else 0.0 for s in range(_STATUSES)] for status in (0, 1, 2)
        ]
        self.heads: dict[tuple[int | None, int, int], list[float]] = {}


def _tables(state: BonBonState) -> _Tables:
    game = state.game
    tables: _Tables | None = game._tensor_tables
    if tables is None:
        tables = game._tensor_tables = _Tables(game.labels, game.deck.size)
    return tables


def _head(players: int, seat: int | None, player: int, phase: int) -> list[float]:
    out = [0.0] * (2 * players + 2 + _PHASES)
    if seat is not None:
        out[seat] = 1.0
    if player >= 0:
        out[players + player] = 1.0
    elif player == _CHANCE:
        out[2 * players] = 1.0
    elif player == _TERMINAL:
        out[2 * players + 1] = 1.0
    out[2 * players + 2 + phase] = 1.0
    return out


def state_tensor(state: BonBonState, seat: int | None) -> list[float]:
    """``observation_tensor(game, state.observation(seat))``, from the fields."""
    tables = _tables(state)
    bit = 0 if seat is None else 1 << seat
    player = state.current_player()
    key = (seat, player, state.phase)
    head = tables.heads.get(key)
    if head is None:
        head = tables.heads[key] = _head(state.game.players, seat, player, state.phase)
    out = head[:]
    unseen = list(state.counts)
    known_kinds: list[int] = []
    for s, run in enumerate(state.runs):
        out += _run_row(state, s, run, seat, bit, unseen, known_kinds, tables)
    out += _table_row(state)
    drawn_and_peeked = _drawn_and_peeked_row(state, seat, bit, unseen, tables)
    if tables.distinct:
        out += [count / 10 for count in unseen]
    else:
        labels = tables.labels
        by_label = {labels[k]: unseen[k] for k in range(len(labels))}
        out += [by_label[label] / 10 for label in labels]
    out += drawn_and_peeked
    if known_kinds:
        own = [tables.labels[kind] for kind in known_kinds]
        out += [own.count(label) / 10 for label in tables.labels]
    else:
        out += tables.zeros
    return out


def _run_row(
    state: BonBonState,
    s: int,
    run: list[tuple[int, bool, int]],
    seat: int | None,
    bit: int,
    unseen: list[int],
    known_kinds: list[int],
    tables: _Tables,
) -> list[float]:
    """Seat ``s``'s status and run as the observing seat (``bit``) sees it; the cards of it that
    seat does not see go to ``unseen``, and its own known cards to ``known_kinds``."""
    down = trailing = 0
    for kind, up, mask in run:
        if up:
            trailing = 0
        else:
            down += 1
            trailing += 1
        if up or mask & bit:
            if s == seat:
                known_kinds.append(kind)
        else:
            unseen[kind] += 1
    taken = state.tile_taken[s]
    wins = state.wins[s]
    return [
        *tables.status[state.status[s]],
        wins / WINS_TO_WIN,
        (_PERSONAL_LIMIT - wins) / 10,
        state.up_total[s] / 10,
        len(run) / 20,
        down / 20,
        trailing / 20,
        0.0 if taken < 0 else 1.0,
        0.0 if taken < 0 else taken / 9,
    ]


def _table_row(state: BonBonState) -> list[float]:
    """The collective marker and limit, the deck, the round, the tiles on offer."""
    game = state.game
    over = state.phase == _OVER
    tile_counts = [0] * 10
    for value in state.tiles:
        tile_counts[value] += 1
    return [
        state.marker / game.collective_limit,
        game.collective_limit / 36,
        state.deck_left / _tables(state).deck_size,
        (state.rounds_played + (0 if over else 1)) / game.max_rounds,
        *[_THIRDS[count] for count in tile_counts],
        1.0 if state.tiles_open else 0.0,
    ]


def _drawn_and_peeked_row(
    state: BonBonState, seat: int | None, bit: int, unseen: list[int], tables: _Tables
) -> list[float]:
    """The drawn card and the peeked one where the seat saw them, else a flag that one is
    hidden; a drawn card it did not see is unseen, a card it peeked at is not."""
    drawn_row = peek_row = tables.zeros
    drawn_hidden = peek_hidden = 0.0
    if state.drawn >= 0:
        if state.drawn_mask & bit:
            drawn_row = tables.onehot[state.drawn]
        else:
            unseen[state.drawn] += 1
            drawn_hidden = 1.0
    if state.peek_kind >= 0:
        if seat == state.peeker:
            unseen[state.peek_kind] -= 1
            peek_row = tables.onehot[state.peek_kind]
        else:
            peek_hidden = 1.0
    return [*drawn_row, drawn_hidden, *peek_row, peek_hidden]


def tensor_size(players: int, kinds: int) -> int:
    """The length of :func:`observation_tensor` for a player count and ``kinds`` kinds of card."""
    return 13 * players + 28 + 4 * kinds


def observation_tensor_shape(game: BonBonGame) -> tuple[int, ...]:
    return (tensor_size(game.players, len(game.labels)),)


def observation_tensor(game: BonBonGame, observation: BonBonObservation) -> list[float]:
    """A fixed-size numeric encoding of an observation.

    In order: the observing seat (one-hot; zeros for a spectator), the player to act (one-hot,
    then chance, terminal), the phase (one-hot); per seat its status (one-hot), wins / 3,
    personal limit / 10, face-up total / 10, run length, face-down cards and trailing face-down
    cards (each / 20), bonus tile taken (flag, value / 9); the marker / collective limit, the
    collective limit / 36, cards left / deck size, round / max rounds; the tiles on offer (a count
    per value 0..9, / 3) and whether they are open; then per kind of card: unseen count / 10, the
    drawn card (one-hot, then "hidden"), the peeked card (one-hot, then "hidden") and the kinds
    in the observing seat's own run (count / 10).
    """
    labels, deck_size = game.labels, game.deck.size
    players = observation["players"]
    kinds = len(labels)
    out: list[float] = []
    seat = observation["seat"]
    out += [1.0 if seat == s else 0.0 for s in range(players)]
    player = observation["current_player"]
    out += [1.0 if player == s else 0.0 for s in range(players)]
    out += [1.0 if player == -1 else 0.0, 1.0 if player == -4 else 0.0]
    out += [1.0 if observation["phase"] == p else 0.0 for p in PHASES]
    for s in range(players):
        run = observation["runs"][s]
        out += [1.0 if observation["status"][s] == name else 0.0 for name in STATUSES]
        taken = observation["tile_taken"][s]
        out += [
            observation["wins"][s] / WINS_TO_WIN,
            observation["personal_limits"][s] / 10,
            observation["up_totals"][s] / 10,
            len(run) / 20,
            sum(1 for c in run if not c["up"]) / 20,
            len(_trailing_face_down(run)) / 20,
            0.0 if taken is None else 1.0,
            0.0 if taken is None else taken / 9,
        ]
    out += [
        observation["marker"] / observation["collective_limit"],
        observation["collective_limit"] / 36,
        observation["deck_left"] / max(deck_size, 1),
        observation["round"] / observation["max_rounds"],
    ]
    out += [observation["tiles"].count(v) / 3 for v in range(10)]
    out.append(1.0 if observation["tiles_open"] else 0.0)
    out += [observation["unseen"][label] / 10 for label in labels]
    for secret in (observation["drawn"], observation["peek"]):
        card = None if secret is None else secret["card"]
        out += [1.0 if card == label else 0.0 for label in labels]
        out.append(1.0 if secret is not None and card is None else 0.0)
    own = observation["runs"][seat] if seat is not None else []
    out += [sum(1 for c in own if c["card"] == label) / 10 for label in labels]
    assert len(out) == tensor_size(players, kinds)
    return out


def observation_bounds(game: BonBonGame) -> tuple[float, float]:
    """The least and greatest number the observation tensor can hold, for the bounded spaces of
    the research interfaces, from the deck: flags, wins, limits, tiles and the round are
    fractions of at most one; a face-up total (over 10) and the marker (over the collective
    limit) are at most the deck's face-up values together; a run (over 20) at most the deck;
    a count of one kind (over 10) at most its cards in the deck."""
    values = [value * count for value, count in zip(game.values, game.full_counts, strict=True)]
    gained = sum(value for value in values if value > 0)
    lost = sum(value for value in values if value < 0)
    limit = game.collective_limit
    high = max(1.0, gained / 10, gained / limit, game.deck.size / 20, max(game.full_counts) / 10)
    return min(0.0, lost / 10, lost / limit), high
