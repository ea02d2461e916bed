"""Bon-Bon as text and SVG, drawn from an observation dict (standard library only).

Cards read left to right as they were played. In text a face-up card is its label (``3``,
``4!``, ``wrapper``), a face-down card is in brackets, ``[2]`` when the viewer knows it and
``[?]`` when not. The SVG marks every card with ``data-seat`` and ``data-card`` (its position in
the run) and every seat's row with ``data-seat``, so an interface can make them clickable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from boneyard.games.bonbon.observation import (
    BonBonObservation,
    CardView,
    DrawnView,
    PeekView,
)

SHORT = {"wrapper": "W", "peek": "P", "second": "2x", "gift": "G", "caught": "C!"}


def _label(card: CardView | DrawnView | PeekView) -> str:
    label = card["card"]
    return "?" if label is None else str(label)


def _heading(observation: BonBonObservation) -> str:
    phase = observation["phase"]
    head = f"Bon-Bon, round {observation['round']} of at most {observation['max_rounds']}"
    if phase == "over":
        winners = ", ".join(str(s) for s in observation["winners"])
        return f"{head}: game over, won by seat {winners}"
    if observation["current_player"] == -1:
        return f"{head}: chance ({phase})"
    return f"{head}: seat {observation['turn']} to play ({phase})"


def _tiles(observation: BonBonObservation) -> str:
    tiles = " ".join(str(t) for t in observation["tiles"]) or "-"
    return f"{tiles} ({'open' if observation['tiles_open'] else 'taken'})"


def render_text(observation: BonBonObservation) -> str:
    """The round in progress as lines of text."""
    lines = [
        _heading(observation),
        f"collective {observation['marker']}/{observation['collective_limit']}  "
        f"deck {observation['deck_left']}  tiles {_tiles(observation)}",
    ]
    for seat, run in enumerate(observation["runs"]):
        taken = observation["tile_taken"][seat]
        cards = " ".join(_label(c) if c["up"] else f"[{_label(c)}]" for c in run) or "-"
        lines.append(
            f"seat {seat}: {observation['status'][seat]}, wins {observation['wins'][seat]}, "
            f"up {observation['up_totals'][seat]}/{observation['personal_limits'][seat]}, "
            f"tile {'-' if taken is None else taken}: {cards}"
        )
    drawn = observation["drawn"]
    if drawn is not None:
        lines.append(f"drawn by seat {drawn['by']}: {_label(drawn)}")
    peek = observation["peek"]
    if peek is not None:
        lines.append(f"seat {peek['by']} peeked at the top card: {_label(peek)}")
    last = observation["last_round"]
    if observation["round"] > 1 or observation["phase"] == "over":
        scores = ", ".join("out" if s is None else str(s) for s in last["scores"])
        winners = ", ".join(str(s) for s in last["winners"]) or "nobody"
        lines.append(f"last round: scores {scores}; won by {winners}")
    return "\n".join(lines)


CARD_W, CARD_H, GAP = 30, 42, 4
LEFT, ROW_H, TOP, NARROWEST = 10, 96, 96, 360
"""A seat's row is its name, a line of its state, then its cards underneath: the picture stays
about as narrow as a phone, so a page need not raise its text to read it (raised text would
run into the next line)."""
INK, UP_FILL, DOWN_FILL, MARK = "#3b2314", "#f6e7c8", "#6b3e26", "#c0392b"


def _svg_heading(observation: BonBonObservation, names: Sequence[str]) -> str:
    """The picture's heading for people: the round and who plays, or who won."""
    head = f"Round {observation['round']} of at most {observation['max_rounds']}"
    if observation["phase"] == "over":
        winners = " and ".join(names[s] for s in observation["winners"]) or "nobody"
        return f"Game over, won by {winners}"
    if observation["turn"] is None:
        return head
    return f"{head}: {names[observation['turn']]} to play"


def render_svg(observation: BonBonObservation, **options: Any) -> str:
    """The round in progress as an SVG document (options: ``width`` in pixels); players are
    named as the game names its seats."""
    from boneyard.games.bonbon.rules import BonBonGame

    names = BonBonGame.seat_names
    runs = observation["runs"]
    longest = max((len(run) for run in runs), default=0)
    width = int(options.get("width", max(NARROWEST, LEFT + longest * (CARD_W + GAP) + 20)))
    height = TOP + ROW_H * len(runs) + 36
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="#fffaf0"/>',
        f'<text x="10" y="22" font-size="15" fill="{INK}">'
        f"{escape(_svg_heading(observation, names))}</text>",
    ]
    out += _track(observation, width)
    out += _tile_marks(observation)
    for seat, run in enumerate(runs):
        out += _row(observation, seat, run, names[seat])
    y = TOP + ROW_H * len(runs) + 20
    notes = []
    drawn = observation["drawn"]
    if drawn is not None:
        notes.append(f"{names[drawn['by']]} drew: {_label(drawn)}")
    peek = observation["peek"]
    if peek is not None:
        notes.append(f"{names[peek['by']]} peeked at the top card: {_label(peek)}")
    notes.append(f"{observation['deck_left']} cards left")
    out.append(f'<text x="10" y="{y}" fill="{INK}">{escape("; ".join(notes))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _track(observation: BonBonObservation, width: int) -> list[str]:
    """The collective track: one cell per point up to the limit, the marker on its cell."""
    limit = observation["collective_limit"]
    marker = observation["marker"]
    x0, x1, y = 10, width - 30, 44
    step = (x1 - x0) / limit
    out = [
        f'<g data-track="collective"><text x="{x0}" y="{y - 4}" fill="{INK}">'
        f"collective limit: {marker} of {limit}</text>"
    ]
    for value in range(1, limit + 1):
        x = x0 + (value - 1) * step
        fill = "#e8c9a0" if value <= marker else "#ffffff"
        out.append(
            f'<rect x="{x:.1f}" y="{y}" width="{step - 2:.1f}" height="16" fill="{fill}" '
            f'stroke="{INK}" stroke-width="0.5" data-value="{value}"/>'
        )
    x = x0 + limit * step
    out.append(
        f'<line x1="{x:.1f}" y1="{y - 4}" x2="{x:.1f}" y2="{y + 20}" stroke="{MARK}" '
        'stroke-width="2"/>'
    )
    cx = x0 - 2 + (min(marker, limit + 1) - 0.5) * step if marker else x0 - 4
    out.append(
        f'<circle cx="{cx:.1f}" cy="{y + 8}" r="6" fill="{MARK}" data-marker="{marker}"/></g>'
    )
    return out


def _tile_marks(observation: BonBonObservation) -> list[str]:
    out = [f'<text x="10" y="82" fill="{INK}">bonus tiles</text>']
    opacity = "1" if observation["tiles_open"] else "0.35"
    for i, value in enumerate(observation["tiles"]):
        cx = 112 + i * 28
        out.append(
            f'<g data-tile="{value}" opacity="{opacity}"><circle cx="{cx}" cy="77" r="11" '
            f'fill="#f1c40f" stroke="{INK}"/><text x="{cx}" y="82" text-anchor="middle" '
            f'fill="{INK}">{value}</text></g>'
        )
    return out


def _row(observation: BonBonObservation, seat: int, run: list[CardView], name: str) -> list[str]:
    y = TOP + seat * ROW_H
    status = observation["status"][seat]
    taken = observation["tile_taken"][seat]
    fade = ' opacity="0.5"' if status == "eliminated" else ""
    mine = " (you)" if observation["seat"] == seat else ""
    wins = observation["wins"][seat]
    out = [
        f'<g data-seat="{seat}"{fade}>',
        f'<text x="10" y="{y + 16}" font-weight="bold" fill="{INK}">'
        f"{escape(name.capitalize())}{mine}</text>",
        f'<text x="10" y="{y + 34}" fill="{INK}">{escape(status)}, '
        f"{wins} round{'' if wins == 1 else 's'} won, face up {observation['up_totals'][seat]} of "
        f"{observation['personal_limits'][seat]}"
        f"{'' if taken is None else f', tile {taken}'}</text>",
    ]
    y += 42  # the cards, under the name and the state
    for index, card in enumerate(run):
        x = LEFT + index * (CARD_W + GAP)
        label = _label(card)
        shown = SHORT.get(label, label)
        fill, ink = (UP_FILL, INK) if card["up"] else (DOWN_FILL, "#fdf2e0")
        face = "up" if card["up"] else "down"
        out.append(
            f'<g data-seat="{seat}" data-card="{index}" data-face="{face}" '
            f'data-kind="{escape(label)}"><rect x="{x}" y="{y + 6}" width="{CARD_W}" '
            f'height="{CARD_H}" rx="4" fill="{fill}" stroke="{INK}"/>'
            f'<text x="{x + CARD_W / 2:.0f}" y="{y + 32}" text-anchor="middle" '
            f'fill="{ink}">{escape(shown)}</text></g>'
        )
    out.append("</g>")
    return out
