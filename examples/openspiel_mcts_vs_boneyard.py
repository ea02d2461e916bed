"""OpenSpiel's MCTSBot against boneyard's own ``mcts`` bot, through the OpenSpiel adapter.

Both play the same boneyard game: OpenSpiel's bot searches the pyspiel game that
``boneyard.interop.openspiel`` registers (``boneyard_obonto``, ...), boneyard's bot searches the
boneyard state inside it. Seats alternate from game to game; chance outcomes are drawn from the
seed. Perfect-information games only (OpenSpiel's MCTSBot needs them; use ISMCTS otherwise).

    .venv/bin/python examples/openspiel_mcts_vs_boneyard.py
    .venv/bin/python examples/openspiel_mcts_vs_boneyard.py --game bones --games 4 \\
        --simulations 200 --iterations 200
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np
from open_spiel.python.algorithms import mcts

from boneyard.ai import make_bot
from boneyard.interop import openspiel


def play(args: argparse.Namespace) -> list[float]:
    """Total returns per side: [OpenSpiel's MCTSBot, boneyard's mcts]."""
    spiel_game = openspiel.load_game(args.game)
    game = spiel_game.boneyard_game
    if not game.perfect_information:
        raise SystemExit(f"{args.game} has hidden information: OpenSpiel's MCTSBot needs none")
    if game.info.num_players != 2:
        raise SystemExit(f"{args.game} is not a two-player game")
    totals = [0.0, 0.0]
    for number in range(args.games):
        rng = random.Random(args.seed + number)
        np_rng = np.random.RandomState(args.seed + number)
        spiel_seat = number % 2  # OpenSpiel's bot plays seat 0 in even games
        spiel_bot = mcts.MCTSBot(
            spiel_game,
            uct_c=2.0,
            max_simulations=args.simulations,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng),
            random_state=np_rng,
        )
        our_bot = make_bot(
            "mcts", game, 1 - spiel_seat, seed=args.seed + number, iterations=args.iterations
        )
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                action = rng.choices(actions, probabilities)[0]
            elif player == spiel_seat:
                action = spiel_bot.step(state)
            else:
                action = our_bot.step(openspiel.boneyard_state(state))
            state.apply_action(action)
        returns = state.returns()
        totals[0] += returns[spiel_seat]
        totals[1] += returns[1 - spiel_seat]
        print(
            f"game {number + 1}: OpenSpiel MCTSBot (seat {spiel_seat}) {returns[spiel_seat]:+g}, "
            f"boneyard mcts (seat {1 - spiel_seat}) {returns[1 - spiel_seat]:+g} "
            f"after {len(state.history())} actions"
        )
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="obonto", help="a perfect-information boneyard game")
    parser.add_argument("--games", type=int, default=2, help="games to play (seats alternate)")
    parser.add_argument("--simulations", type=int, default=100, help="OpenSpiel MCTS simulations")
    parser.add_argument("--iterations", type=int, default=100, help="boneyard mcts iterations")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    totals = play(args)
    print(f"total: OpenSpiel MCTSBot {totals[0]:+g}, boneyard mcts {totals[1]:+g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
