"""A board drawing sent as what changed since the drawing a socket already holds.

A move changes a few elements of a board drawing (Obonto: about 1 KB of 23 KB), but encoding
the whole drawing as JSON and compressing it again for every socket on every move cost the
server more than everything else a move does. So the first view a socket gets carries the whole
drawing (``svg``) and each later one carries ``drawing``: the new drawing's lines (a drawing
puts one element on a line) as pieces, each either a new line (a string) or ``[start, count]``,
a run of the held drawing's lines copied as they are. The page rebuilds the text and draws it;
``static/drawing.js`` is the other half. The drawing itself is still made on the server by the
game's own ``draw`` module: one drawing, never two that can disagree.
"""

from __future__ import annotations

Lines = tuple[str, ...]
Piece = str | list[int]


def lines_of(svg: str | None) -> Lines | None:
    """A drawing split into its lines; ``None`` when the view has no drawing."""
    return None if svg is None else tuple(svg.split("\n"))


def changes(held: Lines, new: Lines) -> list[Piece]:
    """``new`` as new lines and runs of ``held``'s lines: ``rebuilt(held, changes(held, new))``
    is ``new``. Linear in the two lengths (one pass over each)."""
    first_place: dict[str, int] = {}
    for index, line in enumerate(held):
        first_place.setdefault(line, index)
    pieces: list[Piece] = []
    start = end = -1  # the run of held lines being copied: held[start:end]
    for line in new:
        if 0 <= end < len(held) and held[end] == line:
            end += 1
            continue
        if end >= 0:
            pieces.append([start, end - start])
        if line in first_place:
            start = first_place[line]
            end = start + 1
        else:
            pieces.append(line)
            start = end = -1
    if end >= 0:
        pieces.append([start, end - start])
    return pieces


def rebuilt(held: Lines, pieces: list[Piece]) -> str:
    """The drawing ``pieces`` describe, given the drawing they were made against (what the page
    does; here for the tests and for programs that read the socket)."""
    lines: list[str] = []
    for piece in pieces:
        if isinstance(piece, str):
            lines.append(piece)
        else:
            start, count = piece
            lines.extend(held[start : start + count])
    return "\n".join(lines)


__all__ = ["Lines", "Piece", "changes", "lines_of", "rebuilt"]
