"""What the training search's chance nodes cost: seconds per training step (self-play with
``simulations`` simulations a move, then the update) with the afterstate valued by the exact
expectation over every joint chance outcome, and with ``--sampled`` outcomes sampled instead.

    PYTHONPATH=src .venv/bin/python benchmarks/chance_search.py bonbon --batch 8 --simulations 8

Each setting is compiled once (not timed), then ``--steps`` steps are timed; one JSON line each.
"""

from __future__ import annotations

import argparse
import json
import time

import jax
import optax

from boneyard.ai.training.selfplay import Model, TrainConfig, make_functions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--unroll", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=8)
    parser.add_argument("--sampled", type=int, default=16, help="Outcomes sampled instead.")
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    base = TrainConfig(
        game=args.game,
        batch=args.batch,
        unroll=args.unroll,
        simulations=args.simulations,
        hidden=64,
    )
    outcomes = Model(base).env.num_chance_outcomes
    for exact in (outcomes, args.sampled):
        config = TrainConfig(**{**base.__dict__, "exact_outcomes": exact})
        model = Model(config)
        optimizer = optax.adam(config.learning_rate)
        params = model.init(jax.random.PRNGKey(0))
        opt_state = optimizer.init(params)
        new_games, train_step, _, _ = make_functions(model, optimizer)
        states = new_games(jax.random.PRNGKey(1))
        started = time.perf_counter()
        params, opt_state, states, losses, _ = train_step(
            params, opt_state, states, jax.random.PRNGKey(2)
        )
        jax.block_until_ready(losses)
        compiled = time.perf_counter() - started
        started = time.perf_counter()
        for step in range(args.steps):
            key = jax.random.PRNGKey(3 + step)
            params, opt_state, states, losses, _ = train_step(params, opt_state, states, key)
        jax.block_until_ready(losses)
        seconds = (time.perf_counter() - started) / args.steps
        line = {
            "game": args.game,
            "outcomes": outcomes,
            "afterstate_value": "exact" if exact >= outcomes else f"mean of {exact} sampled",
            "batch": args.batch,
            "unroll": args.unroll,
            "simulations": args.simulations,
            "seconds_a_step": round(seconds, 3),
            "first_step_with_compilation": round(compiled, 1),
            "device": jax.devices()[0].device_kind,
        }
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
