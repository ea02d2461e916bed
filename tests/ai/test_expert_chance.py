"""The expert's search at chance nodes: an action's value is the expectation over the chance
after it (exact at its first visit where the ways are few, visits in proportion to the
probabilities after), and the root's values come to the expectimax values of a small game."""

from __future__ import annotations

from typing import Any

import pytest

from boneyard.ai.evaluators import Evaluator
from boneyard.ai.expert import ExpertBot
from boneyard.ai.values import state_values
from boneyard.core.errors import InvalidActionStringError
from boneyard.core.game import CHANCE, TERMINAL, Game, Observation, State

from .toy_games import DiceRace, DiceRaceState

DICE: list[list[tuple[int, float]]] = [
    [(face, 1 / 6) for face in range(1, 7)],
    [(0, 0.5), (2, 0.25), (9, 0.25)],
    [(3, 0.5), (4, 0.5)],
]
"""Pick a die's faces and their probabilities: the three dice seat 0 may pick."""


class PickADie(Game):
    """Seat 0 picks a die (three, unlike), it is rolled, seat 1 calls the face high (4 up) or
    low; seat 0 scores the face, less a penalty where the call is right: a game small enough
    for an exact expectimax, with a decision on each side of chance."""

    name = "toy_pick_a_die"
    title = "Pick a die"
    chance = True

    def max_game_length(self) -> int:
        return 3

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        return 3

    def max_chance_outcomes(self) -> int:
        return 10

    def new_initial_state(self) -> PickADieState:
        return PickADieState(self)

    def evaluate(self, state: State, seat: int) -> float:
        return 0.0


class PickADieState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.die: int | None = None
        self.face: int | None = None
        self.call: int | None = None

    def current_player(self) -> int:
        if self.die is None:
            return 0
        if self.face is None:
            return CHANCE
        return 1 if self.call is None else TERMINAL

    def _legal_actions(self) -> list[int]:
        return [0, 1, 2] if self.die is None else [0, 1]  # a die; low, high

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.die is not None
        return DICE[self.die]

    def _apply_action(self, action: int) -> None:
        if self.die is None:
            self.die = action
        elif self.face is None:
            self.face = action
        else:
            self.call = action

    def returns(self) -> list[float]:
        if self.face is None or self.call is None:
            return [0.0, 0.0]
        right = (self.face >= 4) == (self.call == 1)
        score = self.face / 10 - (0.5 if right else 0.0)
        return [score, -score]

    def _action_to_string(self, action: int) -> str:
        if self.die is None:
            return f"die {action}"
        if self.face is None:
            return f"face {action}"
        return ["low", "high"][action]

    def _string_to_action(self, text: str) -> int:
        raise InvalidActionStringError(f"bad action {text!r}")

    def _observation(self, seat: int | None) -> Observation:
        return {"die": self.die, "face": self.face, "call": self.call}

    def __str__(self) -> str:
        return f"die {self.die} face {self.face} call {self.call}"


def _expectimax(state: State) -> float:
    """Seat 0's exact value on the search's scale (``state_values``: returns mapped to [0, 1])."""
    if state.is_terminal():
        return state_values(state, 0)[0]
    if state.is_chance_node():
        return sum(p * _expectimax(_after(state, a)) for a, p in state.chance_outcomes())
    values = [_expectimax(_after(state, a)) for a in state.legal_actions()]
    return max(values) if state.current_player() == 0 else min(values)


def _after(state: State, action: int) -> State:
    child = state.clone()
    child.apply_action(action)
    return child


def _race(scores: list[int], turn_total: int) -> DiceRaceState:
    state = DiceRace().new_initial_state()
    state.scores, state.turn_total = scores, turn_total
    return state


class RaceEvaluator(Evaluator):
    """A fixed judge of a dice race that counts the points at stake: the banked scores and the
    mover's turn total, so each face of a roll is worth something else."""

    def evaluate(self, state: State, perspective: int) -> list[float]:
        assert isinstance(state, DiceRaceState)
        if state.is_terminal():
            return state_values(state, perspective)
        lead = state.scores[0] - state.scores[1]
        lead += state.turn_total if state.player == 0 else -state.turn_total
        return [0.5 + lead / 40, 0.5 - lead / 40]


def _bot(game: Game, **options: Any) -> ExpertBot:
    return ExpertBot(game, 0, seed=1, time_limit=None, **options)


def test_a_chance_edges_first_visit_is_valued_by_the_exact_expectation() -> None:
    state = _race([5, 9], 4)
    judge = RaceEvaluator()
    # the root's evaluation, then roll's first visit (both actions untried: the first is roll)
    roll = _bot(state.game, iterations=2, evaluator=judge).search(state).children[0]
    assert roll.visits == 1
    rolled = _after(state, 0)
    faces = [judge.evaluate(_after(rolled, face), 0)[0] for face in range(6)]
    assert max(faces) - min(faces) > 0.2  # one face's value alone would be far off
    assert roll.value() == pytest.approx(sum(faces) / 6, abs=1e-12)
    # with exact_chance=0 the first visit goes down one face, and is worth that face alone
    sampled = _bot(state.game, iterations=2, evaluator=judge, exact_chance=0).search(state)
    assert sampled.children[0].value() in faces


def test_a_chance_nodes_visits_follow_its_probabilities() -> None:
    """After its first (exact) visit, each visit of roll goes down the face furthest below its
    share: the six faces' visits never differ by more than one. Pick a die's second die (1/2,
    1/4, 1/4) is visited 2:1:1."""
    state = _race([5, 9], 4)
    roll = _bot(state.game, iterations=300, exploration=50.0).search(state).children[0]
    faces = [roll.children[face].visits for face in range(6) if face in roll.children]
    assert len(faces) == 6 and sum(faces) == roll.visits - 1
    assert max(faces) - min(faces) <= 1 and roll.visits > 60
    picking = PickADie().new_initial_state()
    die = _bot(picking.game, iterations=400, exploration=50.0).search(picking).children[1]
    visits = {face: die.children[face].visits for face in (0, 2, 9)}
    assert sum(visits.values()) == die.visits - 1
    quarter = (die.visits - 1) / 4
    assert visits[0] == pytest.approx(2 * quarter, abs=1) and visits[9] == pytest.approx(
        quarter, abs=1
    )


def test_root_values_come_to_the_expectimax_values() -> None:
    state = PickADie().new_initial_state()
    exact = {die: _expectimax(_after(state, die)) for die in state.legal_actions()}
    assert len({round(v, 6) for v in exact.values()}) == 3  # three different values to find
    bot = _bot(state.game, iterations=6000, exploration=0.5)
    root = bot.search(state)
    best = max(exact, key=exact.__getitem__)
    assert max(root.children, key=lambda a: root.children[a].visits) == best
    assert root.children[best].value() == pytest.approx(exact[best], abs=0.02)
    assert bot.step(state) == best


def test_exact_chance_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="exact_chance must be 0 or more"):
        _bot(DiceRace(), exact_chance=-1)
