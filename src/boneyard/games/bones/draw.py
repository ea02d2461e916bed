"""Drawing Bones from an observation dict: the text board, the SVG board and the tensor.

Standard library only, and nothing here imports the rules: everything is read from
``state.observation(seat)``:

* ``top``: one string per rank, rank 1 first, a character per square: ``.`` empty, ``W`` white on
  top, ``B`` black on top;
* ``heights``: one list per rank, rank 1 first, the number of pieces stacked on each square;
* ``pieces``: every placed piece in order (``e5-f5``), piece ``k`` placed by seat ``k % 2``;
* ``start_area``, ``supply``, ``current_player``, ``winner``, ``winning_squares``, ``seat``.

The SVG gives every square ``data-square="e5"`` (a transparent square under the pieces, which let
clicks through) so the web app can make it clickable and mark it without repainting a piece.
A piece shows its stack: a shadow and an edge for each piece below grow with the height, the
height is written on each half, and a half-covered piece shows its visible half with a broken
edge; each stack's ``<title>`` says it in words.
"""

from __future__ import annotations

import functools
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from boneyard.games.bones.observation import BonesObservation

SEAT_NAMES = ("white", "black")
TERMINAL = -4


def square_name(square: int, width: int) -> str:
    return f"{chr(ord('a') + square % width)}{square // width + 1}"


def _parse_square(name: str, width: int) -> int:
    return (int(name[1:]) - 1) * width + ord(name[0]) - ord("a")


def _placement_squares(text: str, width: int) -> tuple[int, int]:
    one, two = text.split("-")
    return _parse_square(one, width), _parse_square(two, width)


def top_pieces(observation: BonesObservation) -> list[int]:
    """The number of each square's top piece (placement order), or -1 for an empty square."""
    width = observation["width"]
    top = [-1] * (width * observation["height"])
    for number, text in enumerate(observation["pieces"]):
        one, two = _placement_squares(text, width)
        top[one] = top[two] = number
    return top


def _flat_top(observation: BonesObservation) -> str:
    return "".join(observation["top"])


def _flat_heights(observation: BonesObservation) -> list[int]:
    return [h for rank in observation["heights"] for h in rank]


def status_line(observation: BonesObservation) -> str:
    """Who is to move or how the game ended, and the supplies."""
    white, black = observation["supply"]
    supplies = f"supply: white {white}, black {black}"
    winner = observation["winner"]
    if winner is not None:
        line = " ".join(observation["winning_squares"])
        return f"{SEAT_NAMES[winner]} wins with five in a line ({line}); {supplies}"
    if observation["current_player"] == TERMINAL:
        return f"draw: both supplies are empty; {supplies}"
    return f"{SEAT_NAMES[observation['current_player']]} to move; {supplies}"


def render_text(observation: BonesObservation) -> str:
    """The board as text: each square its top colour and stack height (``W2``), ``.`` empty.

    ``+`` marks the start area before the first piece, ``*`` the squares of the last piece placed.
    """
    width, height = observation["width"], observation["height"]
    top = _flat_top(observation)
    heights = _flat_heights(observation)
    start: set[int] = set()
    if not observation["pieces"]:
        start = {_parse_square(name, width) for name in observation["start_area"]}
    last: set[int] = set()
    if observation["pieces"]:
        last = set(_placement_squares(observation["pieces"][-1], width))
    grid: list[list[str]] = []
    for rank in reversed(range(height)):
        row = []
        for file in range(width):
            square = rank * width + file
            if top[square] == ".":
                cell = "+" if square in start else "."
            else:
                cell = f"{top[square]}{heights[square]}"
                if square in last:
                    cell += "*"
            row.append(cell)
        grid.append(row)
    # Columns are one wider than the widest cell (four characters until a stack reaches 10).
    column = max(3, *(len(cell) for row in grid for cell in row)) + 1
    files = "    " + "".join(f"{chr(ord('a') + f):<{column}}" for f in range(width)).rstrip()
    lines = [f"Bones {width}x{height}: {status_line(observation)}", files]
    for rank, row in zip(reversed(range(height)), grid):
        lines.append(f"{rank + 1:>2}  {''.join(f'{cell:<{column}}' for cell in row).rstrip()}")
    lines.append(files)
    legend = "W/B: colour on top, digits: stack height, *: last piece"
    lines.append(legend + (", +: start area" if start else ""))
    return "\n".join(lines)


# ----- SVG -------------------------------------------------------------------------------------

BOARD_FILL = "#e9dcb9"
GRID_STROKE = "#b39b6b"
PIECE_FILL = ("#fbf9f2", "#2b2b2b")
PIECE_STROKE = ("#6b6b6b", "#000000")
EDGE_FILL = ("#d9d4c4", "#555555")
"""The edge of a piece lower in a stack, seen under the top one."""
COVERED_DASH = ' stroke-dasharray="4 2"'
"""A piece half covered by another shows its one visible half with a broken edge."""
TEXT_FILL = ("#333333", "#f2f2f2")
LAST_STROKE = "#d9731a"
WIN_STROKE = "#d62828"
"""The winning line: red rings, apart from the page's yellow mark of the last move."""
LEGAL_STROKE = "#2e8b57"
ILLEGAL_STROKE = "#c0392b"


STACK_LEGEND = "The number on a square: how many pieces are stacked there"
"""The board's caption once pieces lie on it, where no other caption is asked for."""


def render_svg(
    observation: BonesObservation,
    *,
    square_size: int = 40,
    placement: str | None = None,
    legal: bool = True,
    coordinates: bool = True,
    show_last: bool = True,
    caption: str | None = None,
) -> str:
    """The board as an SVG document.

    ``placement`` (``"e5-f5"``) draws a proposed piece of the side to move over the board:
    outlined green when ``legal``, red and crossed out when not (the rule pages use it).
    """
    width, height = observation["width"], observation["height"]
    if caption is None and coordinates and observation["pieces"]:
        caption = STACK_LEGEND  # the numbers on the pieces could be read as pips
    size = square_size
    margin = round(size * 0.6) if coordinates else 4
    # The legend's room is kept from the first move on: a drawing that grew a line after it
    # shrank the whole board on a page that fits the board to the window's height.
    caption_height = round(size * 0.7) if caption or coordinates else 0
    total_width = 2 * margin + width * size
    total_height = 2 * margin + height * size + caption_height
    heights = _flat_heights(observation)
    owners = top_pieces(observation)

    def corner(square: int) -> tuple[int, int]:
        return margin + (square % width) * size, margin + (height - 1 - square // width) * size

    def box(one: int, two: int, inset: float) -> tuple[float, float, float, float]:
        (x1, y1), (x2, y2) = corner(one), corner(two)
        left, upper = min(x1, x2), min(y1, y2)
        right, lower = max(x1, x2) + size, max(y1, y2) + size
        return left + inset, upper + inset, right - left - 2 * inset, lower - upper - 2 * inset

    geometry = (width, height, size, margin)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bones-board" '
        f'width="{total_width}" height="{total_height}" '
        f'viewBox="0 0 {total_width} {total_height}">',
        _board_layer(geometry, total_width, total_height, tuple(observation["start_area"])),
    ]
    out.extend(_pieces_svg(observation, owners, heights, geometry))
    if show_last and observation["pieces"]:
        one, two = _placement_squares(observation["pieces"][-1], width)
        x, y, w, h = box(one, two, 1.5)
        out.append(
            f'<rect class="last-piece" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
            f'fill="none" stroke="{LAST_STROKE}" stroke-width="3" pointer-events="none"/>'
        )
    for name in observation["winning_squares"]:
        x0, y0 = corner(_parse_square(name, width))
        out.append(
            f'<circle class="winning-square" data-winning="{name}" cx="{x0 + size / 2:g}" '
            f'cy="{y0 + size / 2:g}" r="{size * 0.4:g}" fill="none" stroke="{WIN_STROKE}" '
            f'stroke-width="3" pointer-events="none"/>'
        )
    if placement is not None:
        out.extend(_placement_svg(observation, placement, legal, box, size))
    if coordinates:
        out.extend(_coordinates_svg(width, height, margin, size))
    if caption:
        # As wide as the board at most: a sans-serif letter is about half its size wide, and on
        # a narrow board (6 squares) the caption at the squares' size ran off both sides.
        font_size = round(min(size * 0.34, 0.94 * total_width / (0.5 * len(caption))), 2)
        out.append(
            f'<text class="caption" x="{total_width / 2:g}" '
            f'y="{2 * margin + height * size + caption_height * 0.55:g}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="{font_size:g}" fill="#333333">'
            f"{escape(caption)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


Geometry = tuple[int, int, int, int]
"""The board's width and height in squares, a square's size and the margin, in pixels."""


def _box(one: int, two: int, inset: float, geometry: Geometry) -> tuple[float, float, float, float]:
    """The rectangle over squares ``one`` and ``two``, ``inset`` pixels inside."""
    width, height, size, margin = geometry
    x1, y1 = margin + (one % width) * size, margin + (height - 1 - one // width) * size
    x2, y2 = margin + (two % width) * size, margin + (height - 1 - two // width) * size
    left, upper = min(x1, x2), min(y1, y2)
    right, lower = max(x1, x2) + size, max(y1, y2) + size
    return left + inset, upper + inset, right - left - 2 * inset, lower - upper - 2 * inset


@functools.lru_cache(maxsize=32)
def _board_layer(
    geometry: Geometry, total_width: int, total_height: int, start_area: tuple[str, ...]
) -> str:
    """The board under the pieces, drawn once per layout: cells, start area, squares.

    The clickable squares come before the pieces (which let clicks through), so a mark a web
    page puts right after a square lies on the board under the pieces: a mark never repaints a
    piece, and the drawing's own outline of the last piece shows it.
    """
    width, height, size, _ = geometry
    out = [
        f'<rect class="background" x="0" y="0" width="{total_width}" height="{total_height}" '
        f'fill="#f7f1e1"/>'
    ]
    corners = [_box(square, square, 0, geometry)[:2] for square in range(width * height)]
    for left, upper in corners:
        out.append(
            f'<rect class="cell" x="{left:g}" y="{upper:g}" width="{size}" height="{size}" '
            f'fill="{BOARD_FILL}" stroke="{GRID_STROKE}" stroke-width="1"/>'
        )
    start = [_parse_square(name, width) for name in start_area]
    x, y, w, h = _box(start[0], start[1], size * 0.04, geometry)
    out.append(
        f'<rect class="start-area" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
        f'fill="none" stroke="#7a6a4a" stroke-width="1.5" stroke-dasharray="4 3" '
        f'pointer-events="none"/>'
    )
    for square, (left, upper) in enumerate(corners):
        name = square_name(square, width)
        out.append(
            f'<rect class="square" data-square="{name}" x="{left:g}" y="{upper:g}" '
            f'width="{size}" height="{size}" fill="#000000" fill-opacity="0" '
            'pointer-events="all"/>'
        )
    return "\n".join(out)


def _pieces_svg(
    observation: BonesObservation, owners: list[int], heights: list[int], geometry: Geometry
) -> list[str]:
    """Each top piece: a domino when completely visible, else its one visible square."""
    visible: dict[int, list[int]] = {}
    for square, owner in enumerate(owners):
        if owner >= 0:
            visible.setdefault(owner, []).append(square)
    return [
        _stack(number, tuple(squares), tuple(heights[s] for s in squares), geometry)
        for number, squares in sorted(visible.items())
    ]


@functools.lru_cache(maxsize=4096)
def _stack(
    number: int, squares: tuple[int, ...], stacked: tuple[int, ...], geometry: Geometry
) -> str:
    """Piece ``number``'s visible part over ``squares``, ``stacked`` high on each (cached: most
    pieces look as they did on the move before)."""
    width, _, size, _ = geometry
    seat = number % 2
    one, two = (squares[0], squares[-1])
    x, y, w, h = _box(one, two, size * 0.09, geometry)
    names = " ".join(square_name(s, width) for s in squares)
    tallest = max(stacked)
    covered = len(squares) == 1
    words = f"{SEAT_NAMES[seat]} piece on {names}, " + ", ".join(
        f"{high} high on {square_name(s, width)}" for s, high in zip(squares, stacked)
    )
    if covered:
        words += " (its other half is covered)"
    out = [f'<g class="stack" pointer-events="none"><title>{escape(words)}</title>']
    # The stack's height: a shadow that grows with it, and an edge for each piece below.
    lift = min(tallest, 5) * size * 0.035
    out.append(
        f'<rect x="{x + lift + 1:g}" y="{y + lift + 1:g}" width="{w:g}" height="{h:g}" '
        f'rx="{size * 0.12:g}" fill="#000000" fill-opacity="0.28"/>'
    )
    for below in range(min(tallest, 5) - 1, 0, -1):
        step = below * size * 0.035
        out.append(
            f'<rect x="{x + step:g}" y="{y + step:g}" width="{w:g}" height="{h:g}" '
            f'rx="{size * 0.12:g}" fill="{EDGE_FILL[seat]}" stroke="{PIECE_STROKE[seat]}" '
            'stroke-width="1"/>'
        )
    out.append(
        f'<rect class="piece {SEAT_NAMES[seat]}" data-piece="{number}" '
        f"data-squares={quoteattr(names)} "
        f'x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{size * 0.12:g}" '
        f'fill="{PIECE_FILL[seat]}" stroke="{PIECE_STROKE[seat]}" stroke-width="1.5"'
        f"{COVERED_DASH if covered else ''}/>"
    )
    if len(squares) == 2:  # a domino's middle line between its two halves
        (x1, y1), (x2, y2) = _box(one, one, 0, geometry)[:2], _box(two, two, 0, geometry)[:2]
        if x1 == x2:
            middle = (y1 + y2 + size) / 2
            line = f'x1="{x + w * 0.2:g}" y1="{middle:g}" x2="{x + w * 0.8:g}" y2="{middle:g}"'
        else:
            middle = (x1 + x2 + size) / 2
            line = f'x1="{middle:g}" y1="{y + h * 0.2:g}" x2="{middle:g}" y2="{y + h * 0.8:g}"'
        out.append(f'<line {line} stroke="{PIECE_STROKE[seat]}" stroke-width="1"/>')
    for square, high in zip(squares, stacked):
        x0, y0 = _box(square, square, 0, geometry)[:2]
        out.append(
            f'<text class="stack-height" x="{x0 + size / 2:g}" y="{y0 + size * 0.63:g}" '
            f'text-anchor="middle" font-family="sans-serif" font-size="{size * 0.36:g}" '
            f'fill="{TEXT_FILL[seat]}">{high}</text>'
        )
    out.append("</g>")
    return "".join(out)


def _placement_svg(
    observation: BonesObservation, placement: str, legal: bool, box: Any, size: int
) -> list[str]:
    width = observation["width"]
    one, two = sorted(_placement_squares(placement, width))
    player = observation["current_player"]
    seat = player if player in (0, 1) else 0
    stroke = LEGAL_STROKE if legal else ILLEGAL_STROKE
    x, y, w, h = box(one, two, size * 0.16)
    kind = "legal" if legal else "illegal"
    out = [
        f'<rect class="placement {kind}" data-placement="{escape(placement)}" x="{x:g}" '
        f'y="{y:g}" width="{w:g}" height="{h:g}" rx="{size * 0.12:g}" '
        f'fill="{PIECE_FILL[seat]}" fill-opacity="0.5" stroke="{stroke}" stroke-width="3.5" '
        f'stroke-dasharray="7 3" pointer-events="none"/>'
    ]
    if not legal:
        out.append(
            f'<path class="cross" d="M{x:g} {y:g} L{x + w:g} {y + h:g} M{x + w:g} {y:g} '
            f'L{x:g} {y + h:g}" stroke="{ILLEGAL_STROKE}" stroke-width="3.5" '
            f'pointer-events="none"/>'
        )
    return out


def _coordinates_svg(width: int, height: int, margin: int, size: int) -> list[str]:
    out = []
    font = f'font-family="sans-serif" font-size="{size * 0.32:g}" fill="#5a4a2a"'
    for file in range(width):
        x = margin + file * size + size / 2
        letter = chr(ord("a") + file)
        for y in (margin * 0.7, margin + height * size + margin * 0.65):
            out.append(f'<text x="{x:g}" y="{y:g}" text-anchor="middle" {font}>{letter}</text>')
    for rank in range(height):
        y = margin + (height - 1 - rank) * size + size * 0.6
        for x in (margin / 2, margin * 1.5 + width * size):
            out.append(f'<text x="{x:g}" y="{y:g}" text-anchor="middle" {font}>{rank + 1}</text>')
    return out
