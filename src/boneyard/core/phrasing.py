"""Small helpers for the words games show people (their ``prompt`` modules use them).

Standard library only: phrasing counts, lists and names the same way in every game.
"""

from __future__ import annotations

from collections.abc import Iterable


def capital(text: str) -> str:
    """``text`` with its first letter upper-case (a seat name that starts a sentence)."""
    return text[:1].upper() + text[1:]


def plural(count: int, one: str, many: str | None = None) -> str:
    """``"1 point"``, ``"3 points"``; ``many`` for irregular plurals."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def join_words(words: Iterable[str], last: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def score_pair(first: float, second: float) -> str:
    """``"3-1"``, the higher number first (how people say a result)."""
    high, low = max(first, second), min(first, second)
    return f"{high:g}-{low:g}"


NEAR_LIMIT = 0.9
"""A count past this share of its limit names the limit too."""


def count_toward(count: int, limit: int, then: str = "at most") -> str:
    """A count beside its limit, which is said only once it is near: ``"4"`` for round 4 of
    at most 40 (the limit would only be noise), ``"37 of at most 40"``; ``then`` words the
    limit ("at most", or "then a draw" after it)."""
    if count < NEAR_LIMIT * limit:
        return str(count)
    return f"{count} of {limit}, {then}" if then != "at most" else f"{count} of at most {limit}"
