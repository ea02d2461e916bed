"""The puzzle's ladder and its puzzle of the day (oyno.txt: one more bone each level).

Level N deals N + 1 bones (level 1: 2 bones, up to 10 at level 9) on a 5x5 board; the puzzle of
a day is dealt from the date alone, so everyone who asks for the same date gets the same bones.
The web's ``/ladder`` reads this through the puzzle's spec (``PuzzleLadder``) and tells each
puzzle with the length of its shortest solution, which the game's solver finds
(``boneyard.solvers.shortest_line``: the solvers sit above the games, so the rules never call
them).
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


LADDER = PuzzleLadder(
    parameter="bones",
    first=2,
    levels=9,
    daily=DAILY_BONES,
    daily_start=daily_start,
)
