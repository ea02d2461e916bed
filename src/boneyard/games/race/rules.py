"""Race's rules: the game's metadata and parameters, and a state with its fields declared once.

The ``State`` declares each field with how it is copied (``boneyard.core.record``): the core
derives ``clone`` from that, and the conformance kit compares every declared field after a clone,
a JSON round trip and a refused action. The base class does the shared work (refusing illegal
actions without a change, the history, the legal-action cache); the game fills in small hooks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, cast

from boneyard.core.game import CHANCE, TERMINAL, Game, Observation, State
from boneyard.core.parameters import About, declared_parameters, read_parameters
from boneyard.core.record import Value, declared
from boneyard.games.race import notation
from boneyard.games.race.observation import RaceObservation

COIN_ODDS = ((0, 0.25), (1, 0.75))
"""The coin's outcomes and their probabilities."""


@dataclass(frozen=True)
class RaceParameters:
    """RaceGame's parameters, declared once: the form's fields and the rules' typed view."""

    goal: Annotated[int, About("the total that ends the game", minimum=2, maximum=50)] = 7
    coin: Annotated[bool, About("whether a coin follows every move")] = True


class RaceGame(Game):
    """Race to a goal, with a coin after every move (not registered: the template)."""

    name = "race"
    title = "Race"
    rules_version = 1  # raise it when a change of the rules changes what stored actions mean
    chance = True
    parameters = declared_parameters(RaceParameters)
    seat_names = ("first", "second")
    conformance_variants = ({}, {"goal": 12}, {"coin": False})
    pitch = "Add one or two, let the coin add its bit, and be the one who reaches the goal."
    how_to_play = (
        "Two players share one running total, which starts at 0.",
        "On your turn, add 1 or 2 to the total. Then a coin is tossed and adds 1 more, three "
        "times in four.",
        "Whoever brings the total to the goal or past it (7, unless the game was set otherwise) "
        "wins. If the coin gets there first, the game is a draw.",
    )

    def _configure(self) -> None:
        options = read_parameters(RaceParameters, self.params)
        self.goal = options.goal
        self.coin = options.coin

    def max_game_length(self) -> int:
        return 2 * self.goal

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        return len(notation.MOVES)

    def max_chance_outcomes(self) -> int:
        return len(notation.COINS)

    def new_initial_state(self) -> RaceState:
        return RaceState(self)


@declared
class RaceState(State):
    """A position: the total, whose move, and whether the coin is due."""

    game: RaceGame

    total: Value[int]
    to_move: Value[int]
    coin_due: Value[bool]
    winner: Value[int | None]
    over: Value[bool]

    def __init__(self, game: RaceGame) -> None:
        super().__init__(game)
        self.total = 0
        self.to_move = 0
        self.coin_due = False
        self.winner = None
        self.over = False

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.coin_due else self.to_move

    def _legal_actions(self) -> list[int]:
        return [0, 1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return list(COIN_ODDS)

    def _apply_action(self, action: int) -> None:
        goal = self.game.goal
        if self.coin_due:
            self.total += action
            self.coin_due = False
            self.over = self.total >= goal
            return
        self.total += action + 1
        if self.total >= goal:
            self.winner, self.over = self.to_move, True
            return
        self.to_move = 1 - self.to_move
        self.coin_due = self.game.coin

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def _action_to_string(self, action: int) -> str:
        return notation.action_to_string(action, self.coin_due)

    def _string_to_action(self, text: str) -> int:
        return notation.string_to_action(text, self.coin_due)

    def _observation(self, seat: int | None) -> Observation:
        return cast(Observation, self._typed_observation(seat))

    def _typed_observation(self, seat: int | None) -> RaceObservation:
        return {
            "seat": seat,
            "current_player": self.current_player(),
            "total": self.total,
            "goal": self.game.goal,
            "winner": self.winner,
        }

    def __str__(self) -> str:
        return self.game.render_text(self._observation(None))
