"""Random playouts at a batch of 4,096 on the CPU, sampled as the docs tell a researcher to: a
categorical per factored head (``env.action_heads.sample``) for boneyard's games, beside pgx's
othello sampled as pgx's README samples it (a categorical over the masked flat logits), in one
run: the bar of issue 27 is every game at least othello's rate.

Not a test (timings depend on the machine). Each engine gets one compiled call of ``steps``
rounds over the batch: the sample, the step, a fresh game where one ended (``bench_jax.py``'s
loop with the sampler swapped). ``--flat`` adds each boneyard game sampled by the flat
categorical too, for the comparison; ``--floor`` adds ``bench_jax.py``'s mask floor at Bond O
Cones' 43,923 ids (a step that only writes a fresh flat mask) sampled by Bond O Cones' heads:
what any engine that stores pgx's flat mask pays at least. Times are CPU seconds of this
process. Run::

    nice .venv/bin/python benchmarks/bench_heads.py
    nice .venv/bin/python benchmarks/bench_heads.py --games obonto othello --batch 4096 --flat
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).parent))

import boneyard.jax
from boneyard.jax.core import reset_ended

GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "oyno_puzzle": ("oyno_puzzle", {}),
    "oyno": ("oyno", {}),
    "obonto": ("obonto", {}),
    "bones": ("bones", {}),
    "bonbon": ("bonbon", {}),
    "bondo_cones": ("bondo_cones", {}),
}

Sampler = Callable[[jax.Array, jax.Array], jax.Array]


def flat_categorical(key: jax.Array, mask: jax.Array) -> jax.Array:
    """pgx's README's sampler: a categorical over the masked flat logits (one draw an id)."""
    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf))


def playout(env: Any, pick: Sampler, batch: int, steps: int) -> Callable[[Any, jax.Array], Any]:
    step = jax.vmap(env.step)
    picks = jax.vmap(pick)

    def round_(carry: tuple[Any, jax.Array], _: None) -> tuple[tuple[Any, jax.Array], None]:
        state, key = carry
        key, choose, chance, deal = jax.random.split(key, 4)
        actions = picks(jax.random.split(choose, batch), state.legal_action_mask)
        state = step(state, actions, jax.random.split(chance, batch))
        done = state.terminated | state.truncated
        state = reset_ended(state, done, lambda i: env.init(jax.random.fold_in(deal, i)))
        return (state, key), None

    def run(state: Any, key: jax.Array) -> Any:
        (state, _), _ = jax.lax.scan(round_, (state, key), None, length=steps)
        return state

    return jax.jit(run)


def rate(env: Any, pick: Sampler, batch: int, total: int, repeats: int) -> float:
    """Steps a second of process CPU time, the fastest of ``repeats`` calls."""
    steps = max(2, total // batch)
    run = playout(env, pick, batch, steps)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    key = jax.random.PRNGKey(1)
    jax.block_until_ready(run(state, key))  # compile
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        jax.block_until_ready(run(state, key))
        best = min(best, time.process_time() - start)
    return batch * steps / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=[*GAMES, "othello"])
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--total", type=int, default=65536, help="steps a timed call")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--flat", action="store_true", help="also the flat categorical")
    parser.add_argument("--floor", action="store_true", help="also Bond O Cones' mask floor")
    args = parser.parse_args()
    print(
        f"jax {jax.__version__} on {jax.devices()[0].platform}, {os.cpu_count()} CPUs; "
        f"batch {args.batch}, {args.total} steps a call, best of {args.repeats}"
    )
    othello = None
    rows = []
    for name in args.games:
        if name == "othello":
            import pgx

            othello = rate(
                pgx.make("othello"), flat_categorical, args.batch, args.total, args.repeats
            )
            print(f"pgx othello, flat categorical: {othello / 1e3:.1f}k steps/s", flush=True)
            continue
        game, params = GAMES[name]
        env = boneyard.jax.make(game, **params)
        heads = env.action_heads
        sampled = rate(env, heads.sample, args.batch, args.total, args.repeats)
        line = f"{name} (heads {heads.head_sizes}): {sampled / 1e3:.1f}k steps/s"
        if args.flat:
            flat = rate(env, flat_categorical, args.batch, args.total, args.repeats)
            line += f"; flat categorical over {env.num_actions} ids: {flat / 1e3:.1f}k"
        rows.append((name, sampled))
        print(line, flush=True)
    if args.floor:
        from bench_jax import MaskFloor

        env = boneyard.jax.make("bondo_cones")
        floor = MaskFloor(env.num_actions)
        sampled = rate(floor, env.action_heads.sample, args.batch, args.total, args.repeats)
        rows.append(("mask floor", sampled))
        print(f"mask floor ({env.num_actions} ids, Bond O Cones' heads): {sampled / 1e3:.1f}k")
    if othello is not None:
        for name, sampled in rows:
            verdict = "met" if sampled >= othello else "missed"
            print(f"{name}: {sampled / othello:.2f}x othello: {verdict}")


if __name__ == "__main__":
    main()
