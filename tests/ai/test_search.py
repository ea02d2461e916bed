"""What each bot is for: greedy takes a win, alpha-beta finds a forced one, MCTS reuses its tree,
and the hidden-information bots decide from what their seat may know, nothing more."""

from __future__ import annotations

import random
from functools import cache

import pytest

import boneyard
from boneyard import State
from boneyard.ai import make_bot
from boneyard.ai.alphabeta import WIN
from boneyard.ai.mcts import MCTSBot

from .cases import HIDDEN_GAMES, decision_states
from .toy_games import SecretCards, TicTacToe, TicTacToeState


def _play(state: State, *moves: str) -> State:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_greedy_takes_an_immediate_win_in_tictactoe() -> None:
    game = TicTacToe()
    # x: 0 1, o: 3 4; x wins at 2 (o would win at 5 next).
    state = _play(game.new_initial_state(), "0", "3", "1", "4")
    for seed in range(5):
        assert make_bot("greedy", game, 0, seed=seed).step(state) == 2


def test_greedy_takes_an_immediate_win_in_bones() -> None:
    game = boneyard.load_game("bones")
    # White shows e5-h5; one more domino at d5 or i5 makes five in rank 5.
    state = _play(game.new_initial_state(), "e5-f5", "a1-a2", "g5-h5", "a8-a9")
    for seed in range(3):
        child = state.clone()
        child.apply_action(make_bot("greedy", game, 0, seed=seed).step(state))
        assert child.is_terminal()
        assert child.returns()[0] == 1.0


@cache
def _solved(board: str) -> float:
    """Tic-tac-toe value for x by exhaustive minimax (the test's own brute force)."""
    state = TicTacToeState(TicTacToe())
    state.board = list(board)
    if state.is_terminal():
        return state.returns()[0]
    mover = state.current_player()
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(_solved("".join(child.board)))
    return max(values) if mover == 0 else min(values)


def _forced_wins_without_an_immediate_win() -> list[TicTacToeState]:
    game = TicTacToe()
    rng = random.Random(5)
    found: list[TicTacToeState] = []
    while len(found) < 6:
        state = game.new_initial_state()
        for _ in range(rng.randrange(2, 6)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        mover = state.current_player()
        sign = 1.0 if mover == 0 else -1.0
        immediate = False
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            immediate |= child.is_terminal() and child.returns()[mover] == 1.0
        if sign * _solved("".join(state.board)) == 1.0 and not immediate:
            found.append(state)
    return found


@pytest.mark.parametrize("state", _forced_wins_without_an_immediate_win())
def test_alphabeta_keeps_a_forced_win(state: TicTacToeState) -> None:
    mover = state.current_player()
    sign = 1.0 if mover == 0 else -1.0
    bot = make_bot("alphabeta", state.game, mover, seed=0, max_depth=9)
    child = state.clone()
    child.apply_action(bot.step(state))
    assert sign * _solved("".join(child.board)) == 1.0
    assert bot.last_value > WIN / 2  # type: ignore[attr-defined]  # it proved the win


def test_mcts_reuses_the_subtree_of_the_position_reached() -> None:
    game = TicTacToe()
    bot = make_bot("mcts", game, 0, seed=1, iterations=200)
    assert isinstance(bot, MCTSBot)
    state = game.new_initial_state()
    state.apply_action(bot.step(state))
    state.apply_action(state.legal_actions()[0])
    kept = bot._reused_root(state)
    assert kept.visits > 0
    visits_before = kept.visits
    bot.step(state)
    assert bot._reused_root(state).visits == visits_before + 200


def test_mcts_starts_afresh_on_an_unrelated_state() -> None:
    game = TicTacToe()
    bot = make_bot("mcts", game, 0, seed=1, iterations=50)
    assert isinstance(bot, MCTSBot)
    bot.step(_play(game.new_initial_state(), "4", "0"))
    other = _play(game.new_initial_state(), "0", "4")  # not a continuation of the last search
    assert bot._reused_root(other).visits == 0


def _same_view_pairs(game: boneyard.Game, count: int) -> list[tuple[State, State]]:
    """(true state, a different full state the mover cannot tell from it)."""
    pairs = []
    rng = random.Random(2)
    for state in decision_states(game, count, seed=3, spread=12):
        seat = state.current_player()
        other = state.resample(seat, rng)
        assert other.observation(seat) == state.observation(seat)
        pairs.append((state, other))
    return pairs


HIDDEN_CASES = [pytest.param(boneyard.load_game(name), id=name) for name in HIDDEN_GAMES] + [
    pytest.param(SecretCards(), id="toy_secret_cards"),
    pytest.param(SecretCards(players=4), id="toy_secret_cards_4"),
]


@pytest.mark.parametrize("game", HIDDEN_CASES)
@pytest.mark.parametrize("bot_name", ["ismcts", "mcts", "greedy", "alphabeta", "random"])
def test_hidden_information_bots_decide_from_the_observation_only(
    game: boneyard.Game, bot_name: str
) -> None:
    options = {
        "ismcts": {"iterations": 25, "rollout_depth": 4},
        "mcts": {"iterations": 25, "rollout_depth": 4},
        "greedy": {"samples": 2, "evaluations": 40},
        "alphabeta": {"max_depth": 1},
        "random": {},
    }[bot_name]
    for state, other in _same_view_pairs(game, 3):
        seat = state.current_player()
        first = make_bot(bot_name, game, seat, seed=9, **options).step(state)
        second = make_bot(bot_name, game, seat, seed=9, **options).step(other)
        assert first == second


def test_the_toy_secret_cards_pairs_really_differ_in_hidden_cards() -> None:
    # Guards the test above: the two states of a pair are not the same state.
    pairs = _same_view_pairs(SecretCards(), 6)
    assert any(a.cards != b.cards for a, b in pairs)  # type: ignore[attr-defined]
