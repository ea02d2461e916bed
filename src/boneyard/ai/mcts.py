"""Monte Carlo tree search: ``mcts`` (UCT with chance nodes) and ``ismcts`` (information sets).

One search serves both. Each iteration starts from a state the bot may look at (a copy of the
true state in a perfect-information game, a fresh ``resample`` in a hidden-information game),
walks down the tree choosing by UCB among the actions legal *in that state* (a child's
"availability" counts how often it could have been chosen, as in Cowling et al.'s ISMCTS),
samples chance outcomes by their probabilities, adds one node, asks its evaluator for the leaf's
values (by default a rollout cut at a depth and scored by the game's heuristic:
``ai/evaluators.py``), and backs up one value per seat, so it plays any number of players.

``mcts`` keys chance edges by outcome and keeps its tree between moves (subtree reuse) in
perfect-information games. ``ismcts`` keys chance edges by what the bot's seat sees of them
(``action_string_for``): outcomes hidden from it share one edge, so its tree is over its own
information sets.
"""

from __future__ import annotations

import math
from typing import Any

from boneyard.ai.base import Bot, Budget
from boneyard.ai.evaluators import Evaluator, RolloutEvaluator
from boneyard.core.game import CHANCE, Game, State, sample_chance_outcome


class Node:
    """A tree node: the visits and value sum of the edge into it, and its children."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0
        """Sum of the values, for the player who chose the edge into this node."""
        self.children: dict[Any, Node] = {}


def back_up(root: Any, path: list[tuple[Any, int]], values: list[float]) -> None:
    """One simulation's values into a tree (``MCTSBot``'s, ``ExpertBot``'s): the root and every
    edge on ``path`` get a visit, and each edge the value of the seat that chose it (a chance
    edge, chooser below 0, only the visit)."""
    root.visits += 1
    for entered, chooser in path:
        entered.visits += 1
        if chooser >= 0:
            entered.total += values[chooser]


class MCTSBot(Bot):
    """UCT over the game tree, chance nodes sampled by their probabilities.

    Budget: ``iterations`` and/or ``time_limit`` seconds a move (whichever ends first).
    ``rollout_depth`` cuts rollouts (0: score the new leaf by the heuristic at once; ``None``:
    play to the end). ``rollout`` is ``random`` or ``heuristic`` (the best of a few random
    candidates by the heuristic, one move at a time). ``reuse`` keeps the subtree of the position
    reached between moves.
    """

    name = "mcts"
    information_sets = False

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        iterations: int | None = 1000,
        time_limit: float | None = None,
        exploration: float = 0.7,
        rollout: str = "random",
        rollout_depth: int | None = 10,
        reuse: bool = True,
        evaluator: Evaluator | None = None,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        self.evaluator = evaluator or RolloutEvaluator(
            self.rng, depth=rollout_depth, policy=rollout
        )
        """Values of the leaves (``ai/evaluators.py``); by default a rollout with the bot's
        generator, ``rollout`` policy and ``rollout_depth``."""
        self.budget = Budget(iterations, time_limit)
        self.exploration = exploration
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        # A reused tree is only sound when the bot sees the true history.
        self.reuse = reuse and game.perfect_information and not self.information_sets
        self._root: Node | None = None
        self._root_history: list[int] = []
        self.last_iterations = 0

    def reset(self) -> None:
        self._root = None
        self._root_history = []

    # ----- the search ---------------------------------------------------------------------------

    def _choose(self, state: State) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        root = self._reused_root(state)
        budget = self.budget
        budget.start()
        while True:
            self._iterate(root, self.view(state))
            if budget.spent():
                break
        self.last_iterations = budget.used
        best = max(
            actions,
            key=lambda a: (
                root.children[a].visits if a in root.children else -1,
                root.children[a].total if a in root.children else 0.0,
            ),
        )
        if self.reuse:
            self._root = root
            self._root_history = state.history()
        return best

    def _reused_root(self, state: State) -> Node:
        if not self.reuse or self._root is None:
            return Node()
        history = state.history()
        known = len(self._root_history)
        if history[:known] != self._root_history:
            return Node()
        node: Node | None = self._root
        for action in history[known:]:
            node = node.children.get(action) if node is not None else None
        return node if node is not None else Node()

    def _edge_key(self, state: State, action: int) -> Any:
        if self.information_sets and state.is_chance_node():
            return state.action_string_for(self.seat, action)
        return action

    def _iterate(self, root: Node, state: State) -> None:
        path: list[tuple[Node, int]] = []  # (node entered, player who chose the edge into it)
        node = root
        rng = self.rng
        expanded = False
        while not state.is_terminal() and not expanded:
            player = state.current_player()
            if player == CHANCE:
                action = sample_chance_outcome(state, rng)
                key = self._edge_key(state, action)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                    expanded = True
            else:
                legal = state.legal_actions()
                untried = [a for a in legal if a not in node.children]
                for action in legal:
                    existing = node.children.get(action)
                    if existing is not None:
                        existing.available += 1
                if untried:
                    action = rng.choice(untried)
                    child = node.children[action] = Node()
                    child.available = 1
                    expanded = True
                else:
                    action = self._select(node, legal)
                    child = node.children[action]
            state.apply_action(action)
            path.append((child, player))
            node = child
        back_up(root, path, self.evaluator.evaluate(state, self.seat))

    def _select(self, node: Node, legal: list[int]) -> int:
        exploration = self.exploration
        best_action = legal[0]
        best_score = -math.inf
        children = node.children
        for action in legal:
            child = children[action]
            score = child.total / child.visits + exploration * math.sqrt(
                math.log(max(child.available, 1)) / child.visits
            )
            if score > best_score:
                best_score = score
                best_action = action
        return best_action


class ISMCTSBot(MCTSBot):
    """Information-set MCTS: every iteration searches a fresh ``resample`` of the bot's view.

    Chance edges are keyed by what the bot's seat sees of the outcome, so outcomes it cannot see
    share one edge. Any number of players; in a perfect-information game it is plain MCTS
    without tree reuse.
    """

    name = "ismcts"
    information_sets = True
