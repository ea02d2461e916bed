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

from typing import Any

from boneyard.games.bondo_cones.notation import FACES, INDEX, SQUARES, observed_cones

PLANES = 13
GLOBALS = 26
TENSOR_SIZE = PLANES * SQUARES + GLOBALS
_VALUE_PLANE = {0: 4, 1: 5, 2: 6, 4: 7, 8: 8}
_PHASES = (
    "setup_put",
    "setup_ring",
    "first",
    "decide",
    "battle",
    "take",
    "punish",
    "roll",
    "act",
    "over",
)


def observation_tensor(game: Any, observation: dict[str, Any]) -> list[float]:
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
    tensor[at + 4 + _PHASES.index(observation["phase"])] = 1.0
    if observation["die"] is not None:
        tensor[at + 14 + FACES.index(observation["die"])] = 1.0
    tensor[at + 20] = 1.0 if observation["current_player"] == me else 0.0
    tensor[at + 21] = windows[me] / 3
    tensor[at + 22] = windows[them] / 3
    tensor[at + 23] = 1.0 if observation["set_aside_ring"] else 0.0
    tensor[at + 24] = progress[me] / 17
    tensor[at + 25] = progress[them] / 17
    return tensor
