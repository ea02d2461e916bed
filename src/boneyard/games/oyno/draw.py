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
    "D": ("#c9b48a", "#5b4a32"),
    "R": ("#c0392b", "#5e1a12"),
    "r": ("#c0392b", "#5e1a12"),
    "W": ("#fbfbf8", "#4a4a4a"),
    "w": ("#fbfbf8", "#4a4a4a"),
    "?": ("#dddddd", "#777777"),
}


def board_svg(observation: OynoObservation, **options: Any) -> str:
    """The board of either OYNO game as an SVG document.

    Options: ``cell`` (pixels per cell, default 56), ``highlight`` (square names to outline).
    """
    size = observation["size"]
    cell = int(options.get("cell", 56))
    highlight = set(options.get("highlight", ()))
    margin = cell // 2
    side = size * cell
    total = side + 2 * margin
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total} {total}" '
        f'width="{total}" height="{total}" class="oyno-board" data-size="{size}">',
        f'<rect x="0" y="0" width="{total}" height="{total}" fill="#6d4c2f"/>',
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
                    f'<g id="square-{square}" data-square="{square}" data-center="true">'
                    f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#8b6a4a" '
                    f'stroke="#3b2a1a"/>'
                    f'<circle cx="{x + cell / 2}" cy="{y + cell / 2}" r="{cell * 0.38:.1f}" '
                    f'fill="#5a3d24" stroke="#3b2a1a"/></g>'
                )
                continue
            stroke = "#ffd700" if square in highlight else "#3b2a1a"
            width = 3 if square in highlight else 1
            parts = [
                f'<g id="square-{square}" data-square="{square}" data-bone="{escape(char)}">',
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#a67c52" '
                f'stroke="{stroke}" stroke-width="{width}"/>',
            ]
            if char != ".":
                parts.append(_bone(char, x, y, cell))
            parts.append("</g>")
            out.append("".join(parts))
    for file in range(size):
        x = margin + file * cell + cell // 2
        out.append(
            f'<text x="{x}" y="{total - margin // 4}" font-size="{font}" text-anchor="middle" '
            f'fill="#f4ecd8" font-family="sans-serif">{chr(ord("a") + file)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _bone(char: str, x: int, y: int, cell: int) -> str:
    fill, stroke = _FILL[char]
    standing = char in "URW"
    if char == "?":
        return (
            f'<text x="{x + cell / 2}" y="{y + cell * 0.65:.1f}" font-size="{cell // 2}" '
            f'text-anchor="middle" fill="{stroke}" font-family="sans-serif">?</text>'
        )
    if standing:
        w, h = cell * 0.34, cell * 0.78
    else:
        w, h = cell * 0.78, cell * 0.34
    bx, by = x + (cell - w) / 2, y + (cell - h) / 2
    shape = (
        f'<rect x="{bx:.1f}" y="{by:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{cell * 0.08:.1f}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="2"/>'
    )
    if not standing:
        # a lying bone shows its flat face: a groove along it
        shape += (
            f'<line x1="{bx + w * 0.15:.1f}" y1="{y + cell / 2:.1f}" x2="{bx + w * 0.85:.1f}" '
            f'y2="{y + cell / 2:.1f}" stroke="{stroke}" stroke-width="1.5"/>'
        )
    return shape


class PuzzleDrawing:
    """The puzzle's drawing, as its spec names it (``core.hooks.Drawing``)."""

    render_text = staticmethod(puzzle_text)
    render_svg = staticmethod(board_svg)


class DuelDrawing:
    """The two-player game's drawing, as its spec names it (``core.hooks.Drawing``)."""

    render_text = staticmethod(duel_text)
    render_svg = staticmethod(board_svg)
