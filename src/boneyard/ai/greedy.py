"""The greedy bot: one ply, the expectation over chance, the game's heuristic."""

from __future__ import annotations

import math
import time

from boneyard.ai.base import Bot, time_limit_seconds, whole_number
from boneyard.core.game import Game, State

EVALUATIONS = 60
"""About how many positions greedy evaluates a resample; beyond it, chance outcomes are sampled."""


def action_value(state: State, seat: int) -> float:
    """The heuristic value of ``state`` for ``seat``; a won end above everything, a lost below.

    Values are in the game's utility range, shifted by its width for a won or lost end.
    """
    game = state.game
    if not state.is_terminal():
        return game.evaluate(state, seat)
    returns = state.returns()
    width = game.info.max_utility - game.info.min_utility
    value = returns[seat]
    others = [r for other, r in enumerate(returns) if other != seat]
    if others:
        best_other = max(others)
        if returns[seat] > best_other:
            value += width
        elif returns[seat] < best_other:
            value -= width
    elif returns[seat] >= game.info.max_utility:
        value += width
    return value


class GreedyBot(Bot):
    """Tries every action, averages over the chance outcomes right after it, and plays the best.

    In a hidden-information game it does this on ``samples`` resampled states (fewer when
    ``time_limit`` runs out; never none) and sums the values, so it sees only what its seat may
    know. Where the chance outcomes are too many for its budget of about ``evaluations``
    positions a resample, it samples them by their probabilities.
    """

    name = "greedy"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        samples: int = 4,
        evaluations: int = EVALUATIONS,
        time_limit: float | None = None,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        samples = whole_number("samples", samples, 1)
        self.samples = samples if not game.perfect_information else 1
        self.evaluations = whole_number("evaluations", evaluations, 1)
        self.time_limit = time_limit_seconds(time_limit)

    def _choose(self, state: State) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        totals = self.action_totals(state)
        best = max(totals.values())
        # Ties are broken at random, so greedy is not predictable where the heuristic is blind.
        tied = [action for action in actions if totals[action] >= best - 1e-12]
        return self.rng.choice(tied)

    def action_totals(self, state: State) -> dict[int, float]:
        """Each legal action's value summed over the resamples looked at (one where the game
        hides nothing): what ``step`` maximises."""
        actions = state.legal_actions()
        totals = dict.fromkeys(actions, 0.0)
        leaves = max(1, self.evaluations // len(actions))
        deadline = time.perf_counter() + self.time_limit if self.time_limit else math.inf
        for sample in range(self.samples):
            if sample and time.perf_counter() >= deadline:
                break  # at least one resample is always done; then as many as time allows
            view = self.view(state)
            for action in view.legal_actions():
                if action not in totals:
                    continue
                child = view.clone()
                child.apply_action(action)
                totals[action] += self._expected(child, leaves)
        return totals

    def _expected(self, state: State, leaves: int) -> float:
        if not state.is_chance_node():
            return action_value(state, self.seat)
        outcomes = state.chance_outcomes()
        if len(outcomes) > leaves:
            # Too many outcomes to enumerate: the mean of ``leaves`` samples.
            actions = [a for a, _ in outcomes]
            weights = [p for _, p in outcomes]
            total = 0.0
            for outcome in self.rng.choices(actions, weights, k=leaves):
                child = state.clone()
                child.apply_action(outcome)
                total += self._expected(child, 1)
            return total / leaves
        total = 0.0
        share = max(1, leaves // len(outcomes))
        for outcome, probability in outcomes:
            child = state.clone()
            child.apply_action(outcome)
            total += probability * self._expected(child, share)
        return total
