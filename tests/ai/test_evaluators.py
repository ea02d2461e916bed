"""The evaluator seam: rollouts, the heuristic or any other evaluator plug into mcts, ismcts and
alphabeta the same way, and the defaults are the bots' own ways (equal seeds, equal moves)."""

from __future__ import annotations

import pytest

import boneyard
from boneyard import State
from boneyard.ai.alphabeta import AlphaBetaBot
from boneyard.ai.evaluators import (
    Evaluator,
    HeuristicEvaluator,
    RolloutEvaluator,
    SquashedHeuristicEvaluator,
)
from boneyard.ai.mcts import ISMCTSBot, MCTSBot

from .toy_games import TicTacToe


class Counting(Evaluator):
    """The heuristic, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def evaluate(self, state: State, perspective: int) -> list[float]:
        self.calls += 1
        return HeuristicEvaluator().evaluate(state, perspective)


def _middle(name: str, moves: int = 4) -> State:
    game = boneyard.load_game(name)
    state = game.new_initial_state()
    for _ in range(moves):
        state.apply_action(state.legal_actions()[len(state.legal_actions()) // 2])
    return state


@pytest.mark.parametrize("bot_class", [MCTSBot, ISMCTSBot])
def test_a_custom_evaluator_values_the_leaves_of_mcts(bot_class: type[MCTSBot]) -> None:
    state = _middle("obonto")
    counting = Counting()
    bot = bot_class(state.game, state.current_player(), seed=1, iterations=50, evaluator=counting)
    assert bot.step(state) in state.legal_actions()
    assert counting.calls == 50


def test_a_custom_evaluator_values_the_leaves_of_alphabeta() -> None:
    state = _middle("obonto")
    counting = Counting()
    bot = AlphaBetaBot(state.game, state.current_player(), seed=1, max_depth=2, evaluator=counting)
    assert bot.step(state) in state.legal_actions()
    assert counting.calls > 0


def test_the_default_mcts_evaluator_is_a_rollout_with_the_bots_generator() -> None:
    state = _middle("bones", 6)
    seat = state.current_player()
    plain = MCTSBot(state.game, seat, seed=3, iterations=200, rollout="heuristic")
    explicit = MCTSBot(state.game, seat, seed=3, iterations=200)
    explicit.evaluator = RolloutEvaluator(explicit.rng, depth=10, policy="heuristic")
    assert plain.step(state) == explicit.step(state)


def test_the_default_alphabeta_evaluator_is_the_squashed_heuristic() -> None:
    state = _middle("obonto")
    seat = state.current_player()
    plain = AlphaBetaBot(state.game, seat, seed=2, max_depth=2)
    explicit = AlphaBetaBot(
        state.game, seat, seed=2, max_depth=2, evaluator=SquashedHeuristicEvaluator(state.game)
    )
    assert plain.step(state) == explicit.step(state)
    assert plain.last_value == explicit.last_value


def test_a_bad_rollout_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="rollouts: random, heuristic"):
        MCTSBot(TicTacToe(), 0, rollout="sideways")
    with pytest.raises(ValueError, match="0 or more"):
        MCTSBot(TicTacToe(), 0, rollout_depth=-1)
