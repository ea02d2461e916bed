"""The Obonto heuristic the bots use: points already won plus an estimate of the current game.

It reads only the observation (everything is public in Obonto). During play the estimate is the
mobility difference (legal moves of the seat minus the opponent's, on the current board); in the
solo phase the winner's points are 1 + solo moves so far + an optimistic guess of the moves left
(half the light empty squares the winner's animals can still reach). The value is clipped into
the game's utility range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boneyard.games.obonto.notation import GRID, KINDS, SQUARES

if TYPE_CHECKING:
    from boneyard.games.obonto.rules import ObontoGame

MOBILITY_WEIGHT = 0.5


def board_from_observation(observation: dict[str, Any]) -> tuple[int, list[int]]:
    """(dark bitmask, six animal squares) of an observation."""
    dark = 0
    for name in observation["dark"]:
        dark |= 1 << GRID.parse(name)
    animals = [
        GRID.parse(seat_animals[kind]) for seat_animals in observation["animals"] for kind in KINDS
    ]
    return dark, animals


def reachable_light(dark: int, animals: list[int], seat: int) -> int:
    """How many light empty squares ``seat``'s animals can reach by any chain of light squares."""
    occupied = 0
    for square in animals:
        occupied |= 1 << square
    seen = 0
    frontier = [animals[seat * 3 + kind] for kind in range(3)]
    for square in frontier:
        seen |= 1 << square
    while frontier:
        square = frontier.pop()
        for neighbour in GRID.orthogonal_neighbours[square]:
            bit = 1 << neighbour
            if not (seen | dark) & bit:
                seen |= bit
                frontier.append(neighbour)
    return bin(seen & ~occupied & ((1 << SQUARES) - 1)).count("1")


def evaluate(game: ObontoGame, observation: dict[str, Any], seat: int) -> float:
    """A value of the observed position for ``seat``, inside ``game.utility_range()``."""
    from boneyard.games.obonto.rules import moves_of

    low, high = game.utility_range()
    totals = observation["totals"]
    value = float(totals[seat] - totals[1 - seat])
    phase = observation["phase"]
    if phase != "over":
        dark, animals = board_from_observation(observation)
        occupied = 0
        for square in animals:
            occupied |= 1 << square
        if phase == "solo":
            winner = 1 - observation["loser"]
            points = 1 + observation["solo_moves"] + 0.5 * reachable_light(dark, animals, winner)
            value += points if winner == seat else -points
        else:
            own = len(moves_of(animals, seat, dark, occupied))
            other = len(moves_of(animals, 1 - seat, dark, occupied))
            value += MOBILITY_WEIGHT * (own - other)
    return max(low, min(high, value))
