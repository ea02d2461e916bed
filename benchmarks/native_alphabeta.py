"""The native alpha-beta (``native_alphabeta``) beside the Python one (``alphabeta``): nodes a
second and the depth each finishes within the same time, and how far past its time limit the
native search answers. Not a test (timings depend on the machine and its load).

Positions: ``--positions`` per game, each after a seeded number of random plies (4 to 24) and
not yet decided within two plies (a forced result ends any search at once). Both
searches get ``--seconds`` a position, one after the other, in this process. Run::

    nice -n 10 .venv/bin/python benchmarks/native_alphabeta.py
    nice -n 10 .venv/bin/python benchmarks/native_alphabeta.py --games bones --positions 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import boneyard
from boneyard import native
from boneyard.ai.alphabeta import WIN, AlphaBetaBot
from boneyard.core.game import State


def positions(name: str, count: int, seed: int) -> list[State]:
    game = boneyard.load_game(name)
    native_game = native.load_game(name)
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(4, 25)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.current_player() < 0 or len(state.legal_actions()) < 2:
            continue
        # A position whose result a shallow search already knows ends any search at once.
        twin = native_game.state_from_json(state.to_json())
        shallow = twin.search("alphabeta", json.dumps({"depth": 2}), None, None, 0)
        if abs(shallow["values"][state.current_player()]) < WIN / 2:
            found.append(state)
    return found


def python_search(state: State, seconds: float) -> dict[str, float]:
    bot = AlphaBetaBot(
        state.game, state.current_player(), seed=0, use_solver=False, time_limit=seconds
    )
    depths: list[int] = []
    search_root = bot._root_scores

    def recorded(root: State, order: list[int], depth: int, scores: dict[int, float]) -> Any:
        found = search_root(root, order, depth, scores)
        depths.append(depth)  # only reached when the iteration finished
        return found

    bot._root_scores = recorded  # type: ignore[method-assign]
    started = time.perf_counter()
    bot._choose(state)
    elapsed = time.perf_counter() - started
    return {"depth": max(depths, default=0), "nodes": bot.nodes, "seconds": elapsed}


def native_search(state: Any, seconds: float) -> dict[str, float]:
    started = time.perf_counter()
    found = state.search("alphabeta", json.dumps({}), round(seconds * 1000), None, 0)
    elapsed = time.perf_counter() - started
    return {
        "depth": found["iterations"],
        "nodes": sum(v for _, v in found["visits"]),
        "seconds": elapsed,
        "overrun_ms": 1000 * (elapsed - seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["obonto", "bones", "oyno"])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{args.seconds} s a search, {args.positions} positions a game, seed {args.seed}")
    print(
        "| game | search | depth finished (median, min-max) | nodes/s (median) | "
        "native overrun ms (median, max) |"
    )
    print("|---|---|---|---|---|")
    for name in args.games:
        native_game = native.load_game(name)
        python_rows, native_rows = [], []
        for state in positions(name, args.positions, args.seed):
            python_rows.append(python_search(state, args.seconds))
            native_rows.append(
                native_search(native_game.state_from_json(state.to_json()), args.seconds)
            )
        for label, rows in (("alphabeta (Python)", python_rows), ("native_alphabeta", native_rows)):
            depths = [r["depth"] for r in rows]
            rate = statistics.median(r["nodes"] / r["seconds"] for r in rows)
            overrun = "-"
            if label == "native_alphabeta":
                overruns = [r["overrun_ms"] for r in rows]
                overrun = f"{statistics.median(overruns):.1f}, {max(overruns):.1f}"
            print(
                f"| {name} | {label} | {statistics.median(depths):g} ({min(depths)}-{max(depths)}) "
                f"| {rate:,.0f} | {overrun} |"
            )


if __name__ == "__main__":
    main()
