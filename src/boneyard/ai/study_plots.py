"""The PNG plots of a study (``boneyard.ai.study``): outcomes by seat, game lengths, skill.

Needs matplotlib (the ``analysis`` extra). Every figure carries, at its foot, the command and
the commit that made it (the summary's ``command`` and ``commit``).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

FOOTER_WIDTH = 150
"""Characters of a figure's footer line (6-point text across a 7-inch figure)."""
COLOURS = ("#8a6d3b", "#3b6d8a", "#9a9a9a", "#6d8a3b", "#8a3b6d", "#3b8a7a")


def _footer(figure: Figure, summary: dict[str, Any]) -> None:
    text = f"{summary.get('command', '')}  (commit {summary.get('commit', 'unknown')})"
    # A long command (a native run names its engine) wraps rather than running off the edge.
    text = "\n".join(textwrap.wrap(text, FOOTER_WIDTH, break_on_hyphens=False))
    figure.text(0.01, 0.01, text, fontsize=6, color="#555555", ha="left", va="bottom")


def _save(figure: Figure, path: Path) -> Path:
    figure.tight_layout(rect=(0, 0.04, 1, 1))
    figure.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(figure)
    return path


def _label(entry: dict[str, Any], several_counts: bool, separator: str = ", ") -> str:
    if not several_counts:
        return str(entry["level"])
    return f"{entry['level']}{separator}{entry['players']} players"


def outcomes_plot(summary: dict[str, Any], path: Path) -> Path | None:
    entries = [e for e in summary["self_play"] if e["games"]]
    if not entries:
        return None
    # Wider for many groups: each label needs about an inch ("native_greedy", "2,000 games").
    figure, axes = plt.subplots(figsize=(max(7.0, 1.05 * len(entries)), 3.8))
    if entries[0]["players"] == 1:
        labels = [e["level"] for e in entries]
        rates = [e["solved"]["rate"] for e in entries]
        errors = _errors([e["solved"] for e in entries])
        axes.bar(labels, rates, yerr=errors, color=COLOURS[0], capsize=4)
        axes.set_ylabel("puzzles solved")
        axes.set_title(f"{summary['game']}: self-play by level", fontsize=10)
    elif all(e["players"] == 2 for e in entries):
        labels = [e["level"] for e in entries]
        width = 0.27
        for offset, (key, name, colour) in enumerate(
            (
                ("first_player_wins", "first player wins", COLOURS[0]),
                ("second_player_wins", "second player wins", COLOURS[1]),
                ("draws", "draw", COLOURS[2]),
            )
        ):
            rates = [e[key]["rate"] for e in entries]
            xs = [i + (offset - 1) * width for i in range(len(entries))]
            bars = axes.bar(
                xs,
                rates,
                width,
                yerr=_errors([e[key] for e in entries]),
                capsize=3,
                color=colour,
                label=name,
            )
            axes.bar_label(bars, labels=[f"{r:.0%}" for r in rates], fontsize=7, padding=2)
        axes.set_xticks(
            range(len(entries)), [f"{x}\n({e['games']:,} games)" for x, e in zip(labels, entries)]
        )
        axes.axhline(0.5, color="#444444", linewidth=0.6, linestyle=":")
        axes.set_ylabel("share of games (95% interval)")
        axes.set_title(f"{summary['game']}: who wins between equal players", fontsize=10)
        axes.legend(fontsize=7)
    else:
        width = 0.8 / max(e["players"] for e in entries)
        for i, entry in enumerate(entries):
            for seat, rate in enumerate(entry["seat_wins"]):
                axes.bar(
                    i + (seat - (entry["players"] - 1) / 2) * width,
                    rate["rate"],
                    width * 0.95,
                    yerr=_errors([rate]),
                    capsize=2,
                    color=COLOURS[seat % len(COLOURS)],
                    label=f"seat {seat + 1}"
                    if i == 0 or seat >= entries[i - 1]["players"]
                    else None,
                )
            fair = entry["fair_seat_rate"]
            axes.hlines(fair, i - 0.45, i + 0.45, color="#444444", linewidth=0.8, linestyle=":")
        axes.set_xticks(
            range(len(entries)),
            # a line each: side by side, eight "native_greedy, 3 players" ran into each other
            [f"{_label(e, True, separator=chr(10))}\n({e['games']:,} games)" for e in entries],
            fontsize=7,
        )
        axes.set_ylabel("games won (95% interval)")
        axes.set_title(
            f"{summary['game']}: wins by seat, seat 1 starts (dotted: every seat alike)",
            fontsize=10,
        )
        axes.legend(fontsize=7, ncols=3)
    axes.set_ylim(0, 1.08)
    _footer(figure, summary)
    return _save(figure, path)


def _errors(rates: list[dict[str, Any]]) -> list[list[float]]:
    # max(0, ...): the interval's ends are computed apart from the rate and may round past it
    return [
        [max(0.0, r["rate"] - r["interval_95"][0]) for r in rates],
        [max(0.0, r["interval_95"][1] - r["rate"]) for r in rates],
    ]


def length_plot(summary: dict[str, Any], path: Path) -> Path | None:
    entries = [e for e in summary["self_play"] if e["games"]]
    if not entries:
        return None
    several_counts = len({e["players"] for e in entries}) > 1
    figure, axes = plt.subplots(figsize=(7.0, 3.8))
    for number, entry in enumerate(entries):
        histogram = entry["length"]["histogram"]
        turns = [int(k) for k in histogram]
        counts = [histogram[k] / entry["games"] for k in histogram]
        # bins of equal width so that long games with few repeats still show as a shape
        axes.hist(
            turns,
            weights=counts,
            bins=min(40, max(5, len(turns))),
            histtype="step",
            linewidth=1.4,
            color=COLOURS[number % len(COLOURS)],
            label=f"{_label(entry, several_counts)}: median {entry['length']['median']:g}",
        )
    axes.set_xlabel("turns in a game (decisions by the players; dice and deals not counted)")
    axes.set_ylabel("share of games")
    axes.set_title(f"{summary['game']}: how long a game lasts", fontsize=10)
    axes.legend(fontsize=7)
    _footer(figure, summary)
    return _save(figure, path)


def skill_plot(summary: dict[str, Any], path: Path) -> Path | None:
    entries = [e for e in summary["skill"] if e["games"]]
    if not entries:
        return None
    several_counts = len({e["players"] for e in entries}) > 1
    figure, axes = plt.subplots(figsize=(7.0, 3.6))
    labels = [
        f"{e['bot_a']} vs {e['bot_b']}"
        + (f", {e['players']} players" if several_counts else "")
        + f"\n({e['games']:,} games)"
        for e in entries
    ]
    rates = [e["win_rate"]["rate"] for e in entries]
    bars = axes.bar(
        range(len(entries)),
        rates,
        yerr=_errors([e["win_rate"] for e in entries]),
        capsize=4,
        color=COLOURS[0],
        label="stronger wins",
    )
    axes.bar_label(bars, labels=[f"{r:.0%}" for r in rates], fontsize=7, padding=2)
    draws = [e["draws"] / e["games"] for e in entries]
    axes.bar(range(len(entries)), draws, bottom=rates, color=COLOURS[2], label="draw")
    axes.set_xticks(range(len(entries)), labels, fontsize=7)
    axes.axhline(0.5, color="#444444", linewidth=0.6, linestyle=":")
    axes.set_ylim(0, 1.08)
    axes.set_ylabel("games (95% interval)")
    axes.set_title(f"{summary['game']}: how often the stronger player wins", fontsize=10)
    axes.legend(fontsize=7)
    _footer(figure, summary)
    return _save(figure, path)


def write_plots(summary: dict[str, Any], out_dir: Path, stem: str) -> list[Path]:
    made = [
        outcomes_plot(summary, out_dir / f"{stem}-outcomes.png"),
        length_plot(summary, out_dir / f"{stem}-length.png"),
        skill_plot(summary, out_dir / f"{stem}-skill.png"),
    ]
    return [path for path in made if path is not None]
