"""The OYNO puzzle (``oyno_puzzle``): make every bone stand up.

Rules (RULINGS.md, "OYNO board" and "OYNO puzzle"):

- Set-up, a chance process: the bones are dealt one at a time, first the cell (uniform among the
  empty resting cells: ``bone b2``), then the side (``up`` / ``down``). The rule text redraws a
  set-up with no up bone, and with two or more bones one with no down bone; instead of redrawing,
  the side of each bone is dealt with the probability that the redrawn process would give it
  (the number of allowed completions with that side over the number of allowed completions), so
  the set-ups come out with exactly the redraw distribution and every listed outcome has positive
  probability. A single bone is dealt up. ``start`` gives a fixed set-up; ``difficulty=K`` deals
  only set-ups solved in exactly K moves at best (see ``generator``).
- A move (``b2-d4``): an up bone on X goes to the center; the bones adjacent to X are reversed;
  the bone goes up onto the empty resting cell Y (not X); the bones adjacent to Y are reversed.
- Every bone up: solved, return 1. ``max_moves`` moves without that: return 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Annotated, Any, cast

from boneyard.core.errors import InvalidParameterError, InvalidPositionError
from boneyard.core.game import CHANCE, TERMINAL, Game, Observation, State
from boneyard.core.parameters import About, declared_parameters, read_parameters
from boneyard.core.record import Value, declared
from boneyard.games.oyno import notation
from boneyard.games.oyno.board import (
    DEFAULT_SIZE,
    SIZE,
    Board,
    board,
    format_position,
    parse_position,
)
from boneyard.games.oyno.observation import PuzzleObservation

PUZZLE_PIECES = "UD"


def parse_puzzle_position(text: str) -> tuple[int, int, int]:
    """``(size, occupied, up)`` of puzzle notation; raises InvalidPositionError."""
    size, bones = parse_position(text, PUZZLE_PIECES)
    occupied = sum(1 << cell for cell in bones)
    up = sum(1 << cell for cell, char in bones.items() if char == "U")
    return size, occupied, up


def format_puzzle_position(size: int, occupied: int, up: int) -> str:
    geometry = board(size)
    symbols = {c: ("U" if (up >> c) & 1 else "D") for c in geometry.cells_of(occupied)}
    return format_position(size, symbols)


def _check_start(text: str) -> str | None:
    try:
        size, occupied, up = parse_puzzle_position(text)
    except InvalidPositionError as error:
        return str(error)
    count = bin(occupied).count("1")
    resting = size * size - 1
    if not 1 <= count <= resting - 1:
        return f"a puzzle has 1 to {resting - 1} bones on {size}x{size}, this start has {count}"
    if up == 0:
        return "a puzzle needs at least one up bone (with none, no move is possible)"
    return None


def _completions(has_up: bool, has_down: bool, remaining: int, need_down: bool) -> int:
    """Side patterns of the ``remaining`` bones that give an allowed set-up."""
    count = 1 << remaining
    if not has_up:
        count -= 1
    if need_down and not has_down:
        count -= 1
    return max(count, 0)


@dataclass(frozen=True)
class PuzzleParameters:
    """OynoPuzzle's parameters, declared once: the form's fields and the rules' typed view."""

    size: Annotated[int, SIZE] = DEFAULT_SIZE
    bones: Annotated[
        int,
        About(
            "bones dealt (1 to the resting cells minus 1)",
            minimum=1,
            maximum=623,
            question="How many bones? (more bones, harder puzzles)",
        ),
    ] = 8
    max_moves: Annotated[
        int,
        About(
            "moves before an unsolved puzzle ends with 0",
            minimum=1,
            advanced=True,
            question="Give up after how many moves?",
        ),
    ] = 200
    start: Annotated[
        str | None,
        About(
            "a fixed set-up in position notation (sets size and "
            "bones), e.g. U...D/.D.../..o../...U./D...U",
            check=_check_start,
            advanced=True,
            question="Start from this position instead of a random deal (U up, D down, . empty)",
        ),
    ] = None
    difficulty: Annotated[
        int,
        About(
            "0: a random set-up; K: only set-ups whose optimal solution takes exactly K moves",
            minimum=0,
            maximum=100,
            question="How many moves should the best solution take? (0: any puzzle)",
        ),
    ] = 0


class OynoPuzzle(Game):
    """The one-player OYNO puzzle."""

    name = "oyno_puzzle"
    title = "OYNO puzzle"
    rules_version = 1  # raise it when a change of the rules changes what stored actions mean
    min_players = 1
    max_players = 1
    chance = True
    perfect_information = True
    rules_page = "oyno"
    seat_names = ("player",)
    pitch = "Every move turns the bones around it over: can you make them all stand up?"
    how_to_play = (
        "Each bone on the board is up (standing) or down (lying flat). Your goal: every bone up.",
        "A move picks up a bone that is up and puts it, up, on another empty cell. No bone ever "
        "rests on the round center cell.",
        "Picking it up turns over every bone next to the cell it left; putting it down turns "
        "over every bone next to the cell where it lands. Turned over, up becomes down and down "
        "becomes up.",
        "Down bones cannot be picked up. Solve it in as few moves as you can.",
    )
    text_styles = {"U": "bold green", "D": "yellow", "o": "grey50"}
    parameters = declared_parameters(PuzzleParameters)
    conformance_variants = (
        {},
        {"size": 3, "bones": 1},
        {"size": 3, "bones": 4},
        {"size": 3, "bones": 7, "max_moves": 60},
        {"size": 5, "bones": 12, "max_moves": 40},
        {"size": 7, "bones": 5, "max_moves": 60},
        {"start": "U...D/.D.../..o../...U./D...U"},
        {"size": 3, "bones": 5, "difficulty": 2},
    )

    def __init__(self, **params: Any) -> None:
        # a start position carries its own board: its size is used unless size is given
        start = params.get("start")
        if isinstance(start, str) and "size" not in params:
            ranks = start.strip().count("/") + 1
            if ranks >= 3 and ranks % 2 == 1:
                params = {**params, "size": ranks}
        super().__init__(**params)

    def _configure(self) -> None:
        options = read_parameters(PuzzleParameters, self.params)
        size = options.size
        self.geometry: Board = board(size)
        self.size = size
        resting = len(self.geometry.resting)
        start = options.start
        self.start: tuple[int, int] | None = None
        self.difficulty = options.difficulty
        if start is not None:
            start_size, occupied, up = parse_puzzle_position(str(start))
            if start_size != size:
                raise InvalidParameterError(
                    f"bad value {start!r} for parameter 'start': it is a "
                    f"{start_size}x{start_size} board but size is {size}"
                )
            if self.difficulty:
                raise InvalidParameterError(
                    "parameters 'start' and 'difficulty' exclude each other: a fixed set-up "
                    "has the difficulty it has"
                )
            self.start = (occupied, up)
            self.bones = bin(occupied).count("1")
        else:
            self.bones = options.bones
            if not 1 <= self.bones <= resting - 1:
                raise InvalidParameterError(
                    f"bad value {self.bones} for parameter 'bones': allowed on {size}x{size} is "
                    f"an integer from 1 to {resting - 1}"
                )
        if self.difficulty:
            self._check_difficulty()
        self.max_moves = options.max_moves
        n = self.geometry.cells
        # move_rows[x][y] is the id of x-y: legal lists are gathered from these rows in C
        self.move_rows = [[x * n + y for y in range(n)] for x in range(n)]

    def _check_difficulty(self) -> None:
        from boneyard.games.oyno.generator import DifficultyError, ticket_setup

        if self.bones < 2:
            raise InvalidParameterError(
                "bad value for parameter 'difficulty': one bone is dealt up, already solved; "
                "a difficulty needs at least 2 bones"
            )
        known = KNOWN_GODS_NUMBERS.get((self.size, self.bones))
        if known is not None and self.difficulty > known:
            raise InvalidParameterError(
                f"bad value {self.difficulty} for parameter 'difficulty': with {self.bones} "
                f"bones on {self.size}x{self.size} every solvable set-up takes at most {known} "
                f"moves; allowed is 1 to {known}"
            )
        rarity = KNOWN_RARE_UNLISTED.get((self.size, self.bones, self.difficulty))
        if rarity is not None:
            raise InvalidParameterError(
                f"bad value {self.difficulty} for parameter 'difficulty': with {self.bones} bones "
                f"on {self.size}x{self.size} only about 1 set-up in {rarity:,} needs exactly "
                f"{self.difficulty} moves, too rare to deal; choose 1 to {self.difficulty - 1}"
            )
        try:
            ticket_setup(self.size, self.bones, self.difficulty, 0)
        except DifficultyError as error:
            raise InvalidParameterError(
                f"bad value {self.difficulty} for parameter 'difficulty': {error}"
            ) from None

    # ----- sizing ---------------------------------------------------------------------------

    def max_game_length(self) -> int:
        if self.start is not None:
            deal = 0
        elif self.difficulty:
            deal = 1
        else:
            deal = 2 * self.bones
        return deal + self.max_moves

    def utility_range(self) -> tuple[float, float]:
        return (0.0, 1.0)

    def num_distinct_actions(self) -> int:
        return self.geometry.cells * self.geometry.cells

    def max_chance_outcomes(self) -> int:
        if self.difficulty:
            return notation.DIFFICULTY_TICKETS
        return self.geometry.cells + 2

    def new_initial_state(self) -> PuzzleState:
        return PuzzleState(self)


KNOWN_GODS_NUMBERS: dict[tuple[int, int], int] = {
    # (size, bones) -> the longest optimal solution, from ``boneyard analyze`` (docs/rules/oyno.md)
    (3, 2): 1,
    (3, 3): 3,
    (3, 4): 3,
    (3, 5): 3,
    (3, 6): 6,
    (3, 7): 5,
    (5, 2): 1,
    (5, 3): 7,
    (5, 4): 6,
    (5, 5): 5,
    (5, 6): 5,
    (5, 7): 6,
    (5, 8): 6,
    (5, 9): 6,
    (5, 10): 6,
}

KNOWN_RARE_UNLISTED: dict[tuple[int, int, int], int] = {
    # (size, bones, K) -> about 1 in how many legal set-ups has difficulty K, for difficulties
    # too rare for rejection sampling that have no complete list in data/rare_5x5.npz
    (5, 9, 5): 5_003,
    (5, 9, 6): 7_248_120,
    (5, 10, 5): 4_122,
    (5, 10, 6): 66_813_454,
}


@declared
class PuzzleState(State):
    """A puzzle position: bit masks of occupied cells and up bones, plus the deal's progress."""

    game: OynoPuzzle

    occupied: Value[int]
    """Bit mask of the occupied cells."""
    up: Value[int]
    """Bit mask of the bones showing their up side."""
    moves: Value[int]
    dealt: Value[int]
    pending: Value[int]
    """The cell of the bone whose side is being dealt, or -1."""
    ups_dealt: Value[int]
    _player: Value[int]

    def __init__(self, game: OynoPuzzle) -> None:
        super().__init__(game)
        self.occupied = 0
        self.up = 0
        self.moves = 0
        self.dealt = 0
        self.pending = -1
        self.ups_dealt = 0
        self._player = CHANCE
        if game.start is not None:
            self.occupied, self.up = game.start
            self.dealt = game.bones
            self._settle()

    def _settle(self) -> None:
        if self.dealt < self.game.bones:
            self._player = CHANCE
        elif self.up == self.occupied or self.moves >= self.game.max_moves:
            self._player = TERMINAL
        else:
            self._player = 0

    # ----- contract hooks ---------------------------------------------------------------------

    def current_player(self) -> int:
        return self._player

    def is_solved(self) -> bool:
        return self.dealt == self.game.bones and self.up == self.occupied

    def _legal_actions(self) -> list[int]:
        geometry = self.game.geometry
        targets = geometry.cells_of(geometry.resting_mask & ~self.occupied)
        rows = self.game.move_rows
        if len(targets) == 1:
            return [rows[x][targets[0]] for x in geometry.cells_of(self.up)]
        gather = itemgetter(*targets)
        actions: list[int] = []
        for x in geometry.cells_of(self.up):
            actions.extend(gather(rows[x]))
        return actions

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        game = self.game
        geometry = game.geometry
        if game.difficulty:
            p = 1.0 / notation.DIFFICULTY_TICKETS
            return [(ticket, p) for ticket in range(notation.DIFFICULTY_TICKETS)]
        if self.pending < 0:
            free = geometry.cells_of(geometry.resting_mask & ~self.occupied)
            p = 1.0 / len(free)
            return [(cell, p) for cell in free]
        need_down = game.bones >= 2
        has_up = self.ups_dealt > 0
        has_down = self.dealt - self.ups_dealt > 0
        remaining = game.bones - self.dealt - 1
        total = _completions(has_up, has_down, remaining + 1, need_down)
        up_ways = _completions(True, has_down, remaining, need_down)
        down_ways = _completions(has_up, True, remaining, need_down)
        outcomes = []
        if down_ways:
            outcomes.append((geometry.cells + notation.ROLL_DOWN, down_ways / total))
        if up_ways:
            outcomes.append((geometry.cells + notation.ROLL_UP, up_ways / total))
        return outcomes

    def _apply_action(self, action: int) -> None:
        game = self.game
        geometry = game.geometry
        n = geometry.cells
        if self._player == CHANCE:
            if game.difficulty:
                from boneyard.games.oyno.generator import ticket_setup

                self.occupied, self.up = ticket_setup(
                    game.size, game.bones, game.difficulty, action
                )
                self.dealt = game.bones
                self.ups_dealt = bin(self.up).count("1")
            elif self.pending < 0:
                self.pending = action
            else:
                bit = 1 << self.pending
                self.occupied |= bit
                if action == n + notation.ROLL_UP:
                    self.up |= bit
                    self.ups_dealt += 1
                self.pending = -1
                self.dealt += 1
            self._settle()
            return
        start, end = divmod(action, n)
        neighbours = geometry.neighbours
        occupied = self.occupied & ~(1 << start)
        # the bone goes to the center; the bones beside the cell it left are reversed
        up = (self.up & ~(1 << start)) ^ (neighbours[start] & occupied)
        # it comes down up on the new cell; the bones beside that cell are reversed
        up = (up | (1 << end)) ^ (neighbours[end] & occupied)
        self.occupied = occupied | (1 << end)
        self.up = up
        self.moves += 1
        self._settle()

    def returns(self) -> list[float]:
        if self._player == TERMINAL and self.up == self.occupied:
            return [1.0]
        return [0.0]

    def _action_to_string(self, action: int) -> str:
        geometry = self.game.geometry
        if self._player == CHANCE:
            return notation.puzzle_chance_to_string(geometry, action, bool(self.game.difficulty))
        return notation.puzzle_action_to_string(geometry, action)

    def _string_to_action(self, text: str) -> int:
        geometry = self.game.geometry
        if self._player == CHANCE:
            return notation.puzzle_string_to_chance(geometry, text, bool(self.game.difficulty))
        return notation.puzzle_string_to_action(geometry, text)

    def _why_illegal(self, action: int) -> str | None:
        if self._player != 0:
            return None
        geometry = self.game.geometry
        start, end = divmod(action, geometry.cells)
        if not 0 <= start < geometry.cells:
            return None
        name = geometry.name
        if start == geometry.center or end == geometry.center:
            return f"{name(geometry.center)} is the center: no bone rests there"
        if not (self.occupied >> start) & 1:
            return f"{name(start)} has no bone"
        if not (self.up >> start) & 1:
            return f"the bone on {name(start)} is down: only up bones may be taken"
        if start == end:
            return "the bone must go to another cell"
        if (self.occupied >> end) & 1:
            return f"{name(end)} is not empty"
        return None

    def position(self) -> str:
        """The position in notation (a bone whose side is still being dealt is not shown)."""
        return format_puzzle_position(self.game.size, self.occupied, self.up)

    def _observation(self, seat: int | None) -> Observation:
        return cast(Observation, self._typed_observation(seat))

    def _typed_observation(self, seat: int | None) -> PuzzleObservation:
        """``observation(seat)`` as its declared type."""
        geometry = self.game.geometry
        return {
            "game": "oyno_puzzle",
            "current_player": self._player,
            "size": self.game.size,
            "position": self.position(),
            "bones": self.game.bones,
            "dealt": self.dealt,
            "pending": geometry.name(self.pending) if self.pending >= 0 else None,
            "up": bin(self.up).count("1"),
            "moves": self.moves,
            "max_moves": self.game.max_moves,
            "solved": self.is_solved(),
        }

    def __str__(self) -> str:
        from boneyard.games.oyno.draw import puzzle_text

        return puzzle_text(self._typed_observation(None))
