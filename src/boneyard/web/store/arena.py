"""An arena tournament's rules, as lichess runs them: who plays whom next, and what a result scores.

Pure functions over plain data, so that the store (``web/store/tournaments.py``) applies them
inside its transactions and the tests check them alone.

- Pairing: whoever is free is paired with the free player nearest in score (the highest scores
  first; among equal scores, who has waited longest), never with the opponent of their last
  game when someone else can be had (and rather with one whose last game was with the other
  than with one both of whose were: a third player is not left out). A player left over (an
  odd count) waits for the next game to end. Two players whose only possible opponent is each
  other again wait too, while anyone else is still playing, for as long as one game of the
  arena's clock may last (``rematch_wait``): an owner and a sock account are not paired again
  and again while an honest pair plays a slow game.
- Points: a win 2, a draw 1, a loss 0; after two wins in a row a player is on a streak, and
  while on it a win counts 4 and a draw 2 (a draw or a loss ends the streak). A game scores
  only once each side made ``MOVES_TO_SCORE`` moves (``scores``): a resignation before
  moving, as lichess aborts a game before each side moved, gives nobody points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIN, DRAW, LOSS = 2, 1, 0
STREAK_AFTER = 2
"""Wins in a row after which wins (and draws) count double."""
REMATCH_WAIT_SECONDS = 20.0
"""The least that two free players whose only choice is a rematch wait for someone else."""
MOVES_TO_SCORE = 1
"""The moves each side makes before a game of the arena counts (fewer: no points)."""


@dataclass(frozen=True)
class Entrant:
    """A free player as the pairing sees them."""

    account_id: str
    score: int
    last_opponent: str | None
    free_since: float
    firsts: int = 0
    """Games played in the first seat (the one who has had it less gets it)."""


def rematch_wait(clock: dict[str, Any]) -> float:
    """How long a rematch waits for someone else to be free, with an arena's ``clock``: as
    long as a game without increments lasts at most (both sides' time), at least
    ``REMATCH_WAIT_SECONDS``."""
    return max(REMATCH_WAIT_SECONDS, 2.0 * float(clock.get("initial", 0)))


def scores(moves_by_seat: list[int]) -> bool:
    """Whether a finished game counts, by the moves each seat made in it."""
    return len(moves_by_seat) >= 2 and min(moves_by_seat) >= MOVES_TO_SCORE


def pair(
    free: list[Entrant], playing: int, now: float, wait: float = REMATCH_WAIT_SECONDS
) -> list[tuple[str, str]]:
    """The games to start now among ``free``, each ``(first seat, second seat)`` account ids;
    ``playing``: how many are in a game still (they may be free soon); ``wait``: how long a
    rematch waits for them (``rematch_wait``)."""
    waiting = sorted(free, key=lambda e: (-e.score, e.free_since, e.account_id))
    pairs: list[tuple[Entrant, Entrant]] = []
    while len(waiting) >= 2:
        top = waiting.pop(0)
        # someone new first; then one whose last game was with the other but not both ways (a
        # third player is not left out while two play each other again and again)
        partner = min(
            waiting, key=lambda e: (_repeats(top, e), abs(e.score - top.score), e.free_since)
        )
        if (
            _repeats(top, partner)
            and playing > 0
            and now - max(top.free_since, partner.free_since) < wait
        ):
            continue  # their last opponent is the only choice: wait for others to be free
        waiting.remove(partner)
        pairs.append((top, partner))
    return [_seated(a, b) for a, b in pairs]


def _repeats(a: Entrant, b: Entrant) -> int:
    """How many of the two played the other in their last game (0, 1 or 2)."""
    return int(a.last_opponent == b.account_id) + int(b.last_opponent == a.account_id)


def _seated(a: Entrant, b: Entrant) -> tuple[str, str]:
    return (a.account_id, b.account_id) if a.firsts <= b.firsts else (b.account_id, a.account_id)


def outcome(returns: list[float], seat: int) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` of ``seat`` in a two-player game's ``returns``."""
    mine, theirs = returns[seat], returns[1 - seat]
    return "win" if mine > theirs else "loss" if mine < theirs else "draw"


def points(result: str, streak: int) -> tuple[int, int]:
    """``(points scored, the streak after)`` for ``result`` by a player with ``streak`` wins
    in a row before it."""
    on_fire = streak >= STREAK_AFTER
    if result == "win":
        return (WIN * 2 if on_fire else WIN), streak + 1
    if result == "draw":
        return (DRAW * 2 if on_fire else DRAW), 0
    return LOSS, 0
