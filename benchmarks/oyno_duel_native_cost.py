"""What solving the two-player OYNO duel costs, measured on the small duels and extrapolated to
the default one (5x5, 8 bones a side): issue 43, item 4.

    nice -n 10 .venv/bin/python benchmarks/oyno_duel_native_cost.py            # 5x5, 1-2 timed
    nice -n 10 .venv/bin/python benchmarks/oyno_duel_native_cost.py --timed 1 --json out.json

For every bone count of the 5x5 duel it prints the positions (board and supplies; each is solved
for both players to move), the rows and in-layer edges of the fullest layer, and the bytes the
native solver holds: a value byte, two plies bytes and a pass's verdict byte per position and
player (it keeps a layer's edges, 4 bytes each, only up to 100 million of them). The bone counts
up to
``--timed`` are solved by both engines (``solve(..., engine="python")`` and ``engine="native"``),
with CPU seconds (process time, so other work on the machine does not count), the start's value
and the CPU nanoseconds per edge; the others get the time the native solver's rate gives for one
pass over their edges (a lower bound: a solve makes one pass per ply of its longest win).
"""

from __future__ import annotations

import argparse
import json
import math
import time

from boneyard.games.oyno.board import board
from boneyard.solvers import oyno_duel

NAMES = {oyno_duel.WIN: "win", oyno_duel.DRAW: "draw", oyno_duel.LOSS: "loss"}


def layer_edges(cells: int, red: int, white: int) -> tuple[int, int]:
    """Rows of a layer and an upper bound on its in-layer edges (moves and flips, both sides)."""
    rows = math.comb(cells, red) * math.comb(cells - red, white) << (red + white)
    empties = cells - red - white
    return rows, rows * (red + white) * (empties + 1)


def timed(engine: str, size: int, bones: int, place_rule: str) -> tuple[float, tuple[int, int]]:
    start = time.process_time()
    solution = oyno_duel.solve(size, bones, place_rule=place_rule, engine=engine)
    seconds = time.process_time() - start
    return seconds, solution.value(0, 0, 0, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--timed", type=int, default=2, help="solve bone counts up to this")
    parser.add_argument("--place-rule", default=oyno_duel.DEFAULT_PLACE_RULE)
    parser.add_argument("--json", help="write every line's numbers here")
    args = parser.parse_args()
    cells = len(board(args.size).resting)
    most = (cells - 1) // 2
    rate = None
    lines = []
    for bones in range(1, min(most, 8) + 1):
        positions = oyno_duel.position_count(args.size, bones)
        edges = sum(
            layer_edges(cells, red, white)[1]
            for red in range(bones + 1)
            for white in range(bones + 1)
        )
        rows, fullest = layer_edges(cells, bones, bones)
        line: dict[str, object] = {
            "bones": bones,
            "positions": positions,
            "edges": edges,
            "fullest_layer_rows": rows,
            "fullest_layer_edges": fullest,
            "value_bytes": 8 * positions,
        }
        if bones <= args.timed:
            python_s, start = timed("python", args.size, bones, args.place_rule)
            native_s, native_start = timed("native", args.size, bones, args.place_rule)
            assert native_start == start, (native_start, start)
            rate = native_s / edges
            line |= {
                "python_cpu_s": round(python_s, 2),
                "native_cpu_s": round(native_s, 2),
                "native_ns_per_edge": round(1e9 * rate, 1),
                "start": f"{NAMES[start[0]]} in {start[1]}" if start[0] else "draw",
            }
        elif rate is not None:
            line["one_pass_cpu_s_at_that_rate"] = round(rate * edges)
        lines.append(line)
        print(json.dumps(line), flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"size": args.size, "place_rule": args.place_rule, "lines": lines}, out)


if __name__ == "__main__":
    main()
