"""Our ``mcts`` against OpenSpiel's Python ``MCTSBot``, both at about 1 second a move.

Not a test. OpenSpiel's bot plays through the adapter (``boneyard.interop.openspiel``) with its
usual settings: UCT constant 2 for returns in [-1, 1] (scaled by the game's maximum utility,
which is the same as normalising the returns: Obonto's returns are point margins up to 72, and
an unscaled 2 would make its search nearly greedy), one random rollout to the end per leaf
(``RandomRolloutEvaluator``), ``solve=True``.

OpenSpiel's Python ``MCTSBot`` takes only a simulation count (``max_simulations``), no time
limit, so its count is re-calibrated before every move: it runs ``seconds / (seconds a
simulation took on its previous move)`` simulations. The first move of a game uses a probe of
200 simulations on the opening position; a move that ends early because ``solve=True`` solved
the root does not update the rate. So it spends about ``--seconds`` wall-clock a move (a little
less as the rollouts get shorter through the game).

Ours is ``make_bot("mcts", ..., time_limit=seconds)``: the plain ``mcts`` bot with its default
settings (not the level ``hard``), no solver. Seats alternate (our seat is the game index mod
2); any chance is drawn from a ``random.Random`` seeded by the game index. The mean wall-clock
seconds a move of each side is printed so the budget can be checked.

    .venv/bin/python benchmarks/strength_openspiel.py --games obonto,bones -n 20
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

from boneyard.ai import make_bot
from boneyard.ai.stats import wilson_interval
from boneyard.interop import openspiel

UCT_C = 2.0
PROBE = 200


def _uct_c(spiel_game: Any) -> float:
    """OpenSpiel's usual UCT constant, scaled to the game's returns."""
    return UCT_C * max(abs(spiel_game.max_utility()), abs(spiel_game.min_utility()), 1.0)


def _opening_rate(spiel_game: Any) -> float:
    """Seconds a simulation of OpenSpiel's bot takes on the opening position."""
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(
        spiel_game, _uct_c(spiel_game), PROBE, evaluator, random_state=np.random.RandomState(0)
    )
    state = spiel_game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    started = time.perf_counter()
    bot.step(state)
    return (time.perf_counter() - started) / PROBE


def play_one(spiel_game: Any, index: int, seconds: float, seed: int, rate: float) -> dict[str, Any]:
    """One game; our seat is ``index % 2``. Returns the result and the time spent a move."""
    from open_spiel.python.algorithms import mcts

    ours = index % 2
    rng = random.Random(seed + index)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + index))
    theirs = mcts.MCTSBot(
        spiel_game,
        _uct_c(spiel_game),
        PROBE,
        evaluator,
        random_state=np.random.RandomState(seed + index),
    )
    state = spiel_game.new_initial_state()
    bot = make_bot(
        "mcts",
        openspiel.boneyard_state(state).game,
        ours,
        seed=seed + index,
        time_limit=seconds,
        iterations=10**9,
    )
    our_time = their_time = 0.0
    our_moves = their_moves = their_simulations = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        elif state.current_player() == ours:
            started = time.perf_counter()
            action = bot.step(openspiel.boneyard_state(state))
            our_time += time.perf_counter() - started
            our_moves += 1
            state.apply_action(action)
        else:
            theirs.max_simulations = max(10, int(seconds / rate))
            started = time.perf_counter()
            action = theirs.step(state)
            spent = time.perf_counter() - started
            if spent >= seconds / 4:  # a move ended early (solved root): keep the old rate
                rate = spent / theirs.max_simulations
            their_time += spent
            their_moves += 1
            their_simulations += theirs.max_simulations
            state.apply_action(action)
    returns = state.returns()
    return {
        "ours": ours,
        "returns": list(returns),
        "score": 1.0
        if returns[ours] > returns[1 - ours]
        else (0.5 if returns[ours] == returns[1 - ours] else 0.0),
        "our_s_move": our_time / max(1, our_moves),
        "their_s_move": their_time / max(1, their_moves),
        "their_sims_move": their_simulations / max(1, their_moves),
    }


def play(name: str, games: int, seconds: float, seed: int) -> None:
    spiel_game = openspiel.load_game(name)
    rate = _opening_rate(spiel_game)
    results = []
    for index in range(games):
        result = play_one(spiel_game, index, seconds, seed, rate)
        results.append(result)
        print(
            f"  {name} game {index}: our seat {result['ours']}, returns {result['returns']}, "
            f"s/move ours {result['our_s_move']:.2f} theirs {result['their_s_move']:.2f}, "
            f"their simulations/move {result['their_sims_move']:.0f}",
            flush=True,
        )
    wins = sum(1 for r in results if r["score"] == 1.0)
    draws = sum(1 for r in results if r["score"] == 0.5)
    losses = games - wins - draws
    low, high = wilson_interval(wins + draws / 2, games)
    score = (wins + draws / 2) / games
    ours_s = sum(r["our_s_move"] for r in results) / games
    theirs_s = sum(r["their_s_move"] for r in results) / games
    sims = sum(r["their_sims_move"] for r in results) / games
    print(
        f"| {name} | {games} | {wins} | {draws} | {losses} | {score:.3f} | {low:.3f}-{high:.3f} "
        f"| {ours_s:.2f} | {theirs_s:.2f} | {sims:.0f} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="obonto,bones")
    parser.add_argument("-n", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name in args.games.split(","):
        play(name, args.n, args.seconds, args.seed)


if __name__ == "__main__":
    main()
