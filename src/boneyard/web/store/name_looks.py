"""How an account's name looks, kept beside it (``accounts.look``), so that no other name that
looks like it (a guest's, a seat's, a new account's) is taken anywhere: one indexed look-up.

An ``accounts`` table made before names had a look gets its column, its index and each
account's look from the first migration (``store/migrations/versions/0001_baseline.py``).
"""

from __future__ import annotations

from boneyard.web.names import normal_form, skeleton

LOOK_LENGTH = 200
"""The longest ``name_look`` kept (a skeleton may be longer than its name: "m" looks like "rn")."""


def name_look(name: str) -> str:
    """How a name looks: its confusable skeleton (``names.skeleton``), case folded, so "alice",
    "Alice", "a1ice" and Cyrillic "аlice" look the same."""
    return skeleton(normal_form(name).casefold()).casefold()[:LOOK_LENGTH]
