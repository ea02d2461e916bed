"""Race's action ids and strings.

A player adds 1 or 2: ids 0 (``+1``) and 1 (``+2``). A coin shows 0 or 1: chance outcomes 0
(``coin 0``) and 1 (``coin 1``). Ids never change meaning.
"""

from __future__ import annotations

from boneyard.core.errors import InvalidActionStringError

MOVES = ("+1", "+2")
COINS = ("coin 0", "coin 1")


def action_to_string(action: int, coin: bool) -> str:
    """The string of ``action``; ``coin``: whether it is a chance outcome."""
    names = COINS if coin else MOVES
    if not 0 <= action < len(names):
        raise ValueError(f"no race action {action}")
    return names[action]


def string_to_action(text: str, coin: bool) -> int:
    """The id of ``text`` (already lower case, spaces folded); a bad string says what is allowed."""
    names = COINS if coin else MOVES
    if text not in names:
        raise InvalidActionStringError(f"bad action {text!r}; allowed: {', '.join(names)}")
    return names.index(text)
