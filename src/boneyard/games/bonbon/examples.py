"""The Bon-Bon rule page's picture: a round in progress, drawn by the game's own code.

``python -m boneyard.games.bonbon.examples --write docs/rules/img`` redraws it; a test checks
that the committed file equals what the code draws.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from boneyard.core.registry import load_game
from boneyard.games.bonbon.rules import BonBonState

PICTURE_MOVES = (
    "tiles 1 2 3",
    "draw", "card 2", "down",  # seat 0
    "draw", "card 4", "up",  # seat 1
    "draw", "card 3!",  # seat 2
    "draw", "card 1", "up",  # seat 0
    "draw", "card 2", "down",  # seat 1
    "bonus 3",  # seat 2 passes first and takes the tile worth 3
    "draw", "card 3", "down",  # seat 0
    "draw", "card peek", "down", "card 5",  # seat 1 peeks: the next card is a 5
    "draw", "card 5", "down",  # seat 0 draws it face down (seat 1 knows it)
    "draw",  "card 1",  # seat 1 has drawn a 1 and is deciding
)  # fmt: skip
"""A three-player round: face-down groups, a passed player with a tile, a peek, a card in hand."""

PICTURE_SEAT = 0
"""The picture shows the round as seat 0 sees it."""


def picture_state() -> BonBonState:
    state = load_game("bonbon", players=3).new_initial_state()
    assert isinstance(state, BonBonState)
    for move in PICTURE_MOVES:
        state.apply_action(state.string_to_action(move))
    return state


def pictures() -> dict[str, str]:
    """File name -> SVG text of every picture on the rule page."""
    state = picture_state()
    return {"bonbon-round.svg": state.game.render_svg(state.observation(PICTURE_SEAT))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, required=True, help="folder of the pictures")
    args = parser.parse_args(argv)
    args.write.mkdir(parents=True, exist_ok=True)
    for name, text in pictures().items():
        (args.write / name).write_text(text)
        print(f"wrote {args.write / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
