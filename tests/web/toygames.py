"""Two small games for the web tests, not registered (the app takes them through a Catalog).

``toy_walk`` is a perfect-information board game with from-to moves and an SVG with
data-square attributes; ``toy_secret`` deals each seat a secret number by chance (2 to 4 seats
from its ``players`` parameter), so the privacy tests have a hidden-information game whatever
real games are registered.
"""

from __future__ import annotations

from typing import Any

from boneyard.core.errors import InvalidActionStringError
from boneyard.core.game import CHANCE, TERMINAL, Game, Observation, State
from boneyard.core.parameters import Parameter

FILES = "abc"


def _square(index: int) -> str:
    return f"{FILES[index % 3]}{index // 3 + 1}"


def _index(square: str) -> int:
    if len(square) != 2 or square[0] not in FILES or square[1] not in "123":
        raise InvalidActionStringError(f"bad square {square!r}: a1 to c3")
    return (int(square[1]) - 1) * 3 + FILES.index(square[0])


class WalkGame(Game):
    name = "toy_walk"
    title = "Toy Walk"
    seat_names = ("North", "South")
    parameters = (Parameter("max_moves", int, 20, "Moves before a draw.", minimum=2, maximum=100),)

    def max_game_length(self) -> int:
        return int(self.params["max_moves"])  # type: ignore[arg-type]

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        return 81

    def new_initial_state(self) -> WalkState:
        return WalkState(self)

    def render_svg(self, observation: Observation, **options: Any) -> str:
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 90 90">']
        for index in range(9):
            x, y = (index % 3) * 30, (2 - index // 3) * 30
            parts.append(
                f'<rect data-square="{_square(index)}" x="{x}" y="{y}" width="30" height="30" '
                f'fill="{"#eee" if (index % 3 + index // 3) % 2 else "#ccc"}"/>'
            )
        for seat, index in enumerate(observation["pieces"]):
            x, y = (index % 3) * 30 + 15, (2 - index // 3) * 30 + 15
            parts.append(f'<circle cx="{x}" cy="{y}" r="10" fill="{"#000" if seat else "#b00"}"/>')
        parts.append("</svg>")
        return "".join(parts)


class WalkState(State):
    game: WalkGame

    def __init__(self, game: WalkGame) -> None:
        super().__init__(game)
        self.pieces = [0, 8]
        self.player = 0
        self.moves = 0
        self.winner: int | None = None

    def current_player(self) -> int:
        if self.winner is not None or self.moves >= self.game.max_game_length():
            return TERMINAL
        return self.player

    def _legal_actions(self) -> list[int]:
        here = self.pieces[self.player]
        row, col = divmod(here, 3)
        targets = []
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            r, c = row + dr, col + dc
            if 0 <= r < 3 and 0 <= c < 3 and r * 3 + c not in self.pieces:
                targets.append(r * 3 + c)
        return sorted(here * 9 + t for t in targets)

    def _apply_action(self, action: int) -> None:
        self.pieces[self.player] = action % 9
        if self.pieces[self.player] == (8 if self.player == 0 else 0):
            self.winner = self.player
        self.player = 1 - self.player
        self.moves += 1

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def _action_to_string(self, action: int) -> str:
        return f"{_square(action // 9)}-{_square(action % 9)}"

    def _string_to_action(self, text: str) -> int:
        start, sep, end = text.partition("-")
        if not sep:
            raise InvalidActionStringError(f"bad move {text!r}: write from-to, like a1-a2")
        return _index(start) * 9 + _index(end)

    def _why_illegal(self, action: int) -> str | None:
        return "a piece steps to a next empty square"

    def _observation(self, seat: int | None) -> Observation:
        return {"current_player": self.current_player(), "pieces": list(self.pieces)}

    def __str__(self) -> str:
        return " ".join(_square(p) for p in self.pieces)


class SecretGame(Game):
    name = "toy_secret"
    title = "Toy Secret"
    chance = True
    perfect_information = False
    min_players = 2
    max_players = 4
    parameters = (Parameter("players", int, 2, "How many play.", minimum=2, maximum=4),)

    def num_players(self) -> int:
        return int(self.params["players"])  # type: ignore[arg-type]

    def max_game_length(self) -> int:
        return 2 * self.num_players()

    def utility_range(self) -> tuple[float, float]:
        return (0.0, 1.0)

    def num_distinct_actions(self) -> int:
        return 10

    def max_chance_outcomes(self) -> int:
        return 10

    def new_initial_state(self) -> SecretState:
        return SecretState(self)


class SecretState(State):
    """Chance deals each seat a secret 0-9; then each seat guesses its left neighbour's."""

    game: SecretGame

    def __init__(self, game: SecretGame) -> None:
        super().__init__(game)
        self.secrets: list[int] = []
        self.guesses: list[int] = []

    def current_player(self) -> int:
        players = self.game.num_players()
        if len(self.secrets) < players:
            return CHANCE
        if len(self.guesses) < players:
            return len(self.guesses)
        return TERMINAL

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(n, 0.1) for n in range(10)]

    def _legal_actions(self) -> list[int]:
        return list(range(10))

    def _apply_action(self, action: int) -> None:
        if len(self.secrets) < self.game.num_players():
            self.secrets.append(action)
        else:
            self.guesses.append(action)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players()
        players = self.game.num_players()
        return [
            1.0 if self.guesses[s] == self.secrets[(s + 1) % players] else 0.0
            for s in range(players)
        ]

    def _action_to_string(self, action: int) -> str:
        if len(self.secrets) < self.game.num_players():
            return f"deal {action}"
        return f"guess {action}"

    def action_string_for(self, seat: int | None, action: int) -> str:
        dealt_to = len(self.secrets)
        if dealt_to < self.game.num_players() and seat != dealt_to:
            return "deal ?"
        return self._action_to_string(action)

    def _string_to_action(self, text: str) -> int:
        word, _, number = text.partition(" ")
        if word not in ("deal", "guess") or not number.isdigit() or int(number) > 9:
            raise InvalidActionStringError(f"bad action {text!r}: guess 0 to guess 9")
        return int(number)

    def _observation(self, seat: int | None) -> Observation:
        done = self.is_terminal()
        return {
            "current_player": self.current_player(),
            "guesses": list(self.guesses),
            "my_secret": self.secrets[seat]
            if seat is not None and seat < len(self.secrets)
            else None,
            "secrets": list(self.secrets) if done else None,
        }

    def __str__(self) -> str:
        return f"secrets {self.secrets} guesses {self.guesses}"


TOY_GAMES: dict[str, type[Game]] = {"toy_walk": WalkGame, "toy_secret": SecretGame}
