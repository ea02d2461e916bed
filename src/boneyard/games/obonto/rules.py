"""Obonto: two players move a lion, a zebra and a camel over a 9x9 board that darkens behind them.

The rules, as the project plays them (docs/rules/obonto.md tells them for people):

* At the start of every game all 81 squares are light except c3, g3, c7 and g7.
* A move takes one of the mover's animals exactly 1 (lion), 2 (zebra) or 3 (camel) orthogonal
  steps. The path may turn corners, never visits a square twice (the start square included),
  enters only light squares, may pass over animals of either side and ends on a square with no
  animal. All paths to one square are the same move.
* The square the animal left turns dark.
* A player with no legal move on their turn has lost the game; the winner then moves alone (the
  solo phase) until the winner is stuck too. The winner scores 1 + the number of solo moves; a
  game's returns are +score / -score.
* A match of ``games`` games (ended early once a total reaches ``target``) keeps the animals where
  they stand, resets the squares, and lets the loser of a game move first in the next one. The
  match returns are the difference of the totals.

In the solo phase ``current_player()`` stays the winner: the stuck loser never gets a turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, cast

from boneyard.core.errors import InvalidStateError
from boneyard.core.game import TERMINAL, Game, Observation, State
from boneyard.core.parameters import About, ParameterValue, declared_parameters, read_parameters
from boneyard.core.record import Copied, Memo, Shared, Value, declared
from boneyard.games.obonto import notation
from boneyard.games.obonto.notation import GRID, KINDS, NAMES, SQUARES, STEPS
from boneyard.games.obonto.observation import ObontoObservation

START_DARK_MASK = notation.start_dark_mask()
LIGHT_AT_START = SQUARES - len(notation.START_DARK)
MAX_MOVES_PER_GAME = LIGHT_AT_START - 6
"""Every move darkens one square and needs a light empty one: 77 light - 6 animals = 71 moves."""
MAX_SCORE_PER_GAME = MAX_MOVES_PER_GAME + 1
"""1 + solo moves; the +1 covers a game whose first player is stuck before anyone moves."""

Paths = tuple[tuple[int, tuple[int, ...]], ...]
"""Per destination square, the bitmasks of the squares each path to it enters."""


def _paths_from(start: int, steps: int) -> Paths:
    by_target: dict[int, set[int]] = {}

    def walk(square: int, visited: int, entered: int, left: int) -> None:
        if left == 0:
            by_target.setdefault(square, set()).add(entered)
            return
        for neighbour in GRID.orthogonal_neighbours[square]:
            bit = 1 << neighbour
            if not visited & bit:
                walk(neighbour, visited | bit, entered | bit, left - 1)

    walk(start, 1 << start, 0, steps)
    return tuple((target, tuple(sorted(masks))) for target, masks in sorted(by_target.items()))


def _union(masks: Iterable[int]) -> int:
    union = 0
    for mask in masks:
        union |= mask
    return union


PATHS: tuple[tuple[Paths, ...], ...] = tuple(
    tuple(_paths_from(square, steps) for square in range(SQUARES)) for steps in STEPS
)
"""``PATHS[kind][square]``: where an animal of ``kind`` on ``square`` may go, by which squares."""


REGIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (1 << square) | _union(mask for _, masks in PATHS[kind][square] for mask in masks)
        for square in range(SQUARES)
    )
    for kind in range(len(STEPS))
)
"""``REGIONS[kind][square]``: the squares whose darkness or animals can change its moves."""


def animal_moves(kind: int, origin: int, dark: int, occupied: int) -> list[int]:
    """Sorted action ids of the animal of ``kind`` on ``origin`` (bitmasks of dark/occupied)."""
    moves: list[int] = []
    base = origin * SQUARES
    for target, masks in PATHS[kind][origin]:
        if occupied >> target & 1:
            continue
        for mask in masks:
            if not mask & dark:
                moves.append(base + target)
                break
    return moves


def moves_of(
    animals: list[int] | tuple[int, ...], seat: int, dark: int, occupied: int
) -> list[int]:
    """Sorted action ids of ``seat``'s legal moves, given bitmasks of dark and occupied squares."""
    moves: list[int] = []
    for kind in (0, 1, 2):
        moves += animal_moves(kind, animals[seat * 3 + kind], dark, occupied)
    moves.sort()
    return moves


def _occupied_mask(animals: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for square in animals:
        mask |= 1 << square
    return mask


@dataclass(frozen=True)
class ObontoParameters:
    """ObontoGame's parameters, declared once: the form's fields and the rules' typed view."""

    games: Annotated[
        int,
        About(
            "games in the match",
            minimum=1,
            maximum=1000,
            question="How many games in the match?",
        ),
    ] = 1
    target: Annotated[
        int,
        About(
            "end the match once a player's total reaches this many points (0: off)",
            minimum=0,
            maximum=100_000,
            question="End the match early when someone reaches how many points? (0: never)",
        ),
    ] = 0
    start: Annotated[
        str,
        About(
            "the animals' squares: seat 0 lion,zebra,camel then seat 1 lion,zebra,camel",
            check=notation.placement_problem,
            advanced=True,
            question="Where do the animals stand? (South's lion, zebra, camel, then North's)",
        ),
    ] = notation.START_PLACEMENT
    first: Annotated[
        int,
        About(
            "the seat that moves first in the first game",
            choices=(0, 1),
            advanced=True,
            question="Who is younger? The younger player moves first.",
            choice_labels=("South", "North"),
        ),
    ] = 0


class ObontoGame(Game):
    """Obonto for two players, as a match of one or more games."""

    name = "obonto"
    title = "Obonto"
    rules_version = 1  # raise it when a change of the rules changes what stored actions mean
    min_players = 2
    max_players = 2
    chance = False
    perfect_information = True
    seat_names = ("South", "North")
    text_styles = {
        "[LZC]": "bold bright_white on dark_green",
        "[lzc]": "bold black on khaki1",
        "#": "grey30",
    }
    rules_page = "obonto"
    pitch = (
        "Lion, zebra and camel race over a board that darkens behind them: "
        "leave your rival with no move, then keep moving alone for points."
    )
    how_to_play = (
        "Each side has a lion, a zebra and a camel on a board of mostly light squares.",
        "On your turn, move one of your animals: the lion exactly 1 step, the zebra exactly 2, "
        "the camel exactly 3. A step goes up, down, left or right, and a move may turn corners.",
        "An animal steps on light squares only and never twice on the same square in one move. "
        "It may jump over other animals, but it must stop on an empty square.",
        "The square an animal leaves turns dark for good, so the board fills up as you play.",
        "Whoever cannot move on their turn loses. The winner then moves on alone and scores "
        "1 point, plus 1 for every move made alone.",
        "In a match of several games the points add up, and the most points win the match.",
    )
    parameters = declared_parameters(ObontoParameters)
    conformance_variants = (
        {},
        {"games": 3},
        {"games": 6, "target": 12, "first": 1},
        {"start": "e5,e4,e6,d5,f5,e3"},
        {"start": "a1,b1,a2,i9,h9,i8", "games": 2},
    )

    def _configure(self) -> None:
        options = read_parameters(ObontoParameters, self.params)
        self.games = options.games
        self.target = options.target
        self.first = options.first
        self.start_animals = notation.parse_placement(options.start)

    def max_game_length(self) -> int:
        return MAX_MOVES_PER_GAME * self.games

    def utility_range(self) -> tuple[float, float]:
        bound = MAX_SCORE_PER_GAME * self.games
        if self.target:
            # Before the last game both totals are below target.
            bound = min(bound, self.target - 1 + MAX_SCORE_PER_GAME)
        return (-float(bound), float(bound))

    def num_distinct_actions(self) -> int:
        return notation.NUM_ACTIONS

    def new_initial_state(self) -> ObontoState:
        return ObontoState(self, START_DARK_MASK, self.start_animals, self.first)

    def new_state_from_position(self, position: str) -> ObontoState:
        """A state at the start of the match's first game, from a position string.

        The board may be any (``notation.parse_position``); when the seat to move is stuck there,
        the state starts in the other seat's solo phase. The squares reset to the usual start
        pattern between games. Raises InvalidPositionError for a malformed position.
        A board with more light squares than the usual start can make the first game longer
        than ``max_game_length`` allows for (that bound is for ``new_initial_state``).
        """
        dark, animals, to_move = notation.parse_position(position)
        state = ObontoState(self, dark, animals, to_move)
        state._origin = position
        return state

    def _state_from_json(self, doc: Mapping[str, Any]) -> State:
        position = doc.get("position")
        if position is None:
            return super()._state_from_json(doc)
        try:
            state = self.new_state_from_position(position)
        except ValueError as error:
            raise InvalidStateError(f"state document's position is bad: {error}") from None
        return self.replay(state, doc["history"])


@declared
class ObontoState(State):
    """A position of an Obonto match: the board, whose turn, the phase and the scores."""

    game: ObontoGame

    _dark: Value[int]
    """Bit mask of the dark squares."""
    _animals: Copied[list[int]]
    _occupied: Value[int]
    _to_move: Value[int]
    _first: Value[int]
    _loser: Value[int | None]
    _solo_moves: Value[int]
    _game_index: Value[int]
    _totals: Copied[list[int]]
    _results: Copied[list[tuple[int, int]]]
    _over: Value[bool]
    _last_move: Value[int | None]
    _moves: Shared[list[int]]
    """The legal moves of the player to move (a new list each time, never changed in place)."""
    _animal_moves: Memo[list[list[int] | None]]
    """Per animal slot: its moves on the current board, or None when they may have changed."""
    _origin: Value[str | None]

    def __init__(
        self, game: ObontoGame, dark: int, animals: tuple[int, ...] | list[int], to_move: int
    ) -> None:
        super().__init__(game)
        self._dark = dark
        self._animals = list(animals)
        self._occupied = _occupied_mask(self._animals)
        self._to_move = to_move
        self._first = to_move
        self._loser = None
        self._solo_moves = 0
        self._game_index = 0
        self._totals = [0, 0]
        self._results = []
        self._over = False
        self._last_move = None
        self._moves = []
        self._animal_moves = [None] * 6
        self._origin = None
        self._settle()

    # ----- the rules -----------------------------------------------------------------------------

    def _settle(self) -> None:
        """Make sure the player to move has a move: a stuck player loses, a stuck winner ends the
        game, and a game that ends starts the next one (or ends the match).

        A loop rather than recursion, so that a long match of games that end at once (both sides
        stuck from the start) cannot overflow the stack.
        """
        while True:
            moves = self._moves_of(self._to_move)
            if moves:
                self._moves = moves
                return
            if self._loser is None:
                self._loser = self._to_move
                self._to_move = 1 - self._to_move
                continue
            if self._end_game():
                return

    def _end_game(self) -> bool:
        """Score the game that just ended; start the next one. True when the match is over."""
        loser = self._loser
        assert loser is not None  # only called once someone is stuck
        winner = 1 - loser
        score = 1 + self._solo_moves
        self._totals[winner] += score
        self._results.append((winner, score))
        game = self.game
        if len(self._results) >= game.games or (game.target and max(self._totals) >= game.target):
            self._over = True
            self._moves = []
            return True
        self._game_index += 1
        self._dark = START_DARK_MASK
        self._animal_moves = [None] * 6
        self._to_move = loser
        self._first = loser
        self._loser = None
        self._solo_moves = 0
        return False

    def _moves_of(self, seat: int) -> list[int]:
        """``moves_of`` for the current board, reusing each animal's moves while they still hold."""
        cached = self._animal_moves
        animals = self._animals
        moves: list[int] = []
        for slot in (seat * 3, seat * 3 + 1, seat * 3 + 2):
            own = cached[slot]
            if own is None:
                own = cached[slot] = animal_moves(
                    slot % 3, animals[slot], self._dark, self._occupied
                )
            moves += own
        moves.sort()
        return moves

    def current_player(self) -> int:
        return TERMINAL if self._over else self._to_move

    def _legal_actions(self) -> list[int]:
        return self._moves

    def _apply_action(self, action: int) -> None:
        origin, target = divmod(action, SQUARES)
        animals = self._animals
        animals[animals.index(origin)] = target
        self._dark |= 1 << origin
        self._occupied ^= (1 << origin) | (1 << target)
        self._last_move = action
        changed = (1 << origin) | (1 << target)
        cached = self._animal_moves
        lion, zebra, camel = REGIONS
        if lion[animals[0]] & changed:
            cached[0] = None
        if zebra[animals[1]] & changed:
            cached[1] = None
        if camel[animals[2]] & changed:
            cached[2] = None
        if lion[animals[3]] & changed:
            cached[3] = None
        if zebra[animals[4]] & changed:
            cached[4] = None
        if camel[animals[5]] & changed:
            cached[5] = None
        if self._loser is None:
            self._to_move = 1 - self._to_move
        else:
            self._solo_moves += 1
        self._settle()

    def returns(self) -> list[float]:
        if not self._over:
            return [0.0, 0.0]
        difference = float(self._totals[0] - self._totals[1])
        return [difference, -difference]

    def _why_illegal(self, action: int) -> str | None:
        if not 0 <= action < notation.NUM_ACTIONS:
            return f"action ids are 0 to {notation.NUM_ACTIONS - 1}"
        origin, target = divmod(action, SQUARES)
        seat = self._to_move
        if origin not in self._animals:
            return f"no animal stands on {NAMES[origin]}"
        slot = self._animals.index(origin)
        name = self.game.seat_name
        if slot // 3 != seat:
            return f"that is {name(slot // 3)}'s {KINDS[slot % 3]}: it is {name(seat)}'s turn"
        kind = slot % 3
        if self._occupied >> target & 1:
            return f"{NAMES[target]} is taken: a move must end on a square with no animal"
        if self._dark >> target & 1:
            return f"{NAMES[target]} is dark: animals never land on dark squares"
        if target not in dict(PATHS[kind][origin]):
            steps = STEPS[kind]
            turning = "" if steps == 1 else ", turning if it likes but never back"
            return (
                f"the {KINDS[kind]} moves exactly {steps} step{'s' if steps > 1 else ''}, "
                f"up, down, left or right{turning}"
            )
        return f"every way from {NAMES[origin]} to {NAMES[target]} crosses a dark square"

    # ----- notation ------------------------------------------------------------------------------

    def _action_to_string(self, action: int) -> str:
        return notation.action_to_string(action)

    def _string_to_action(self, text: str) -> int:
        return notation.string_to_action(text)

    # ----- what the players see ------------------------------------------------------------------

    def phase(self) -> str:
        """``'play'`` (both move), ``'solo'`` (the winner moves alone) or ``'over'``."""
        if self._over:
            return "over"
        return "play" if self._loser is None else "solo"

    def placement(self) -> str:
        """Where the animals stand, as a ``start`` parameter (to resume a match from here)."""
        return notation.format_placement(self._animals)

    def next_match(self, resigned: int | None) -> dict[str, ParameterValue]:
        """The parameters of the match that follows this one's end (a rematch): the animals
        stay where they stand and the loser of the last game moves first; ``resigned``, the
        seat that gave the match up, when one did."""
        if resigned is not None:
            first = resigned
        elif self._results:
            first = 1 - self._results[-1][0]
        else:
            first = self._first
        return {"start": self.placement(), "first": first}

    def position(self) -> str:
        """The board and the seat to move as a position string (``notation.parse_position``)."""
        return notation.format_position(self._dark, self._animals, self._to_move)

    def dark_mask(self) -> int:
        """Bitmask (bit = square index) of the dark squares."""
        return self._dark

    def animal_squares(self) -> tuple[int, ...]:
        """Square indices of seat 0's lion, zebra, camel, then seat 1's."""
        return tuple(self._animals)

    def solo_winner(self) -> int | None:
        """The seat moving alone in the solo phase, else None."""
        return None if self._loser is None or self._over else 1 - self._loser

    def solo_moves(self) -> int:
        """Solo moves made so far in the current game."""
        return self._solo_moves

    def evaluate_for(self, seat: int) -> float:
        """``Game.evaluate`` of this state for ``seat`` (heuristic.py), without an observation."""
        from boneyard.games.obonto.heuristic import evaluate_board

        phase = self.phase()
        own = other = 0
        if phase == "play":
            mover = len(self._moves)
            waiting = len(self._moves_of(1 - self._to_move))
            own, other = (mover, waiting) if seat == self._to_move else (waiting, mover)
        return evaluate_board(
            self.game,
            seat,
            self._dark,
            self._animals,
            phase,
            self._loser,
            self._solo_moves,
            self._totals,
            own,
            other,
        )

    def _observation(self, seat: int | None) -> Observation:
        return cast(Observation, self._typed_observation(seat))

    def _typed_observation(self, seat: int | None) -> ObontoObservation:
        """``observation(seat)`` as its declared type."""
        animals = self._animals
        return {
            "seat": seat,
            "current_player": self.current_player(),
            "to_move": self._to_move,
            "phase": self.phase(),
            "loser": self._loser,
            "solo_moves": self._solo_moves,
            "dark": [NAMES[i] for i in range(SQUARES) if self._dark >> i & 1],
            "animals": [
                {kind: NAMES[animals[seat_ * 3 + k]] for k, kind in enumerate(KINDS)}
                for seat_ in (0, 1)
            ],
            "game": self._game_index + 1,
            "games": self.game.games,
            "target": self.game.target,
            "first": self._first,
            "results": [{"winner": w, "score": s} for w, s in self._results],
            "totals": list(self._totals),
            "last_move": None
            if self._last_move is None
            else notation.action_to_string(self._last_move),
        }

    def __str__(self) -> str:
        return self.game.render_text(self._observation(None))

    # ----- the JSON document ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        doc = super().to_json()
        if self._origin is not None:
            doc["position"] = self._origin
        return doc
