"""Nothing outside ``games/`` keeps a table keyed by a game's name: the layers above read specs.

A string literal naming a game in the web, the bots, the command line or the research
interfaces (or in the ``__init__`` of ``solvers`` and ``jax``, which once listed the games)
would be a fact about that game kept outside its folder, which a new game's folder could not
change. Docstrings and longer texts that mention a game are not names and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import boneyard
from boneyard.core.registry import list_games

SOURCE = Path(boneyard.__file__).parent
CHECKED = [
    *sorted((SOURCE / "web").rglob("*.py")),
    *sorted((SOURCE / "ai").rglob("*.py")),
    *sorted((SOURCE / "cli").rglob("*.py")),
    *sorted((SOURCE / "interop").rglob("*.py")),
    SOURCE / "solvers" / "__init__.py",
    SOURCE / "jax" / "__init__.py",
]
TEMPLATE = "race"


def game_names_in(path: Path, names: set[str]) -> list[str]:
    """``line: 'name'`` for each string literal in ``path`` that is exactly a game's name."""
    tree = ast.parse(path.read_text(), str(path))
    return [
        f"{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    ]


def test_no_string_literal_outside_games_names_a_game() -> None:
    names = {*list_games(), TEMPLATE}
    found = {
        str(path.relative_to(SOURCE)): hits
        for path in CHECKED
        if (hits := game_names_in(path, names))
    }
    assert found == {}


def test_the_check_sees_a_name(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Obonto is mentioned here."""\nLIMITS = {"obonto": 3}\n')
    assert game_names_in(sample, {"obonto"}) == ["2: 'obonto'"]
