"""Combine arena runs played in chunks, and write a level's measured step into ratings.json.

Not a test. A long arena (100 games at 1 s a move on two shared cores) is played as chunks of
``boneyard arena GAME A B -n 10 --seed S --json chunk-S.json``, each with a seed of its own, so
that a session's end loses one chunk at most. ``combine`` adds the chunks' games per pairing and
prints W-D-L, score and the 95% Wilson interval; ``rate`` writes the pairing of level UPPER
against level LOWER (from the chunks, or from counts measured earlier) into ratings.json, and
level UPPER's rating: the level below's plus the pairing's Elo, its interval the two added in
quadrature (``benchmarks/levels.py``'s chain), or only the lower end where UPPER won every game.

    python benchmarks/arena_chunks.py combine chunk-3.json chunk-4.json
    python benchmarks/arena_chunks.py rate bones 5 4 --files chunk-*.json --command "..."
    python benchmarks/arena_chunks.py rate bonbon 5 4 --counts 21-0-1 --command "..."
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from levels import OUT, pair_entry

from boneyard.ai.stats import wilson_interval
from boneyard.core.registry import game_spec

MEASURED = (
    "at full budgets against the level below (1 s a move each), not at the ladder's x0.25: "
    "docs/ai.md, Native searches"
)


def combine(paths: list[str]) -> dict[tuple[str, str, str], list[int]]:
    """(game, bot A, bot B) -> [wins, draws, losses] of A over every chunk."""
    totals: dict[tuple[str, str, str], list[int]] = {}
    for path in paths:
        data = json.loads(Path(path).read_text())
        for pair in data["pairs"]:
            key = (data["game"], pair["bot_a"], pair["bot_b"])
            total = totals.setdefault(key, [0, 0, 0])
            for index, name in enumerate(("wins", "draws", "losses")):
                total[index] += int(pair[name])
    return totals


def describe(wins: int, draws: int, losses: int) -> str:
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    low, high = wilson_interval(wins + draws / 2, games)
    return f"{games} games, {wins}-{draws}-{losses}, score {score:.3f}, 95% {low:.3f}-{high:.3f}"


def rate(
    game: str, upper: int, lower: int, counts: tuple[int, int, int], command: str, out: Path
) -> dict[str, Any]:
    """Write the pairing and level ``upper``'s rating into ``out``; the game's new entry."""
    data = json.loads(out.read_text())
    entry = data["games"][game]
    pair = pair_entry(upper, lower, *counts, seconds=0.0)
    del pair["seconds"]
    if counts[1] == counts[2] == 0:
        pair["elo"] = None  # a clean sweep has no finite Elo
    pair["command"] = command
    entry["pairs"] = [p for p in entry["pairs"] if (p["upper"], p["lower"]) != (upper, lower)] + [
        pair
    ]
    below = entry["levels"][str(lower)]
    base = below["rating"]
    low_end, high_end = below.get("interval_95", [base, base])
    spread = (high_end - low_end) / 2
    step_low, step_high = pair["elo_interval_95"]
    level: dict[str, Any] = {"bot": game_spec(game).scale.level(upper).describe()}
    if pair["elo"] is None:
        level.update(
            rating=None,
            at_least=round(base + step_low, 1),
            why="it won every game against the level below: no finite estimate, only the "
            "interval's lower end",
        )
    else:
        rating = base + pair["elo"]
        width = math.hypot(spread, (step_high - step_low) / 2)
        interval = [round(rating - width, 1), round(rating + width, 1)]
        level.update(rating=round(rating, 1), interval_95=interval)
    level["measured"] = MEASURED
    entry["levels"][str(upper)] = level
    out.write_text(json.dumps(data, indent=1) + "\n")
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="what", required=True)
    combining = commands.add_parser("combine", help="add the chunks' games per pairing")
    combining.add_argument("files", nargs="+")
    rating = commands.add_parser("rate", help="write a level's step into ratings.json")
    rating.add_argument("game")
    rating.add_argument("upper", type=int)
    rating.add_argument("lower", type=int)
    source = rating.add_mutually_exclusive_group(required=True)
    source.add_argument("--files", nargs="+", help="arena JSON chunks: the upper level is bot A")
    source.add_argument("--counts", help="W-D-L of the upper level, measured earlier")
    rating.add_argument("--command", required=True, help="how the games were played")
    rating.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.what == "combine":
        for (game, bot_a, bot_b), (wins, draws, losses) in combine(args.files).items():
            print(f"{game}: {bot_a} - {bot_b}: {describe(wins, draws, losses)}")
        return 0
    if args.files:
        totals = list(combine(args.files).values())
        if len(totals) != 1:
            parser.error("the chunks must all be one pairing")
        numbers = totals[0]
    else:
        numbers = [int(n) for n in args.counts.split("-")]
        if len(numbers) != 3:
            parser.error(f"--counts is W-D-L, not {args.counts!r}")
    counts = (numbers[0], numbers[1], numbers[2])
    entry = rate(args.game, args.upper, args.lower, counts, args.command, args.out)
    print(describe(*counts), json.dumps(entry["levels"][str(args.upper)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
