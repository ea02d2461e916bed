"""Drawing an Obonto board from an observation dict: plain text and SVG (standard library only).

Both read only the observation (``ObontoState.observation``), so they show what a seat may see.
"""

from __future__ import annotations

import functools
from xml.sax.saxutils import escape

from boneyard.games.obonto.notation import KINDS, LETTERS, SIZE
from boneyard.games.obonto.observation import ObontoObservation

FILES = "abcdefghi"


def _board_cells(observation: ObontoObservation) -> dict[str, str]:
    """Square name -> one character: '.' light, '#' dark, or an animal letter."""
    cells = {f"{file}{rank}": "." for file in FILES for rank in range(1, SIZE + 1)}
    for name in observation["dark"]:
        cells[name] = "#"
    for seat, animals in enumerate(observation["animals"]):
        for kind, square in animals.items():
            cells[square] = LETTERS[seat][KINDS.index(kind)]
    return cells


def status_line(observation: ObontoObservation) -> str:
    """One line: which game, whose turn or the result, the totals."""
    game = f"game {observation['game']} of {observation['games']}"
    totals = observation["totals"]
    phase = observation["phase"]
    if phase == "over":
        if totals[0] == totals[1]:
            verdict = "match over, tied"
        else:
            verdict = f"match over, seat {0 if totals[0] > totals[1] else 1} wins"
        now = verdict
    elif phase == "solo":
        now = (
            f"seat {observation['loser']} is stuck; seat {observation['to_move']} moves alone "
            f"(solo moves {observation['solo_moves']})"
        )
    else:
        now = f"seat {observation['to_move']} to move"
    target = f", target {observation['target']}" if observation["target"] else ""
    return f"{game}{target} | {now} | totals {totals[0]}-{totals[1]}"


def render_text(observation: ObontoObservation) -> str:
    """The board as plain text, rank 9 at the top; ``#`` dark, ``.`` light, ``LZC``/``lzc``."""
    cells = _board_cells(observation)
    files = "   " + " ".join(FILES)
    lines = [files]
    for rank in range(SIZE, 0, -1):
        row = " ".join(cells[f"{file}{rank}"] for file in FILES)
        lines.append(f"{rank}  {row}  {rank}")
    lines.append(files)
    lines.append(status_line(observation))
    return "\n".join(lines)


_COLOURS = {
    "felt": "#6b4226",
    "label": "#f3e3c0",
    "light": ("#ead39f", "#b48a52"),
    "dark": ("#3a2313", "#1e120a"),
    "highlight": "#e8412c",
    "seat0": ("#f7f0e1", "#2a1a0e"),
    "seat1": ("#262626", "#f4efe6"),
}
"""Felt, tiles (face, rim), the last move's outline, and each seat's (token, emblem) colours."""

# The animals as silhouettes in a 100 x 100 box, drawn in the emblem's colour (``fill``); parts
# in ``currentColor`` take the token's colour. A lion is a face in a mane, a zebra a striped
# horse's head, a camel a body with two humps: told apart by shape, not by a letter.
_EMBLEMS = {
    "lion": (
        '<polygon points="{mane}"/>'
        '<circle cx="30" cy="30" r="9" fill="currentColor"/>'
        '<circle cx="70" cy="30" r="9" fill="currentColor"/>'
        '<circle cx="50" cy="53" r="25" fill="currentColor"/>'
        '<circle cx="41" cy="48" r="4"/><circle cx="59" cy="48" r="4"/>'
        '<path d="M43 58H57L50 66Z"/>'
        '<path d="M50 66V70Q45 75 40 71M50 70Q55 75 60 71" fill="none" stroke-width="3"/>'
    ),
    "zebra": (
        '<path d="M50 6L58 24C74 28 86 44 88 60L90 95H56C54 80 48 72 40 72L22 80'
        'C10 82 6 70 13 63L38 32Z"/>'
        '<g fill="none" stroke="currentColor" stroke-width="5" stroke-linecap="round">'
        '<path d="M60 38L82 48M58 52L86 62M57 66L88 76M57 80L88 88M34 44L44 52M26 54L38 62"/>'
        "</g>"
        '<circle cx="45" cy="40" r="4" fill="currentColor"/>'
        '<path d="M58 24L66 10L68 28Z"/>'
    ),
    "camel": (
        '<path d="M8 52C8 42 16 40 20 38C24 18 38 16 42 34C46 20 58 20 61 36C65 41 68 39 72 30'
        "L76 19C79 13 89 13 93 18L95 25L85 27L81 35C79 46 77 54 75 59L75 92H68L68 64H58"
        'L32 64L30 92H23L22 62C14 60 9 57 8 52Z"/>'
        '<path d="M9 50L4 66" fill="none" stroke-width="3"/>'
    ),
}


def _mane() -> str:
    """The lion's mane: a 20-pointed star round its face."""
    import math

    points = []
    for index in range(40):
        radius = 48 if index % 2 == 0 else 37
        angle = math.pi * index / 20
        points.append(f"{50 + radius * math.sin(angle):.1f},{52 - radius * math.cos(angle):.1f}")
    return " ".join(points)


@functools.lru_cache(maxsize=64)
def _defs(size: int) -> str:
    """The shared shapes: both sides of an octagon tile (sized to a square), and the emblems."""
    cut = size * 0.29
    inset = size * 0.06

    def octagon(margin: float) -> str:
        low, high = margin, size - margin
        corner = cut - margin * 0.41
        return " ".join(
            f"{x:.1f},{y:.1f}"
            for x, y in (
                (low + corner, low),
                (high - corner, low),
                (high, low + corner),
                (high, high - corner),
                (high - corner, high),
                (low + corner, high),
                (low, high - corner),
                (low, low + corner),
            )
        )

    tiles = []
    for side in ("light", "dark"):
        face, rim = _COLOURS[side]
        tiles.append(
            f'<g id="obonto-{side}"><polygon points="{octagon(1)}" fill="{rim}"/>'
            f'<polygon points="{octagon(1 + inset)}" fill="{face}"/></g>'
        )
    symbols = "".join(
        f'<symbol id="obonto-{kind}" viewBox="0 0 100 100">'
        f"{shape.replace('{mane}', _mane())}</symbol>"
        for kind, shape in _EMBLEMS.items()
    )
    return f"<defs>{''.join(tiles)}{symbols}</defs>"


@functools.lru_cache(maxsize=64)
def _board_layer(size: int, margin: int, flipped: bool) -> dict[str, tuple[str, str]]:
    """Square name -> (the light tile and its square, the dark ones), drawn once per layout.

    The tile comes first and the transparent square over it, so a mark a page puts right after
    a square lies over the tile but under the animals, which are drawn last.
    """
    layer = {}
    for file in FILES:
        for rank in range(1, SIZE + 1):
            name = f"{file}{rank}"
            x, y = _corner(name, size, margin, flipped)
            drawn = []
            for shade, title in (("light", ""), ("dark", "<title>turned over</title>")):
                drawn.append(
                    f'<use href="#obonto-{shade}" x="{x}" y="{y}"/>'
                    f'<rect x="{x}" y="{y}" width="{size}" height="{size}" '
                    f'class="square {shade}" data-square="{name}" fill="#000" '
                    f'fill-opacity="0">{title}</rect>'
                )
            layer[name] = (drawn[0], drawn[1])
    return layer


def _corner(name: str, size: int, margin: int, flipped: bool) -> tuple[int, int]:
    file, rank = FILES.index(name[0]), int(name[1:]) - 1
    column, row = (SIZE - 1 - file, rank) if flipped else (file, SIZE - 1 - rank)
    return margin + column * size, margin + row * size


def render_svg(
    observation: ObontoObservation,
    *,
    size: int = 40,
    highlight: bool = True,
    flipped: bool | None = None,
    coordinates: bool = True,
    names: tuple[str, ...] = ("South", "North"),
) -> str:
    """The board as an SVG document: octagon tiles on brown felt, light or turned dark side up,
    and the animals as tokens with a lion's, a zebra's or a camel's silhouette.

    Every square is a transparent ``<rect>`` over its tile with ``data-square`` (and the class
    ``light`` or ``dark``), every animal a ``<g>`` with ``data-square``, ``data-seat`` and
    ``data-animal``, so a web page can make them clickable. ``highlight`` outlines the last
    move's squares; ``flipped`` shows the board from seat 1's side (default: when the
    observation is seat 1's, so that each seat sees its own start row at the bottom);
    ``coordinates`` adds the file letters and rank numbers; ``names`` are the seats' names in
    each animal's tooltip ("North's zebra").
    """
    if flipped is None:
        flipped = observation.get("seat") == 1
    margin = size // 2 if coordinates else 0
    width = SIZE * size + 2 * margin
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
        f'viewBox="0 0 {width} {width}" class="obonto-board">',
        _defs(size),
        f'<rect x="0" y="0" width="{width}" height="{width}" rx="{size * 0.2:g}" '
        f'fill="{_COLOURS["felt"]}"/>',
    ]
    layer = _board_layer(size, margin, flipped)
    dark = set(observation["dark"])
    parts.extend(tiles[name in dark] for name, tiles in layer.items())
    last = observation.get("last_move")
    if highlight and last:
        for name in last.split("-"):
            x, y = _corner(name, size, margin, flipped)
            parts.append(
                f'<rect x="{x + 2}" y="{y + 2}" width="{size - 4}" height="{size - 4}" '
                f'rx="{size * 0.15:g}" class="last-move" data-square="{name}" fill="none" '
                f'stroke="{_COLOURS["highlight"]}" stroke-width="3" pointer-events="none">'
                "<title>the last move</title></rect>"
            )
    token = size * 0.42
    emblem = size * 0.72
    for seat, animals in enumerate(observation["animals"]):
        fill, ink = _COLOURS[f"seat{seat}"]
        for kind, name in animals.items():
            x, y = _corner(name, size, margin, flipped)
            centre_x, centre_y = x + size / 2, y + size / 2
            title = escape(f"{names[seat]}'s {kind}")
            parts.append(
                f'<g class="animal" data-square="{name}" data-seat="{seat}" '
                f'data-animal="{kind}"><title>{title}</title>'
                f'<circle cx="{centre_x:g}" cy="{centre_y + size * 0.04:g}" r="{token:g}" '
                f'fill="#000" fill-opacity="0.35"/>'
                f'<circle cx="{centre_x:g}" cy="{centre_y:g}" r="{token:g}" fill="{fill}" '
                f'stroke="{ink}" stroke-width="1.5"/>'
                f'<use href="#obonto-{kind}" x="{centre_x - emblem / 2:g}" '
                f'y="{centre_y - emblem / 2:g}" width="{emblem:g}" height="{emblem:g}" '
                f'fill="{ink}" stroke="{ink}" color="{fill}"/></g>'
            )
    if coordinates:
        parts.append(_coordinates(size, margin, flipped))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


@functools.lru_cache(maxsize=64)
def _coordinates(size: int, margin: int, flipped: bool) -> str:
    width = SIZE * size + 2 * margin
    labels = []
    for index, file in enumerate(FILES):
        column = SIZE - 1 - index if flipped else index
        label_x = margin + column * size + size / 2
        for label_y in (margin / 2, width - margin / 2):
            labels.append(_label(label_x, label_y, file, size))
    for rank in range(1, SIZE + 1):
        row = rank - 1 if flipped else SIZE - rank
        label_y = margin + row * size + size / 2
        for label_x in (margin / 2, width - margin / 2):
            labels.append(_label(label_x, label_y, str(rank), size))
    return "\n".join(labels)


def _label(x: float, y: float, text: str, size: int) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" fill="{_COLOURS["label"]}" font-family="sans-serif" '
        f'font-size="{size * 0.3:g}" text-anchor="middle" dominant-baseline="central">{text}</text>'
    )
