"""``expert``: a search guided by a trained network (numpy inference, no JAX).

The search is MCTS with PUCT (AlphaZero's rule): at a position the network has seen, it picks
the action with the best ``Q + c * P * sqrt(N) / (1 + n)``, ``P`` the network's policy over the
legal actions; a new position is not played out but valued by the network
(``NetworkEvaluator``). In a hidden-information game every iteration searches a fresh
``resample`` of the bot's view (as ``ismcts``), chance edges keyed by what the bot's seat sees,
so the bot never sees hidden cards.

Chance is a node of the tree with a child per outcome (Stochastic MuZero's chance nodes, as the
training search has them). An action whose chance has few ways to the next decision
(``exact_chance``: a die's 6, a battle then a die's 12) is valued at its first visit by the
exact expectation over them, each evaluated; each later visit goes down one outcome: in a
perfect-information game the one furthest below its share of the node's visits (visits follow
the probabilities), in a hidden-information game one drawn by its probability in the world of
that iteration (the odds differ from world to world). An action's value is thus the expectation
of what follows it, never the value of one outcome drawn once.

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


DEFAULT_EXACT_CHANCE = 12
"""Ways through chance to the next decision up to which an action's first visit is valued by
their exact expectation (Bond O Cones' battle then die: 12; a Bon-Bon draw, 14 kinds, is
sampled)."""


class SearchNode:
    """A node of the expert's tree: the visits and value sum of the edge into it, its children
    (by action, or at a chance node by outcome or by what the bot sees of it) and, once
    evaluated, the network's priors over its actions."""

    __slots__ = ("children", "legal", "missing", "order", "place", "priors", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        """Sum of the values, for the player who chose the edge into this node."""
        self.children: dict[Any, SearchNode] = {}
        self.priors: dict[int, float] | None = None
        self.order: list[int] = []
        """The actions of ``priors``, most likely first (equals in the priors' order): where an
        untried action is chosen, the first of them still untried is the one (``_select``)."""
        self.legal: list[int] = []
        """The legal actions last selected from (a resampled world may have others), with
        each one's place in that list and those of them without a prior, in order."""
        self.place: dict[int, int] = {}
        self.missing: list[int] = []

    def value(self) -> float:
        """The mean value of the edge into this node for the seat that chose it."""
        return self.total / self.visits if self.visits else 0.0


class ExpertBot(Bot):
    """PUCT search with a network's priors and values (see the module doc).

    Budget: ``time_limit`` seconds (default 1) and/or ``iterations``. ``exploration`` is PUCT's
    ``c``. ``model`` is a model file (default: the game's shipped network). ``exact_chance``:
    the most ways through chance an action's first visit averages exactly (0: always one
    outcome a visit). ``evaluator`` replaces the network (or the heuristic) as the judge of
    positions, its priors included."""

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
        exact_chance: int = DEFAULT_EXACT_CHANCE,
        evaluator: Evaluator | None = None,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        if iterations is None and time_limit is None:
            time_limit = 1.0
        self.network: Network | None = fitting_network(game, model)
        self.evaluator: Evaluator = evaluator or (
            NetworkEvaluator(self.network, self.rng)
            if self.network is not None
            else HeuristicEvaluator()
        )
        self.budget = Budget(iterations, time_limit)
        self.exploration = exploration
        if exact_chance < 0:
            raise ValueError(f"exact_chance must be 0 or more, not {exact_chance}")
        self.exact_chance = exact_chance
        self.information_sets = not game.perfect_information
        self.last_iterations = 0

    def _choose(self, state: State) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        root = self.search(state)
        priors = root.priors or {}
        return max(
            actions,
            key=lambda a: (
                root.children[a].visits if a in root.children else -1,
                priors.get(a, 0.0),
            ),
        )

    def search(self, state: State) -> SearchNode:
        """The tree the budget grows from ``state`` (a position where the bot's seat acts; the
        state is not changed): a root child's ``value()`` is the bot's value of that action."""
        root = SearchNode()
        budget = self.budget
        budget.start()
        while True:
            self._iterate(root, self.view(state))
            if budget.spent():
                break
        self.last_iterations = budget.used
        return root

    def _chance_outcome(self, node: SearchNode, state: State) -> tuple[int, Any]:
        """The outcome to go down at a chance node, and its edge's key."""
        if self.information_sets:
            action = sample_chance_outcome(state, self.rng)
            return action, state.action_string_for(self.seat, action)
        children = node.children
        best_action, best_score = -1, -math.inf
        for action, probability in state.chance_outcomes():
            child = children.get(action)
            score = probability / (1 + (child.visits if child is not None else 0))
            if score > best_score:
                best_score, best_action = score, action
        return best_action, best_action

    def _expected_values(self, state: State) -> list[float] | None:
        """The values of chance node ``state`` averaged exactly over every way to the next
        decision (or the end), each evaluated; None where there are more than ``exact_chance``."""
        if len(state.chance_outcomes()) > self.exact_chance:
            return None
        ways: list[tuple[float, State]] = []
        if not self._chance_ways(state, 1.0, ways):
            return None
        totals = [0.0] * self.game.info.num_players
        for probability, leaf in ways:
            for seat, value in enumerate(self.evaluator.evaluate(leaf, self.seat)):
                totals[seat] += probability * value
        return totals

    def _chance_ways(
        self, state: State, probability: float, ways: list[tuple[float, State]]
    ) -> bool:
        """Add to ``ways`` each way chance goes from ``state`` to a decision (or the end), with
        its probability; False as soon as there are more than ``exact_chance``."""
        if not state.is_chance_node():
            ways.append((probability, state))
            return len(ways) <= self.exact_chance
        for outcome, chance in state.chance_outcomes():
            if chance <= 0.0:
                continue
            child = state.clone()
            child.apply_action(outcome)
            if not self._chance_ways(child, probability * chance, ways):
                return False
        return True

    def _iterate(self, root: SearchNode, state: State) -> None:
        path: list[tuple[SearchNode, int]] = []
        node = root
        values: list[float] | None = None
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                if node.visits == 0 and self.exact_chance:
                    values = self._expected_values(state)
                    if values is not None:
                        break
                action, key = self._chance_outcome(node, state)
            else:
                if node.priors is None:
                    values = self.evaluator.evaluate(state, self.seat)
                    node.priors = priors = self.evaluator.priors()
                    # most likely first; among equals the priors' own order, the legal one
                    node.order = sorted(priors, key=priors.__getitem__, reverse=True)
                    break
                action = key = self._select(node, state.legal_actions())
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = SearchNode()
            state.apply_action(action)
            path.append((child, player))
            node = child
        if values is None:
            values = self.evaluator.evaluate(state, self.seat)
        back_up(root, path, values)

    def _select(self, node: SearchNode, legal: list[int]) -> int:
        """The legal action of best PUCT score, the first in ``legal`` among equals.

        Every untried action scores ``UNVISITED_VALUE + scale * prior``, so of them only the
        one of highest prior can be best: the tried children are scored one by one, the
        untried through ``node.order`` (a search of a few hundred iterations over a
        position of 160 moves tries a few dozen), not every legal action each iteration."""
        priors = node.priors or {}
        floor = 1.0 / len(legal)
        scale = self.exploration * math.sqrt(max(node.visits, 1))
        children = node.children
        if legal != node.legal:  # the first selection here, or another world's moves
            node.legal = legal
            node.place = {action: i for i, action in enumerate(legal)}
            node.missing = [action for action in legal if action not in priors]
        place = node.place
        best_action, best = legal[0], (-math.inf, 0)

        def consider(action: int, score: float) -> None:
            nonlocal best_action, best
            key = (score, -place[action])
            if key > best:
                best, best_action = key, action

        for action, child in children.items():
            if child.visits and action in place:
                prior = priors.get(action, floor)
                consider(action, child.total / child.visits + scale * prior / (1 + child.visits))
        for action, prior in _best_untried(node, floor):
            consider(action, UNVISITED_VALUE + scale * prior)
        return best_action


def _untried(node: SearchNode, action: int) -> bool:
    child = node.children.get(action)
    return child is None or child.visits == 0


def _best_untried(node: SearchNode, floor: float) -> list[tuple[int, float]]:
    """The untried legal actions (``node.legal``) that may score best, with their priors: the
    one of highest prior (``node.order``) and the first with no prior (it gets ``floor``)."""
    priors = node.priors or {}
    found = []
    for action in node.order:
        if action in node.place and _untried(node, action):
            found.append((action, priors[action]))
            break
    for action in node.missing:
        if _untried(node, action):
            found.append((action, floor))
            break
    return found
