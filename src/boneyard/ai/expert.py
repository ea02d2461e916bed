"""``expert``: a search guided by a trained network (numpy inference, no JAX).

The search is MCTS with PUCT (AlphaZero's rule): at a position the network has seen, it picks
the action with the best ``Q + c * P * sqrt(N) / (1 + n)``, ``P`` the network's policy over the
legal actions; a new position is not played out but valued by the network
(``NetworkEvaluator``). Chance outcomes are sampled by their probabilities on the way down. In a
hidden-information game every iteration searches a fresh ``resample`` of the bot's view (as
``ismcts``), chance edges keyed by what the bot's seat sees, so the bot never sees hidden cards.

The network is the game's shipped model (``boneyard/ai/models/<game>.npz``) unless ``model=``
names another file. A game (or a variant: other parameters, another tensor size) with no
network that fits is searched the same way with the game's heuristic as the value and uniform
priors, so ``expert`` plays every registered game. The budget is ``hard``'s: one second a move.
"""

from __future__ import annotations

import math
from typing import Any

from boneyard.ai.base import Bot, Budget
from boneyard.ai.evaluators import Evaluator, HeuristicEvaluator
from boneyard.ai.mcts import back_up
from boneyard.ai.network import Network, NetworkEvaluator, fitting_network
from boneyard.core.game import CHANCE, Game, State, sample_chance_outcome

UNVISITED_VALUE = 0.4
"""The value an untried action is taken to have (a little below even: try what the policy
likes first)."""


class _Node:
    __slots__ = ("children", "priors", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        """Sum of the values, for the player who chose the edge into this node."""
        self.children: dict[Any, _Node] = {}
        self.priors: dict[int, float] | None = None


class ExpertBot(Bot):
    """PUCT search with a network's priors and values (see the module doc).

    Budget: ``time_limit`` seconds (default 1) and/or ``iterations``. ``exploration`` is PUCT's
    ``c``. ``model`` is a model file (default: the game's shipped network)."""

    name = "expert"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        iterations: int | None = None,
        time_limit: float | None = 1.0,
        exploration: float = 1.5,
        model: str | None = None,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        if iterations is None and time_limit is None:
            time_limit = 1.0
        self.network: Network | None = fitting_network(game, model)
        self.evaluator: Evaluator = (
            NetworkEvaluator(self.network, self.rng)
            if self.network is not None
            else HeuristicEvaluator()
        )
        self.budget = Budget(iterations, time_limit)
        self.exploration = exploration
        self.information_sets = not game.perfect_information
        self.last_iterations = 0

    def _choose(self, state: State) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        root = _Node()
        budget = self.budget
        budget.start()
        while True:
            self._iterate(root, self.view(state))
            if budget.spent():
                break
        self.last_iterations = budget.used
        priors = root.priors or {}
        return max(
            actions,
            key=lambda a: (
                root.children[a].visits if a in root.children else -1,
                priors.get(a, 0.0),
            ),
        )

    def _edge_key(self, state: State, action: int) -> Any:
        if self.information_sets and state.is_chance_node():
            return state.action_string_for(self.seat, action)
        return action

    def _iterate(self, root: _Node, state: State) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        values: list[float] | None = None
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = sample_chance_outcome(state, self.rng)
                key = self._edge_key(state, action)
            else:
                if node.priors is None:
                    values = self.evaluator.evaluate(state, self.seat)
                    node.priors = self.evaluator.priors()
                    break
                action = key = self._select(node, state.legal_actions())
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
            state.apply_action(action)
            path.append((child, player))
            node = child
        if values is None:
            values = self.evaluator.evaluate(state, self.seat)
        back_up(root, path, values)

    def _select(self, node: _Node, legal: list[int]) -> int:
        priors = node.priors or {}
        floor = 1.0 / len(legal)
        scale = self.exploration * math.sqrt(max(node.visits, 1))
        best_action, best_score = legal[0], -math.inf
        children = node.children
        for action in legal:
            child = children.get(action)
            prior = priors.get(action, floor)
            if child is None or child.visits == 0:
                score = UNVISITED_VALUE + scale * prior
            else:
                score = child.total / child.visits + scale * prior / (1 + child.visits)
            if score > best_score:
                best_score, best_action = score, action
        return best_action
