"""Random-playout steps a second of the batch engines (boneyard.jax), beside pgx's own games and
the rules engines, in one run; and what the batch agent loop costs over the bare batch step.

Not a test (timings depend on the machine). For each engine and batch size it compiles one call
that plays ``steps`` rounds over the batch: a uniformly random legal action per game
(``random_legal_action``: one random number a game, the same sampler for pgx's games), the
step, and a fresh game where one ended (auto-reset, as a training loop does; pgx's games get
the same loop). Each round is ``batch`` steps. Chance is drawn inside ``step`` and not counted.
The rules engine is ``boneyard bench``'s random playout (chance actions counted as steps, which
flatters the rules engine). Agent loop (``--agent``): Python drives ``BatchLoop.step`` with the
agent's action drawn by a jitted policy from the loop state's observation and mask, against the
same Python-driven loop over the bare step.

Times are CPU seconds of this process (every XLA thread counted; ``boneyard bench``'s clock),
so other processes on a shared machine do not lower the rates; wall-clock rates are printed
beside them. Run::

    nice .venv/bin/python benchmarks/bench_jax.py
    nice .venv/bin/python benchmarks/bench_jax.py --games obonto --batches 1024 4096 --agent 4096
    nice .venv/bin/python benchmarks/bench_jax.py --games bondo_cones othello --batches 1024 4096 \
        --floor-ids 43923
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

import boneyard.jax
from boneyard.cli.bench import bench_random_playouts
from boneyard.core.registry import load_game
from boneyard.jax.core import random_legal_action, reset_ended
from boneyard.jax.loop import BatchLoop

ENGINES: dict[str, tuple[str, dict[str, Any]]] = {
    "oyno_puzzle": ("oyno_puzzle", {}),
    "oyno": ("oyno", {}),
    "oyno wild": ("oyno", {"wild": True}),
    "obonto": ("obonto", {}),
    "bones": ("bones", {}),
    "bonbon": ("bonbon", {}),
    "bondo_cones": ("bondo_cones", {}),
}
PGX = ("tic_tac_toe", "connect_four", "othello")
FLOOR = "mask floor"
"""A game whose step only writes a fresh mask (``--floor-ids`` ids): what a step with a mask of
that size costs at least, the write of the mask and the sampler's read of it."""


class FloorState(NamedTuple):
    legal_action_mask: jax.Array
    terminated: jax.Array
    truncated: jax.Array


class MaskFloor:
    """The floor's game: a step writes a fresh mask, legal on the action's id and on one id in
    eight (which ones drawn from the key); it never ends."""

    def __init__(self, ids: int) -> None:
        self.ids = ids

    def init(self, key: jax.Array) -> FloorState:
        return FloorState(jnp.ones(self.ids, bool), jnp.bool_(False), jnp.bool_(False))

    def step(self, state: FloorState, action: jax.Array, key: jax.Array) -> FloorState:
        ids = jnp.arange(self.ids)
        lane = jax.random.randint(key, (), 0, 8)
        mask = ((ids & 7) == lane) | (ids == action)
        return state._replace(legal_action_mask=mask)


def playout(env: Any, batch: int, steps: int) -> Callable[[Any, jax.Array], Any]:
    """A jitted call: ``steps`` rounds of random play with auto-reset over ``batch`` games."""
    step = jax.vmap(env.step)
    pick = jax.vmap(random_legal_action)

    def round_(carry: tuple[Any, jax.Array], _: None) -> tuple[tuple[Any, jax.Array], None]:
        state, key = carry
        key, choose, chance, deal = jax.random.split(key, 4)
        actions = pick(jax.random.split(choose, batch), state.legal_action_mask)
        state = step(state, actions, jax.random.split(chance, batch))
        done = state.terminated | state.truncated
        # a deal's key made for the games that ended only (a split for every game costs a
        # random draw a game each round)
        state = reset_ended(state, done, lambda i: env.init(jax.random.fold_in(deal, i)))
        return (state, key), None

    def run(state: Any, key: jax.Array) -> Any:
        (state, _), _ = jax.lax.scan(round_, (state, key), None, length=steps)
        return state

    return jax.jit(run)


def clocked(call: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """The fastest of ``repeats`` calls: (CPU seconds, wall seconds)."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeats):
        cpu, wall = time.process_time(), time.perf_counter()
        jax.block_until_ready(call())
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


def batch_rates(env: Any, batch: int, total: int, repeats: int) -> tuple[float, float]:
    steps = max(4, total // batch)
    run = playout(env, batch, steps)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    key = jax.random.PRNGKey(1)
    jax.block_until_ready(run(state, key))  # compile
    cpu, wall = clocked(lambda: run(state, key), repeats)
    return batch * steps / cpu, batch * steps / wall


def agent_cost(env: Any, batch: int, rounds: int, repeats: int) -> tuple[float, float]:
    """CPU seconds a round: (bare batch step driven from Python, agent loop)."""
    bare = playout(env, batch, 1)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))

    def bare_rounds() -> Any:
        s, key = state, jax.random.PRNGKey(1)
        for _ in range(rounds):
            key, sub = jax.random.split(key)
            s = bare(s, sub)
        return s

    loop = BatchLoop(env, batch, seat=None)
    policy = jax.jit(
        lambda key, observation, mask: jax.vmap(random_legal_action)(
            jax.random.split(key, mask.shape[0]), mask
        )
    )
    start = loop.reset(loop.seeds(0))

    def agent_rounds() -> Any:
        s, key = start, jax.random.PRNGKey(1)
        for _ in range(rounds):
            key, sub = jax.random.split(key)
            actions = policy(sub, s.games.observation, s.games.legal_action_mask)
            s, _ = loop.step(s, actions)
        return s

    jax.block_until_ready(bare_rounds())
    jax.block_until_ready(agent_rounds())
    bare_cpu = min(clocked(bare_rounds, 1)[0] for _ in range(repeats))
    agent_cpu = min(clocked(agent_rounds, 1)[0] for _ in range(repeats))
    return bare_cpu / rounds, agent_cpu / rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="*", default=[*ENGINES, *PGX])
    parser.add_argument("--batches", nargs="*", type=int, default=[1, 64, 1024, 4096])
    parser.add_argument("--total", type=int, default=65536, help="steps a timed call")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rules-seconds", type=float, default=2.0)
    parser.add_argument(
        "--floor-ids",
        type=int,
        default=0,
        help=f"also time '{FLOOR}': a step that only writes a fresh mask of this many ids",
    )
    parser.add_argument(
        "--agent",
        nargs="*",
        type=int,
        default=[],
        help="batch sizes at which to time the agent loop",
    )
    args = parser.parse_args()
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}; load {os.getloadavg()}")
    print("engine | batch | steps/s (CPU time) | steps/s (wall)")
    games = [*args.games, *([FLOOR] if args.floor_ids else [])]
    for name in games:
        env: Any
        if name == FLOOR:
            env = MaskFloor(args.floor_ids)
            name = f"{FLOOR} ({args.floor_ids:,} ids)"
        elif name in PGX:
            import pgx

            env = pgx.make(name)  # type: ignore[arg-type]
        else:
            game, params = ENGINES[name]
            env = boneyard.jax.make(game, **params)
            rules = bench_random_playouts(load_game(game, **params), args.rules_seconds)
            print(f"{name} | rules engine | {rules.steps_per_second:,.0f} | -", flush=True)
        for batch in args.batches:
            cpu_rate, wall_rate = batch_rates(env, batch, args.total, args.repeats)
            print(f"{name} | {batch} | {cpu_rate:,.0f} | {wall_rate:,.0f}", flush=True)
        if name in ENGINES:
            for batch in args.agent:
                bare, agent = agent_cost(env, batch, 20, args.repeats)
                print(
                    f"{name} | agent loop at {batch} | bare {1e3 * bare:.2f} ms, agent "
                    f"{1e3 * agent:.2f} ms a round: {agent / bare:.2f}x",
                    flush=True,
                )
    print(f"load at the end {os.getloadavg()}")


if __name__ == "__main__":
    main()
