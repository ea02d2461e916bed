"""A fixed-size numeric view of a Bond O Cones observation (for the learning interfaces).

Built from the observation dict alone, from the point of view of its seat (a spectator's from
seat 0's). Planes of 120 squares (``rank0 * 10 + file0``), in this order: own cone, opponent
cone, own rings / 2, opponent rings / 2, value 0, 1, 2, 4, 8 (one-hot, where the observation
shows the value), opponent cone of unknown value, peeked, spied, last move. Then 26 numbers:
own and opponent score / 41, target / 41, turn / max_turns, the phase (one-hot over 10), the die
(one-hot over 6), "the seat acts now", own and opponent battle window / 3, a ring set aside,
own and opponent set-up progress / 17.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

import numpy as np

from boneyard.games.bondo_cones.notation import FACES, INDEX, SQUARES, observed_cones
from boneyard.games.bondo_cones.observation import BondoObservation
from boneyard.games.bondo_cones.rules import PHASES, VALUES

if TYPE_CHECKING:
    from boneyard.games.bondo_cones.rules import BondoConesGame, BondoConesState

PLANES = 13
GLOBALS = 26
TENSOR_SIZE = PLANES * SQUARES + GLOBALS
_VALUE_PLANE = {0: 4, 1: 5, 2: 6, 4: 7, 8: 8}


def observation_tensor_shape(game: Any) -> tuple[int, ...]:
    return (TENSOR_SIZE,)


def observation_tensor(game: Any, observation: BondoObservation) -> list[float]:
    """The observation as ``TENSOR_SIZE`` floats."""
    seat = observation["seat"]
    me = 0 if seat is None else seat
    them = 1 - me
    tensor = [0.0] * TENSOR_SIZE
    for name, cone in observed_cones(observation).items():
        square = INDEX[name]
        mine = cone["seat"] == me
        tensor[(0 if mine else 1) * SQUARES + square] = 1.0
        tensor[(2 if mine else 3) * SQUARES + square] = cone["rings"] / 2
        value = cone["value"]
        if value is None:
            if not mine:
                tensor[9 * SQUARES + square] = 1.0
        else:
            tensor[_VALUE_PLANE[value] * SQUARES + square] = 1.0
        if cone["peeked"]:
            tensor[10 * SQUARES + square] = 1.0
        if cone["spied"]:
            tensor[11 * SQUARES + square] = 1.0
    for name in observation["last_move"] or ():
        tensor[12 * SQUARES + INDEX[name]] = 1.0
    at = PLANES * SQUARES
    scores = observation["scores"]
    windows = observation["battle_windows"]
    progress = observation["setup_progress"]
    tensor[at] = scores[me] / 41
    tensor[at + 1] = scores[them] / 41
    tensor[at + 2] = observation["target"] / 41
    tensor[at + 3] = observation["turn"] / observation["max_turns"]
    tensor[at + 4 + PHASES.index(observation["phase"])] = 1.0
    if observation["die"] is not None:
        tensor[at + 14 + FACES.index(observation["die"])] = 1.0
    tensor[at + 20] = 1.0 if observation["current_player"] == me else 0.0
    tensor[at + 21] = windows[me] / 3
    tensor[at + 22] = windows[them] / 3
    tensor[at + 23] = 1.0 if observation["set_aside_ring"] else 0.0
    tensor[at + 24] = progress[me] / 17
    tensor[at + 25] = progress[them] / 17
    return tensor


# ----- the fast road: straight from a state ------------------------------------------------------

_FIELDS = struct.Struct(f"{4 * SQUARES}h")
"""The state's owner, value, rings and flags lists, packed as bytes."""
_KEYS = 3 * 10 * 12
"""A square's key: ``((owner + 1) * 10 + value + 1) * 12 + rings * 4 + flags`` (-1: none)."""
_TABLES: dict[tuple[int | None, bool, bool], Any] = {}


def _square_table(seat: int | None, shown: tuple[bool, bool]) -> Any:
    """Planes 0 to 11 of a square by its key (a row per key), for ``seat`` (``shown[who]``: that
    seat's cones are on the board for the others, its set-up puts done), as ``_observation``
    decides."""
    from boneyard.games.bondo_cones.rules import SPIED

    me = 0 if seat is None else seat
    table = np.zeros((12, _KEYS), dtype=np.float64)
    for who in (0, 1):
        if who != seat and not shown[who]:
            continue
        mine = who == me
        for value in range(9):
            for rings in range(3):
                for flags in range(4):
                    key = ((who + 1) * 10 + value + 1) * 12 + rings * 4 + flags
                    known = who == seat or (flags & SPIED and seat == 1 - who)
                    table[0 if mine else 1, key] = 1.0
                    table[2 if mine else 3, key] = rings / 2
                    if not known:
                        if not mine:
                            table[9, key] = 1.0
                    elif value in _VALUE_PLANE:
                        table[_VALUE_PLANE[value], key] = 1.0
                    table[10, key] = 1.0 if flags & 1 else 0.0
                    table[11, key] = 1.0 if flags & 2 else 0.0
    # Row ``key - 132`` (from the end when negative) holds key ``key``; a row per key, so that
    # the gather takes whole rows (numpy gathers rows several times faster than columns).
    return np.ascontiguousarray(np.roll(table, -132, axis=1).T)


_WEIGHTS = np.array([120, 12, 4, 1], dtype=np.int16)


def state_tensor(state: BondoConesState, seat: int | None) -> Any:
    """``observation_tensor(game, state.observation(seat))`` as a flat float64 numpy array.

    Read from the state's fields, deciding what the seat sees exactly as
    ``BondoConesState._observation`` does: the opponent's cones only once its set-up puts are
    done, a cone's value only for its owner, or for the other seat once it is spied. Every
    square gets a key (owner, value, rings, flags), and a table per seat and set-up stage turns
    the keys into the twelve cone planes in one gather.
    """
    from boneyard.games.bondo_cones.rules import PUTS

    me = 0 if seat is None else seat
    them = 1 - me
    progress = state.setup_progress
    shown = (progress[0] >= PUTS, progress[1] >= PUTS)
    table = _TABLES.get((seat, *shown))
    if table is None:
        table = _TABLES[(seat, *shown)] = _square_table(seat, shown)
    fields = np.frombuffer(
        _FIELDS.pack(*state.owner, *state.value, *state.rings, *state.flags), dtype=np.int16
    )
    # The keys less 132 (the +1s of owner and value), negative for empty squares: the table
    # is rolled to match, as numpy counts negative indices from the end.
    keys = _WEIGHTS @ fields.reshape(4, SQUARES)
    tensor = np.empty(TENSOR_SIZE, dtype=np.float64)
    board = tensor[: PLANES * SQUARES].reshape(PLANES, SQUARES)
    board[:12] = table.take(keys, axis=0).T
    board[12] = 0.0
    if state.last_move:
        board[12, state.last_move[0]] = 1.0
        board[12, state.last_move[1]] = 1.0
    game = state.game
    scores, windows = state.scores, state.windows
    tail = [0.0] * GLOBALS
    tail[0] = scores[me] / 41
    tail[1] = scores[them] / 41
    tail[2] = game.target / 41
    tail[3] = state.turns / game.max_turns
    tail[4 + state.phase] = 1.0
    if state.die >= 0:
        tail[14 + state.die] = 1.0
    tail[20] = 1.0 if state.current_player() == me else 0.0
    tail[21] = windows[me] / 3
    tail[22] = windows[them] / 3
    tail[23] = 1.0 if state.set_aside else 0.0
    tail[24] = progress[me] / 17
    tail[25] = progress[them] / 17
    tensor[PLANES * SQUARES :] = tail
    return tensor


def observation_bounds(game: BondoConesGame) -> tuple[float, float]:
    """The least and greatest number the observation tensor can hold, for the bounded spaces of
    the research interfaces. Every entry is a flag or a fraction of at most one except the
    scores and the target over 41: a score is at most every cone's value captured (41), the
    target whatever the game was set to."""
    return 0.0, max(1.0, sum(VALUES) / 41, game.target / 41)
