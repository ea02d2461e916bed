"""The greedy bot: one ply, the expectation over chance, the game's heuristic."""

from __future__ import annotations

from boneyard.ai.base import Bot
from boneyard.ai.values import state_values
from boneyard.core.game import Game, State

MAX_CHANCE_LEAVES = 64
"""Beyond this many chance leaves below one action, greedy samples instead of enumerating."""


def action_value(state: State, seat: int) -> float:
    """The value of ``state`` for ``seat``: a won end above everything, a lost end below."""
    values = state_values(state)
    value = values[seat]
    if state.is_terminal():
        returns = state.returns()
        others = [r for other, r in enumerate(returns) if other != seat]
        if others:
            best_other = max(others)
            if returns[seat] > best_other:
                value += 2.0
            elif returns[seat] < best_other:
                value -= 2.0
        elif returns[seat] >= state.game.info.max_utility:
            value += 2.0
    return value


class GreedyBot(Bot):
    """Tries every action, averages over the chance outcomes right after it, and plays the best.

    In a hidden-information game it does this on ``samples`` resampled states and sums the
    values, so it sees only what its seat may know.
    """

    name = "greedy"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        samples: int = 8,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        self.samples = samples if not game.perfect_information else 1

    def _choose(self, state: State) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        totals = dict.fromkeys(actions, 0.0)
        for _ in range(self.samples):
            view = self.view(state)
            for action in view.legal_actions():
                if action not in totals:
                    continue
                child = view.clone()
                child.apply_action(action)
                totals[action] += self._expected(child, MAX_CHANCE_LEAVES)
        best = max(totals.values())
        # Ties are broken at random, so greedy is not predictable where the heuristic is blind.
        tied = [action for action in actions if totals[action] >= best - 1e-12]
        return self.rng.choice(tied)

    def _expected(self, state: State, leaves: int) -> float:
        if not state.is_chance_node():
            return action_value(state, self.seat)
        outcomes = state.chance_outcomes()
        if len(outcomes) > leaves:
            # Too many outcomes to enumerate: one sample by their probabilities.
            actions = [a for a, _ in outcomes]
            weights = [p for _, p in outcomes]
            outcome = self.rng.choices(actions, weights)[0]
            child = state.clone()
            child.apply_action(outcome)
            return self._expected(child, 1)
        total = 0.0
        share = max(1, leaves // len(outcomes))
        for outcome, probability in outcomes:
            child = state.clone()
            child.apply_action(outcome)
            total += probability * self._expected(child, share)
        return total
