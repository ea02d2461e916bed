"""Drawing an Obonto board from an observation dict: plain text and SVG (standard library only).

Both read only the observation (``ObontoState.observation``), so they show what a seat may see.
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

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
    "light": "#f3e3b5",
    "dark": "#5b3a1e",
    "line": "#3b2612",
    "highlight": "#d9534f",
    "seat0": ("#fdfdfd", "#222222"),
    "seat1": ("#2b2b2b", "#fafafa"),
}


# Over the complexity limit on purpose: one optional layer of the picture per drawing option.
def render_svg(  # noqa: C901
    observation: ObontoObservation,
    *,
    size: int = 40,
    highlight: bool = True,
    flipped: bool = False,
    coordinates: bool = True,
    names: tuple[str, ...] = ("South", "North"),
) -> str:
    """The board as an SVG document.

    Every square is a ``<rect>`` with ``data-square`` (and the class ``light`` or ``dark``), every
    animal a ``<g>`` with ``data-square``, ``data-seat`` and ``data-animal``, so a web page can make
    them clickable. ``highlight`` outlines the last move's squares; ``flipped`` shows the board
    from seat 1's side; ``coordinates`` adds the file letters and rank numbers; ``names`` are the
    seats' names in each animal's tooltip ("North's zebra").
    """
    cells = _board_cells(observation)
    margin = size // 2 if coordinates else 0
    width = SIZE * size + 2 * margin
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
        f'viewBox="0 0 {width} {width}" class="obonto-board">',
        f'<rect x="0" y="0" width="{width}" height="{width}" fill="{_COLOURS["light"]}"/>',
    ]

    def corner(name: str) -> tuple[int, int]:
        file, rank = FILES.index(name[0]), int(name[1:]) - 1
        column, row = (SIZE - 1 - file, rank) if flipped else (file, SIZE - 1 - rank)
        return margin + column * size, margin + row * size

    for rank in range(SIZE, 0, -1):
        for file in FILES:
            name = f"{file}{rank}"
            x, y = corner(name)
            shade = "dark" if cells[name] == "#" else "light"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{size}" height="{size}" class="square {shade}" '
                f'data-square="{name}" fill="{_COLOURS[shade]}" stroke="{_COLOURS["line"]}" '
                'stroke-width="1"/>'
            )
    last = observation.get("last_move")
    if highlight and last:
        for name in last.split("-"):
            x, y = corner(name)
            parts.append(
                f'<rect x="{x + 2}" y="{y + 2}" width="{size - 4}" height="{size - 4}" '
                f'class="last-move" data-square="{name}" fill="none" '
                f'stroke="{_COLOURS["highlight"]}" stroke-width="3"/>'
            )
    for seat, animals in enumerate(observation["animals"]):
        fill, ink = _COLOURS[f"seat{seat}"]
        for kind, name in animals.items():
            x, y = corner(name)
            centre = size / 2
            letter = LETTERS[seat][KINDS.index(kind)].upper()
            title = quoteattr(names[seat] + "'s " + kind)[1:-1]
            parts.append(
                f'<g class="animal" data-square="{name}" data-seat="{seat}" '
                f'data-animal="{kind}"><title>{title}</title>'
                f'<circle cx="{x + centre:g}" cy="{y + centre:g}" r="{size * 0.38:g}" '
                f'fill="{fill}" stroke="{_COLOURS["line"]}" stroke-width="2"/>'
                f'<text x="{x + centre:g}" y="{y + centre:g}" fill="{ink}" '
                f'font-family="sans-serif" font-weight="bold" font-size="{size * 0.45:g}" '
                f'text-anchor="middle" dominant-baseline="central">{letter}</text></g>'
            )
    if coordinates:
        for index, file in enumerate(FILES):
            column = SIZE - 1 - index if flipped else index
            label_x = margin + column * size + size / 2
            for label_y in (margin / 2, width - margin / 2):
                parts.append(_label(label_x, label_y, file, size))
        for rank in range(1, SIZE + 1):
            row = rank - 1 if flipped else SIZE - rank
            label_y = margin + row * size + size / 2
            for label_x in (margin / 2, width - margin / 2):
                parts.append(_label(label_x, label_y, str(rank), size))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _label(x: float, y: float, text: str, size: int) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" fill="{_COLOURS["line"]}" font-family="sans-serif" '
        f'font-size="{size * 0.3:g}" text-anchor="middle" dominant-baseline="central">{text}</text>'
    )
