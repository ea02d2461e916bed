"""Bon-Bon as text and SVG, drawn from an observation dict (standard library only).

Cards read left to right as they were played. In text a face-up card is its label (``3``,
``4!``, ``wrapper``), a face-down card is in brackets, ``[2]`` when the viewer knows it and
``[?]`` when not. The SVG marks every card with ``data-seat`` and ``data-card`` (its position in
the run) and every seat's row with ``data-seat``, so an interface can make them clickable.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from boneyard.games.bonbon.observation import (
    BonBonObservation,
    CardView,
    DrawnView,
    PeekView,
)


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


CARD_W, CARD_H, GAP = 42, 58, 4
LEFT, TOP, NARROWEST = 10, 104, 360
ROW_HEAD = 46
"""A seat's row is its name, a line of its state, then its cards underneath, as many lines of
cards as its run needs: the picture stays as narrow as a phone, so a page need not shrink it
(shrunk text would be raised again and run into its neighbours). The line of its state ends
at 36; a card just drawn is lifted 4 in a frame 3 wide, so the cards start 46 down."""
INK, MARK, TRACK = "#3b2314", "#c0392b", "#e8c9a0"
CARD_FACE, CARD_EDGE, CARD_BACK, BACK_LINE = "#fbf1dc", "#7a4a2a", "#5a3320", "#8d5b3b"
CHOCOLATE, CHOCOLATE_SHINE = "#6b3e26", "#a0694a"
SEAT_COLOURS = ("#c0392b", "#2e6fb0", "#2e8b57", "#d4a017", "#7d3c98", "#e67e22")

EFFECT_WORDS = {
    "wrapper": ("empty", "wrapper"),
    "peek": ("peek",),
    "second": ("second", "helping"),
    "gift": ("gift",),
    "caught": ("caught!",),
}
"""What each effect card says on its face, a line a word or two."""

EFFECT_NAMES = {
    "wrapper": "an empty wrapper",
    "peek": "a peek",
    "second": "a second helping",
    "gift": "a gift",
    "caught": "a caught! card",
}

EFFECT_RULES = {
    "wrapper": "turns your face-down cards face up, back to your last face-up card",
    "peek": "you see the top card of the deck",
    "second": "you take another card at once",
    "gift": "goes face up at the end of another player's run",
    "caught": "another player turns face up its face-down cards after its last face-up card",
}


def card_words(label: str | None) -> str:
    """A card in words, for a sentence: "a 3", "a face-up-only 5", "an empty wrapper"."""
    if label is None:
        return "a card"
    if label in EFFECT_NAMES:
        return EFFECT_NAMES[label]
    value = label.rstrip("!")
    article = "an" if value in ("8", "11", "18") else "a"
    return f"a face-up-only {value}" if label.endswith("!") else f"{article} {value}"


def _card_title(label: str | None, value: int | None, up: bool, mine: bool) -> str:
    face = "face up" if up else "face down"
    if label is None:
        return f"a chocolate card, {face}, its value unknown to you"
    if label in EFFECT_RULES:
        what = f"{EFFECT_NAMES[label][2:]}, worth {value}: {EFFECT_RULES[label]}"
    elif label.endswith("!"):
        what = f"a chocolate worth {value}, played face up only"
    else:
        what = f"a chocolate worth {value}"
    known = " (you know it)" if mine and not up else ""
    return f"{what}; {face}{known}"


def _svg_heading(observation: BonBonObservation, names: Sequence[str]) -> str:
    """The picture's heading for people: the round and who plays, or who won."""
    head = f"Round {observation['round']}"
    if observation["phase"] == "over":
        winners = " and ".join(names[s].capitalize() for s in observation["winners"]) or "nobody"
        return f"Game over, won by {winners}"
    if observation["turn"] is None:
        return head
    return f"{head}: {names[observation['turn']].capitalize()} to play"


def _lines_of_cards(count: int, width: int) -> int:
    per_line = max(1, (width - 2 * LEFT + GAP) // (CARD_W + GAP))
    return -(-count // per_line)


def render_svg(observation: BonBonObservation, **options: Any) -> str:
    """The round in progress as an SVG document (options: ``width`` in pixels); players are
    named as the game names its seats.

    Cards look like the table's: a face-up card shows its value, a chocolate and its effect in
    words; a face-down card shows its back, with its value in a corner where this seat knows it.
    Every card, tile and the track carry a ``<title>`` that says what they mean.
    """
    from boneyard.games.bonbon.rules import BonBonGame

    names = BonBonGame.seat_names
    runs = observation["runs"]
    width = int(options.get("width", NARROWEST))
    # Each row keeps room for one more card, the one its seat may draw: a card drawn moves
    # nothing else on the table (and the page is sent only what changed).
    rows = [ROW_HEAD + _lines_of_cards(len(run) + 1, width) * (CARD_H + 6) + 8 for run in runs]
    notes = _notes(observation, names)
    height = TOP + sum(rows) + 18 * len(notes) + 6
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        _DEFS,
        f'<rect width="{width}" height="{height}" fill="#fffaf0"/>',
        f'<text x="10" y="20" font-size="15" font-weight="bold" fill="{INK}">'
        f"{escape(_svg_heading(observation, names))}</text>",
    ]
    out += _track(observation, width)
    out += _tile_marks(observation)
    y = TOP
    for seat, run in enumerate(runs):
        out += _row(observation, seat, run, names[seat], y, width)
        y += rows[seat]
    for note in notes:
        y += 18
        out.append(f'<text x="10" y="{y - 4}" fill="{INK}">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _notes(observation: BonBonObservation, names: Sequence[str]) -> list[str]:
    """The card in play and the peek, in words, and what is left of the deck."""
    notes = []
    drawn = observation["drawn"]
    if drawn is not None:
        notes.append(f"{names[drawn['by']].capitalize()} drew {card_words(drawn['card'])}.")
    peek = observation["peek"]
    if peek is not None:
        who = names[peek["by"]].capitalize()
        notes.append(f"{who} peeked at the top card: {card_words(peek['card'])}.")
    left = observation["deck_left"]
    notes.append(f"{left} card{'' if left == 1 else 's'} left in the deck.")
    return notes


def _track(observation: BonBonObservation, width: int) -> list[str]:
    """The collective limit track: one space per point up to the limit, then the red limit
    line, and the marker (a chocolate) on the space the face-up cards have reached. It is
    labelled as the prompt and the panel name it for players: the shared marker."""
    limit = observation["collective_limit"]
    marker = observation["marker"]
    # The track starts far enough in for the marker at zero, left of its first space, to show
    # whole (a circle at the drawing's edge was cut in half).
    x0, x1, y = 22, width - 30, 46
    step = (x1 - x0) / limit
    title = (
        f"shared marker: everyone's face-up cards may total at most {limit}; they total {marker}"
    )
    out = [
        f'<g data-track="collective"><title>{escape(title)}</title>'
        f'<text x="10" y="{y - 6}" fill="{INK}">Shared marker: {marker} of {limit}</text>',
        f'<rect x="{x0 - 3}" y="{y - 3}" width="{x1 - x0 + 4:.1f}" height="24" rx="5" '
        f'fill="#7a4a2a"/>',
    ]
    for value in range(1, limit + 1):
        x = x0 + (value - 1) * step
        fill = TRACK if value <= marker else "#fff6e6"
        out.append(
            f'<rect x="{x:.1f}" y="{y}" width="{step - 2:.1f}" height="18" rx="2" '
            f'fill="{fill}" data-value="{value}"/>'
        )
    x = x0 + limit * step
    out.append(
        f'<line x1="{x:.1f}" y1="{y - 6}" x2="{x:.1f}" y2="{y + 24}" stroke="{MARK}" '
        f'stroke-width="3"/><text x="{x + 4:.1f}" y="{y + 14}" fill="{MARK}" '
        f'font-weight="bold">{limit}</text>'
    )
    cx = x0 - 2 + (min(marker, limit + 1) - 0.5) * step if marker else x0 - 4
    out.append(
        f'<circle cx="{cx:.1f}" cy="{y + 9}" r="8" fill="{CHOCOLATE}" stroke="#fff6e6" '
        f'stroke-width="1.5" data-marker="{marker}"/></g>'
    )
    return out


def _tile_marks(observation: BonBonObservation) -> list[str]:
    """The passing bonus tiles face up on the table; once taken, the rest are set aside."""
    open_ = observation["tiles_open"]
    out = [f'<text x="10" y="90" fill="{INK}">Passing bonus tiles</text>']
    for i, value in enumerate(observation["tiles"]):
        x = 140 + i * 36
        state = "for the first player to pass" if open_ else "set aside: one was taken"
        title = f"passing bonus tile: {value} point{'' if value == 1 else 's'}, {state}"
        opacity = "" if open_ else ' opacity="0.4"'
        out.append(
            f'<g data-tile="{value}"{opacity}><title>{escape(title)}</title>'
            f'<rect x="{x}" y="72" width="30" height="26" rx="4" fill="#f1c40f" '
            f'stroke="{INK}"/><text x="{x + 15}" y="90" text-anchor="middle" '
            f'font-weight="bold" fill="{INK}">+{value}</text></g>'
        )
    return out


@functools.lru_cache(maxsize=256)
def _card_face(label: str | None, value: int | None, up: bool, mine: bool) -> str:
    """One card's picture at (0, 0), its title first (a card's look depends only on these)."""
    title = f"<title>{escape(_card_title(label, value, up, mine))}</title>"
    edge = f'width="{CARD_W}" height="{CARD_H}" rx="5"'
    if not up:
        back = (
            f'<rect {edge} fill="{CARD_BACK}" stroke="{CARD_EDGE}"/>'
            f'<rect x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="3" '
            f'fill="url(#bonbon-back)" stroke="{BACK_LINE}"/>'
        )
        if label is None:
            return (
                f'{title}{back}<text x="{CARD_W / 2:g}" y="{CARD_H / 2 + 7:g}" '
                f'text-anchor="middle" font-size="20" font-weight="bold" fill="#fdf2e0">?</text>'
            )
        shown = str(value) if label not in EFFECT_WORDS else EFFECT_WORDS[label][0]
        return (
            f'{title}{back}<rect x="5" y="{CARD_H - 22}" width="{CARD_W - 10}" height="17" '
            f'rx="3" fill="#fdf2e0"/><text x="{CARD_W / 2:g}" y="{CARD_H - 9}" '
            f'text-anchor="middle" font-size="12" font-weight="bold" fill="{INK}"'
            f"{_fit(shown, CARD_W - 12, 12)}>{escape(shown)}</text>"
        )
    parts = [
        title,
        f'<rect {edge} fill="{CARD_FACE}" stroke="{CARD_EDGE}" stroke-width="1.5"/>',
        f'<text x="5" y="18" font-size="17" font-weight="bold" fill="{INK}">{value}</text>',
    ]
    words: tuple[str, ...] = ()
    if label in EFFECT_WORDS:
        words = EFFECT_WORDS[label]
    elif label is not None and label.endswith("!"):
        words = ("face up!",)
    if not words:  # a plain chocolate: the chocolate itself, large
        parts.append('<use href="#bonbon-chocolate" transform="translate(9 24) scale(1.5)"/>')
    elif label == "wrapper":
        parts.append(
            '<path d="M23 8L37 8L34 14L37 20L23 20L26 14Z" fill="none" '
            f'stroke="{CHOCOLATE}" stroke-width="1.5"/>'
        )
    else:
        parts.append('<use href="#bonbon-chocolate" x="22" y="6"/>')
    line_y = CARD_H - 8 - 13 * (len(words) - 1)
    ink = MARK if words == ("face up!",) else INK
    for word in words:
        parts.append(
            f'<text x="{CARD_W / 2:g}" y="{line_y}" text-anchor="middle" font-size="11" '
            f'fill="{ink}"{_fit(word, CARD_W - 6, 11)}>{escape(word)}</text>'
        )
        line_y += 13
    return "".join(parts)


def _fit(word: str, room: float, font: int) -> str:
    """Squeeze a word that would be wider than ``room`` (a page may raise small text)."""
    if len(word) * font * 0.58 <= room:
        return ""
    return f' textLength="{room:g}" lengthAdjust="spacingAndGlyphs"'


_DEFS = (
    "<defs>"
    '<pattern id="bonbon-back" width="8" height="8" patternUnits="userSpaceOnUse">'
    f'<rect width="8" height="8" fill="{CARD_BACK}"/>'
    f'<path d="M0 8L8 0" stroke="{BACK_LINE}" stroke-width="1.5"/></pattern>'
    '<g id="bonbon-chocolate">'
    f'<rect width="16" height="14" rx="4" fill="{CHOCOLATE}"/>'
    f'<path d="M4 4Q8 1 12 4" fill="none" stroke="{CHOCOLATE_SHINE}" stroke-width="1.5"/></g>'
    "</defs>"
)


def _row(
    observation: BonBonObservation,
    seat: int,
    run: list[CardView],
    name: str,
    y: int,
    width: int,
) -> list[str]:
    status = observation["status"][seat]
    taken = observation["tile_taken"][seat]
    fade = ' opacity="0.5"' if status == "eliminated" else ""
    mine = " (you)" if observation["seat"] == seat else ""
    wins = observation["wins"][seat]
    values = observation["values"]
    state = (
        f"{status}, {wins} round{'' if wins == 1 else 's'} won, face up "
        f"{observation['up_totals'][seat]} of {observation['personal_limits'][seat]}"
        f"{'' if taken is None else f', bonus +{taken}'}"
    )
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    out = [
        f'<g data-seat="{seat}"{fade}>',
        f'<circle cx="16" cy="{y + 11}" r="6" fill="{colour}"/>',
        f'<text x="27" y="{y + 16}" font-weight="bold" fill="{INK}">'
        f"{escape(name.capitalize())}{mine}</text>",
        f'<text x="10" y="{y + 33}" fill="{INK}">{escape(state)}</text>',
    ]
    per_line = max(1, (width - 2 * LEFT + GAP) // (CARD_W + GAP))

    def place(index: int) -> tuple[int, int]:
        x = LEFT + (index % per_line) * (CARD_W + GAP)
        return x, y + ROW_HEAD + (index // per_line) * (CARD_H + 6)

    for index, card in enumerate(run):
        x, top = place(index)
        label = card["card"]
        face = "up" if card["up"] else "down"
        value = None if label is None else values.get(label)
        picture = _card_face(label, value, card["up"], observation["seat"] == seat)
        out.append(
            f'<g data-seat="{seat}" data-card="{index}" data-face="{face}" '
            f'data-kind="{escape(_label(card))}" transform="translate({x},{top})">'
            f"{picture}</g>"
        )
    drawn = observation["drawn"]
    if drawn is not None and drawn["by"] == seat:
        out.append(_drawn_card(observation, drawn, name, *place(len(run))))
    out.append("</g>")
    return out


def _drawn_card(
    observation: BonBonObservation, drawn: DrawnView, name: str, x: int, top: int
) -> str:
    """The card just drawn, in the hand of its drawer at the end of their run (lifted, in a
    dashed frame) until they play it: a card dealt on the table, not only words in a panel."""
    label = drawn["card"]
    value = None if label is None else observation["values"].get(label)
    # the card's own title (what it is) gives way to one that says whose hand it is in
    picture = _card_face(label, value, label is not None, False).split("</title>", 1)[1]
    what = card_words(label) if label is None else _card_title(label, value, True, False)
    title = f"{name.capitalize()} drew {what.split(';')[0]}: it goes on the end of the run next"
    return (
        f'<g data-seat="{drawn["by"]}" data-card="drawn" data-face="in-hand" '
        f'data-kind="{escape(_label(drawn))}" class="drawn-card" '
        f'transform="translate({x},{top - 4})"><title>{escape(title)}</title>'
        f'<rect x="-3" y="-3" width="{CARD_W + 6}" height="{CARD_H + 6}" rx="7" fill="none" '
        f'stroke="{MARK}" stroke-width="2" stroke-dasharray="5 3"/>{picture}</g>'
    )
