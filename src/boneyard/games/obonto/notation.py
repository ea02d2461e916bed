"""Obonto notation: squares, action ids and strings, animal placements and full positions.

Squares are algebraic on the 9x9 board (``a1`` .. ``i9``); a square's index is
``rank0 * 9 + file0`` (``a1`` = 0, ``i9`` = 80).

* An action moves one animal: ``"d1-d2"`` (from-to), id ``from_index * 81 + to_index``.
* A *placement* (the ``start`` parameter) names the six animals' squares in a fixed order:
  seat 0's lion, zebra, camel, then seat 1's lion, zebra, camel, separated by commas
  (spaces or a ``/`` also work). The usual start is ``"d1,e1,f1,f9,e9,d9"``.
* A *position* is the whole board, FEN-like: the ranks from 9 down to 1 separated by ``/``,
  one character a square (``.`` light and empty, ``#`` dark, ``L Z C`` seat 0's lion, zebra and
  camel, ``l z c`` seat 1's), then a space and the seat to move (``0`` or ``1``).
"""

from __future__ import annotations

import re

from boneyard.core.errors import InvalidActionStringError, InvalidPositionError
from boneyard.core.squares import grid

SIZE = 9
SQUARES = SIZE * SIZE
GRID = grid(SIZE, SIZE)
NAMES: list[str] = GRID.names

KINDS = ("lion", "zebra", "camel")
"""Animal kinds in their fixed order; kind ``k`` moves exactly ``k + 1`` steps."""
STEPS = (1, 2, 3)
LETTERS = ("LZC", "lzc")
"""The letters of each seat's animals (seat 0 upper case, seat 1 lower case)."""

START_DARK = ("c3", "g3", "c7", "g7")
"""The squares that are dark at the start of every game."""
START_PLACEMENT = "d1,e1,f1,f9,e9,d9"

NUM_ACTIONS = SQUARES * SQUARES

_ACTION = re.compile(r"^([a-z]+[0-9]+)-([a-z]+[0-9]+)$")


def square_index(name: str) -> int:
    """``'a1' -> 0``, ``'i9' -> 80``; anything else raises InvalidActionStringError."""
    return GRID.parse(name)


def action_id(from_square: int, to_square: int) -> int:
    """The id of the move from ``from_square`` to ``to_square`` (square indices)."""
    return from_square * SQUARES + to_square


def action_to_string(action: int) -> str:
    """``action_to_string(3 * 81 + 12) == 'd1-d2'``."""
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"no obonto action {action!r}: action ids are 0 to {NUM_ACTIONS - 1}")
    origin, target = divmod(action, SQUARES)
    return f"{NAMES[origin]}-{NAMES[target]}"


def string_to_action(text: str) -> int:
    """``'d1-d2' -> 255``; malformed text raises InvalidActionStringError saying what is allowed."""
    match = _ACTION.match(text.strip().lower())
    if match is None:
        raise InvalidActionStringError(
            f"bad obonto move {text!r}: write the animal's square and its target square "
            "joined by '-', for example d1-d2 (squares a1 to i9)"
        )
    try:
        origin, target = (GRID.parse(name) for name in match.groups())
    except InvalidActionStringError as error:
        raise InvalidActionStringError(f"bad obonto move {text!r}: {error}") from None
    return action_id(origin, target)


def start_dark_mask() -> int:
    """Bitmask (bit = square index) of the squares dark at the start of a game."""
    mask = 0
    for name in START_DARK:
        mask |= 1 << GRID.parse(name)
    return mask


def parse_placement(text: str, *, start_squares_only: bool = True) -> tuple[int, ...]:
    """Parse a placement into six square indices (seat 0 L, Z, C, seat 1 L, Z, C).

    Raises InvalidPositionError naming what is wrong. With ``start_squares_only`` (the ``start``
    parameter) no animal may stand on a square that is dark at the start of a game.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"a placement is text, not {type(text).__name__}")
    words = [word for word in re.split(r"[\s,/]+", text.strip().lower()) if word]
    order = [f"seat {seat}'s {kind}" for seat in (0, 1) for kind in KINDS]
    if len(words) != 6:
        raise InvalidPositionError(
            f"bad placement {text!r}: it names 6 squares ({', '.join(order)}), "
            f"for example {START_PLACEMENT!r}; got {len(words)}"
        )
    squares: list[int] = []
    for word, who in zip(words, order):
        try:
            index = GRID.parse(word)
        except InvalidActionStringError:
            raise InvalidPositionError(
                f"bad placement {text!r}: {word!r} ({who}) is not a square; squares are a1 to i9"
            ) from None
        if start_squares_only and NAMES[index] in START_DARK:
            raise InvalidPositionError(
                f"bad placement {text!r}: {who} stands on {word}, which is dark at the start "
                f"(dark squares: {', '.join(START_DARK)})"
            )
        if index in squares:
            other = order[squares.index(index)]
            raise InvalidPositionError(
                f"bad placement {text!r}: {who} and {other} both stand on {word}"
            )
        squares.append(index)
    return tuple(squares)


def placement_problem(text: str) -> str | None:
    """The problem with a placement, or None when it is fine (for the parameter's ``check``)."""
    try:
        parse_placement(text)
    except InvalidPositionError as error:
        return str(error)
    return None


def format_placement(animals: list[int] | tuple[int, ...]) -> str:
    """Six square indices as a placement string (the inverse of ``parse_placement``)."""
    return ",".join(NAMES[index] for index in animals)


def format_position(dark: int, animals: list[int] | tuple[int, ...], to_move: int) -> str:
    """The board as a position string (see the module docstring)."""
    cells = ["#" if dark >> index & 1 else "." for index in range(SQUARES)]
    for slot, index in enumerate(animals):
        cells[index] = LETTERS[slot // 3][slot % 3]
    ranks = ["".join(cells[rank * SIZE : rank * SIZE + SIZE]) for rank in range(SIZE - 1, -1, -1)]
    return "/".join(ranks) + f" {to_move}"


def parse_position(text: str) -> tuple[int, tuple[int, ...], int]:
    """Parse a position string into (dark mask, six animal squares, seat to move).

    Raises InvalidPositionError naming what is wrong.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position is text, not {type(text).__name__}")
    parts = text.split()
    if len(parts) != 2 or parts[1] not in ("0", "1"):
        raise InvalidPositionError(
            f"bad position {text!r}: write 9 ranks (9 down to 1) separated by '/', a space, "
            "and the seat to move (0 or 1)"
        )
    ranks = parts[0].split("/")
    if len(ranks) != SIZE:
        raise InvalidPositionError(f"bad position {text!r}: it needs 9 ranks, got {len(ranks)}")
    dark = 0
    animals: list[int | None] = [None] * 6
    for row, rank_text in enumerate(ranks):
        rank = SIZE - 1 - row
        if len(rank_text) != SIZE:
            raise InvalidPositionError(
                f"bad position {text!r}: rank {rank + 1} has {len(rank_text)} squares, not 9"
            )
        for file, char in enumerate(rank_text):
            index = rank * SIZE + file
            if char == "#":
                dark |= 1 << index
            elif char != ".":
                _place_animal(text, animals, index, char)
    missing = [
        f"seat {slot // 3}'s {KINDS[slot % 3]}"
        for slot, where in enumerate(animals)
        if where is None
    ]
    if missing:
        raise InvalidPositionError(f"bad position {text!r}: missing {', '.join(missing)}")
    return dark, tuple(index for index in animals if index is not None), int(parts[1])


def _place_animal(text: str, animals: list[int | None], index: int, char: str) -> None:
    """Put the animal ``char`` stands for on square ``index`` of a position being read;
    InvalidPositionError for a character that is no animal or an animal seen twice."""
    if char not in LETTERS[0] and char not in LETTERS[1]:
        raise InvalidPositionError(
            f"bad position {text!r}: {char!r} on {NAMES[index]} is not one of "
            "'.' (light), '#' (dark), L Z C (seat 0), l z c (seat 1)"
        )
    seat = 0 if char in LETTERS[0] else 1
    slot = seat * 3 + LETTERS[seat].index(char)
    if animals[slot] is not None:
        raise InvalidPositionError(
            f"bad position {text!r}: seat {seat} has two {KINDS[slot % 3]}s ({char!r})"
        )
    animals[slot] = index
