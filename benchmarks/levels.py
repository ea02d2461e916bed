"""Calibrate each game's scale of levels: neighbouring levels in the arena, Elo with intervals.

Not a test. Each neighbouring pair of levels (1-2, 2-3, ...) plays ``-n`` games with seats
alternating, seeded, through the arena's own game loop; ``--round-robin`` plays every pair
instead. ``--scale`` multiplies every level's budget (its ``time_limit`` and ``iterations``) so
that a two-core machine can measure the ladder in minutes: say which scale the numbers came
from. The ratings are a Bradley-Terry (Elo) fit (``boneyard.ai.stats.elo_ratings``) with level 1
at 1000; a level's 95% interval adds the Elo intervals of the pairs between it and level 1 in
quadrature (a chain of neighbours; an approximation). Results go to ``--out`` as JSON
(``src/boneyard/ai/ratings.json`` by default: the web app reads it), merged game by game.

    PYTHONPATH=src .venv/bin/python benchmarks/levels.py --games bones obonto -n 20 --scale 0.25
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from boneyard.ai.arena import PairResult, run_tasks, tally, tasks_for_pair
from boneyard.ai.stats import elo_difference, elo_ratings
from boneyard.core.registry import game_spec, load_game
from boneyard.core.spec import Level

GAMES = ("obonto", "bones", "oyno", "bonbon", "bondo_cones")
"""Games with an opponent (the OYNO puzzle's two levels are greedy and the exact solver)."""
OUT = Path(__file__).resolve().parents[1] / "src" / "boneyard" / "ai" / "ratings.json"
ELO_CAP = 800.0
"""A clean sweep has no finite Elo: its interval ends are capped here."""


def bot_spec(level: Level, scale: float) -> str:
    """An arena bot spec for ``level`` with its budget times ``scale``."""
    options: dict[str, Any] = dict(level.options)
    if "time_limit" in options:
        options["time_limit"] = round(float(options["time_limit"]) * scale, 4)
    if "iterations" in options:
        options["iterations"] = max(1, int(options["iterations"] * scale))
    options["use_solver"] = level.use_solver
    return level.bot + ":" + ",".join(f"{key}={value}" for key, value in options.items())


def _capped_elo(score: float) -> float:
    return max(-ELO_CAP, min(ELO_CAP, elo_difference(min(max(score, 1e-9), 1 - 1e-9))))


def pair_entry(upper: int, lower: int, wins: int, draws: int, losses: int, seconds: float) -> dict:
    """One pairing's counts for the upper level with its score, Wilson interval and Elo."""
    result = PairResult("upper", "lower", wins, draws, losses)
    low, high = result.interval
    return {
        "upper": upper,
        "lower": lower,
        "games": result.games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": result.score,
        "interval_95": [low, high],
        "elo": _capped_elo(result.score),
        "elo_interval_95": [_capped_elo(low), _capped_elo(high)],
        "seconds": round(seconds, 1),
    }


def fit(steps: tuple[Level, ...], pairs: list[dict]) -> dict[str, dict[str, Any]]:
    """Each level's Elo (level 1 at 1000) with its chained 95% interval."""
    count = len(steps)
    fitted = elo_ratings(
        count,
        [(p["upper"] - 1, p["lower"] - 1, p["score"] * p["games"], p["games"]) for p in pairs],
    )
    base = fitted[0]
    levels: dict[str, dict[str, Any]] = {}
    spread = 0.0
    for number in range(1, count + 1):
        if number > 1:
            step = next(
                (p for p in pairs if p["upper"] == number and p["lower"] == number - 1), None
            )
            if step is not None:
                low, high = step["elo_interval_95"]
                spread = math.hypot(spread, (high - low) / 2)
        rating = 1000.0 + fitted[number - 1] - base
        levels[str(number)] = {
            "rating": round(rating, 1),
            "interval_95": [round(rating - spread, 1), round(rating + spread, 1)],
            "bot": steps[number - 1].describe(),
        }
    return levels


def calibrate(game_name: str, games: int, scale: float, seed: int, every_pair: bool) -> dict:
    spec = game_spec(game_name)
    steps = spec.scale.steps
    specs = [bot_spec(level, scale) for level in steps]
    game = load_game(game_name)
    params = dict(game.params)
    players = game.info.num_players
    count = len(steps)
    pairings = (
        [(i, j) for i in range(count) for j in range(i + 1, count)]
        if every_pair
        else [(i, i + 1) for i in range(count - 1)]
    )
    started = time.perf_counter()
    pairs = []
    for number, (i, j) in enumerate(pairings):
        # The stronger level is bot A: its score is the ladder's step.
        tasks = tasks_for_pair(
            game_name, params, players, specs[j], specs[i], games, seed, number, None
        )
        records = run_tasks(tasks)
        result = tally(specs[j], specs[i], records)
        entry = pair_entry(
            j + 1,
            i + 1,
            result.wins,
            result.draws,
            result.losses,
            sum(r.seconds for r in records),
        )
        pairs.append(entry)
        low, high = entry["interval_95"]
        print(
            f"{game_name}: level {j + 1} vs {i + 1}: {result.wins}-{result.draws}-"
            f"{result.losses} of {result.games}, score {result.score:.2f} "
            f"[{low:.2f}, {high:.2f}]",
            flush=True,
        )
    return {
        "scale": scale,
        "games_per_pair": games,
        "seeds": [seed],
        "pairing": "round robin" if every_pair else "neighbours",
        "seconds": round(time.perf_counter() - started, 1),
        "pairs": pairs,
        "levels": fit(steps, pairs),
    }


def merge(game_name: str, old: dict, new: dict) -> dict:
    """``new``'s games added to ``old``'s, where both measured the same levels at one scale."""
    bots = [level["bot"] for level in new["levels"].values()]
    if old.get("scale") != new["scale"] or [lv["bot"] for lv in old["levels"].values()] != bots:
        return new
    counts: dict[tuple[int, int], list[float]] = {}
    for pair in [*old["pairs"], *new["pairs"]]:
        key = (pair["upper"], pair["lower"])
        total = counts.setdefault(key, [0, 0, 0, 0.0])
        for index, name in enumerate(("wins", "draws", "losses", "seconds")):
            total[index] += pair[name]
    pairs = [
        pair_entry(upper, lower, int(won), int(drawn), int(lost), spent)
        for (upper, lower), (won, drawn, lost, spent) in sorted(counts.items())
    ]
    return {
        **new,
        "games_per_pair": min(p["games"] for p in pairs),
        "seeds": [*old.get("seeds", [old.get("seed", 0)]), *new["seeds"]],
        "pairing": "round robin"
        if old["pairing"] == new["pairing"] == "round robin"
        else new["pairing"],
        "seconds": round(old["seconds"] + new["seconds"], 1),
        "pairs": pairs,
        "levels": fit(game_spec(game_name).scale.steps, pairs),
    }


def table(data: dict[str, Any]) -> str:
    """The Markdown tables of docs/ai.md: one a game, a row a level."""
    out = []
    for name, result in data.get("games", {}).items():
        seeds = result.get("seeds", [result.get("seed")])
        out.append(
            f"**{name}** ({result['pairing']}, {result['games_per_pair']} games a pair, seats "
            f"alternating, budgets x{result['scale']:g}, seeds {seeds}, "
            f"{result['seconds']:.0f} s)\n"
        )
        out.append("| level | bot | against the level below (W-D-L, score, 95%) | Elo (95%) |")
        out.append("|---|---|---|---|")
        for number, level in result["levels"].items():
            step = next(
                (
                    p
                    for p in result["pairs"]
                    if p["upper"] == int(number) and p["lower"] == int(number) - 1
                ),
                None,
            )
            against = "—"
            if step is not None:
                low, high = step["interval_95"]
                against = (
                    f"{step['wins']}-{step['draws']}-{step['losses']}, {step['score']:.2f} "
                    f"[{low:.2f}, {high:.2f}]"
                )
            low, high = level["interval_95"]
            out.append(
                f"| {number} | {level['bot']} | {against} | {level['rating']:.0f} "
                f"[{low:.0f}, {high:.0f}] |"
            )
        out.append("")
    return "\n".join(out).replace("(, ", "(")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("-n", type=int, default=20, help="games a pair (seats alternate)")
    parser.add_argument("--scale", type=float, default=1.0, help="times each level's budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--round-robin", action="store_true", help="every pair, not neighbours")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--add", action="store_true", help="add to --out's games, same scale")
    parser.add_argument("--table", action="store_true", help="print --out's tables, play none")
    args = parser.parse_args(argv)
    if args.table:
        print(table(json.loads(args.out.read_text())))
        return 0
    for name in args.games:
        result = calibrate(name, args.n, args.scale, args.seed, args.round_robin)
        data = json.loads(args.out.read_text()) if args.out.exists() else {}
        data.setdefault(
            "about",
            "Arena ratings of each game's levels (benchmarks/levels.py); level 1 at 1000.",
        )
        stored = data.setdefault("games", {})
        stored[name] = merge(name, stored[name], result) if args.add and name in stored else result
        args.out.write_text(json.dumps(data, indent=1) + "\n")
        print(json.dumps(result["levels"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
