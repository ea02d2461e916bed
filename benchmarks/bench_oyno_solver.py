"""Optimal OYNO puzzle solving speed: 100 seeded random 8-bone set-ups on the default 5x5 board.

    .venv/bin/python benchmarks/bench_oyno_solver.py [--count 100] [--bones 8] [--seed 0]
    .venv/bin/python benchmarks/bench_oyno_solver.py --hardest 7   # the longest 7-bone set-ups

The set-ups are dealt through the game's own chance events with a seeded generator. Each solve is
timed alone (process CPU time and wall time); the bar is a median under 1 second. ``--hardest``
first runs the exhaustive analysis for that bone count, then times the solver on every set-up
whose optimal solution is the longest (God's number).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

import numpy as np

import boneyard
from boneyard.solvers import oyno_analysis, oyno_puzzle


def dealt_state(game: boneyard.Game, rng: random.Random) -> boneyard.State:
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    return state


def time_solves(states: list[boneyard.State]) -> tuple[list[float], list[float], Counter[int]]:
    walls, cpus, lengths = [], [], Counter[int]()
    for state in states:
        wall, cpu = time.perf_counter(), time.process_time()
        actions = oyno_puzzle.solve(state)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
        lengths[-1 if actions is None else len(actions)] += 1
    return walls, cpus, lengths


def report(title: str, walls: list[float], cpus: list[float], lengths: Counter[int]) -> None:
    print(title)
    print(f"  optimal lengths: {dict(sorted(lengths.items()))}")
    for label, values in (("wall", walls), ("cpu", cpus)):
        print(
            f"  {label}: median {statistics.median(values) * 1000:.1f} ms, "
            f"mean {statistics.fmean(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
        )


def hardest(bones: int, size: int = 5) -> None:
    table = oyno_analysis.distance_table(size, bones)
    solved = table[table != oyno_analysis.UNREACHED]
    longest = int(solved.max())
    resting = oyno_analysis.resting_cells(size)
    cells = oyno_analysis.subsets(len(resting), bones)
    states = []
    for index in np.flatnonzero(table == longest).tolist():
        rank, sides = index >> bones, index & ((1 << bones) - 1)
        symbols = {
            resting[int(c)]: "U" if (sides >> j) & 1 else "D" for j, c in enumerate(cells[rank])
        }
        from boneyard.games.oyno.board import format_position

        start = format_position(size, symbols)
        states.append(boneyard.load_game("oyno_puzzle", start=start).new_initial_state())
    walls, cpus, lengths = time_solves(states)
    report(
        f"{len(states)} hardest {bones}-bone set-ups (God's number {longest})", walls, cpus, lengths
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--bones", type=int, default=8)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hardest", type=int, default=0, help="bone count for the worst cases")
    args = parser.parse_args()
    game = boneyard.load_game("oyno_puzzle", size=args.size, bones=args.bones)
    rng = random.Random(args.seed)
    states = [dealt_state(game, rng) for _ in range(args.count)]
    oyno_puzzle.solve(states[0])  # warm the tables once
    walls, cpus, lengths = time_solves(states)
    report(
        f"{args.count} random {args.bones}-bone set-ups on {args.size}x{args.size} "
        f"(seed {args.seed})",
        walls,
        cpus,
        lengths,
    )
    if args.hardest:
        hardest(args.hardest, args.size)


if __name__ == "__main__":
    main()
