"""The observation tensor straight from a Bon-Bon state (``BonBonGame.state_observation_tensor``).

The same numbers, by the same arithmetic, as ``heuristic.tensor(state.observation(seat), ...)``,
read from the state's fields without building the observation dict (its card dicts and
``seen_by`` lists are most of an observation's cost). What a seat may not see is never read: a
card in a run or the drawn card counts as known only where the observation shows it (face up,
or the seat's bit in its mask), and the peeked card only for the peeker, exactly as
``BonBonState._observation`` decides; the conformance suite checks the two roads equal at every
step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boneyard.games.bonbon.heuristic import WINS_TO_WIN

if TYPE_CHECKING:
    from boneyard.games.bonbon.rules import BonBonState

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
    """``heuristic.tensor(state.observation(seat), labels, deck size)``, from the fields."""
    game = state.game
    tables = _tables(state)
    players = game.players
    labels = tables.labels
    bit = 0 if seat is None else 1 << seat
    player = state.current_player()
    key = (seat, player, state.phase)
    head = tables.heads.get(key)
    if head is None:
        head = tables.heads[key] = _head(players, seat, player, state.phase)
    out = head[:]
    unseen = list(state.counts)
    known_kinds: list[int] = []
    status_rows = tables.status
    for s, run in enumerate(state.runs):
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
        out += status_rows[state.status[s]]
        out += (
            wins / WINS_TO_WIN,
            (_PERSONAL_LIMIT - wins) / 10,
            state.up_total[s] / 10,
            len(run) / 20,
            down / 20,
            trailing / 20,
            0.0 if taken < 0 else 1.0,
            0.0 if taken < 0 else taken / 9,
        )
    over = state.phase == _OVER
    tile_counts = [0] * 10
    for value in state.tiles:
        tile_counts[value] += 1
    out += (
        state.marker / game.collective_limit,
        game.collective_limit / 36,
        state.deck_left / tables.deck_size,
        (state.rounds_played + (0 if over else 1)) / game.max_rounds,
    )
    out += [_THIRDS[count] for count in tile_counts]
    out.append(1.0 if state.tiles_open else 0.0)
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
    if tables.distinct:
        out += [count / 10 for count in unseen]
    else:
        by_label = {labels[k]: unseen[k] for k in range(len(labels))}
        out += [by_label[label] / 10 for label in labels]
    out += drawn_row
    out.append(drawn_hidden)
    out += peek_row
    out.append(peek_hidden)
    if known_kinds:
        own = [labels[kind] for kind in known_kinds]
        out += [own.count(label) / 10 for label in labels]
    else:
        out += tables.zeros
    return out
