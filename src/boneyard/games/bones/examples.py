"""The worked examples of the Bones rule page, and the pictures drawn from them.

Each example is a position (placements from the start of a default game) and, except for the win,
a proposed placement for the side to move with whether the rules allow it. The tests play every
example through the rules and check the claim, and check that the committed pictures in
``docs/rules/img`` are exactly what the drawing code makes of them now. Rewrite the pictures with::

    .venv/bin/python -m boneyard.games.bones.examples --write docs/rules/img
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from boneyard.games.bones.rules import BonesGame, BonesState


@dataclass(frozen=True)
class Example:
    name: str
    """The picture's file name without ``.svg``."""
    placements: str
    """The placements so far, from the start of a default game."""
    proposal: str | None
    """A placement for the side to move, or None (the picture shows the position itself)."""
    legal: bool
    caption: str


ON_TOP = "e5-f5 e4-f4 g5-g6 f5-f6"
"""White's e5-f5 is partly covered (by black's f5-f6); black's e4-f4 is completely visible."""

EXAMPLES = (
    Example("bones-first-legal", "", "e5-e6", True, "Legal first move: it covers e5"),
    Example("bones-first-illegal", "", "c5-d5", False, "Illegal first move: no start-area square"),
    Example(
        "bones-on-top-illegal",
        ON_TOP,
        "e4-f4",
        False,
        "Illegal: exactly on black's e4-f4, still completely visible",
    ),
    Example(
        "bones-on-top-legal",
        ON_TOP,
        "e5-f5",
        True,
        "Legal: exactly on e5-f5, which f5-f6 already partly covers",
    ),
    Example(
        "bones-across-legal",
        ON_TOP,
        "f6-g6",
        True,
        "Legal: across two pieces (black's f5-f6 and white's g5-g6)",
    ),
    Example(
        "bones-win",
        "e5-f5 g5-g6 c5-d5 b5-b6 g5-h5",
        None,
        True,
        "White covers g5 and shows six in a row: white wins",
    ),
)


def example_state(example: Example) -> BonesState:
    """The position of ``example`` (a default game after its placements)."""
    state = BonesGame().new_initial_state()
    for word in example.placements.split():
        state.apply_action(state.string_to_action(word))
    return state


def picture(example: Example) -> str:
    """The SVG of ``example``, drawn by the game's own drawing code."""
    state = example_state(example)
    return state.game.render_svg(
        state.observation(None),
        square_size=36,
        placement=example.proposal,
        legal=example.legal,
        show_last=example.proposal is None,
        caption=example.caption,
    )


def pictures() -> dict[str, str]:
    """File name -> SVG text of every example picture."""
    return {f"{example.name}.svg": picture(example) for example in EXAMPLES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the Bones rule-page pictures.")
    parser.add_argument("--write", type=Path, required=True, help="folder, e.g. docs/rules/img")
    args = parser.parse_args(argv)
    args.write.mkdir(parents=True, exist_ok=True)
    for filename, svg in pictures().items():
        path = args.write / filename
        path.write_text(svg)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
