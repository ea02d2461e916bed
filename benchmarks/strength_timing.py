"""How long each level takes to answer, on positions from random games of every game.

Not a test (timings depend on the machine and its load). Prints the mean and the longest answer
per game and level; the bar is that ``hard`` answers within 2 seconds a move.

    .venv/bin/python benchmarks/strength_timing.py --positions 8
"""

from __future__ import annotations

import argparse
import random
import time

import boneyard
from boneyard import State
from boneyard.ai import LEVEL_NAMES, make_bot


def positions(game: boneyard.Game, count: int, seed: int) -> list[State]:
    """Player-node states from random games, a few random steps apart."""
    rng = random.Random(seed)
    found: list[State] = []
    state = game.new_initial_state()
    while len(found) < count:
        for _ in range(rng.randrange(1, 12)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        if state.is_terminal():
            state = game.new_initial_state()
        elif not state.is_chance_node():
            found.append(state.clone())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=None)
    parser.add_argument("--levels", default=",".join(LEVEL_NAMES))
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("| game | level | positions | mean s | longest s |")
    print("|---|---|---|---|---|")
    for name in args.games.split(",") if args.games else boneyard.list_games():
        game = boneyard.load_game(name)
        states = positions(game, args.positions, args.seed)
        for level in args.levels.split(","):
            times = []
            for number, state in enumerate(states):
                bot = make_bot(level, game, state.current_player(), seed=number)
                started = time.perf_counter()
                bot.step(state)
                times.append(time.perf_counter() - started)
            print(
                f"| {name} | {level} | {len(times)} | {sum(times) / len(times):.2f} "
                f"| {max(times):.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
