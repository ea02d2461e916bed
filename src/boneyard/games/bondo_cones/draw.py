"""Bond O Cones as text and as SVG, drawn from an observation dict (standard library only).

Both drawings show exactly what the observation shows: a cone's value where the observation
has one, ``?`` elsewhere; rings as ``+`` (one) and ``#`` (two, a Double BondO) in text, and as red
ellipses round the cone's waist in SVG (a cone is drawn from the side, lit from the left).
Every SVG square carries ``data-square="d4"`` so a web page can
make it clickable, and cones carry ``data-cone``, ``data-seat``, ``data-value`` (empty when
hidden), ``data-rings``, ``data-peeked`` and ``data-spied``. A green dot marks a peeked cone, a
blue dot a spied one; each cone's ``<title>`` says it in words and a legend under the board
explains the marks it shows.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import escape

from boneyard.games.bondo_cones.board import RED_FIELDS, START_FIELDS
from boneyard.games.bondo_cones.notation import (
    HEIGHT,
    INDEX,
    NAMES,
    SQUARES,
    WIDTH,
    cone_token,
    observed_cones,
)
from boneyard.games.bondo_cones.observation import BondoObservation, BondoStatus

SEAT_WORDS = ("black", "white")
_RED = {sq for pair in RED_FIELDS for sq in pair}
_START = (set(START_FIELDS[0]), set(START_FIELDS[1]))


_TASKS = {
    "setup_put": "place a cone",
    "setup_ring": "place the ring",
    "decide": "battle or roll",
    "take": "take a ring",
    "punish": "pick a cone of the loser",
    "act": "act on the die",
}


def status_line(observation: BondoStatus) -> str:
    """One line: the turn, who acts, the die, the scores and the rings' news."""
    phase = observation["phase"]
    scores = observation["scores"]
    parts = [f"turn {observation['turn']}/{observation['max_turns']}"]
    winner = observation["winner"]
    if phase == "over":
        parts.append(f"{SEAT_WORDS[winner]} wins" if isinstance(winner, int) else "draw")
    elif observation["current_player"] == -1:
        parts.append(f"chance ({phase})")
    else:
        task = _TASKS[phase]
        if phase == "setup_put":
            task = f"place its {observation['next_value']}"
        parts.append(f"{SEAT_WORDS[observation['current_player']]} to {task}")
    if observation["die"] is not None:
        parts.append(f"die {observation['die']}")
    parts.append(f"score {scores[0]}-{scores[1]} of {observation['target']}")
    windows = observation["battle_windows"]
    if any(windows):
        parts.append(f"battle windows {windows[0]}/{windows[1]}")
    if observation["set_aside_ring"]:
        parts.append("a ring is set aside")
    return ", ".join(parts)


def render_text(observation: BondoObservation) -> str:
    """The board, rank 12 at the top: ``b8`` black 8, ``w?`` white unknown, ``+``/``#`` rings,
    ``.`` an empty square, ``*`` an empty red field; then a status line."""
    cells = EMPTY_CELLS[:]
    for name, cone in observed_cones(observation).items():
        cells[INDEX[name]] = f"{cone_token(cone['seat'], cone['value'], cone['rings']):<4}"
    lines = board_lines(cells)
    lines.append(status_line(observation))
    return "\n".join(lines)


_FILES = "    " + "".join(f"{chr(ord('a') + f):<4}" for f in range(WIDTH)).rstrip()
_EMPTY = ["*" if sq in _RED else "." for sq in range(SQUARES)]


def board_lines(cells: list[str]) -> list[str]:
    """The board's text lines from one token per square, each padded to 4 characters
    (``EMPTY_CELLS`` holds the empty squares' cells)."""
    lines = [_FILES]
    for rank in range(HEIGHT - 1, -1, -1):
        first = rank * WIDTH
        lines.append(f"{rank + 1:>2}  " + "".join(cells[first : first + WIDTH]).rstrip())
    return lines


EMPTY_CELLS = [f"{cell:<4}" for cell in _EMPTY]


# ----- SVG -------------------------------------------------------------------------------------

SIZE = 40
MARGIN = 22
COLOURS = {
    "square": "#efe4cf",
    "start0": "#d9cdb4",
    "start1": "#e6dcc6",
    "red": "#d9534f",
    "grid": "#8a7a5c",
    "black": "#1f1f1f",
    "white": "#fbfbf7",
    "ring": "#c8102e",
    "highlight": "#f4d03f",
    "path": "#1f6fb2",
    "peek": "#e0a800",
}
"""(A peeked cone's dot is gold: green is the page's mark of where a move may go.)"""


def _centre(square: int, flipped: bool) -> tuple[int, int]:
    file, rank = square % WIDTH, square // WIDTH
    if flipped:
        file, rank = WIDTH - 1 - file, HEIGHT - 1 - rank
    x = MARGIN + file * SIZE + SIZE // 2
    y = MARGIN + (HEIGHT - 1 - rank) * SIZE + SIZE // 2
    return x, y


def render_svg(
    observation: BondoObservation,
    *,
    flipped: bool | None = None,
    highlight: Iterable[str] = (),
    path: Iterable[str] = (),
    show_last_move: bool = True,
) -> str:
    """The board as an SVG document.

    ``flipped`` turns the board so white sits at the bottom (default: when the observation is
    white's); ``highlight`` marks squares; ``path`` draws a line through squares (a BondO walk);
    the last move is marked unless ``show_last_move`` is false.
    """
    if flipped is None:
        flipped = observation.get("seat") == 1
    width = 2 * MARGIN + WIDTH * SIZE
    board_height = 2 * MARGIN + HEIGHT * SIZE
    cones = sorted(observed_cones(observation).items())
    viewer = observation.get("seat")
    legend = _legend(cones, board_height, viewer)
    height = board_height + (22 if legend else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="bondo-cones-board">',
        _DEFS,
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fffdf7"/>',
    ]
    marked = set(highlight)
    last = set(observation.get("last_move") or ()) if show_last_move else set()
    for name, square_svg, mark in _squares(flipped):
        out.append(square_svg)
        if name in marked:
            out.append(mark)
        elif name in last:  # classed, so that a page that marks moves itself can hide it
            out.append(mark.replace("<rect ", '<rect class="last-move" ', 1))
    out.extend(_coordinates(flipped))
    route = [name for name in path]
    if len(route) > 1:
        points = " ".join("{},{}".format(*_centre(INDEX[n], flipped)) for n in route)
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{COLOURS["path"]}" '
            'stroke-width="4" stroke-linecap="round" stroke-linejoin="round" opacity="0.75" '
            'pointer-events="none"/>'
        )
        end_x, end_y = _centre(INDEX[route[-1]], flipped)
        out.append(
            f'<circle cx="{end_x}" cy="{end_y}" r="5" fill="{COLOURS["path"]}" '
            'pointer-events="none"/>'
        )
    for name, cone in cones:
        out.append(
            _cone(
                name,
                cone["seat"],
                cone["value"],
                cone["rings"],
                bool(cone["peeked"]),
                bool(cone["spied"]),
                flipped,
                viewer,
            )
        )
    out.extend(legend)
    out.append("</svg>")
    return "\n".join(out) + "\n"


@functools.lru_cache(maxsize=2)
def _squares(flipped: bool) -> tuple[tuple[str, str, str], ...]:
    """Each square's (name, rect, outline when marked), drawn once for each way up."""
    found = []
    half = SIZE // 2
    for square in range(SQUARES):
        x, y = _centre(square, flipped)
        name = NAMES[square]
        if square in _RED:
            fill, kind = COLOURS["red"], "red-field"
        elif square in _START[0]:
            fill, kind = COLOURS["start0"], "start-field"
        elif square in _START[1]:
            fill, kind = COLOURS["start1"], "start-field"
        else:
            fill, kind = COLOURS["square"], "field"
        rect = (
            f'<rect data-square="{name}" class="{kind}" x="{x - half}" y="{y - half}" '
            f'width="{SIZE}" height="{SIZE}" fill="{fill}" stroke="{COLOURS["grid"]}" '
            'stroke-width="0.5"/>'
        )
        mark = (
            f'<rect x="{x - half + 2}" y="{y - half + 2}" width="{SIZE - 4}" '
            f'height="{SIZE - 4}" fill="none" stroke="{COLOURS["highlight"]}" '
            'stroke-width="3" pointer-events="none"/>'
        )
        found.append((name, rect, mark))
    return tuple(found)


@functools.lru_cache(maxsize=2)
def _coordinates(flipped: bool) -> list[str]:
    labels = []
    style = 'font-family="sans-serif" font-size="11" fill="#5a4c32" text-anchor="middle"'
    for file in range(WIDTH):
        x, _ = _centre(file, flipped)
        bottom = MARGIN + HEIGHT * SIZE + 15
        labels.append(f'<text x="{x}" y="{bottom}" {style}>{chr(ord("a") + file)}</text>')
    for rank in range(HEIGHT):
        _, y = _centre(rank * WIDTH, flipped)
        labels.append(f'<text x="{MARGIN // 2}" y="{y + 4}" {style}>{rank + 1}</text>')
    return labels


_DEFS = (
    "<defs>"
    '<linearGradient id="bondo-black" x1="0" x2="1" y1="0" y2="0">'
    '<stop offset="0" stop-color="#4a4a4a"/><stop offset="0.45" stop-color="#1f1f1f"/>'
    '<stop offset="1" stop-color="#000"/></linearGradient>'
    '<linearGradient id="bondo-white" x1="0" x2="1" y1="0" y2="0">'
    '<stop offset="0" stop-color="#ffffff"/><stop offset="0.5" stop-color="#f3f1ea"/>'
    '<stop offset="1" stop-color="#c9c5b8"/></linearGradient>'
    "</defs>"
)
"""Each colour of cone lit from the left, so a cone reads as a cone, not a disc."""


def _who(seat: int, viewer: int | None) -> str:
    """``seat`` as the subject of a sentence ``viewer`` reads: "you", or "Black"."""
    return "you" if seat == viewer else SEAT_WORDS[seat].capitalize()


def _acts(seats: set[int], viewer: int | None, each: str, verb: str) -> str:
    """Who did ``verb`` to the cones marked so, as ``viewer`` reads it: "you peeked", "White
    peeked", or where both sides did, ``each`` ("owner peeked")."""
    if len(seats) == 1:
        return f"{_who(next(iter(seats)), viewer)} {verb}"
    return each


def _legend(cones: list[tuple[str, dict[str, Any]]], top: int, viewer: int | None) -> list[str]:
    """Under the board, what the drawing's marks mean, for the marks it shows, in words made
    from the viewer's seat (a cone is peeked at by its owner and spied by the other side)."""
    peekers = {cone["seat"] for _, cone in cones if cone["peeked"]}
    spies = {1 - cone["seat"] for _, cone in cones if cone["spied"]}
    shown = [
        ("?", None, "value unknown"),
        ("ring", COLOURS["ring"], "BondO ring"),
        ("peek", COLOURS["peek"], _acts(peekers, viewer, "owner peeked", "peeked")),
        ("spy", COLOURS["path"], _acts(spies, viewer, "rival spied", "spied")),
    ]
    present = {
        "?": any(cone["value"] is None for _, cone in cones),
        "ring": any(cone["rings"] for _, cone in cones),
        "peek": bool(peekers),
        "spy": bool(spies),
    }
    items = [item for item in shown if present[item[0]]]
    if not items:
        return []
    out = ['<g class="legend" pointer-events="none" font-family="sans-serif" font-size="12">']
    x = MARGIN
    y = top + 8
    for key, colour, words in items:
        if key == "?":
            out.append(f'<text x="{x}" y="{y}" font-weight="bold" fill="#1f1f1f">?</text>')
        elif key == "ring":
            out.append(
                f'<ellipse cx="{x + 5}" cy="{y - 4}" rx="6" ry="3" fill="none" '
                f'stroke="{colour}" stroke-width="2.5"/>'
            )
        else:
            out.append(f'<circle cx="{x + 4}" cy="{y - 4}" r="4" fill="{colour}"/>')
        out.append(f'<text x="{x + 14}" y="{y}" fill="#3a3224">{words}</text>')
        x += 14 + 7 * len(words) + 14
    out.append("</g>")
    return out


@functools.lru_cache(maxsize=4096)
def _cone(
    name: str,
    seat: int,
    value: int | None,
    rings: int,
    peeked: bool,
    spied: bool,
    flipped: bool,
    viewer: int | None = None,
) -> str:
    """A cone seen from the side: its value (or "?") on its front, its rings at its foot
    (cached: most cones are drawn as they were on the move before). Its title says who peeked
    at it (its owner) or spied it (the other side) as ``viewer`` reads it."""
    square = INDEX[name]
    x, y = _centre(square, flipped)
    body, ink = ("url(#bondo-black)", "#ffffff") if seat == 0 else ("url(#bondo-white)", "#1f1f1f")
    edge = "#000" if seat == 0 else "#6b6457"
    shown = "?" if value is None else str(value)
    words = [SEAT_WORDS[seat], "cone", name, "value unknown" if value is None else f"value {shown}"]
    if rings:
        words.append("with a Double BondO" if rings == 2 else "with the BondO ring")
    if peeked:
        words.append(f"{_who(seat, viewer)} peeked at it")
    if spied:
        words.append(f"{_who(1 - seat, viewer)} spied it")
    data_value = "" if value is None else str(value)
    parts = [
        f'<g data-cone="{name}" data-seat="{seat}" data-value="{data_value}" '
        f'data-rings="{rings}" data-peeked="{int(peeked)}" '
        f'data-spied="{int(spied)}" class="cone">',
        f"<title>{escape(', '.join(words))}</title>",
        f'<ellipse cx="{x + 2}" cy="{y + 15}" rx="14" ry="3.5" fill="#000" fill-opacity="0.25"/>',
        f'<path d="M{x - 13} {y + 13}L{x - 2} {y - 16}Q{x} {y - 18} {x + 2} {y - 16}'
        f'L{x + 13} {y + 13}Q{x} {y + 18} {x - 13} {y + 13}Z" fill="{body}" stroke="{edge}" '
        'stroke-width="1"/>',
    ]
    for ring in range(rings):  # a ring dropped over a cone lies at its foot
        ring_y = y + 13 - 5 * ring
        half = 15 - 2.5 * ring
        parts.append(
            f'<ellipse cx="{x}" cy="{ring_y:g}" rx="{half:g}" ry="3.5" fill="none" '
            f'stroke="{COLOURS["ring"]}" stroke-width="2.8"/>'
        )
    parts.append(
        f'<text x="{x}" y="{y + 7}" font-family="sans-serif" font-size="12" '
        f'font-weight="bold" fill="{ink}" text-anchor="middle">{shown}</text>'
    )
    if spied:
        parts.append(f'<circle cx="{x + 13}" cy="{y - 13}" r="4" fill="{COLOURS["path"]}"/>')
    if peeked:
        parts.append(
            f'<circle cx="{x - 13}" cy="{y - 13}" r="4" fill="{COLOURS["peek"]}" '
            'stroke="#5a4300" stroke-width="0.8"/>'
        )
    parts.append("</g>")
    return "\n".join(parts)


_PIPS = {
    1: ((20, 20),),
    2: ((12, 12), (28, 28)),
    3: ((11, 11), (20, 20), (29, 29)),
    4: ((12, 12), (28, 12), (12, 28), (28, 28)),
}


def die_svg(face: str) -> str:
    """A small picture of the die showing ``face`` (``"1"`` .. ``"4"``, ``"eye"``, ``"ring"``)."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40" height="40" '
        f'role="img" aria-label="die: {face}">',
        '<rect x="1" y="1" width="38" height="38" rx="7" fill="#fffdf5" stroke="#333" '
        'stroke-width="2"/>',
    ]
    if face.isdigit():
        parts += [f'<circle cx="{x}" cy="{y}" r="4" fill="#222"/>' for x, y in _PIPS[int(face)]]
    elif face == "eye":
        parts.append(
            '<path d="M7 20 Q20 8 33 20 Q20 32 7 20 Z" fill="none" stroke="#222" '
            'stroke-width="2.5"/>'
        )
        parts.append('<circle cx="20" cy="20" r="4.5" fill="#222"/>')
    else:
        parts.append(
            '<circle cx="20" cy="20" r="10" fill="none" stroke="#c0392b" stroke-width="4"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
