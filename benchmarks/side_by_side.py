"""Engine speed of this tree against another commit, measured side by side in one run.

    python benchmarks/side_by_side.py --base main --this HEAD --seconds 1.5 --rounds 3

Checks both commits out into temporary git worktrees, then runs, alternately for the base and
for this commit (in ABBA order, niced, one process at a time, so both see the same machine), two
measurements per game: ``make bench``'s random playouts (steps per CPU second, from
``boneyard.cli.bench``) and clones per CPU second of the states met on seeded random playouts.
Prints the median of the rounds for each and this tree's ratio to the base.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, random, sys, time
from boneyard import list_games, load_game
from boneyard.cli.bench import bench_random_playouts
from boneyard.core.game import CHANCE

seconds = float(sys.argv[1])
out = {}
for name in list_games():
    game = load_game(name)
    steps = bench_random_playouts(game, seconds, seed=0).steps_per_second
    rng = random.Random(1)
    states = []
    while len(states) < 400:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < 400:
            if rng.random() < 0.2:
                states.append(state.clone())
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
    clones = 0
    start = time.process_time()
    while time.process_time() - start < seconds / 2:
        for state in states:
            state.clone()
        clones += len(states)
    out[name] = {"steps": steps, "clones": clones / (time.process_time() - start)}
print(json.dumps(out))
"""


def measure(tree: Path, seconds: float) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    run = subprocess.run(
        ["nice", sys.executable, "-c", CHILD, str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, dict[str, float]] = json.loads(run.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="main", help="the commit to compare against")
    parser.add_argument("--this", default="HEAD", help="the commit measured against it")
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"base": Path(scratch) / "base", "this": Path(scratch) / "this"}
        for label, commit in (("base", args.base), ("this", args.this)):
            subprocess.run(
                ["git", "-C", str(here), "worktree", "add", "--detach", str(trees[label]), commit],
                check=True,
                capture_output=True,
            )
        try:
            runs: dict[str, list[dict[str, dict[str, float]]]] = {"base": [], "this": []}
            for round_number in range(args.rounds):
                # ABBA: each tree goes first as often as the other.
                order = ("base", "this") if round_number % 2 == 0 else ("this", "base")
                for label in order:
                    runs[label].append(measure(trees[label], args.seconds))
        finally:
            for tree in trees.values():
                subprocess.run(
                    ["git", "-C", str(here), "worktree", "remove", "--force", str(tree)],
                    check=True,
                )
    print(f"base {args.base}, this {args.this}: medians of {args.rounds} rounds, per CPU second")
    print(f"{'game':<12} {'measure':<8} {'base':>12} {'this':>12} {'this/base':>9}")
    for name in runs["base"][0]:
        for measure_name in ("steps", "clones"):
            old = statistics.median(r[name][measure_name] for r in runs["base"])
            new = statistics.median(r[name][measure_name] for r in runs["this"])
            print(f"{name:<12} {measure_name:<8} {old:>12,.0f} {new:>12,.0f} {new / old:>9.3f}")


if __name__ == "__main__":
    main()
