"""Production code never imports the test kit (``boneyard.testing``)."""

from __future__ import annotations

import ast
from pathlib import Path

import boneyard

SOURCE = Path(boneyard.__file__).parent


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_no_production_module_imports_the_test_kit() -> None:
    offenders = [
        str(path.relative_to(SOURCE))
        for path in sorted(SOURCE.rglob("*.py"))
        if "testing" not in path.relative_to(SOURCE).parts
        and any(name.startswith("boneyard.testing") for name in _imports(path))
    ]
    assert offenders == []
