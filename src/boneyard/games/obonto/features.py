"""The Obonto observation as a fixed-size tensor, built from the observation dict only.

Nine 9x9 planes, flattened plane by plane, rank 1 first within a plane (index rank0 * 9 + file0):

0. light squares (1.0) versus dark ones (0.0)
1-3. the observer's lion, zebra, camel
4-6. the opponent's lion, zebra, camel
7. all 1.0 when the observer is the player to move, else 0.0
8. all 1.0 in the solo phase, else 0.0

The observer is the observation's ``seat``; for a spectator (``seat`` None) it is the seat to
move.
"""

from __future__ import annotations

from typing import Any

from boneyard.games.obonto.notation import GRID, KINDS, SQUARES

PLANES = 9
TENSOR_SHAPE = (PLANES, 9, 9)


def observation_tensor(observation: dict[str, Any]) -> list[float]:
    """The flat list of ``9 * 81`` floats described in the module docstring."""
    tensor = [0.0] * (PLANES * SQUARES)
    tensor[:SQUARES] = [1.0] * SQUARES
    for name in observation["dark"]:
        tensor[GRID.parse(name)] = 0.0
    seat = observation["seat"]
    if seat is None:
        seat = observation["to_move"]
    for owner, animals in enumerate(observation["animals"]):
        first_plane = 1 if owner == seat else 4
        for kind, name in animals.items():
            plane = first_plane + KINDS.index(kind)
            tensor[plane * SQUARES + GRID.parse(name)] = 1.0
    if observation["current_player"] == seat:
        tensor[7 * SQUARES : 8 * SQUARES] = [1.0] * SQUARES
    if observation["phase"] == "solo":
        tensor[8 * SQUARES :] = [1.0] * SQUARES
    return tensor
