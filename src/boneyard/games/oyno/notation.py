"""Action ids and strings of both OYNO games.

Cells are grid indices ``rank0 * size + file0``; ``N = size * size`` (25 on 5x5).

Puzzle (``oyno_puzzle``), player actions:
    ``X * N + Y``            ``b2-d4``: the up bone on X moves to the empty cell Y.
Puzzle chance outcomes (the random set-up, dealt bone by bone: a cell, then its side):
    ``c``  (0 .. N-1)        ``bone b2``: the next bone lands on cell c.
    ``N``                    ``down``: that bone lies down.
    ``N + 1``                ``up``: that bone stands up.
    ``t``  (0 .. 1023)       ``puzzle 17``: ticket t of a ``difficulty`` game (one chance event).

Two-player (``oyno``), player actions:
    ``c``                    ``place b2``
    ``N + c``                ``place b2 wild``
    ``2N + X * N + Y``       ``move b2-d4``
    ``2N + N*N + X * N + Y`` ``move b2-d4 wild``
    ``2N + 2N*N + c``        ``flip b2``
Two-player chance outcomes (a wild roll): ``0`` ``down``, ``1`` ``up``.
"""

from __future__ import annotations

from boneyard.core.errors import InvalidActionStringError
from boneyard.games.oyno.board import Board

DIFFICULTY_TICKETS = 1024
"""Chance outcomes of a ``difficulty`` puzzle's set-up: one ticket each, probability 1/1024."""

ROLL_DOWN = 0
ROLL_UP = 1


def parse_cell(geometry: Board, text: str, what: str) -> int:
    """A resting cell's index from its name; the center or an off-board name is refused."""
    cell = geometry.grid.parse(text)
    if cell == geometry.center:
        raise InvalidActionStringError(
            f"{text!r} is the center: no bone rests there ({what}); "
            f"cells are a1 to {geometry.grid.names[-1]} except {geometry.name(geometry.center)}"
        )
    return cell


def parse_move(geometry: Board, text: str, example: str) -> tuple[int, int]:
    """``'b2-d4'`` -> (from, to)."""
    parts = text.split("-")
    if len(parts) != 2:
        raise InvalidActionStringError(
            f"bad move {text!r}: write the two cells joined by '-', for example {example!r}"
        )
    return parse_cell(geometry, parts[0], "from"), parse_cell(geometry, parts[1], "to")


# ----- puzzle --------------------------------------------------------------------------------


def puzzle_action_to_string(geometry: Board, action: int) -> str:
    n = geometry.cells
    start, end = divmod(action, n)
    if not 0 <= start < n:
        raise ValueError(f"no OYNO puzzle action {action}: ids are 0 to {n * n - 1}")
    return f"{geometry.name(start)}-{geometry.name(end)}"


def puzzle_string_to_action(geometry: Board, text: str) -> int:
    start, end = parse_move(geometry, text, "b2-d4")
    return start * geometry.cells + end


def puzzle_chance_to_string(geometry: Board, outcome: int, difficulty: bool) -> str:
    n = geometry.cells
    if difficulty:
        if not 0 <= outcome < DIFFICULTY_TICKETS:
            raise ValueError(
                f"no puzzle ticket {outcome}: tickets are 0 to {DIFFICULTY_TICKETS - 1}"
            )
        return f"puzzle {outcome}"
    if 0 <= outcome < n:
        return f"bone {geometry.name(outcome)}"
    if outcome == n:
        return "down"
    if outcome == n + 1:
        return "up"
    raise ValueError(f"no OYNO set-up outcome {outcome}: outcomes are 0 to {n + 1}")


def puzzle_string_to_chance(geometry: Board, text: str, difficulty: bool) -> int:
    n = geometry.cells
    if text == "down":
        return n
    if text == "up":
        return n + 1
    word, _, rest = text.partition(" ")
    if word == "bone" and rest:
        return geometry.grid.parse(rest)
    if word == "puzzle" and rest.isdigit():
        ticket = int(rest)
        if ticket < DIFFICULTY_TICKETS:
            return ticket
    tickets = f", 'puzzle 0' to 'puzzle {DIFFICULTY_TICKETS - 1}'" if difficulty else ""
    raise InvalidActionStringError(
        f"bad set-up outcome {text!r}: outcomes are 'bone b2', 'up', 'down'{tickets}"
    )


# ----- two-player ----------------------------------------------------------------------------


def duel_action_to_string(geometry: Board, action: int) -> str:
    n = geometry.cells
    if 0 <= action < n:
        return f"place {geometry.name(action)}"
    if n <= action < 2 * n:
        return f"place {geometry.name(action - n)} wild"
    base = 2 * n
    if base <= action < base + 2 * n * n:
        wild, code = divmod(action - base, n * n)
        start, end = divmod(code, n)
        return f"move {geometry.name(start)}-{geometry.name(end)}" + (" wild" if wild else "")
    base += 2 * n * n
    if base <= action < base + n:
        return f"flip {geometry.name(action - base)}"
    raise ValueError(f"no OYNO action {action}: ids are 0 to {base + n - 1}")


def duel_string_to_action(geometry: Board, text: str) -> int:
    n = geometry.cells
    words = text.split(" ")
    wild = len(words) == 3 and words[2] == "wild"
    if len(words) in (2, 3) and (len(words) == 2 or wild):
        kind, target = words[0], words[1]
        if kind == "place":
            return parse_cell(geometry, target, "place") + (n if wild else 0)
        if kind == "move":
            start, end = parse_move(geometry, target, "move b2-d4")
            return 2 * n + (n * n if wild else 0) + start * n + end
        if kind == "flip" and not wild:
            return 2 * n + 2 * n * n + parse_cell(geometry, target, "flip")
    raise InvalidActionStringError(
        f"bad action {text!r}: actions are 'place b2', 'move b2-d4', 'flip b2', and with the "
        "wild variant 'place b2 wild', 'move b2-d4 wild'"
    )


def roll_to_string(outcome: int) -> str:
    if outcome == ROLL_DOWN:
        return "down"
    if outcome == ROLL_UP:
        return "up"
    raise ValueError(f"no roll outcome {outcome}: 0 (down) or 1 (up)")


def string_to_roll(text: str) -> int:
    if text == "down":
        return ROLL_DOWN
    if text == "up":
        return ROLL_UP
    raise InvalidActionStringError(f"bad roll {text!r}: a roll is 'up' or 'down'")
