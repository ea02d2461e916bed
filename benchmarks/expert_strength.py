"""The expert's strength: ``expert`` against ``hard`` and ``random`` per shipped network.

Seats alternate, draws count half, 95% Wilson intervals (``boneyard.ai.stats``). Both bots get
the same ``--time-limit`` a move (issue 28's bar is 1 s and 200 games; the numbers in docs/ai.md
were measured with fewer games and less time on a shared two-core machine, and say so).

    PYTHONPATH=src .venv/bin/python benchmarks/expert_strength.py --matches 10 --time-limit 0.25
    PYTHONPATH=src .venv/bin/python benchmarks/expert_strength.py obonto --opponents hard
"""

from __future__ import annotations

import argparse
import json
import time

from boneyard.ai.arena import head_to_head
from boneyard.ai.network import available_models


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=None, help="Games (default: every model).")
    parser.add_argument("--opponents", nargs="+", default=["random", "hard"])
    parser.add_argument("--matches", type=int, default=10, help="Games a pairing.")
    parser.add_argument("--time-limit", type=float, default=0.25)
    parser.add_argument("--model", default=None, help="A model file (one game only).")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    # as a level would: the exact solvers answer where they decide (the Obonto solo phase)
    expert = "expert:use_solver=true"
    if args.model is not None:
        expert += f",model={args.model}"
    for game in args.games or available_models():
        for opponent in args.opponents:
            started = time.perf_counter()
            result = head_to_head(
                game,
                expert,
                opponent,
                games=args.matches,
                time_limit=args.time_limit,
                seed=args.seed,
            )
            line = {
                "game": game,
                "time_limit": args.time_limit,
                "seconds": round(time.perf_counter() - started, 1),
                **result.pairs[0].summary(),
            }
            line.pop("elo_difference", None)
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
