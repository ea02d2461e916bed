"""Where each game's rules page (docs/rules/<page>.md) and its pictures live.

In a source checkout they are in the repository's docs/rules; an installed wheel carries a copy
as the package folder ``boneyard/rules_docs``.
"""

from __future__ import annotations

from pathlib import Path

from boneyard.core.game import Game
from boneyard.core.registry import game_class


def rules_folder() -> Path:
    """docs/rules of a source checkout, or the copy a wheel ships as boneyard/rules_docs."""
    checkout = Path(__file__).resolve().parents[3] / "docs" / "rules"
    if checkout.is_dir():
        return checkout
    return Path(__file__).parents[1] / "rules_docs"


def page_markdown(cls: type[Game], folder: Path) -> str:
    """The rules page of the game ``cls`` in ``folder``: its title, then the rules in short
    (``Game.how_to_play``), then the page's own text."""
    path = folder / f"{cls.rules_page or cls.name}.md"
    if path.is_file():
        page = path.read_text(encoding="utf-8")
    else:
        page = f"# {cls.title}\n\nThe rules page of {cls.title} is not written yet."
    if not cls.how_to_play:
        return page
    title, _, rest = page.partition("\n")
    in_short = "\n".join(f"- {sentence}" for sentence in cls.how_to_play)
    return f"{title}\n\n## How to play, in short\n\n{in_short}\n{rest}"


def rules_markdown(name: str) -> str:
    """The rules page of the registered game ``name`` (an unknown name raises
    UnknownGameError)."""
    return page_markdown(game_class(name), rules_folder())
