"""Self-play games a minute of ``boneyard train``: the ``expert``'s search with an untrained
network of the default shapes, in the same run for each game: the search in Rust on the native
engine (``--search native``, the default since issue 43's item 5), the Python ``expert`` bot on
the native engine (``--search python``: before it), and where asked the Python bot on the Python
rules (``--engines native python``).

    PYTHONPATH=src .venv/bin/python benchmarks/selfplay_speed.py obonto bones oyno bonbon \
        bondo_cones --games 8 --simulations 32

One JSON line each (game, engine, search, games, positions, seconds, games a minute, positions a
second, the load). Only the self-play is timed: no JAX compilation, no update.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import jax

from boneyard.ai.training.selfplay import Model, TrainConfig, self_play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--games", dest="count", type=int, default=8)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--engines", nargs="+", default=["native"])
    parser.add_argument("--searches", nargs="+", default=["native", "python"])
    parser.add_argument("-p", "--param", action="append", default=[], help="name=value")
    options = parser.parse_args()
    params = dict(item.split("=", 1) for item in options.param)
    for name in options.games:
        runs = [
            (engine, search)
            for engine in options.engines
            for search in options.searches
            if engine == "native" or search == "python"  # the Python rules: no native search
        ]
        for engine, search in runs:
            config = TrainConfig(
                game=name,
                params=params,
                batch=options.count,
                simulations=options.simulations,
                engine=engine,
                search=search,
            )
            model = Model(config)
            weights = model.init(jax.random.PRNGKey(0))
            started = time.perf_counter()
            positions, ended = self_play(model, weights, seed=1)
            seconds = time.perf_counter() - started
            line = {
                "game": name,
                "params": params,
                "engine": engine,
                "engine_class": type(model.game).__name__,
                "search": search,
                "simulations": options.simulations,
                "games": ended,
                "positions": len(positions),
                "seconds": round(seconds, 2),
                "games_per_minute": round(60.0 * ended / seconds, 1),
                "positions_per_second": round(len(positions) / seconds, 1),
                "load": os.getloadavg()[0],
            }
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
