"""Where each game's rules page (docs/rules/<page>.md) and its pictures live.

In a source checkout they are in the repository's docs/rules; an installed wheel carries a copy
as the package folder ``boneyard/rules_docs``.
"""

from __future__ import annotations

from pathlib import Path

from boneyard.core.registry import game_class


def rules_folder() -> Path:
    packaged = Path(__file__).parent / "rules_docs"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_path(name: str) -> Path:
    """The Markdown rules page of the game ``name`` (an unknown name raises UnknownGameError)."""
    cls = game_class(name)
    return rules_folder() / f"{cls.rules_page or cls.name}.md"


def rules_markdown(name: str) -> str:
    path = rules_path(name)
    if not path.exists():
        return f"# {game_class(name).title}\n\nNo rules page has been written yet ({path.name})."
    return path.read_text(encoding="utf-8")
