"""What the PettingZoo environment costs over the engine's own random playout, for every game.

Not a test (timings depend on the machine). For each game it plays random games in interleaved
rounds, on one core, and compares the time per game action (chance actions included):

- engine: ``boneyard bench``'s random playout (``new_initial_state``, ``legal_actions``, a random
  choice, ``apply_action``), the baseline;
- step: the environment alone, ``env.last(observe=False)``, a random legal action from the
  state, ``env.step`` (chance sampled inside, rewards, turn order);
- agent: the honest loop of a random agent, ``env.last()`` (the observation array and the
  action mask of the agent to move, built at every turn), a random legal action picked from
  the mask, ``env.step``;
- dict (``--dict-road``): the agent loop with the arrays built from observation dicts, as the
  environment did before the games' fast roads (``Game.state_observation_tensor``);
- floor (``--floor``): the agent loop with an observation that costs nothing (the same
  all-zero array every turn; the mask is still built and read): what the environment's
  stepping, the mask and the agent's own reading of it cost before any observation is made.
  A diagnostic, not an agent anyone should train: it shows how far below the agent loop any
  observation encoding could take it.

Both the engine and the environment are timed in CPU time of this process (``boneyard bench``'s
clock), so time the core spends on other processes counts for neither.

The bar (issue 9): agent / engine at most 2.0. The numbers in docs/interop.md come from this
script::

    .venv/bin/python benchmarks/bench_interop.py --dict-road
    .venv/bin/python benchmarks/bench_interop.py --games obonto bones --seconds 5
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from typing import Any

import numpy as np

import boneyard
from boneyard.cli.bench import bench_random_playouts
from boneyard.interop import pettingzoo

BAR = 2.0


def bench_pettingzoo(
    name: str, seconds: float, observe: bool, seed: int = 0, road: str = "fast"
) -> tuple[int, float]:
    """Game actions played and seconds spent by a random agent in the AEC environment.

    ``observe``: the agent reads ``env.last()`` (observation array and action mask) before each
    action and picks from the mask, as a learning agent does; otherwise it calls
    ``env.last(observe=False)`` and takes the legal actions from the state, which measures the
    environment's stepping alone. ``road``: ``"fast"``, the environment as it is; ``"dict"``, the
    arrays built from observation dicts (``observation_tensor(state.observation(seat))``)
    instead of the game's fast road; ``"floor"``, one constant observation array.
    """
    env = pettingzoo.env(name)
    if road == "dict":
        _dict_road(env)
    elif road == "floor":
        _constant_observation(env)
    rng = random.Random(seed)
    actions = 0
    episode = 0
    # CPU time of this process, the clock ``boneyard bench`` times the engine with: on a shared
    # machine, wall time would also count the time other processes hold the core.
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        env.reset(seed=seed + episode)
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last(observe=observe)
            if termination or truncation:
                env.step(None)
                continue
            if observe:
                # The mask's ones, read as booleans: numpy finds the nonzero entries of a bool
                # array about ten times faster than of an int8 one, which matters with Bond O
                # Cones' 43,923 action ids (gymnasium's Discrete.sample(mask) takes longer still).
                legal = observation["action_mask"].view(np.bool_).nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
            else:
                choices = env.game_state.legal_actions()
                env.step(choices[rng.randrange(len(choices))])
        actions += env.game_state.move_number()
        episode += 1
    return actions, time.process_time() - start


def _dict_road(env: pettingzoo.BoneyardAECEnv) -> None:
    """Make ``env`` build its observation arrays by the dict road (for comparison only)."""
    game = env.game

    def slow(state: Any, seat: int | None) -> Any:
        return game.observation_tensor(state.observation(seat))

    vars(game)["_state_observation_tensor"] = slow  # an instance attribute hides the method


def _constant_observation(env: pettingzoo.BoneyardAECEnv) -> None:
    """Make ``env``'s game hand out the same all-zero tensor every time (for the floor only)."""
    game = env.game
    zeros = np.zeros(math.prod(game.observation_tensor_shape()), dtype=np.float32)

    def constant(state: Any, seat: int | None) -> Any:
        return zeros

    vars(game)["_state_observation_tensor"] = constant


# Over the complexity limit on purpose: a benchmark's script: its steps read once, top to bottom.
def main(argv: list[str] | None = None) -> int:  # noqa: C901
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=None, help="games (default: all)")
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds per game and way")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds (min kept)")
    parser.add_argument(
        "--dict-road",
        action="store_true",
        help="also time the agent loop with tensors built from observation dicts",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also time the agent loop with a constant observation array (a lower bound)",
    )
    args = parser.parse_args(argv)
    names = args.games or boneyard.list_games()
    header = f"{'game':<12} {'engine':>8} {'step':>8} {'ratio':>6} {'agent':>8} {'ratio':>6}"
    if args.dict_road:
        header += f" {'dict':>8} {'ratio':>6}"
    if args.floor:
        header += f" {'floor':>8} {'ratio':>6}"
    print(header + "  bar   (µs per game action; ratio to engine)")
    missed = []
    for name in names:
        game = boneyard.load_game(name)
        # Interleaved rounds, the fastest of each kept: on a shared machine the minimum is the
        # measurement least disturbed by other processes.
        costs = {"engine": float("inf"), "step": float("inf"), "agent": float("inf")}
        if args.dict_road:
            costs["dict"] = float("inf")
        if args.floor:
            costs["floor"] = float("inf")
        slice_seconds = args.seconds / args.rounds
        for round_number in range(args.rounds):
            engine = bench_random_playouts(game, slice_seconds, seed=round_number)
            costs["engine"] = min(costs["engine"], engine.seconds / max(engine.steps, 1))
            for way in costs:
                if way == "engine":
                    continue
                road = way if way in ("dict", "floor") else "fast"
                actions, spent = bench_pettingzoo(
                    name, slice_seconds, way != "step", seed=round_number, road=road
                )
                costs[way] = min(costs[way], spent / max(actions, 1))
        line = f"{name:<12} {costs['engine'] * 1e6:>8.1f}"
        for way in costs:
            if way != "engine":
                line += f" {costs[way] * 1e6:>8.1f} {costs[way] / costs['engine']:>6.2f}"
        ratio = costs["agent"] / costs["engine"]
        if ratio > BAR:
            missed.append(name)
        print(f"{line}  {'meets' if ratio <= BAR else 'MISSES'}")
    print(
        f"bar: the agent loop at most {BAR}x the engine's random playout; "
        + (f"missed by {', '.join(missed)}" if missed else "met by every game")
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
