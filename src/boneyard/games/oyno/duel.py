"""The two-player OYNO game (``oyno``): place all your bones and make them all up first.

Rules (RULINGS.md, "OYNO board" and "OYNO two-player"): seat 0 plays red and moves first, seat 1
white; each has ``bones_per_player`` bones in supply and the board starts empty. One action a turn:

- ``place b2``: a bone from supply goes up on an empty resting cell; the adjacent bones (either
  colour) are reversed. When every own bone on the board is up and the supply is not empty it is
  the only action allowed. Otherwise parameter ``place_rule`` decides: ``supply`` (the default:
  "if you hold a bone" read as "if your supply holds one") allows it beside move and flip
  whenever the supply is not empty; ``all_up`` (the first reading, the default until the solves
  of docs/rules/oyno.md) allows no place.
- ``move b2-d4``: an own bone (up or down) goes to the center, the bones adjacent to the cell it
  left are reversed, it goes up on another empty resting cell, the bones adjacent to that cell are
  reversed.
- ``flip b2``: an own down bone turns up; nothing else changes.
- Wild variant: ``place b2 wild`` / ``move b2-d4 wild`` roll the bone instead of putting it up: a
  chance event (``up``/``down``, 1/2 each) gives its side, then its neighbours are reversed.

After every action the mover wins if all its bones are on the board and up; otherwise the opponent
wins if that holds for the opponent. The third occurrence of a position (board, supplies, player
to move) is a draw, and so is reaching ``max_moves`` actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Annotated, Any, cast

from boneyard.core.errors import InvalidParameterError, InvalidPositionError
from boneyard.core.game import CHANCE, TERMINAL, Game, Observation, State
from boneyard.core.parameters import About, declared_parameters, read_parameters
from boneyard.core.record import Copied, Value, declared
from boneyard.games.oyno import notation
from boneyard.games.oyno.board import (
    DEFAULT_SIZE,
    SIZE,
    Board,
    board,
    format_position,
    parse_position,
)
from boneyard.games.oyno.observation import DuelObservation

DUEL_PIECES = "RrWw"
SEAT_COLOURS = ("red", "white")
PLACE_RULES = ("supply", "all_up")
"""When a bone may be placed: whenever the supply holds one (``supply``), or only when every own
bone on the board is up (``all_up``); placing is forced when all are up in both."""
DEFAULT_PLACE_RULE = "supply"
"""Under ``all_up`` no duel small enough to solve can be won against a one-ply defender; under
``supply`` every one of them is a win (docs/rules/oyno.md, "Two readings of the place rule")."""


def parse_duel_start(text: str) -> tuple[int, int, int, int, int]:
    """``(size, red, white, up, player)`` of a start: position notation, then optionally ``w``
    (white to move) or ``r`` (red to move, the default) after a space."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position is text, not {type(text).__name__}")
    words = text.split()
    player = 0
    if len(words) == 2:
        if words[1] not in ("r", "w"):
            raise InvalidPositionError(
                f"bad position {text!r}: after the board comes 'r' (red to move) or 'w' "
                f"(white to move), not {words[1]!r}"
            )
        player = 0 if words[1] == "r" else 1
    elif len(words) != 1:
        raise InvalidPositionError(
            f"bad position {text!r}: write the board, then optionally 'r' or 'w' for the "
            "player to move"
        )
    size, bones = parse_position(words[0], DUEL_PIECES)
    red = sum(1 << c for c, char in bones.items() if char in "Rr")
    white = sum(1 << c for c, char in bones.items() if char in "Ww")
    up = sum(1 << c for c, char in bones.items() if char in "RW")
    return size, red, white, up, player


def _check_start(text: str) -> str | None:
    try:
        parse_duel_start(text)
    except InvalidPositionError as error:
        return str(error)
    return None


@dataclass(frozen=True)
class DuelParameters:
    """Oyno's parameters, declared once: the form's fields and the rules' typed view."""

    size: Annotated[int, SIZE] = DEFAULT_SIZE
    bones_per_player: Annotated[
        int,
        About(
            "bones each player has in supply",
            minimum=1,
            maximum=311,
            question="How many bones each?",
        ),
    ] = 8
    wild: Annotated[
        bool,
        About(
            "players may roll a bone instead of putting it up",
            question="Wild bones: may a player roll a bone instead of putting it up?",
        ),
    ] = False
    max_moves: Annotated[
        int,
        About(
            "actions after which the game is a draw",
            minimum=1,
            advanced=True,
            question="Call it a draw after how many moves?",
        ),
    ] = 300
    place_rule: Annotated[
        str,
        About(
            "when a new bone may be placed: supply (whenever the supply holds one) or all_up "
            "(only when every own bone on the board is up); forced when all are up in both",
            choices=PLACE_RULES,
            question="When may a player place a new bone?",
            choice_labels=(
                "Whenever they still hold one",
                "Only when all their bones on the board are up",
            ),
        ),
    ] = DEFAULT_PLACE_RULE
    start: Annotated[
        str | None,
        About(
            "a position to start from (supplies: bones_per_player "
            "minus the bones on the board), then optionally r or w for the player to move",
            check=_check_start,
            advanced=True,
            question="Start from this position (R, r red up, down; W, w white; . empty)",
        ),
    ] = None


class Oyno(Game):
    """Two-player OYNO, with the wild variant as a parameter."""

    name = "oyno"
    title = "OYNO"
    rules_version = 1  # raise it when a change of the rules changes what stored actions mean
    min_players = 2
    max_players = 2
    chance = True
    perfect_information = True
    rules_page = "oyno"
    seat_names = ("red", "white")
    pitch = (
        "Race to get all your bones on the board standing up, while every move "
        "flips your rival's bones and your own."
    )
    how_to_play = (
        "Red and white each bring their bones onto the board; red moves first. No bone ever "
        "rests on the round center cell.",
        "On your turn do one thing: place a bone from your supply, up, on an empty cell; move "
        "one of your bones on the board to another empty cell, where it lands up; or turn one "
        "of your down bones up.",
        "Placing or moving turns over every bone next to the cell a bone leaves and next to the "
        "cell where it lands, of either colour: up becomes down and down becomes up.",
        "When all your bones on the board are up, you must place a new one.",
        "You win when all your bones are on the board and all of them are up. The same position "
        "a third time, or a very long game, is a draw.",
    )
    text_styles = {
        "R": "bold red",
        "r": "red",
        "W": "bold bright_white",
        "w": "grey70",
        "o": "grey50",
    }
    parameters = declared_parameters(DuelParameters)
    # move caps keep the suite quick: every step of a conformance playout checks every action
    conformance_variants = (
        {"max_moves": 60},
        {"wild": True, "max_moves": 30},
        {"size": 3, "bones_per_player": 1},
        {"size": 3, "bones_per_player": 3, "wild": True},
        {"size": 7, "bones_per_player": 12, "max_moves": 30},
        {"size": 5, "bones_per_player": 4, "start": "R...w/.W.../..o../...r./....."},
        {"place_rule": "all_up", "max_moves": 60},
        {"place_rule": "all_up", "size": 3, "bones_per_player": 3, "wild": True},
    )

    def _configure(self) -> None:
        options = read_parameters(DuelParameters, self.params)
        size = options.size
        self.size = size
        self.geometry: Board = board(size)
        resting = len(self.geometry.resting)
        self.bones_per_player = options.bones_per_player
        most = (resting - 1) // 2
        if self.bones_per_player > most:
            raise InvalidParameterError(
                f"bad value {self.bones_per_player} for parameter 'bones_per_player': on "
                f"{size}x{size} both supplies must fit with a cell to spare; allowed is 1 to "
                f"{most}"
            )
        self.wild = options.wild
        self.place_any_time = options.place_rule == "supply"
        self.max_moves = options.max_moves
        self.start: tuple[int, int, int, int] | None = None
        start = options.start
        if start is not None:
            start_size, red, white, up, player = parse_duel_start(str(start))
            if start_size != size:
                raise InvalidParameterError(
                    f"bad value {start!r} for parameter 'start': it is a "
                    f"{start_size}x{start_size} board but size is {size}"
                )
            for colour, mask in zip(SEAT_COLOURS, (red, white)):
                if bin(mask).count("1") > self.bones_per_player:
                    raise InvalidParameterError(
                        f"bad value {start!r} for parameter 'start': {colour} has more than "
                        f"bones_per_player={self.bones_per_player} bones on the board"
                    )
            self.start = (red, white, up, player)
        n = self.geometry.cells
        # rows[x][y]: the id of move x-y (and its wild twin), gathered into legal lists in C
        self.move_rows = [[2 * n + x * n + y for y in range(n)] for x in range(n)]
        self.wild_rows = [[2 * n + n * n + x * n + y for y in range(n)] for x in range(n)]

    def max_game_length(self) -> int:
        return self.max_moves * (2 if self.wild else 1)

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        n = self.geometry.cells
        return 3 * n + 2 * n * n

    def max_chance_outcomes(self) -> int:
        return 2

    def new_initial_state(self) -> DuelState:
        return DuelState(self)


@declared
class DuelState(State):
    """Two-player position: one occupied mask per colour, one mask of up bones."""

    game: Oyno

    occupied: Copied[list[int]]
    """Bit mask of the cells each colour occupies."""
    up: Value[int]
    supply: Copied[list[int]]
    player: Value[int]
    moves: Value[int]
    winner: Value[int]
    draw: Value[bool]
    rolling: Value[int]
    """The cell of a wild bone whose side is being rolled, or -1."""
    seen: Copied[dict[tuple[int, int, int, int, int, int], int]]
    """How often each position (``_key``) has stood, for the repetition draw."""

    def __init__(self, game: Oyno) -> None:
        super().__init__(game)
        self.occupied = [0, 0]
        self.up = 0
        self.supply = [game.bones_per_player, game.bones_per_player]
        self.player = 0
        self.moves = 0
        self.winner = -1
        self.draw = False
        self.rolling = -1
        self.seen = {}
        if game.start is not None:
            red, white, up, player = game.start
            self.occupied = [red, white]
            self.up = up
            self.supply = [
                game.bones_per_player - bin(red).count("1"),
                game.bones_per_player - bin(white).count("1"),
            ]
            self.player = player
            self._check_win(1 - player)
        if self.winner < 0:
            self.seen[self._key()] = 1

    def _key(self) -> tuple[int, int, int, int, int, int]:
        return (
            self.occupied[0],
            self.occupied[1],
            self.up,
            self.supply[0],
            self.supply[1],
            self.player,
        )

    def transposition_key(self) -> Any:
        """Hook for search bots (``State.transposition_key``): the board, the supplies and the
        player to move, as ``_key()``, and the cell of a wild bone being rolled."""
        return (self._key(), self.rolling)

    # ----- contract hooks ---------------------------------------------------------------------

    def current_player(self) -> int:
        if self.winner >= 0 or self.draw:
            return TERMINAL
        if self.rolling >= 0:
            return CHANCE
        return self.player

    def must_place(self) -> bool:
        """Every own bone on the board is up and the supply is not empty: placing is forced."""
        p = self.player
        return self.supply[p] > 0 and not (self.occupied[p] & ~self.up)

    def _legal_actions(self) -> list[int]:
        game = self.game
        geometry = game.geometry
        n = geometry.cells
        empty = geometry.cells_of(geometry.resting_mask & ~(self.occupied[0] | self.occupied[1]))
        if self.must_place():
            if game.wild:
                return [*empty, *(n + c for c in empty)]
            return list(empty)
        own = geometry.cells_of(self.occupied[self.player])
        actions: list[int] = []
        if game.place_any_time and self.supply[self.player] > 0:
            # ids below the moves: place (cell), then wild place (n + cell)
            actions = [*empty, *(n + c for c in empty)] if game.wild else list(empty)
        if len(empty) == 1:
            actions += [game.move_rows[x][empty[0]] for x in own]
            if game.wild:
                actions += [game.wild_rows[x][empty[0]] for x in own]
        else:
            gather = itemgetter(*empty)
            for x in own:
                actions.extend(gather(game.move_rows[x]))
            if game.wild:
                for x in own:
                    actions.extend(gather(game.wild_rows[x]))
        flip_base = 2 * n + 2 * n * n
        if self.occupied[self.player] & ~self.up:
            actions.extend(
                flip_base + c for c in geometry.cells_of(self.occupied[self.player] & ~self.up)
            )
        return actions

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(notation.ROLL_DOWN, 0.5), (notation.ROLL_UP, 0.5)]

    def _apply_action(self, action: int) -> None:
        geometry = self.game.geometry
        neighbours = geometry.neighbours
        n = geometry.cells
        p = self.player
        if self.rolling >= 0:
            cell = self.rolling
            if action == notation.ROLL_UP:
                self.up |= 1 << cell
            everything = self.occupied[0] | self.occupied[1]
            self.up ^= neighbours[cell] & everything
            self.rolling = -1
            self._finish(p)
            return
        if action < 2 * n:
            wild, cell = divmod(action, n)
            self.supply[p] -= 1
            self._put(p, cell, bool(wild))
            return
        base = 2 * n
        if action < base + 2 * n * n:
            wild, code = divmod(action - base, n * n)
            start, end = divmod(code, n)
            bit = 1 << start
            self.occupied[p] &= ~bit
            self.up &= ~bit
            everything = self.occupied[0] | self.occupied[1]
            self.up ^= neighbours[start] & everything
            self._put(p, end, bool(wild))
            return
        cell = action - base - 2 * n * n
        self.up |= 1 << cell
        self._finish(p)

    def _put(self, p: int, cell: int, wild: bool) -> None:
        """A bone of ``p`` comes down on ``cell``: up, or rolled (a chance event) when wild."""
        bit = 1 << cell
        everything = self.occupied[0] | self.occupied[1]
        self.occupied[p] |= bit
        if wild:
            self.rolling = cell
            return
        self.up = (self.up | bit) ^ (self.game.geometry.neighbours[cell] & everything)
        self._finish(p)

    def _has_won(self, seat: int) -> bool:
        return self.supply[seat] == 0 and not (self.occupied[seat] & ~self.up)

    def _check_win(self, mover: int) -> None:
        if self._has_won(mover):
            self.winner = mover
        elif self._has_won(1 - mover):
            self.winner = 1 - mover

    def _finish(self, mover: int) -> None:
        self.moves += 1
        self._check_win(mover)
        if self.winner >= 0:
            return
        self.player = 1 - mover
        key = self._key()
        count = self.seen.get(key, 0) + 1
        self.seen[key] = count
        if count >= 3 or self.moves >= self.game.max_moves:
            self.draw = True

    def returns(self) -> list[float]:
        if self.winner == 0:
            return [1.0, -1.0]
        if self.winner == 1:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def _action_to_string(self, action: int) -> str:
        if self.rolling >= 0:
            return notation.roll_to_string(action)
        return notation.duel_action_to_string(self.game.geometry, action)

    def _string_to_action(self, text: str) -> int:
        if self.rolling >= 0:
            return notation.string_to_roll(text)
        return notation.duel_string_to_action(self.game.geometry, text)

    def _why_illegal(self, action: int) -> str | None:
        """The rule ``action`` breaks, in the rule text's order: placing, then moving."""
        if self.current_player() not in (0, 1):
            return None
        n = self.game.geometry.cells
        if action >= 3 * n + 2 * n * n or action < 0:
            return None
        if (n <= action < 2 * n or 2 * n + n * n <= action < 2 * n + 2 * n * n) and not (
            self.game.wild
        ):
            return "rolling a bone is only allowed in the wild variant"
        if action < 2 * n:
            return self._why_not_placed(action % n)
        colour = SEAT_COLOURS[self.player]
        if self.must_place():
            return f"every {colour} bone on the board is up: {colour} must place a new bone"
        if action >= 2 * n + 2 * n * n:
            cell = action - 2 * n - 2 * n * n
            if not (self.occupied[self.player] >> cell) & 1:
                return f"{self.game.geometry.name(cell)} holds no {colour} bone"
            return f"the bone on {self.game.geometry.name(cell)} is already up"
        start, end = divmod((action - 2 * n) % (n * n), n)
        return self._why_not_moved(start, end)

    def _why_not_placed(self, cell: int) -> str | None:
        """Why the player to move may not place a new bone on ``cell`` (``None``: it may)."""
        geometry = self.game.geometry
        colour = SEAT_COLOURS[self.player]
        if self.supply[self.player] == 0:
            return f"{colour} has no bone left in supply"
        if not self.must_place() and not self.game.place_any_time:
            return (
                f"{colour} has a down bone on the board: a new bone may be placed only "
                "when all are up"
            )
        if cell == geometry.center:
            return f"{geometry.name(cell)} is the center: no bone rests there"
        if ((self.occupied[0] | self.occupied[1]) >> cell) & 1:
            return f"{geometry.name(cell)} is not empty"
        return None

    def _why_not_moved(self, start: int, end: int) -> str | None:
        """Why the player to move may not move a bone from ``start`` to ``end``."""
        geometry = self.game.geometry
        if not (self.occupied[self.player] >> start) & 1:
            return f"{geometry.name(start)} holds no {SEAT_COLOURS[self.player]} bone"
        if end == geometry.center:
            return f"{geometry.name(end)} is the center: no bone rests there"
        if start == end:
            return "the bone must go to another cell"
        if ((self.occupied[0] | self.occupied[1]) >> end) & 1:
            return f"{geometry.name(end)} is not empty"
        return None

    def position(self) -> str:
        """The board in notation (a bone being rolled is left out)."""
        symbols: dict[int, str] = {}
        cells_of = self.game.geometry.cells_of
        for seat, (up_char, down_char) in enumerate((("R", "r"), ("W", "w"))):
            for cell in cells_of(self.occupied[seat]):
                if cell != self.rolling:
                    symbols[cell] = up_char if (self.up >> cell) & 1 else down_char
        return format_position(self.game.size, symbols)

    def _observation(self, seat: int | None) -> Observation:
        return cast(Observation, self._typed_observation(seat))

    def _typed_observation(self, seat: int | None) -> DuelObservation:
        """``observation(seat)`` as its declared type."""
        geometry = self.game.geometry
        return {
            "game": "oyno",
            "current_player": self.current_player(),
            "player": self.player,
            "size": self.game.size,
            "position": self.position(),
            "supply": list(self.supply),
            "bones_per_player": self.game.bones_per_player,
            "rolling": geometry.name(self.rolling) if self.rolling >= 0 else None,
            "moves": self.moves,
            "max_moves": self.game.max_moves,
            "winner": self.winner if self.winner >= 0 else None,
            "draw": self.draw,
            "repetitions": self.seen.get(self._key(), 0) if self.rolling < 0 else 0,
        }

    def __str__(self) -> str:
        from boneyard.games.oyno.draw import duel_text

        return duel_text(self._typed_observation(None))
