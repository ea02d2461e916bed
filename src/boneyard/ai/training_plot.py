"""The plot of a training run: its score against random and against ``hard`` over training time
and over self-play games (PNG; matplotlib, the ``analysis`` extra; no JAX).

It reads a run's folder (``boneyard train --out``): ``log.jsonl`` (``score_vs_random`` at each
evaluation, with its 95% interval) and ``strength.jsonl`` (``score_vs_hard`` at each
measurement, with its interval). ``python -m boneyard.ai.training_plot OUT PNG`` draws one.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

SERIES = (
    ("log.jsonl", "score_vs_random", "against random (greedy policy, batch engine)", "#3b6d8a"),
    ("strength.jsonl", "score_vs_hard", "against hard (expert, rules engine)", "#8a3b6d"),
)


def _records(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    records = []
    for text in path.read_text().splitlines():
        try:
            records.append(json.loads(text))
        except json.JSONDecodeError:  # a torn last line of a killed run
            continue
    return records


def plot_run(out: str | Path, path: str | Path, title: str | None = None) -> Path:
    """Draw the run in ``out`` into ``path``: score (draws half) against training time (minutes,
    or hours past two) on the left, with a dotted line where each sitting began, and against
    self-play games on the right, with 95% intervals."""
    out, path = Path(out), Path(path)
    log = _records(out / "log.jsonl")
    longest = max((r.get("seconds", 0.0) for r in log), default=0.0)
    scale, unit = (3600.0, "hours") if longest > 7200 else (60.0, "minutes")
    figure, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    starts = [
        r["seconds"]
        for r, before in zip(log[1:], log)
        if r.get("sitting", 1) > before.get("sitting", 1)
    ]
    for start in starts:
        axes[0].axvline(start / scale, color="#bbbbbb", lw=0.8, ls=":")
    for file, key, label, colour in SERIES:
        points = [r for r in _records(out / file) if key in r and "seconds" in r]
        if not points:
            continue
        for axis, x_key, per in ((axes[0], "seconds", scale), (axes[1], "games", 1.0)):
            xs = [r[x_key] / per for r in points]
            ys = [r[key] for r in points]
            lows = [r[key] - r["interval"][0] if "interval" in r else 0.0 for r in points]
            highs = [r["interval"][1] - r[key] if "interval" in r else 0.0 for r in points]
            axis.errorbar(
                xs, ys, yerr=[lows, highs], label=label, color=colour, marker="o", ms=3, capsize=2
            )
    labels = (f"training time ({unit}; dotted: a new sitting)", "self-play games")
    for axis, x_label in zip(axes, labels):
        axis.set_xlabel(x_label)
        axis.axhline(0.5, color="#999999", lw=0.8, ls="--")
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("score (draws half)")
    axes[1].legend(loc="lower right", fontsize=8)
    figure.suptitle(title or f"training run {out.name}")
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(figure)
    return path


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3):
        raise SystemExit("usage: python -m boneyard.ai.training_plot RUN_FOLDER PNG [TITLE]")
    print(plot_run(*args))


if __name__ == "__main__":
    main()
