"""Race as fixed-size numbers for learning interfaces: the total one-hot, then the seat to move."""

from __future__ import annotations

from boneyard.games.race.observation import RaceObservation
from boneyard.games.race.rules import RaceGame


def observation_tensor_shape(game: RaceGame) -> tuple[int, ...]:
    return (2, game.goal + 2)


def observation_tensor(game: RaceGame, observation: RaceObservation) -> list[float]:
    width = game.goal + 2
    rows = [[0.0] * width for _ in range(2)]
    rows[0][min(observation["total"], width - 1)] = 1.0
    if observation["current_player"] >= 0:
        rows[1][observation["current_player"]] = 1.0
    return [value for row in rows for value in row]


def observation_bounds(game: RaceGame) -> tuple[float, float]:
    """The least and greatest number the observation tensor can hold (its entries are flags
    and fractions of at most one), for the bounded spaces of the research interfaces."""
    return 0.0, 1.0
