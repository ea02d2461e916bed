"""Engine speed of this tree against another commit, measured side by side in one run.

    python benchmarks/side_by_side.py --base main --this HEAD --repeats 20 --rounds 4

Checks both commits out into temporary git worktrees, then runs, alternately for the base and
for this commit (in ABBA order, niced, one process at a time, so both see the same machine), two
measurements per game on the same fixed work: ``make bench``'s step (the legal actions or chance
outcomes, then ``apply_action``) replayed over three seeded random games, and ``clone`` of up to
600 states met on them. Each is timed ``repeats`` times and the best counts (on a loaded machine
the best timing is the one least disturbed); the script prints the median over the rounds and
this commit's ratio to the base.
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
from boneyard.core.game import CHANCE

repeats = int(sys.argv[1])


def seeded_actions(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    actions, states = [], []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        actions.append(action)
        states.append(state.clone())
        state.apply_action(action)
    return actions, states


def replay(game, actions):
    # make bench's work per step: the legal actions (or chance outcomes), then apply_action
    state = game.new_initial_state()
    for action in actions:
        if state.current_player() == CHANCE:
            state.chance_outcomes()
        else:
            state.legal_actions()
        state.apply_action(action)


out = {}
for name in list_games():
    game = load_game(name)
    games = [seeded_actions(game, seed) for seed in range(3)]
    steps = sum(len(actions) for actions, _ in games)
    states = [s for _, kept in games for s in kept][:600]
    best_steps = best_clones = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for actions, _ in games:
            replay(game, actions)
        best_steps = min(best_steps, time.perf_counter() - start)
        start = time.perf_counter()
        for state in states:
            state.clone()
        best_clones = min(best_clones, time.perf_counter() - start)
    out[name] = {"steps": steps / best_steps, "clones": len(states) / best_clones}
print(json.dumps(out))
"""


def measure(tree: Path, repeats: int) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    run = subprocess.run(
        ["nice", sys.executable, "-c", CHILD, str(repeats)],
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
    parser.add_argument(
        "--repeats", type=int, default=20, help="timings per round (the best counts)"
    )
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
                    runs[label].append(measure(trees[label], args.repeats))
        finally:
            for tree in trees.values():
                subprocess.run(
                    ["git", "-C", str(here), "worktree", "remove", "--force", str(tree)],
                    check=True,
                )
    print(
        f"base {args.base}, this {args.this}: per second, the best of {args.repeats} timings "
        f"in each of {args.rounds} rounds, median of the rounds"
    )
    print(f"{'game':<12} {'measure':<8} {'base':>12} {'this':>12} {'this/base':>9}")
    for name in runs["base"][0]:
        for measure_name in ("steps", "clones"):
            old = statistics.median(r[name][measure_name] for r in runs["base"])
            new = statistics.median(r[name][measure_name] for r in runs["this"])
            print(f"{name:<12} {measure_name:<8} {old:>12,.0f} {new:>12,.0f} {new / old:>9.3f}")


if __name__ == "__main__":
    main()
