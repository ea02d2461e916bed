"""Tiny games for the bot tests, built on the engine contract but never registered.

They let the bot tests run before (and independently of) the real games: tic-tac-toe (perfect
information), a dice race (chance) and a secret-card game for n players (hidden information).
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.core.errors import InvalidActionStringError
from boneyard.core.game import CHANCE, TERMINAL, Game, Observation, State
from boneyard.core.parameters import Parameter

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe(Game):
    name = "toy_tictactoe"
    title = "Tic-tac-toe"

    def max_game_length(self) -> int:
        return 9

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        return 9

    def new_initial_state(self) -> TicTacToeState:
        return TicTacToeState(self)

    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, TicTacToeState)
        if state.is_terminal():
            return state.returns()[seat]
        mark = "xo"[seat]
        other = "xo"[1 - seat]
        score = 0.0
        for line in LINES:
            cells = [state.board[i] for i in line]
            if other not in cells:
                score += cells.count(mark) * 0.05
            if mark not in cells:
                score -= cells.count(other) * 0.05
        return max(-0.9, min(0.9, score))


class TicTacToeState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.board = ["."] * 9

    def winner(self) -> str | None:
        for a, b, c in LINES:
            if self.board[a] != "." and self.board[a] == self.board[b] == self.board[c]:
                return self.board[a]
        return None

    def current_player(self) -> int:
        if self.winner() or "." not in self.board:
            return TERMINAL
        return self.board.count("x") - self.board.count("o")

    def _legal_actions(self) -> list[int]:
        return [i for i, cell in enumerate(self.board) if cell == "."]

    def _apply_action(self, action: int) -> None:
        self.board[action] = "xo"[self.current_player()]

    def returns(self) -> list[float]:
        winner = self.winner()
        if winner == "x":
            return [1.0, -1.0]
        if winner == "o":
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def _action_to_string(self, action: int) -> str:
        return str(action)

    def _string_to_action(self, text: str) -> int:
        if not text.isdigit():
            raise InvalidActionStringError(f"bad cell {text!r}: 0 to 8")
        return int(text)

    def _observation(self, seat: int | None) -> Observation:
        return {"current_player": self.current_player(), "board": "".join(self.board)}

    def clone(self) -> TicTacToeState:
        new = TicTacToeState(self.game)
        new.board = list(self.board)
        new._history = list(self._history)
        return new

    def __str__(self) -> str:
        return "\n".join("".join(self.board[r * 3 : r * 3 + 3]) for r in range(3))


class DiceRace(Game):
    """Two players race to ``goal``: each turn roll (a die, chance) or hold the turn total."""

    name = "toy_dice_race"
    title = "Dice race"
    chance = True
    parameters = (Parameter("goal", int, 12, "points to win", minimum=2, maximum=50),)

    def max_game_length(self) -> int:
        return 400

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 6

    def new_initial_state(self) -> DiceRaceState:
        return DiceRaceState(self)

    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, DiceRaceState)
        if state.is_terminal():
            return state.returns()[seat]
        goal = int(self.params["goal"])  # type: ignore[arg-type]
        return 0.9 * (state.scores[seat] - state.scores[1 - seat]) / goal


class DiceRaceState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.scores = [0, 0]
        self.turn_total = 0
        self.player = 0
        self.rolling = False
        self.moves = 0

    def current_player(self) -> int:
        goal = self.game.params["goal"]
        if max(self.scores) >= goal or self.moves >= 300:  # type: ignore[operator]
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def _legal_actions(self) -> list[int]:
        return [0, 1]  # 0 roll, 1 hold

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(face, 1 / 6) for face in range(6)]

    def _apply_action(self, action: int) -> None:
        self.moves += 1
        if self.rolling:
            self.rolling = False
            if action == 0:
                self.turn_total = 0
                self.player = 1 - self.player
            else:
                self.turn_total += action + 1
        elif action == 0:
            self.rolling = True
        else:
            self.scores[self.player] += self.turn_total
            self.turn_total = 0
            self.player = 1 - self.player

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.scores[0] == self.scores[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.scores[0] > self.scores[1] else [-1.0, 1.0]

    def _action_to_string(self, action: int) -> str:
        if self.rolling:
            return f"roll {action + 1}"
        return ["roll", "hold"][action]

    def _string_to_action(self, text: str) -> int:
        if text in ("roll", "hold"):
            return ["roll", "hold"].index(text)
        raise InvalidActionStringError(f"bad action {text!r}: roll or hold")

    def _observation(self, seat: int | None) -> Observation:
        return {
            "current_player": self.current_player(),
            "scores": list(self.scores),
            "turn_total": self.turn_total,
        }

    def __str__(self) -> str:
        return f"{self.scores} turn {self.turn_total} player {self.player}"


class SecretCards(Game):
    """n players each get a secret card 0..4 (chance); in turn each bets or folds; the highest
    card among the bettors wins the pot (everyone's ante). Nobody sees another's card."""

    name = "toy_secret_cards"
    title = "Secret cards"
    chance = True
    perfect_information = False
    min_players = 2
    max_players = 4
    parameters = (Parameter("players", int, 3, "number of players", minimum=2, maximum=4),)

    def num_players(self) -> int:
        return int(self.params["players"])  # type: ignore[arg-type]

    def max_game_length(self) -> int:
        return 2 * self.num_players()

    def utility_range(self) -> tuple[float, float]:
        n = self.num_players()
        return (-2.0, 2.0 * (n - 1))

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 5

    def new_initial_state(self) -> SecretCardsState:
        return SecretCardsState(self)

    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, SecretCardsState)
        if state.is_terminal():
            return state.returns()[seat]
        if seat < len(state.cards):
            return (state.cards[seat] - 2) * 0.3
        return 0.0


class SecretCardsState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.cards: list[int] = []
        self.bets: list[int] = []  # 1 bet, 0 fold

    def current_player(self) -> int:
        n = self.game.info.num_players
        if len(self.cards) < n:
            return CHANCE
        if len(self.bets) < n:
            return len(self.bets)
        return TERMINAL

    def _legal_actions(self) -> list[int]:
        return [0, 1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(card, 0.2) for card in range(5)]

    def _apply_action(self, action: int) -> None:
        if len(self.cards) < self.game.info.num_players:
            self.cards.append(action)
        else:
            self.bets.append(action)

    def returns(self) -> list[float]:
        n = self.game.info.num_players
        if not self.is_terminal():
            return [0.0] * n
        bettors = [s for s in range(n) if self.bets[s]]
        if not bettors:
            return [0.0] * n
        best = max(self.cards[s] for s in bettors)
        winners = [s for s in bettors if self.cards[s] == best]
        stake = [2.0 if self.bets[s] else 1.0 for s in range(n)]
        pot = sum(stake)
        return [pot / len(winners) - stake[s] if s in winners else -stake[s] for s in range(n)]

    def _action_to_string(self, action: int) -> str:
        if self.is_chance_node():
            return f"card {action}"
        return ["fold", "bet"][action]

    def action_string_for(self, seat: int | None, action: int) -> str:
        if self.is_chance_node() and seat != len(self.cards):
            return "card ?"
        return self._action_to_string(action)

    def _string_to_action(self, text: str) -> int:
        if text in ("fold", "bet"):
            return ["fold", "bet"].index(text)
        raise InvalidActionStringError(f"bad action {text!r}: fold or bet")

    def _observation(self, seat: int | None) -> Observation:
        doc: dict[str, Any] = {
            "current_player": self.current_player(),
            "bets": list(self.bets),
            "dealt": len(self.cards),
        }
        if seat is not None and seat < len(self.cards):
            doc["card"] = self.cards[seat]
        if self.is_terminal():
            doc["cards"] = list(self.cards)
        return doc

    def _resample(self, seat: int, rng: random.Random) -> SecretCardsState:
        new = SecretCardsState(self.game)
        new.cards = [
            self.cards[s] if s == seat else rng.randrange(5) for s in range(len(self.cards))
        ]
        new.bets = list(self.bets)
        new._history = new.cards + new.bets
        return new

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "cards": list(self.cards), "bets": list(self.bets)}

    def __str__(self) -> str:
        return f"cards {self.cards} bets {self.bets}"


TOY_GAMES: list[Game] = [TicTacToe(), DiceRace(), SecretCards(), SecretCards(players=2)]
