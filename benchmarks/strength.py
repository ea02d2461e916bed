"""Strength of the levels: arena results of each level against the others, for every game.

Not a test: it takes hours at full size. Each pairing plays ``-n`` games with seats alternating,
seeded, through the same arena as ``boneyard arena``; results go to ``--out`` as one JSON file per
game and a Markdown table on standard output (the tables of docs/ai.md).

    .venv/bin/python benchmarks/strength.py -n 200 --workers 16 --out benchmarks/results
    .venv/bin/python benchmarks/strength.py --games obonto --pairs hard-random,hard-easy -n 40

The bar's pairings come first: ``hard`` against ``random`` and against the ``greedy`` bot (one
ply, the game's heuristic, no solver; in most games that is also the ``easy`` level).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from itertools import combinations
from pathlib import Path

import boneyard
from boneyard.ai.arena import ArenaResult, PairResult, round_robin

LEVELS = ("random", "easy", "medium", "hard")


def _pairs(text: str | None) -> list[tuple[str, str]]:
    if not text:
        # The bar's pairings first, then every level against every other, stronger first.
        pairs = [("hard", "random"), ("hard", "greedy")]
        pairs += [(b, a) for a, b in combinations(LEVELS, 2) if (b, a) not in pairs]
        return pairs
    pairs = []
    for item in text.split(","):
        a, sep, b = item.strip().partition("-")
        if not sep:
            raise SystemExit(f"bad pair {item!r}: write a-b, for example hard-random")
        pairs.append((a, b))
    return pairs


def _row(game: str, pair: PairResult, seconds: float) -> str:
    low, high = pair.interval
    elo = pair.elo
    shown = f"{elo:+.0f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")
    return (
        f"| {game} | {pair.bot_a} | {pair.bot_b} | {pair.games} | {pair.wins} | {pair.draws} "
        f"| {pair.losses} | {pair.score:.3f} | {low:.3f}-{high:.3f} | {shown} | {seconds:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=None, help="Comma-separated games (default: all).")
    parser.add_argument("--pairs", default=None, help="Pairings a-b,c-d (default: all levels).")
    parser.add_argument("-n", type=int, default=200, help="Games a pairing.")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="Folder for one JSON file per game.")
    args = parser.parse_args()

    games = args.games.split(",") if args.games else boneyard.list_games()
    print("| game | A | B | games | W | D | L | A score | 95% interval | Elo A-B | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game in games:
        results: list[ArenaResult] = []
        for number, (bot_a, bot_b) in enumerate(_pairs(args.pairs)):
            started = time.perf_counter()
            result = round_robin(
                game, [bot_a, bot_b], games=args.n, seed=args.seed + number, workers=args.workers
            )
            results.append(result)
            print(_row(game, result.pairs[0], time.perf_counter() - started), flush=True)
        if args.out:
            folder = Path(args.out)
            folder.mkdir(parents=True, exist_ok=True)
            doc = {"game": game, "games_per_pair": args.n, "runs": [r.to_json() for r in results]}
            (folder / f"strength_{game}.json").write_text(json.dumps(doc, indent=1) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
