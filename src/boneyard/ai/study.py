"""What a game is like: self-play between equal levels, and stronger levels against weaker ones.

A study plays, through the arena (``boneyard.ai.arena``: the same seeded games, the same local
and Ray backends), two kinds of games:

- *self-play*: ``games`` games at each level, every seat that level. It measures how often the
  first player wins (with a 95% Wilson interval), how often the second does, draws, and how long
  a game lasts (decisions by the seats; chance outcomes are not counted). With several player
  counts (Bon-Bon) it measures each seat's win rate at each count.
- *skill*: each level against the one before it in the list (the list goes from weaker to
  stronger), seats alternating. How often the stronger wins says how much skill decides against
  luck: near 1 in a game of pure skill between unequal players, near the self-play win rate in a
  game of pure luck.

The first player of a game is the seat a ``first N`` chance event names (RULINGS: who starts)
where the game has one, else the seat of the first decision (``GameRecord.first_player``).
A game is won by the seat with the highest return; several seats sharing the highest return
share the win (Bon-Bon's two winners), and a game where every seat has the same return is a draw.

``summarise`` turns the records into a JSON-ready dict; ``write_study`` writes it and, with the
``analysis`` extra (matplotlib), the PNG plots, each naming the command and commit that made it.
"""

from __future__ import annotations

import json
import statistics
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.ai.arena import (
    ENGINES,
    GameRecord,
    GameTask,
    Progress,
    run_tasks,
    tally,
    tasks_for_pair,
)
from boneyard.ai.stats import wilson_interval
from boneyard.core.registry import load_game


@dataclass(frozen=True)
class StudyPlan:
    """What to play. ``games`` and ``skill_games`` hold one count per level and per adjacent
    pair of levels (weaker first)."""

    game: str
    levels: tuple[str, ...]
    games: tuple[int, ...]
    skill_games: tuple[int, ...]
    params: dict[str, Any] = field(default_factory=dict)
    player_counts: tuple[int, ...] = ()
    """Player counts to study (a game with a ``players`` parameter); empty: the game's own."""
    seed: int = 0
    time_limit: float | None = None
    engine: str = "python"
    """The rules the games are played on (``arena.ENGINES``): the native engine plays the same
    random games, faster, and its bots (``native_greedy``) read its states without a copy."""

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ValueError(f"no engine {self.engine!r}; engines: {', '.join(ENGINES)}")
        if not self.levels:
            raise ValueError("a study needs at least one level")
        if len(set(self.levels)) != len(self.levels):
            raise ValueError(f"the levels must differ (got {', '.join(self.levels)})")
        if len(self.games) != len(self.levels):
            raise ValueError(
                f"give one game count, or one per level ({len(self.levels)}), not {len(self.games)}"
            )
        if len(self.skill_games) != max(len(self.levels) - 1, 0):
            raise ValueError(
                f"give one skill game count, or one per pair of neighbouring levels "
                f"({len(self.levels) - 1}), not {len(self.skill_games)}"
            )
        if any(n < 0 for n in (*self.games, *self.skill_games)):
            raise ValueError("game counts cannot be negative")


@dataclass(frozen=True)
class Group:
    """One batch of the study's games: self-play at a level, or a stronger-weaker pairing."""

    kind: str
    """``self`` or ``skill``."""
    levels: tuple[str, ...]
    """``(level,)`` for self-play, ``(stronger, weaker)`` for skill."""
    params: dict[str, Any]
    players: int


def plan_tasks(plan: StudyPlan) -> tuple[list[Group], list[GameTask]]:
    """The groups of games and every game's task (``GameTask.pair`` is the group's number)."""
    base = load_game(plan.game, **plan.params)
    counts = plan.player_counts or (base.info.num_players,)
    if plan.player_counts and "players" not in base.params:
        raise ValueError(f"{plan.game} has no players parameter: it cannot vary the player count")
    groups: list[Group] = []
    tasks: list[GameTask] = []
    for players in counts:
        params = dict(plan.params)
        if plan.player_counts:
            params["players"] = players
        resolved = dict(load_game(plan.game, **params).params)
        for level, games in zip(plan.levels, plan.games):
            if games:
                tasks += _group_tasks(
                    plan, groups, Group("self", (level,), resolved, players), games
                )
        for number, games in enumerate(plan.skill_games):
            if games:
                weaker, stronger = plan.levels[number], plan.levels[number + 1]
                group = Group("skill", (stronger, weaker), resolved, players)
                tasks += _group_tasks(plan, groups, group, games)
    return groups, tasks


def _group_tasks(plan: StudyPlan, groups: list[Group], group: Group, games: int) -> list[GameTask]:
    number = len(groups)
    groups.append(group)
    first, second = group.levels[0], group.levels[-1]
    tasks = tasks_for_pair(
        plan.game,
        group.params,
        group.players,
        first,
        second,
        games,
        plan.seed,
        number,
        plan.time_limit,
        plan.engine,
    )
    if group.players == 1 and group.kind == "self":
        tasks = tasks[::2]  # a one-player game's pairing plays each deal twice: once is enough
    return tasks


def run_study(
    plan: StudyPlan,
    *,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play the plan's games and summarise them."""
    groups, tasks = plan_tasks(plan)
    records = run_tasks(
        tasks, workers=workers, backend=backend, ray_address=ray_address, progress=progress
    )
    return summarise(plan, groups, records)


# ----- summaries -------------------------------------------------------------------------


def winners(record: GameRecord) -> list[int]:
    """The seats with the highest return; empty when every seat has the same (a draw)."""
    top = max(record.returns)
    best = [seat for seat, value in enumerate(record.returns) if value == top]
    return [] if len(best) == len(record.returns) and len(best) > 1 else best


def _rate(count: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(count, games)
    return {"count": count, "rate": count / games if games else 0.0, "interval_95": [low, high]}


def _lengths(records: Sequence[GameRecord]) -> dict[str, Any]:
    turns = sorted(record.turns for record in records)
    if not turns:
        return {}
    deciles = statistics.quantiles(turns, n=10) if len(turns) > 1 else [turns[0]] * 9
    return {
        "mean": statistics.fmean(turns),
        "median": statistics.median(turns),
        "p10": deciles[0],
        "p90": deciles[-1],
        "min": turns[0],
        "max": turns[-1],
        "histogram": {str(k): v for k, v in sorted(Counter(turns).items())},
    }


def self_play_summary(group: Group, records: Sequence[GameRecord]) -> dict[str, Any]:
    """First player's and each seat's wins, draws and lengths of one self-play group."""
    games = len(records)
    summary: dict[str, Any] = {
        "level": group.levels[0],
        "players": group.players,
        "params": group.params,
        "games": games,
        "length": _lengths(records),
        "seconds": sum(record.seconds for record in records),
    }
    if group.players == 1:
        solved = sum(1 for record in records if record.returns[0] > 0)
        summary["solved"] = _rate(solved, games)
        return summary
    first_wins = second_wins = draws = 0
    seat_wins = [0] * group.players
    winner_count = 0
    for record in records:
        best = winners(record)
        if not best:
            draws += 1
            continue
        winner_count += len(best)
        for seat in best:
            seat_wins[seat] += 1
        if record.first_player in best:
            first_wins += 1
        elif group.players == 2:
            second_wins += 1
    summary["first_player_wins"] = _rate(first_wins, games)
    summary["draws"] = _rate(draws, games)
    if group.players == 2:
        summary["second_player_wins"] = _rate(second_wins, games)
        summary["first_player_score"] = _rate(first_wins + 0.5 * draws, games)
    summary["seat_wins"] = [_rate(count, games) for count in seat_wins]
    # what each seat would win if seats did not matter: the winners a game, shared evenly
    summary["fair_seat_rate"] = winner_count / games / group.players if games else 0.0
    return summary


def skill_summary(group: Group, records: Sequence[GameRecord]) -> dict[str, Any]:
    """The stronger level against the weaker: the arena's tally, seats alternating."""
    stronger, weaker = group.levels
    result = tally(stronger, weaker, records).summary()
    result["players"] = group.players
    result["params"] = group.params
    result["win_rate"] = _rate(result["wins"], result["games"])
    return result


def summarise(
    plan: StudyPlan, groups: Sequence[Group], records: Sequence[GameRecord]
) -> dict[str, Any]:
    by_group: dict[int, list[GameRecord]] = {}
    for record in records:
        by_group.setdefault(record.pair, []).append(record)
    self_play = [
        self_play_summary(group, by_group.get(number, []))
        for number, group in enumerate(groups)
        if group.kind == "self"
    ]
    skill = [
        skill_summary(group, by_group.get(number, []))
        for number, group in enumerate(groups)
        if group.kind == "skill"
    ]
    return {
        "game": plan.game,
        "params": plan.params,
        "levels": list(plan.levels),
        "seed": plan.seed,
        "time_limit": plan.time_limit,
        "engine": plan.engine,
        "self_play": self_play,
        "skill": skill,
        "games": len(records),
        "seconds": sum(record.seconds for record in records),
    }


def commit() -> str:
    """The commit of the working tree this runs from (``-dirty`` with changes), or unknown."""
    try:
        found = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=10"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return found.stdout.strip() or "unknown"


# ----- writing ---------------------------------------------------------------------------


def write_study(summary: dict[str, Any], out_dir: Path, stem: str) -> list[Path]:
    """``<stem>.json`` and, where matplotlib is installed, ``<stem>-*.png``; the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / f"{stem}.json"
    json_path.write_text(json.dumps(summary, indent=2) + "\n")
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        return [json_path]
    from boneyard.ai import study_plots

    return [json_path, *study_plots.write_plots(summary, out_dir, stem)]
