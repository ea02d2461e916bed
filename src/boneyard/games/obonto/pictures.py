"""The pictures of docs/rules/obonto.md, drawn by the game's own drawing code.

``python -m boneyard.games.obonto.pictures docs/rules/img`` rewrites them; a test checks that the
committed files equal what the code draws now.
"""

from __future__ import annotations

import sys
from pathlib import Path

from boneyard.core.registry import load_game

PICTURES: dict[str, tuple[str, ...]] = {
    "obonto-start.svg": (),
    "obonto-moves.svg": ("e1-e3", "e9-e7", "f1-h2", "d9-b8", "h2-g4"),
}
"""File name -> the moves played from the usual start before drawing (the last one outlined)."""


def draw_picture(moves: tuple[str, ...]) -> str:
    """The SVG of the usual start after ``moves``."""
    state = load_game("obonto").new_initial_state()
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state.game.render_svg(state.observation(None))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m boneyard.games.obonto.pictures FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name, moves in PICTURES.items():
        (folder / name).write_text(draw_picture(moves), encoding="utf-8")
        print(folder / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
