"""What the PettingZoo environment costs over the engine's own random playout, for every game.

Not a test (timings depend on the machine). For each game it plays random games for about
``--seconds`` two ways, on one core, and compares the time per game action (chance actions
included):

- engine: ``boneyard bench``'s random playout (``new_initial_state``, ``legal_actions``, a random
  choice, ``apply_action``), the baseline;
- pettingzoo: the standard AEC loop of a random agent, ``env.last()`` (the observation array
  and the action mask of the agent to move), a random legal action from the mask, ``env.step``;
  chance actions are sampled inside the environment.

The bar (issue 9): ratio = pettingzoo / engine at most 2.0. The numbers in docs/interop.md come
from this script::

    .venv/bin/python benchmarks/bench_interop.py
    .venv/bin/python benchmarks/bench_interop.py --games obonto bones --seconds 5
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import boneyard
from boneyard.cli.bench import bench_random_playouts
from boneyard.interop import pettingzoo

BAR = 2.0


def bench_pettingzoo(name: str, seconds: float, observe: bool, seed: int = 0) -> tuple[int, float]:
    """Game actions played and seconds spent by a random agent in the AEC environment.

    ``observe``: the agent reads ``env.last()`` (observation array and action mask) before each
    action, as a learning agent does; otherwise it calls ``env.last(observe=False)`` and takes
    the legal actions from the state, which measures the environment's stepping alone.
    """
    env = pettingzoo.env(name)
    rng = random.Random(seed)
    actions = 0
    episode = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + episode)
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last(observe=observe)
            if termination or truncation:
                env.step(None)
                continue
            if observe:
                legal = observation["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
            else:
                choices = env.game_state.legal_actions()
                env.step(choices[rng.randrange(len(choices))])
        actions += env.game_state.move_number()
        episode += 1
    return actions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=None, help="games (default: all)")
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds per game and way")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds (min kept)")
    args = parser.parse_args(argv)
    names = args.games or boneyard.list_games()
    print(
        f"{'game':<12} {'engine':>9} {'step':>9} {'ratio':>6}  {'step+observe':>12} {'ratio':>6}"
        "   (µs per game action; ratio to engine)"
    )
    worst = 0.0
    for name in names:
        game = boneyard.load_game(name)
        # Interleaved rounds, the fastest of each kept: on a shared machine the minimum is the
        # measurement least disturbed by other processes.
        engine_cost = step_cost = observe_cost = float("inf")
        for round_number in range(args.rounds):
            slice_seconds = args.seconds / args.rounds
            engine = bench_random_playouts(game, slice_seconds, seed=round_number)
            engine_cost = min(engine_cost, engine.seconds / max(engine.steps, 1))
            actions, spent = bench_pettingzoo(name, slice_seconds, False, seed=round_number)
            step_cost = min(step_cost, spent / max(actions, 1))
            actions, spent = bench_pettingzoo(name, slice_seconds, True, seed=round_number)
            observe_cost = min(observe_cost, spent / max(actions, 1))
        step_ratio, observe_ratio = step_cost / engine_cost, observe_cost / engine_cost
        worst = max(worst, step_ratio)
        print(
            f"{name:<12} {engine_cost * 1e6:>9.1f} {step_cost * 1e6:>9.1f} {step_ratio:>6.2f}"
            f"  {observe_cost * 1e6:>12.1f} {observe_ratio:>6.2f}"
        )
    verdict = "meets" if worst <= BAR else "misses"
    print(f"worst step ratio {worst:.2f}: {verdict} the bar (at most {BAR})")
    return 0 if worst <= BAR else 1


if __name__ == "__main__":
    sys.exit(main())
