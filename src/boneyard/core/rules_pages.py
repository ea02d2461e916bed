"""Where each game's rules page and its pictures live.

A game's page is ``<page>.md`` in its own folder (``games/<name>/``, so that a new game is its
folder alone), or else in the repository's docs/rules, where boneyard's own games keep theirs;
an installed wheel carries docs/rules as the package folder ``boneyard/rules_docs``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from boneyard.core.game import Game
from boneyard.core.registry import game_class


def rules_folder() -> Path:
    """docs/rules of a source checkout, or the copy a wheel ships as boneyard/rules_docs."""
    checkout = Path(__file__).resolve().parents[3] / "docs" / "rules"
    if checkout.is_dir():
        return checkout
    return Path(__file__).parents[1] / "rules_docs"


def game_folder(cls: type[Game]) -> Path:
    """The folder of the package that holds the game ``cls`` (``games/<name>/``)."""
    module = sys.modules[cls.__module__]
    if module.__file__ is None:
        raise ValueError(f"{cls.__name__} is not defined in a file")
    return Path(module.__file__).resolve().parent


def page_path(cls: type[Game], folder: Path) -> Path | None:
    """The file of the rules page of ``cls``: in the game's own folder, else in ``folder``;
    ``None`` where neither holds one."""
    name = f"{cls.rules_page or cls.name}.md"
    for path in (game_folder(cls) / name, folder / name):
        if path.is_file():
            return path
    return None


def page_markdown(cls: type[Game], folder: Path) -> str:
    """The rules page of the game ``cls`` (its own folder's, else ``folder``'s): its title, then
    the rules in short (``Game.how_to_play``), then the page's own text."""
    path = page_path(cls, folder)
    if path is not None:
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
