"""Bones: two players lay dominoes of their colour, overlapping, until one shows five in a line.

The rules, as RULINGS.md states them (the page ``docs/rules/bones.md`` explains them in full):

* The board is ``width`` x ``height`` (default 10 x 9). Each player has ``pieces`` dominoes
  (default 30). Seat 0 is white and places first; the players alternate.
* A turn places one piece on two orthogonally adjacent squares of the board.
* The first piece of the game covers at least one square of the start area (see
  ``notation.start_area``: ``e5`` and ``f5`` on the default board).
* A piece may cover empty squares and earlier pieces of either colour at any height, except
  that it may not lie exactly on one earlier piece that is still completely visible. On top of a
  piece that is already partly covered, or across two pieces, is fine.
* A square shows the colour of its top piece. If, after a placement, the *mover's* colour shows on
  five or more consecutive squares of one rank or one file, the mover wins. (A placement turns
  only the squares it covers, and only to the mover's colour, so it can never give the opponent
  a new line: the opponent's lines can only shrink.)
* When both players have placed all their pieces without a win, the game is a draw.

How the state keeps it fast: per square the top piece, top colour and stack height; per piece its
placement and the stack heights it lay at. A piece is completely visible exactly when it is the top
piece of both its squares, and then the one forbidden placement is the one on its own two squares:
so a square pair ``(a, b)`` is forbidden iff ``top_piece[a] == top_piece[b] != -1``. The state keeps
an ``allowed`` byte per action id, cleared for each completely visible piece's own placement and
set again as soon as a later piece covers one of its squares, and beside it the sorted list of
legal placements, patched the same way (one deletion and at most two insertions a move). A win
is looked for only along the three lines through the new piece (``DominoTable.lines``).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass
from typing import Annotated, Any, cast

from boneyard.core.game import TERMINAL, Game, Observation, State
from boneyard.core.parameters import About, declared_parameters, read_parameters
from boneyard.core.record import Copied, Shared, Transient, Value, declared
from boneyard.games.bones import notation
from boneyard.games.bones.notation import LINE, DominoTable, domino_table
from boneyard.games.bones.observation import BonesObservation

WHITE = 0
BLACK = 1
EMPTY = -1
COLOUR_LETTERS = ("W", "B")


@dataclass(frozen=True)
class BonesParameters:
    """BonesGame's parameters, declared once: the form's fields and the rules' typed view."""

    width: Annotated[int, About("files of the board (a, b, ...)", minimum=2, maximum=26)] = 10
    height: Annotated[int, About("ranks of the board", minimum=2, maximum=26)] = 9
    pieces: Annotated[
        int,
        About(
            "pieces (dominoes) each player has",
            minimum=1,
            maximum=500,
            question="How many dominoes each?",
        ),
    ] = 30


class BonesGame(Game):
    """Bones, by Joshua Howard (BoneGames, 1995)."""

    name = "bones"
    title = "Bones"
    rules_version = 1  # raise it when a change of the rules changes what stored actions mean
    parameters = declared_parameters(BonesParameters)
    seat_names = ("white", "black")
    pitch = "Lay dominoes anywhere, even on top of each other: first to show five in a line wins."
    how_to_play = (
        "White and black take turns placing one piece of their own colour: a domino that "
        "covers two squares side by side.",
        "The first piece must cover part of the dotted start area in the middle.",
        "After that a piece may go almost anywhere: on empty squares, on top of other pieces "
        "of either colour, or half on and half off a pile.",
        "The one thing you may not do is place a piece exactly on top of a single earlier piece "
        "that is still wholly uncovered.",
        "Each square shows the colour of its top piece. Show five or more of your colour in a "
        "straight line, across or up and down (not diagonally), and you win at once.",
        "When both sides have placed all their pieces without a line, the game is a draw.",
    )
    text_styles = {r"W\d+\*?": "bold black on grey93", r"B\d+\*?": "bold bright_white on grey23"}
    conformance_variants = (
        {},
        {"width": 6, "height": 5},
        {"width": 5, "height": 5, "pieces": 5},
        {"width": 7, "height": 4, "pieces": 9},
        {"width": 2, "height": 2, "pieces": 3},
    )

    def _configure(self) -> None:
        options = read_parameters(BonesParameters, self.params)
        self.width = options.width
        self.height = options.height
        self.pieces = options.pieces
        self.table: DominoTable = domino_table(self.width, self.height)
        self._tensor_encoder: Any = None
        """The fast observation tensor's tables (``tensor.py``), made at the first use."""

    def max_game_length(self) -> int:
        return 2 * self.pieces

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        return domino_table(self.width, self.height).count

    def new_initial_state(self) -> BonesState:
        return BonesState(self)


@declared
class BonesState(State):
    """A Bones position. Fields are plain lists so that a clone is a handful of copies."""

    game: BonesGame

    _table: Shared[DominoTable]
    _player: Value[int]
    _winner: Value[int]
    _top_piece: Copied[list[int]]
    """Index into ``_pieces`` of each square's top piece, or -1."""
    _top_colour: Copied[list[int]]
    _heights: Copied[list[int]]
    _pieces: Copied[list[tuple[int, int, int]]]
    """Each placed piece: (action id, stack height of its first square, of its second)."""
    _allowed: Copied[bytearray]
    """1 where a placement is legal after the first move (0: on a completely visible piece)."""
    _legal: Copied[list[int]]
    """The legal placements, sorted, kept up to date with ``_allowed``."""
    _tensor_memo: Transient[list[Any] | None]
    """Kept by ``tensor.state_tensor`` between calls (a clone starts without)."""

    def __init__(self, game: BonesGame) -> None:
        super().__init__(game)
        size = game.width * game.height
        self._table = game.table
        self._player = WHITE
        self._winner = EMPTY
        self._top_piece = [EMPTY] * size
        self._top_colour = [EMPTY] * size
        self._heights = [0] * size
        self._pieces = []
        self._allowed = bytearray(b"\x01") * game.table.count
        self._legal = list(game.table.start_actions)
        self._tensor_memo = None

    # ----- rules ------------------------------------------------------------------------------

    def current_player(self) -> int:
        return self._player

    def _legal_actions(self) -> list[int]:
        return self._legal[:]

    def _apply_action(self, action: int) -> None:
        table = self._table
        first = table.first[action]
        second = table.second[action]
        top_piece = self._top_piece
        pieces = self._pieces
        number = len(pieces)
        self._update_legal(action, first, second)
        heights = self._heights
        heights[first] += 1
        heights[second] += 1
        pieces.append((action, heights[first], heights[second]))
        top_piece[first] = number
        top_piece[second] = number
        colour = self._player
        top = self._top_colour
        top[first] = colour
        top[second] = colour
        if self._makes_line(action, colour):
            self._winner = colour
            self._player = TERMINAL
        elif number + 1 >= 2 * self.game.pieces:
            self._player = TERMINAL
        else:
            self._player = 1 - colour

    def _update_legal(self, action: int, first: int, second: int) -> None:
        """The legal placements once ``action`` (on ``first`` and ``second``) is placed: it is
        no longer legal, and a piece it half covers may be placed again."""
        allowed = self._allowed
        if not self._pieces:
            legal = self._legal = list(self._table.actions)
            del legal[action]
        else:
            legal = self._legal
            pieces, top_piece = self._pieces, self._top_piece
            # The pieces under this one are no longer completely visible: their own placement
            # becomes legal again.
            for under in (top_piece[first], top_piece[second]):
                if under >= 0:
                    freed = pieces[under][0]
                    if not allowed[freed]:
                        allowed[freed] = 1
                        insort(legal, freed)
            del legal[bisect_left(legal, action)]
        allowed[action] = 0

    def _makes_line(self, action: int, colour: int) -> bool:
        """Whether ``action``, just placed by ``colour``, completes a line of ``LINE`` or more
        of its colour through either of its squares."""
        top = self._top_colour
        for count, back, forward in self._table.lines[action]:
            for square in back:
                if top[square] != colour:
                    break
                count += 1
            for square in forward:
                if top[square] != colour:
                    break
                count += 1
            if count >= LINE:
                return True
        return False

    def returns(self) -> list[float]:
        if self._player != TERMINAL or self._winner == EMPTY:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._winner == WHITE else [-1.0, 1.0]

    def _why_illegal(self, action: int) -> str | None:
        table = self._table
        if not isinstance(action, int) or not 0 <= action < table.count:
            return f"placement ids on this board are 0 to {table.count - 1}"
        names = table.grid.names
        if not self._pieces:
            area = " and ".join(names[s] for s in table.start_squares)
            return f"the first piece must cover at least one start-area square ({area})"
        piece = self._top_piece[table.first[action]]
        if piece >= 0 and piece == self._top_piece[table.second[action]]:
            return (
                f"it would lie exactly on the piece at {table.strings[action]}, "
                "which is still completely visible"
            )
        return None

    # ----- notation ---------------------------------------------------------------------------

    def _action_to_string(self, action: int) -> str:
        return notation.action_to_string(self._table, action)

    def _string_to_action(self, text: str) -> int:
        return notation.string_to_action(self._table, text)

    # ----- what the players see ---------------------------------------------------------------

    def winner(self) -> int | None:
        """The winning seat, or None (game running, or drawn)."""
        return None if self._winner == EMPTY else self._winner

    def supply(self, seat: int) -> int:
        """How many pieces ``seat`` still has to place."""
        placed = (len(self._pieces) + 1 - seat) // 2
        return self.game.pieces - placed

    def top_colours(self) -> list[int]:
        """Every square's colour (seat) on top, or -1 when empty, a1 first (a copy)."""
        return self._top_colour[:]

    def is_legal_placement(self, action: int) -> bool:
        """Whether ``action`` may be placed now by whichever side is to move."""
        if self._player == TERMINAL or not 0 <= action < self._table.count:
            return False
        if not self._pieces:
            return action in self._table.start_actions
        return bool(self._allowed[action])

    def stack_height(self, square: int) -> int:
        """How many pieces cover the square."""
        return self._heights[square]

    def winning_squares(self) -> list[int]:
        """The squares of every line of five or more of the winner's colour (empty if none)."""
        if self._winner == EMPTY:
            return []
        width, height = self._table.width, self._table.height
        top = self._top_colour
        found: set[int] = set()
        lines = [[r * width + f for f in range(width)] for r in range(height)]
        lines += [[r * width + f for r in range(height)] for f in range(width)]
        for line in lines:
            run: list[int] = []
            for square in [*line, -1]:
                if square >= 0 and top[square] == self._winner:
                    run.append(square)
                    continue
                if len(run) >= LINE:
                    found.update(run)
                run = []
        return sorted(found)

    def _observation(self, seat: int | None) -> Observation:
        return cast(Observation, self._typed_observation(seat))

    def _typed_observation(self, seat: int | None) -> BonesObservation:
        """``observation(seat)`` as its declared type (for readers inside the package)."""
        table = self._table
        width = table.width
        names = table.grid.names
        letters = ".WB"
        top = self._top_colour
        heights = self._heights
        return {
            "current_player": self._player,
            "seat": seat,
            "width": width,
            "height": table.height,
            "start_area": [names[s] for s in table.start_squares],
            "supply": [self.supply(WHITE), self.supply(BLACK)],
            "pieces": [table.strings[action] for action, _, _ in self._pieces],
            "top": [
                "".join(letters[c + 1] for c in top[r * width : (r + 1) * width])
                for r in range(table.height)
            ],
            "heights": [heights[r * width : (r + 1) * width] for r in range(table.height)],
            "winner": self.winner(),
            "winning_squares": [names[s] for s in self.winning_squares()],
        }

    def position_key(self) -> Any:
        """The colours on top and the player to move: the board a player sees. Laying a piece
        back on the one just covered brings it back with the stacks higher (no rule ends that:
        the pieces run out to a draw), so the stacks and supplies are not part of it."""
        return (self._player, tuple(self._top_colour))

    def __str__(self) -> str:
        return self.game.render_text(self._observation(None))
