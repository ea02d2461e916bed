"""Our ``mcts`` against OpenSpiel's Python ``MCTSBot``, both at about 1 second a move.

Not a test. OpenSpiel's bot plays through the adapter (``boneyard.interop.openspiel``); it has no
time budget, so its simulation count is calibrated first: the number of simulations it runs in
about ``--seconds`` on the game's opening position. Seats alternate; chance is seeded.

    .venv/bin/python benchmarks/strength_openspiel.py --games obonto,bones -n 20
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from boneyard.ai import make_bot
from boneyard.ai.stats import wilson_interval
from boneyard.interop import openspiel


def _calibrate(spiel_game: object, seconds: float) -> int:
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    probe = 200
    bot = mcts.MCTSBot(spiel_game, 2.0, probe, evaluator, random_state=np.random.RandomState(0))
    state = spiel_game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    started = time.perf_counter()
    bot.step(state)
    per_simulation = (time.perf_counter() - started) / probe
    return max(10, int(seconds / per_simulation))


def play(name: str, games: int, seconds: float, seed: int) -> None:
    from open_spiel.python.algorithms import mcts

    spiel_game = openspiel.load_game(name)
    simulations = _calibrate(spiel_game, seconds)
    wins = draws = losses = 0
    for index in range(games):
        ours = index % 2  # our seat
        rng = random.Random(seed + index)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + index))
        theirs = mcts.MCTSBot(
            spiel_game,
            2.0,
            simulations,
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
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            elif state.current_player() == ours:
                state.apply_action(bot.step(openspiel.boneyard_state(state)))
            else:
                state.apply_action(theirs.step(state))
        returns = state.returns()
        if returns[ours] > returns[1 - ours]:
            wins += 1
        elif returns[ours] == returns[1 - ours]:
            draws += 1
        else:
            losses += 1
        print(f"  game {index}: our seat {ours}, returns {returns}", flush=True)
    low, high = wilson_interval(wins + draws / 2, games)
    score = (wins + draws / 2) / games
    print(
        f"| {name} | mcts {seconds:g} s | OpenSpiel MCTSBot {simulations} simulations | {games} "
        f"| {wins} | {draws} | {losses} | {score:.3f} | {low:.3f}-{high:.3f} |",
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
