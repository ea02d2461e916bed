"""Small helpers for the words games show people (their ``prompt`` modules use them).

Standard library only: phrasing counts, lists and names the same way in every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


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


def winners_of(returns: Sequence[float]) -> list[int]:
    """The seats with the best return; every seat when all are equal."""
    best = max(returns)
    return [seat for seat, value in enumerate(returns) if value == best]
