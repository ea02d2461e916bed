"""Puzzle set-ups by difficulty: the optimal solution takes exactly K moves.

A ``difficulty`` game deals its set-up in one chance event with 1024 equally likely *tickets*.
Ticket ``t`` stands for one set-up, found by rejection sampling from a generator seeded by
``(size, bones, K, t)``: legal set-ups are drawn uniformly (random distinct cells, sides uniform
among the patterns with at least one up and one down bone) and the first whose optimal length
(by :func:`boneyard.games.oyno.search.solve_masks`) is exactly K is the ticket's set-up. Each
ticket is therefore an independent uniform draw among the set-ups of difficulty K, the mapping
never changes, and the chance node lists all its outcomes with exact probabilities.
"""

from __future__ import annotations

import random
from functools import lru_cache

from boneyard.games.oyno.board import board
from boneyard.games.oyno.search import solve_masks

MAX_DRAWS = 20_000
"""Draws tried for one ticket before the difficulty counts as out of reach."""


class DifficultyError(ValueError):
    """No set-up of the requested difficulty was found."""


def random_setup(size: int, bones: int, rng: random.Random) -> tuple[int, int]:
    """A uniform legal set-up: (occupied, up) masks with at least one up and one down bone."""
    geometry = board(size)
    cells = rng.sample(geometry.resting, bones)
    occupied = sum(1 << c for c in cells)
    while True:
        up = sum(1 << c for c in cells if rng.random() < 0.5)
        if up and up != occupied:
            return occupied, up


@lru_cache(maxsize=4096)
def ticket_setup(size: int, bones: int, difficulty: int, ticket: int) -> tuple[int, int]:
    """The set-up of ``ticket`` for a game of ``difficulty`` (cached; raises DifficultyError)."""
    rng = random.Random(f"oyno-difficulty/{size}/{bones}/{difficulty}/{ticket}")
    for _ in range(MAX_DRAWS):
        occupied, up = random_setup(size, bones, rng)
        solution = solve_masks(size, occupied, up, max_length=difficulty)
        if solution is not None and len(solution) == difficulty:
            return occupied, up
    raise DifficultyError(
        f"no set-up of {bones} bones on {size}x{size} solved in exactly {difficulty} moves "
        f"was found in {MAX_DRAWS} random set-ups; choose a smaller difficulty"
    )
