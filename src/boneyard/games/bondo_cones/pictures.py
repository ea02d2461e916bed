"""The pictures of docs/rules/bondo_cones.md, drawn by the game's own code.

``python -m boneyard.games.bondo_cones.pictures docs/rules/img`` rewrites them; a test checks that
the committed files equal what this module draws.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from boneyard.core.registry import load_game
from boneyard.games.bondo_cones.board import START_FIELDS
from boneyard.games.bondo_cones.draw import render_svg
from boneyard.games.bondo_cones.notation import NAMES
from boneyard.games.bondo_cones.observation import observe
from boneyard.games.bondo_cones.rules import BondoConesGame, BondoConesState

BLACK_SETUP = (
    *("e2",),
    *("c1", "h1", "d3", "g3"),
    *("b1", "d2", "f2", "i1", "c3", "h3"),
    *("a1", "j1", "b2", "i2", "e3"),
)
"""Black's example set-up: where its 8, its 4s, its 2s and its 1s go; the 0s fill the rest."""


def _game() -> BondoConesGame:
    game = load_game("bondo_cones")
    assert isinstance(game, BondoConesGame)
    return game


def _play(state: BondoConesState, *moves: str) -> BondoConesState:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def start_position() -> str:
    """Both sides set up, seen by black: its own values, white's hidden."""
    state = _game().new_initial_state()
    _play(state, *(f"put {name}" for name in BLACK_SETUP), "ring d4")
    white = [NAMES[sq] for sq in START_FIELDS[1]][-16:]
    _play(state, *(f"put {name}" for name in white), "ring g9")
    return render_svg(observe(state, 0))


def _example() -> BondoConesState:
    """Mid-game, black to act after rolling 3; black's BondO cone is on e3, white's on g9."""
    return _game().position(
        {
            "c2": "b0",
            "g2": "b8",
            "e3": "b1+",
            "h3": "b2",
            "d4": "b4",
            "h6": "w4",
            "f8": "w0",
            "c9": "w2",
            "g9": "w1+",
            "e10": "w0",
        },
        die="3",
    )


def ordinary_move() -> str:
    """An ordinary cone goes three steps in one direction: d4 to d7."""
    state = _play(_example(), "d4-d7")
    return render_svg(observe(state, 0), path=["d4", "d5", "d6", "d7"], show_last_move=False)


def bondo_move() -> str:
    """The BondO cone turns on the way: e3, e4, f5, g5."""
    state = _play(_example(), "e3-g5")
    return render_svg(observe(state, 0), path=["e3", "e4", "f5", "g5"], show_last_move=False)


def capture() -> str:
    """The cone on h3 ends its three steps on white's h6 and captures it: a 4."""
    state = _play(_example(), "h3-h6")
    return render_svg(observe(state, 0), path=["h3", "h4", "h5", "h6"])


PICTURES: dict[str, Callable[[], str]] = {
    "bondo_cones-start.svg": start_position,
    "bondo_cones-move.svg": ordinary_move,
    "bondo_cones-bondo-move.svg": bondo_move,
    "bondo_cones-capture.svg": capture,
}


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, draw in PICTURES.items():
        (folder / name).write_text(draw(), encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules/img"))
