"""Race drawn from an observation: a line of text, or a small SVG track."""

from __future__ import annotations

from typing import Any

from boneyard.games.race.observation import RaceObservation


def render_text(observation: RaceObservation) -> str:
    return f"total {observation['total']} / {observation['goal']}"


def render_svg(observation: RaceObservation, **options: Any) -> str:
    """A track of ``goal`` cells, those up to the total filled."""
    goal, total = observation["goal"], observation["total"]
    cell = 16
    width = goal * cell + 2
    cells = "".join(
        f'<rect x="{1 + i * cell}" y="1" width="{cell}" height="{cell}" '
        f'fill="{"#c84" if i < total else "#eee"}" stroke="#333"/>'
        for i in range(goal)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{cell + 2}" '
        f'viewBox="0 0 {width} {cell + 2}">{cells}</svg>'
    )
