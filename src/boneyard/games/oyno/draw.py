"""Text and SVG drawings of both OYNO games, from observation dicts (standard library only).

An up bone stands on its edge: drawn as a tall narrow bone; a down bone lies flat: a wide bone.
Every cell of the SVG carries ``data-square="b2"`` (and ``id="square-b2"``) so the web app can
make it clickable; the center is ``data-square="c3"`` with ``data-center="true"``.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from boneyard.games.oyno.observation import DuelObservation, OynoObservation, PuzzleObservation

_TEXT_CHARS = {"U": "U", "D": "D", "R": "R", "r": "r", "W": "W", "w": "w", ".": ".", "o": "o"}


def _rows(observation: OynoObservation) -> list[str]:
    """Ranks from the highest down, with a bone being dealt or rolled shown as '?'."""
    size = observation["size"]
    rows = [list(rank) for rank in observation["position"].split("/")]
    marked = (
        observation["pending"] if observation["game"] == "oyno_puzzle" else observation["rolling"]
    )
    if marked:
        file = ord(marked[0]) - ord("a")
        rank = int(marked[1:]) - 1
        rows[size - 1 - rank][file] = "?"
    return ["".join(row) for row in rows]


def _square(file: int, rank: int) -> str:
    return f"{chr(ord('a') + file)}{rank + 1}"


def _grid_text(observation: OynoObservation) -> list[str]:
    size = observation["size"]
    width = len(str(size))
    lines = []
    for row, rank_text in enumerate(_rows(observation)):
        rank = size - row
        lines.append(f"{rank:>{width}} " + " ".join(_TEXT_CHARS.get(c, c) for c in rank_text))
    files = " ".join(chr(ord("a") + f) for f in range(size))
    lines.append(" " * (width + 1) + files)
    return lines


def puzzle_text(observation: PuzzleObservation) -> str:
    """The puzzle board as text, with the move count and how many bones are up."""
    lines = _grid_text(observation)
    if observation["dealt"] < observation["bones"]:
        status = f"dealing: {observation['dealt']} of {observation['bones']} bones dealt"
    elif observation["solved"]:
        status = f"solved in {observation['moves']} moves"
    else:
        status = (
            f"move {observation['moves'] + 1} (of at most {observation['max_moves']}); "
            f"{observation['up']} of {observation['bones']} bones up"
        )
    lines.append(status)
    return "\n".join(lines)


def duel_text(observation: DuelObservation) -> str:
    """The two-player board as text, with supplies and whose turn it is."""
    lines = _grid_text(observation)
    supply = observation["supply"]
    lines.append(f"supply: red (R/r) {supply[0]}, white (W/w) {supply[1]}")
    colours = ("red", "white")
    if observation["winner"] is not None:
        lines.append(f"{colours[observation['winner']]} wins")
    elif observation["draw"]:
        lines.append("draw")
    elif observation["rolling"]:
        lines.append(f"{colours[observation['player']]} rolls the bone on {observation['rolling']}")
    else:
        lines.append(
            f"{colours[observation['player']]} to move (action {observation['moves'] + 1})"
        )
    return "\n".join(lines)


_FILL = {
    "U": ("#f4ecd8", "#5b4a32"),
    "D": ("#f4ecd8", "#5b4a32"),
    "R": ("#c0392b", "#4a120c"),
    "r": ("#c0392b", "#4a120c"),
    "W": ("#fbfbf8", "#3a3a3a"),
    "w": ("#fbfbf8", "#3a3a3a"),
}
"""Each bone's (body, outline): a lying bone has the same colours as a standing one, so a colour
always says whose bone it is and the shape says which way it lies."""

_WORDS = {
    "U": "a bone, up (standing on its edge)",
    "D": "a bone, down (lying flat)",
    "R": "a red bone, up (standing on its edge)",
    "r": "a red bone, down (lying flat)",
    "W": "a white bone, up (standing on its edge)",
    "w": "a white bone, down (lying flat)",
    "?": "a bone being dealt or rolled",
}

_BONE = (
    '<rect x="22" y="41" width="56" height="18"/><circle cx="20" cy="37" r="11"/>'
    '<circle cx="20" cy="63" r="11"/><circle cx="80" cy="37" r="11"/>'
    '<circle cx="80" cy="63" r="11"/>'
)
"""A bone lying across a 100 x 100 box: a shaft with two knobs at each end."""

_DEFS = (
    "<defs>"
    # A lying bone: flat on the cell, a thin shadow.
    '<symbol id="oyno-down" viewBox="0 0 100 100">'
    f'<g fill="#000" fill-opacity="0.3" transform="translate(3 4)">{_BONE}</g>'
    f'<g stroke-width="7">{_BONE}</g><g stroke="none">{_BONE}</g>'
    '<path d="M28 50H72" stroke-width="3" stroke-linecap="round"/></symbol>'
    # A standing bone: upright, taller, a long shadow and a lit edge.
    '<symbol id="oyno-up" viewBox="0 0 100 100">'
    f'<g fill="#000" fill-opacity="0.35" transform="translate(109 6) rotate(90)">'
    f"{_BONE}</g>"
    f'<g transform="translate(100 0) rotate(90)"><g stroke-width="7">{_BONE}</g>'
    f'<g stroke="none">{_BONE}</g>'
    '<path d="M27 46H73" stroke="#fff" stroke-opacity="0.6" stroke-width="5" '
    'stroke-linecap="round"/></g></symbol>'
    "</defs>"
)


def board_svg(observation: OynoObservation, **options: Any) -> str:
    """The board of either OYNO game as an SVG document.

    Options: ``cell`` (pixels per cell, default 56), ``highlight`` (square names to outline).

    A standing (up) bone is drawn upright with a long shadow, a lying (down) bone across the cell
    and flat; each has a ``<title>`` in words and a legend under the board says which is which.
    Each cell's ``<rect>`` carries ``data-square`` (and ``data-bone``) before the bone drawn on
    it, so a mark a page puts right after a square lies under the bone and never repaints it.
    """
    size = observation["size"]
    cell = int(options.get("cell", 56))
    highlight = set(options.get("highlight", ()))
    margin = cell // 2
    side = size * cell
    total = side + 2 * margin
    legend = round(cell * 0.55)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total} {total + legend}" '
        f'width="{total}" height="{total + legend}" class="oyno-board" data-size="{size}">',
        _DEFS,
        f'<rect x="0" y="0" width="{total}" height="{total + legend}" fill="#6d4c2f"/>',
    ]
    rows = _rows(observation)
    font = max(cell // 4, 8)
    for row, rank_text in enumerate(rows):
        rank = size - 1 - row
        y = margin + row * cell
        out.append(
            f'<text x="{margin // 2}" y="{y + cell // 2 + font // 3}" font-size="{font}" '
            f'text-anchor="middle" fill="#f4ecd8" font-family="sans-serif">{rank + 1}</text>'
        )
        for file, char in enumerate(rank_text):
            x = margin + file * cell
            square = _square(file, rank)
            if char == "o":
                out.append(
                    f'<rect id="square-{square}" data-square="{square}" data-center="true" '
                    f'x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#8b6a4a" '
                    f'stroke="#3b2a1a"><title>the centre</title></rect>'
                    f'<circle cx="{x + cell / 2}" cy="{y + cell / 2}" r="{cell * 0.38:.1f}" '
                    f'fill="#5a3d24" stroke="#3b2a1a" pointer-events="none"/>'
                )
                continue
            stroke = "#ffd700" if square in highlight else "#3b2a1a"
            width = 3 if square in highlight else 1
            out.append(
                f'<rect id="square-{square}" data-square="{square}" data-bone="{escape(char)}" '
                f'class="cell" x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#a67c52" '
                f'stroke="{stroke}" stroke-width="{width}"/>'
            )
            if char != ".":
                out.append(_bone(char, square, x, y, cell))
    for file in range(size):
        x = margin + file * cell + cell // 2
        out.append(
            f'<text x="{x}" y="{total - margin // 4}" font-size="{font}" text-anchor="middle" '
            f'fill="#f4ecd8" font-family="sans-serif">{chr(ord("a") + file)}</text>'
        )
    out.append(_legend(observation, total, legend))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(observation: OynoObservation, total: int, height: int) -> str:
    """A standing and a lying bone under the board, with the words they mean."""
    fill, stroke = _FILL["R" if observation["game"] == "oyno" else "U"]
    y = total
    icon = height * 0.9
    text_y = y + height * 0.45 + 4
    font = max(round(height * 0.4), 11)
    style = f'font-size="{font}" fill="#f4ecd8" font-family="sans-serif"'
    left = total * 0.08
    middle = total * 0.52
    return (
        f'<g class="legend" pointer-events="none">'
        f'<use href="#oyno-up" x="{left:.0f}" y="{y - icon * 0.25:.0f}" width="{icon:.0f}" '
        f'height="{icon:.0f}" fill="{fill}" stroke="{stroke}"/>'
        f'<text x="{left + icon + 6:.0f}" y="{text_y:.0f}" {style}>standing: up</text>'
        f'<use href="#oyno-down" x="{middle:.0f}" y="{y - icon * 0.25:.0f}" '
        f'width="{icon:.0f}" height="{icon:.0f}" fill="{fill}" stroke="{stroke}"/>'
        f'<text x="{middle + icon + 6:.0f}" y="{text_y:.0f}" {style}>lying: down</text></g>'
    )


def _bone(char: str, square: str, x: int, y: int, cell: int) -> str:
    head = (
        f'<g class="bone" data-square="{square}" data-face="{_FACE.get(char, "")}" '
        f'pointer-events="none"><title>{_WORDS[char]}</title>'
    )
    if char == "?":
        return (
            f'{head}<text x="{x + cell / 2}" y="{y + cell * 0.65:.1f}" font-size="{cell // 2}" '
            f'text-anchor="middle" fill="#3b2a1a" font-family="sans-serif">?</text></g>'
        )
    fill, stroke = _FILL[char]
    face = _FACE[char]
    inset = cell * 0.06
    return (
        f'{head}<use href="#oyno-{face}" x="{x + inset:.1f}" y="{y + inset:.1f}" '
        f'width="{cell - 2 * inset:.1f}" height="{cell - 2 * inset:.1f}" fill="{fill}" '
        f'stroke="{stroke}"/></g>'
    )


_FACE = {"U": "up", "R": "up", "W": "up", "D": "down", "r": "down", "w": "down"}


class PuzzleDrawing:
    """The puzzle's drawing, as its spec names it (``core.hooks.Drawing``)."""

    render_text = staticmethod(puzzle_text)
    render_svg = staticmethod(board_svg)


class DuelDrawing:
    """The two-player game's drawing, as its spec names it (``core.hooks.Drawing``)."""

    render_text = staticmethod(duel_text)
    render_svg = staticmethod(board_svg)
