"""What each game's ``render_svg`` costs: microseconds a drawing, over observations of random play.

The web app draws every seat's view on every move, so a richer picture must not cost more. Run
it on a quiet machine; ``--compare DIR`` also times the drawings of another source tree (for
example a checkout of the previous commit) in the same run, interleaved, so the two are fair::

    python benchmarks/draw_cost.py --compare /tmp/old/src
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

GAMES = ("obonto", "oyno", "oyno_puzzle", "bones", "bondo_cones", "bonbon")


def observations(name: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Every seat's (and a spectator's) view along random games, ``count`` in all."""
    import boneyard

    rng = random.Random(seed)
    game = boneyard.load_game(name)
    found: list[dict[str, Any]] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            found.extend(state.observation(seat) for seat in (None, *range(game.num_players())))
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, chances)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return found[:count]


def time_drawings(count: int, repeats: int) -> dict[str, tuple[float, float]]:
    """Game -> (best microseconds a drawing over ``repeats``, mean SVG length in bytes)."""
    import boneyard

    results = {}
    for name in GAMES:
        game = boneyard.load_game(name)
        views = observations(name, count, seed=7)
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            svgs = [game.render_svg(view) for view in views]
            best = min(best, time.perf_counter() - start)
        results[name] = (1e6 * best / len(views), statistics.mean(len(s) for s in svgs))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="observations per game")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--compare", help="another tree's src/ to time the same way")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        import json

        print(json.dumps(time_drawings(args.count, args.repeats)))
        return 0
    here = str(Path(__file__).resolve().parents[1] / "src")
    trees = {"this tree": here}
    if args.compare:
        trees["compared"] = args.compare
    import json
    import os

    rows: dict[str, dict[str, tuple[float, float]]] = {label: {} for label in trees}
    for _ in range(2):  # interleaved: a busy moment hurts both trees alike
        for label, src in trees.items():
            env = dict(os.environ)
            env["PYTHONPATH"] = src
            command = [sys.executable, __file__, "--json", "--count", str(args.count)]
            command += ["--repeats", str(args.repeats)]
            out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            for name, (micros, size) in json.loads(out.stdout).items():
                old = rows[label].get(name)
                rows[label][name] = (min(micros, old[0]) if old else micros, size)
    print(f"{'game':<14}" + "".join(f"{label:>26}" for label in trees))
    for name in GAMES:
        cells = "".join(
            f"{rows[label][name][0]:>12.0f} us {rows[label][name][1]:>8.0f} B" for label in trees
        )
        print(f"{name:<14}{cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
