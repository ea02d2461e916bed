"""A tiny game for testing the shared machinery: race to 7, with a coin after every move.

Players alternately add 1 or 2 (actions 0 and 1, "+1" and "+2") to a running total; after each
move a coin (chance outcomes 0 "coin 0" and 1 "coin 1", probabilities 1/4 and 3/4) adds 0 or 1.
Whoever brings the total to 7 or more with a move wins; a coin that does it ends in a draw.
"""

from __future__ import annotations

from typing import Any

from boneyard import CHANCE, TERMINAL, Game, State
from boneyard.core.errors import InvalidActionStringError
from boneyard.core.parameters import Parameter


class RaceGame(Game):
    name = "race"
    title = "Race to seven"
    chance = True
    parameters = (
        Parameter("goal", int, 7, "total that ends the game", minimum=2, maximum=50),
        Parameter("coin", bool, True, "whether a coin follows every move"),
        Parameter("label", str, "race", "a name", choices=("race", "sprint")),
    )

    def max_game_length(self) -> int:
        return 2 * int(self.params["goal"])  # type: ignore[arg-type]

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 2

    def new_initial_state(self) -> RaceState:
        return RaceState(self)


class RaceState(State):
    game: RaceGame

    def __init__(self, game: RaceGame) -> None:
        super().__init__(game)
        self.total = 0
        self.to_move = 0
        self.coin_due = False
        self.winner: int | None = None
        self.over = False

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.coin_due else self.to_move

    def _legal_actions(self) -> list[int]:
        return [0, 1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.25), (1, 0.75)]

    def _apply_action(self, action: int) -> None:
        goal = int(self.game.params["goal"])  # type: ignore[arg-type]
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
        self.coin_due = bool(self.game.params["coin"])

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def _action_to_string(self, action: int) -> str:
        if action not in (0, 1):
            raise ValueError(f"no action {action}")
        return f"coin {action}" if self.coin_due else f"+{action + 1}"

    def _string_to_action(self, text: str) -> int:
        table = {"coin 0": 0, "coin 1": 1} if self.coin_due else {"+1": 0, "+2": 1}
        if text not in table:
            raise InvalidActionStringError(f"bad action {text!r}; allowed: {', '.join(table)}")
        return table[text]

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total, "current_player": self.current_player()}

    def __str__(self) -> str:
        return f"total {self.total}"
