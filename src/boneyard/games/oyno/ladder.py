"""The puzzle's ladder and its puzzle of the day (oyno.txt: one more bone each level).

Level N deals N + 1 bones (level 1: 2 bones, up to 10 at level 9) on a 5x5 board; the puzzle of
a day is dealt from the date alone, so everyone who asks for the same date gets the same bones.
Each is told with the length of its shortest solution (the optimal solver). The web's
``/ladder`` reads this through the puzzle's spec (``PuzzleLadder``).
"""

from __future__ import annotations

import datetime
import hashlib
import random

from boneyard.core.spec import PuzzleLadder

SIZE = 5
DAILY_BONES = 6


def daily_start(date: str) -> str:
    """The set-up of the puzzle of ``date`` (YYYY-MM-DD): the same for everyone."""
    from boneyard.games.oyno.generator import random_setup
    from boneyard.games.oyno.puzzle import format_puzzle_position

    try:
        day = datetime.date.fromisoformat(date)
    except ValueError:
        raise ValueError(f"a date is written YYYY-MM-DD, not {date!r}") from None
    digest = hashlib.sha256(f"boneyard daily puzzle:{day.isoformat()}".encode()).digest()
    occupied, up = random_setup(SIZE, DAILY_BONES, random.Random(digest))
    return str(format_puzzle_position(SIZE, occupied, up))


def shortest_solution(start: str) -> list[str] | None:
    """The moves of a shortest solution from the set-up ``start``, or ``None``."""
    from boneyard.solvers.oyno_puzzle import solve_position

    return solve_position(start)


LADDER = PuzzleLadder(
    parameter="bones",
    first=2,
    levels=9,
    daily=DAILY_BONES,
    daily_start=daily_start,
    shortest_solution=shortest_solution,
)
