"""The alpha-beta bot: iterative deepening, a transposition table, the game's heuristic.

Unfinished leaves are valued by an evaluator (``ai/evaluators.py``; by default the game's
heuristic, squashed). Made for the perfect-information games without chance (Obonto, Bones,
OYNO), it still plays every game: chance nodes are averaged over their outcomes
(expectiminimax), more than two players are searched "paranoid" (every other seat plays against
the bot), and a hidden-information game is searched on one ``resample`` of the bot's view.
"""

from __future__ import annotations

import math
import time

from boneyard.ai.base import Bot, time_limit_seconds, whole_number
from boneyard.ai.evaluators import Evaluator, SquashedHeuristicEvaluator
from boneyard.ai.repetition import REPEAT_MARGIN
from boneyard.ai.values import values_from_returns
from boneyard.core.game import Game, State

WIN = 10.0
"""A won end is worth WIN more than any heuristic value (a lost one WIN less)."""

_EXACT, _LOWER, _UPPER = 0, 1, 2
_Key = tuple[object, int, int]
"""A transposition table key: the position's key, the player to move, the move number."""


class _OutOfTime(Exception):
    """Raised inside the search when the time limit passes."""


class AlphaBetaBot(Bot):
    """Iterative deepening alpha-beta to ``max_depth`` plies within ``time_limit`` seconds.

    With a time limit the deepest completed iteration answers; without one, ``max_depth`` does
    (reproducible). Wins are preferred sooner and losses later.
    """

    name = "alphabeta"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        max_depth: int | None = None,
        time_limit: float | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        self.evaluator = evaluator or SquashedHeuristicEvaluator(game)
        """The bot's value of an unfinished leaf (``ai/evaluators.py``)."""
        if max_depth is not None:
            max_depth = whole_number("max_depth", max_depth, 1, unit="plies")
        self.time_limit = time_limit_seconds(time_limit)
        if max_depth is None and time_limit is None:
            max_depth = 3
        self.max_depth = max_depth
        self._table: dict[_Key, tuple[int, float, int, int | None]] = {}
        self._deadline = math.inf
        self._killers: dict[int, list[int]] = {}
        self._history: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self.last_value = 0.0

    def reset(self) -> None:
        self._table.clear()

    # ----- values -----------------------------------------------------------------------------

    def _value(self, state: State, ply: int) -> float:
        seat = self.seat
        if state.is_terminal():
            returns = list(state.returns())
            value = values_from_returns(self.game, returns)[seat]
            others = [r for other, r in enumerate(returns) if other != seat]
            if others:
                if returns[seat] > max(others):
                    return WIN + value - ply * 1e-3
                if returns[seat] < max(others):
                    return -WIN + value + ply * 1e-3
                return value
            if returns[seat] >= self.game.info.max_utility:
                return WIN + value - ply * 1e-3
            return value
        return self.evaluator.value(state, seat)

    # ----- the search -------------------------------------------------------------------------

    def _choose(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = self.view(state)
        self._deadline = (
            time.perf_counter() + self.time_limit if self.time_limit is not None else math.inf
        )
        self._table.clear()
        self._killers.clear()
        self._history.clear()
        self.nodes = 0
        order = list(legal)
        self.rng.shuffle(order)
        best = order[0]
        depth = 0
        while self.max_depth is None or depth < self.max_depth:
            depth += 1
            partial: dict[int, float] = {}
            try:
                scores = self._root_scores(root, order, depth, partial)
            except _OutOfTime:
                # The unfinished iteration searched the previous best move first; any move it
                # proved better at this depth is better, so it is used.
                if order[0] in partial:
                    top = max(partial.values())
                    if top > partial[order[0]]:
                        best = next(a for a in order if partial.get(a) == top)
                break
            top = max(scores.values())
            best = next(a for a in order if scores[a] == top)
            order.sort(key=lambda a: -scores[a])
            self.last_value = top
            if abs(top) > WIN / 2 or time.perf_counter() >= self._deadline:
                break  # a forced result is known, or there is no time for another iteration
        return best

    def _root_scores(
        self, root: State, order: list[int], depth: int, scores: dict[int, float]
    ) -> dict[int, float]:
        alpha = -math.inf
        for action in order:
            child = root.clone()
            child.apply_action(action)
            # Null-window tests are not worth it here; a plain window keeps the scores exact
            # enough to order the next iteration.
            value = self._search(child, depth - 1, alpha, math.inf, 1)
            if action in self.avoid:
                # Counted down by the margin, a move to avoid wins only by more than it; the
                # window stays the raw alpha, so every other move within the margin is exact.
                value -= REPEAT_MARGIN
            scores[action] = value
            alpha = max(alpha, value)
        return scores

    def _ordered(self, actions: list[int], player: int, first: int | None, ply: int) -> list[int]:
        """The table's best move first, then this ply's killer moves, then by history score.

        A move that refuted one line often refutes its siblings (the killer and history
        heuristics), so alpha-beta cuts early without any game knowledge.
        """
        history = self._history
        if history:
            actions.sort(key=lambda a: -history.get((player, a), 0))
        front = [first] if first is not None else []
        front += [k for k in self._killers.get(ply, ()) if k != first]
        for move in reversed(front):
            if move in actions:
                actions.remove(move)
                actions.insert(0, move)
        return actions

    def _remember_cutoff(self, action: int, player: int, depth: int, ply: int) -> None:
        self._remember_killer(action, ply)
        key = (player, action)
        self._history[key] = self._history.get(key, 0) + depth * depth

    def _remember_killer(self, action: int, ply: int) -> None:
        killers = self._killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]

    def _search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if time.perf_counter() >= self._deadline:
            raise _OutOfTime
        if state.is_terminal() or depth <= 0:
            return self._value(state, ply)
        if state.is_chance_node():
            return self._chance_value(state, depth, ply)
        player = state.current_player()
        maximizing = player == self.seat
        key = (state.transposition_key(), player, state.move_number())
        known, alpha, beta, first = self._probe(key, depth, alpha, beta)
        if known is not None:
            return known
        actions = self._ordered(state.legal_actions(), player, first, ply)
        original_alpha, original_beta = alpha, beta
        best_value = -math.inf if maximizing else math.inf
        best_action = actions[0]
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            value = self._search(child, depth - 1, alpha, beta, ply + 1)
            if value > best_value if maximizing else value < best_value:
                best_value, best_action = value, action
            if maximizing:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                self._remember_cutoff(action, player, depth, ply)
                break
        else:
            # No cutoff: the best move here is still the likeliest refutation in sibling nodes.
            self._remember_killer(best_action, ply)
        self._store(key, depth, best_value, best_action, original_alpha, original_beta)
        return best_value

    def _chance_value(self, state: State, depth: int, ply: int) -> float:
        """The expected value of a chance node: each outcome searched with a full window."""
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            total += probability * self._search(child, depth, -math.inf, math.inf, ply + 1)
        return total

    def _probe(
        self, key: _Key, depth: int, alpha: float, beta: float
    ) -> tuple[float | None, float, float, int | None]:
        """What the transposition table knows of ``key`` searched ``depth`` deep: a value that
        settles the node (or None), the window narrowed by a stored bound, and the best move
        found there before (searched first)."""
        entry = self._table.get(key)
        if entry is None:
            return None, alpha, beta, None
        stored_depth, stored_value, flag, first = entry
        if stored_depth >= depth:
            if flag == _EXACT:
                return stored_value, alpha, beta, first
            if flag == _LOWER:
                alpha = max(alpha, stored_value)
            elif flag == _UPPER:
                beta = min(beta, stored_value)
            if alpha >= beta:
                return stored_value, alpha, beta, first
        return None, alpha, beta, first

    def _store(
        self,
        key: _Key,
        depth: int,
        value: float,
        action: int,
        original_alpha: float,
        original_beta: float,
    ) -> None:
        """``value`` of ``key`` searched ``depth`` deep in the window ``original_alpha``,
        ``original_beta``: exact inside it, else the bound it proves; ``action`` the best."""
        if value <= original_alpha:
            flag = _UPPER
        elif value >= original_beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self._table[key] = (depth, value, flag, action)
