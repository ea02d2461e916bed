"""Evaluators: what a search bot thinks a position is worth, after OpenSpiel's ``Evaluator``.

A search (``mcts``, ``ismcts``, ``alphabeta``) walks the tree; at a leaf it asks its evaluator
for the position's values, one per seat in [0, 1] (``ai/values.py``'s scale). Rollouts, the
game's heuristic and, later, a learned network plug in the same way: each is an ``Evaluator``,
and a bot takes one as ``evaluator=``. The defaults are the bots' own ways of old, so a bot made
without one plays exactly as before.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod

from boneyard.ai.greedy import action_value
from boneyard.ai.values import state_values
from boneyard.core.game import Game, State, sample_chance_outcome


class Evaluator(ABC):
    """Values of positions for a search."""

    @abstractmethod
    def evaluate(self, state: State, perspective: int) -> list[float]:
        """One value per seat in [0, 1] for ``state``, as seen by the searching seat
        ``perspective``. It may play on ``state``: searches hand it a scratch copy."""

    def value(self, state: State, seat: int) -> float:
        """``seat``'s value of ``state`` alone (a two-player search needs no more)."""
        return self.evaluate(state, seat)[seat]

    def priors(self) -> dict[int, float]:
        """How likely each legal move of the position last evaluated is to be best, where the
        evaluator knows (a network's policy, for a PUCT search); empty: it does not, and a
        search takes every move as equally likely."""
        return {}


class HeuristicEvaluator(Evaluator):
    """The game's heuristic (``Game.evaluate``) blended into values (``values.state_values``)."""

    def evaluate(self, state: State, perspective: int) -> list[float]:
        return state_values(state, perspective)


class SquashedHeuristicEvaluator(Evaluator):
    """The game's heuristic squashed into [0, 1] by a tanh a tenth of the utility range wide:
    ``alphabeta``'s leaf value, where only the searching seat's value matters."""

    def __init__(self, game: Game) -> None:
        self.game = game
        low, high = game.info.min_utility, game.info.max_utility
        self.softness = max(0.1 * (high - low), 1e-9)

    def value(self, state: State, seat: int) -> float:
        return 0.5 + 0.5 * math.tanh(self.game.evaluate(state, seat) / self.softness)

    def evaluate(self, state: State, perspective: int) -> list[float]:
        return [self.value(state, seat) for seat in range(self.game.info.num_players)]


ROLLOUT_POLICIES = ("random", "heuristic")


class RolloutEvaluator(Evaluator):
    """Play on from the position, then score where the play stopped.

    ``policy`` ``random`` picks uniformly; ``heuristic`` picks the best of a few random
    candidates by the heuristic, one move at a time. ``depth`` cuts the play after that many
    moves (chance outcomes not counted; 0: score the position at once; ``None``: play to the
    end); a cut position is scored by the game's heuristic. ``rng`` is the bot's own generator,
    so a seeded bot stays reproducible.
    """

    def __init__(
        self, rng: random.Random, *, depth: int | None = 10, policy: str = "random"
    ) -> None:
        if policy not in ROLLOUT_POLICIES:
            raise ValueError(f"unknown rollout {policy!r}; rollouts: {', '.join(ROLLOUT_POLICIES)}")
        if depth is not None and depth < 0:
            raise ValueError(f"rollout_depth must be 0 or more, not {depth}")
        self.rng = rng
        self.depth = depth
        self.policy = policy

    def evaluate(self, state: State, perspective: int) -> list[float]:
        rng = self.rng
        depth = 0
        limit = self.depth
        heuristic = self.policy == "heuristic"
        while not state.is_terminal() and (limit is None or depth < limit):
            if state.is_chance_node():
                action = sample_chance_outcome(state, rng)
            else:
                legal = state.legal_actions()
                if heuristic and len(legal) > 1:
                    action = self._heuristic_pick(state, legal)
                else:
                    action = rng.choice(legal)
                depth += 1
            state.apply_action(action)
        return state_values(state, perspective)

    def _heuristic_pick(self, state: State, legal: list[int]) -> int:
        player = state.current_player()
        candidates = self.rng.sample(legal, min(3, len(legal)))
        best_action = candidates[0]
        best_value = -math.inf
        for action in candidates:
            child = state.clone()
            child.apply_action(action)
            value = action_value(child, player)
            if value > best_value:
                best_value = value
                best_action = action
        return best_action
