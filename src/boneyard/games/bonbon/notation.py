"""Bon-Bon notation: action ids and their strings.

Player actions (the same ids for every deck and player count, ``NUM_ACTIONS`` in all):

======  ==============  =====================================================
id      string          meaning
======  ==============  =====================================================
0       ``pass``        stop taking cards this round
1       ``draw``        take a card (also: take another after an empty wrapper)
2       ``up``          play the drawn card face up
3       ``down``        play the drawn card face down
4       ``end``         after an empty wrapper: take no more cards this turn
5-10    ``gift S``      put the gift at the end of seat S's run (S = 0..5)
11-16   ``catch S``     seat S reveals its trailing face-down cards (S = 0..5)
17-26   ``bonus V``     pass as the first to pass, taking the tile worth V (V = 0..9)
======  ==============  =====================================================

Chance outcomes: a card draw or a peek is ``card L`` with L the kind's label, its id given by the
deck (see ``deck.py``: plain ``v`` is ``v``, face-up-only ``v!`` is ``V + 1 + v``, then wrapper,
peek, second, gift, caught). After those come the bonus tile draws ``tiles a b c`` (a <= b <= c),
one id for every such triple of values 0..T, T the highest tile value, in lexicographic order.
"""

from __future__ import annotations

import itertools

PASS = 0
DRAW = 1
UP = 2
DOWN = 3
END = 4
GIFT = 5
CATCH = 11
BONUS = 17
MAX_SEATS = 6
MAX_TILE_VALUE = 9
NUM_ACTIONS = BONUS + MAX_TILE_VALUE + 1

_WORDS = {"pass": PASS, "draw": DRAW, "up": UP, "down": DOWN, "end": END}
_NAMES = {v: k for k, v in _WORDS.items()}


def player_action_to_string(action: int) -> str:
    if action in _NAMES:
        return _NAMES[action]
    if GIFT <= action < GIFT + MAX_SEATS:
        return f"gift {action - GIFT}"
    if CATCH <= action < CATCH + MAX_SEATS:
        return f"catch {action - CATCH}"
    if BONUS <= action < NUM_ACTIONS:
        return f"bonus {action - BONUS}"
    raise ValueError(f"no Bon-Bon player action has id {action}")


def parse_player_action(text: str) -> int | None:
    """The id of a player action string, or None if ``text`` is not one."""
    if text in _WORDS:
        return _WORDS[text]
    word, _, rest = text.partition(" ")
    if not rest.isdigit():
        return None
    number = int(rest)
    if word == "gift" and number < MAX_SEATS:
        return GIFT + number
    if word == "catch" and number < MAX_SEATS:
        return CATCH + number
    if word == "bonus" and number <= MAX_TILE_VALUE:
        return BONUS + number
    return None


def tile_triples(top: int) -> list[tuple[int, int, int]]:
    """Every ascending triple of tile values 0..top, in id order."""
    return list(itertools.combinations_with_replacement(range(top + 1), 3))


def parse_tiles(text: str) -> tuple[int, ...] | None:
    """``"1,1,2,2,3,3"`` -> (1, 1, 2, 2, 3, 3), or None if malformed."""
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() for part in parts):
        return None
    return tuple(int(part) for part in parts)


def check_tiles(text: str) -> str | None:
    """The ``tiles`` parameter's check."""
    values = parse_tiles(text)
    if values is None or not 3 <= len(values) <= 12:
        return "3 to 12 tile values separated by commas, like 1,1,2,2,3,3"
    if max(values) > MAX_TILE_VALUE:
        return f"tile values are 0 to {MAX_TILE_VALUE}"
    return None
