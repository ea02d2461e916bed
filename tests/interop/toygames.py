"""Tiny games that exercise the adapters' branches before (and besides) the real games.

They are never registered, so ``boneyard.list_games()`` does not see them; the adapters accept a
``Game`` object as well as a name. Each covers one kind the adapters must handle:

- ``Race``: two players, chance, perfect information, zero-sum (the template game).
- ``MiniPoker``: two players, chance, hidden information (a Kuhn-poker-like game), zero-sum.
- ``Countdown``: one player, deterministic, general-sum.
"""

from __future__ import annotations

import random
from typing import Any

from boneyard import CHANCE, TERMINAL, Game, Observation, Parameter, State
from boneyard.core.errors import InvalidActionStringError
from tests.core.toy import RaceGame

_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
    '<rect width="40" height="20" fill="#eee" stroke="#000"/>'
    '<text x="2" y="15" font-size="12">{}</text></svg>'
)


class Race(RaceGame):
    """The core tests' race (the template game, ``boneyard.games.race``), under its own name;
    its drawings and tensor are the template's."""

    name = "toy_race"
    title = "Race"


class MiniPoker(Game):
    """Kuhn poker with ``cards`` cards: a deal (chance, secret), then pass (0) or bet (1)."""

    name = "toy_poker"
    title = "Mini poker"
    chance = True
    perfect_information = False
    parameters = (Parameter("cards", int, 3, "cards in the deck", minimum=2, maximum=6),)

    def max_game_length(self) -> int:
        return 5

    def utility_range(self) -> tuple[float, float]:
        return (-2.0, 2.0)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return int(self.params["cards"])  # type: ignore[arg-type]

    def new_initial_state(self) -> PokerState:
        return PokerState(self)

    def render_text(self, observation: Observation) -> str:
        return f"cards {observation['cards']} bets {observation['bets']}"

    def render_svg(self, observation: Observation, **options: Any) -> str:
        return _SVG.format("".join(str(b) for b in observation["bets"]))

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (int(self.params["cards"]) + 2 + 6,)  # type: ignore[arg-type]

    def observation_tensor(self, observation: Observation) -> list[float]:
        cards = int(self.params["cards"])  # type: ignore[arg-type]
        values = [0.0] * (cards + 2 + 6)
        seat = observation["seat"]
        if seat is not None:
            values[cards + seat] = 1.0
            own = observation["cards"][seat]
            if own is not None:
                values[own] = 1.0
        for turn, bet in enumerate(observation["bets"]):
            values[cards + 2 + 2 * turn + bet] = 1.0
        return values


class PokerState(State):
    game: MiniPoker

    def __init__(self, game: MiniPoker) -> None:
        super().__init__(game)
        self.cards: list[int] = []
        self.bets: list[int] = []

    def _over(self) -> bool:
        return self.bets in ([0, 0], [0, 1, 0], [0, 1, 1], [1, 0], [1, 1])

    def _showdown(self) -> bool:
        return (self._over() and self.bets[-1:] != [0]) or self.bets == [0, 0]

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self._over():
            return TERMINAL
        return len(self.bets) % 2

    def _legal_actions(self) -> list[int]:
        return [0, 1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in range(int(self.game.params["cards"])) if c not in self.cards]  # type: ignore[arg-type]
        return [(c, 1 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if len(self.cards) < 2:
            self.cards.append(action)
        else:
            self.bets.append(action)

    def returns(self) -> list[float]:
        if self.current_player() != TERMINAL:
            return [0.0, 0.0]
        if self.bets == [1, 0]:
            return [1.0, -1.0]
        if self.bets == [0, 1, 0]:
            return [-1.0, 1.0]
        stake = 1.0 if self.bets == [0, 0] else 2.0
        return [stake, -stake] if self.cards[0] > self.cards[1] else [-stake, stake]

    def _action_to_string(self, action: int) -> str:
        if len(self.cards) < 2:
            return f"deal {action}"
        return "bet" if action else "pass"

    def action_string_for(self, seat: int | None, action: int) -> str:
        if len(self.cards) < 2 and seat != len(self.cards):
            return "deal ?"
        return self._action_to_string(action)

    def _string_to_action(self, text: str) -> int:
        if text in ("pass", "bet"):
            return int(text == "bet")
        if text.startswith("deal ") and text[5:].isdigit():
            return int(text[5:])
        raise InvalidActionStringError(f"bad action {text!r}: 'pass', 'bet' or 'deal N'")

    def _observation(self, seat: int | None) -> Observation:
        shown = [c if seat == i or self._showdown() else None for i, c in enumerate(self.cards)]
        return {
            "current_player": self.current_player(),
            "seat": seat,
            "cards": shown + [None] * (2 - len(shown)),
            "bets": list(self.bets),
        }

    def _resample(self, seat: int, rng: random.Random) -> PokerState:
        shown = self._observation(seat)["cards"][: len(self.cards)]
        deck = [c for c in range(int(self.game.params["cards"])) if c not in shown]  # type: ignore[arg-type]
        rng.shuffle(deck)
        new = self.clone()
        new.cards = [c if c is not None else deck.pop() for c in shown]
        new._history = new.cards + list(new.bets)
        return new

    def __str__(self) -> str:
        return f"cards {self.cards} bets {self.bets}"

    def clone(self) -> PokerState:
        new = PokerState(self.game)
        new.cards, new.bets = list(self.cards), list(self.bets)
        new._history = list(self._history)
        return new


class Countdown(Game):
    """One player adds 1 or 2 to a counter, at most ``moves`` times: reach exactly ``goal``."""

    name = "toy_countdown"
    title = "Countdown"
    min_players = 1
    max_players = 1
    parameters = (Parameter("goal", int, 5, "the value to hit exactly", minimum=1, maximum=20),)

    def max_game_length(self) -> int:
        return int(self.params["goal"])  # type: ignore[arg-type]

    def utility_range(self) -> tuple[float, float]:
        return (0.0, 1.0)

    def num_distinct_actions(self) -> int:
        return 2

    def new_initial_state(self) -> CountdownState:
        return CountdownState(self)

    def render_text(self, observation: Observation) -> str:
        return f"{observation['counter']} of {observation['goal']}"

    def render_svg(self, observation: Observation, **options: Any) -> str:
        return _SVG.format(observation["counter"])

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (int(self.params["goal"]) + 2,)  # type: ignore[arg-type]

    def observation_tensor(self, observation: Observation) -> list[float]:
        values = [0.0] * (int(self.params["goal"]) + 2)  # type: ignore[arg-type]
        values[observation["counter"]] = 1.0
        return values


class CountdownState(State):
    game: Countdown

    def __init__(self, game: Countdown) -> None:
        super().__init__(game)
        self.counter = 0

    def current_player(self) -> int:
        return TERMINAL if self.counter >= int(self.game.params["goal"]) else 0  # type: ignore[arg-type]

    def _legal_actions(self) -> list[int]:
        return [0, 1]

    def _apply_action(self, action: int) -> None:
        self.counter += action + 1

    def returns(self) -> list[float]:
        goal = int(self.game.params["goal"])  # type: ignore[arg-type]
        return [1.0 if self.counter == goal else 0.0]

    def _action_to_string(self, action: int) -> str:
        return f"add {action + 1}"

    def _string_to_action(self, text: str) -> int:
        if text in ("add 1", "add 2"):
            return int(text[-1]) - 1
        raise InvalidActionStringError(f"bad action {text!r}: 'add 1' or 'add 2'")

    def _observation(self, seat: int | None) -> Observation:
        return {
            "current_player": self.current_player(),
            "counter": self.counter,
            "goal": self.game.params["goal"],
        }

    def __str__(self) -> str:
        return f"counter {self.counter}"


TOY_GAMES: tuple[Game, ...] = (Race(), MiniPoker(), Countdown())
