"""Puzzle set-ups by difficulty: the optimal solution takes exactly K moves.

A ``difficulty`` game deals its set-up in one chance event with 1024 equally likely *tickets*.
Ticket ``t`` stands for one set-up, drawn by a generator seeded by ``(size, bones, K, t)``:

- usually by rejection sampling: legal set-ups are drawn uniformly (random distinct cells, sides
  uniform among the patterns with at least one up and one down bone) and the first whose optimal
  length (by :func:`boneyard.games.oyno.search.solve_masks`) is exactly K is the ticket's set-up;
- for the difficulties rarer than 1 in 200 set-ups on the default 5x5 board (the longest optimal
  solutions), by a uniform pick from the complete list of those set-ups, which the exhaustive
  analysis wrote to ``data/rare_5x5.npz`` (``oyno_analysis.write_rare_setups``).

Either way each ticket is an independent uniform draw among the set-ups of difficulty K, the
mapping never changes, and the chance node lists all its outcomes with exact probabilities.
"""

from __future__ import annotations

import math
import random
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

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


RARE_FILE = Path(__file__).with_name("data") / "rare_5x5.npz"


@cache
def _rare_lists(size: int) -> dict[str, npt.NDArray[np.int32]]:
    if size != 5 or not RARE_FILE.exists():
        return {}
    with np.load(RARE_FILE) as data:
        return {key: data[key] for key in data.files}


def rare_setups(size: int, bones: int, difficulty: int) -> npt.NDArray[np.int32] | None:
    """Every set-up of a rare difficulty as analysis position indices, or None if not listed."""
    return _rare_lists(size).get(f"b{bones}_k{difficulty}")


def colex_unrank(rank: int, k: int) -> list[int]:
    """The sorted k-subset of colex rank ``rank`` (inverse of ``oyno_analysis.colex_rank``)."""
    cells = []
    for j in range(k, 0, -1):
        c = j - 1
        while math.comb(c + 1, j) <= rank:
            c += 1
        cells.append(c)
        rank -= math.comb(c, j)
    return cells[::-1]


def decode_position(size: int, bones: int, index: int) -> tuple[int, int]:
    """Grid masks ``(occupied, up)`` of an analysis position index (see ``oyno_analysis``)."""
    resting = board(size).resting
    rank, sides = index >> bones, index & ((1 << bones) - 1)
    cells = [resting[c] for c in colex_unrank(rank, bones)]
    occupied = sum(1 << c for c in cells)
    up = sum(1 << c for j, c in enumerate(cells) if (sides >> j) & 1)
    return occupied, up


@lru_cache(maxsize=4096)
def ticket_setup(size: int, bones: int, difficulty: int, ticket: int) -> tuple[int, int]:
    """The set-up of ``ticket`` for a game of ``difficulty`` (cached; raises DifficultyError)."""
    rng = random.Random(f"oyno-difficulty/{size}/{bones}/{difficulty}/{ticket}")
    listed = rare_setups(size, bones, difficulty)
    if listed is not None:
        return decode_position(size, bones, int(listed[rng.randrange(len(listed))]))
    for _ in range(MAX_DRAWS):
        occupied, up = random_setup(size, bones, rng)
        solution = solve_masks(size, occupied, up, max_length=difficulty)
        if solution is not None and len(solution) == difficulty:
            return occupied, up
    if ticket != 0:
        # The game checked ticket 0 when it was loaded; a ticket that found nothing (only
        # possible for very rare difficulties on boards without lists) deals ticket 0's set-up
        # rather than fail in the middle of a game.
        return ticket_setup(size, bones, difficulty, 0)
    raise DifficultyError(
        f"no set-up of {bones} bones on {size}x{size} solved in exactly {difficulty} moves "
        f"was found in {MAX_DRAWS} random set-ups; choose a smaller difficulty"
    )
