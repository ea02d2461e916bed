"""What ``Game.evaluate`` and the observation tensors of both OYNO games use.

Both read only an observation dict (what the seat may see), never a state.
"""

from __future__ import annotations

from boneyard.core.game import Observation


def _cells(position: str) -> list[str]:
    """The characters of a position, cell by cell from a1 (rank by rank, files left to right)."""
    ranks = position.split("/")
    return [char for rank in reversed(ranks) for char in rank]


def puzzle_value(observation: Observation) -> float:
    """1 when solved; otherwise the fraction of bones up, scaled below the solved value."""
    if observation["solved"]:
        return 1.0
    bones = observation["bones"]
    ups = sum(1 for char in _cells(observation["position"]) if char == "U")
    return 0.9 * ups / bones if bones else 0.0


def puzzle_tensor(observation: Observation) -> list[float]:
    """Three planes of size x size, from a1: up bones, down bones, empty resting cells."""
    cells = _cells(observation["position"])
    up = [1.0 if c == "U" else 0.0 for c in cells]
    down = [1.0 if c == "D" else 0.0 for c in cells]
    empty = [1.0 if c == "." else 0.0 for c in cells]
    return up + down + empty


_OWN_CHARS = ("RrWw", "WwRr")


def duel_value(observation: Observation, seat: int) -> float:
    """A value in (-1, 1) for ``seat``: placed-and-up progress of its bones against the other's.

    Each side's progress is (bones on the board and up) / bones_per_player; the difference is
    scaled by 0.9 so a finished game (+-1) always counts more.
    """
    winner = observation.get("winner")
    if winner is not None:
        return 1.0 if winner == seat else -1.0
    if observation.get("draw"):
        return 0.0
    chars = _OWN_CHARS[seat]
    own_up, other_up = chars[0], chars[2]
    cells = _cells(observation["position"])
    per_player = observation["bones_per_player"]
    mine = sum(1 for c in cells if c == own_up)
    theirs = sum(1 for c in cells if c == other_up)
    return 0.9 * (mine - theirs) / per_player


def duel_tensor(observation: Observation) -> list[float]:
    """Five planes of size x size from a1: red up, red down, white up, white down, empty; then
    both supplies (as fractions of bones_per_player) and the player to move (1.0 for white)."""
    cells = _cells(observation["position"])
    planes: list[float] = []
    for char in "RrWw.":
        planes.extend(1.0 if c == char else 0.0 for c in cells)
    per_player = observation["bones_per_player"]
    supply = observation["supply"]
    planes.append(supply[0] / per_player)
    planes.append(supply[1] / per_player)
    planes.append(1.0 if observation["current_player"] == 1 else 0.0)
    return planes
