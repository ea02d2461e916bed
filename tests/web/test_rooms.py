"""The web layer's shape: rooms without import circles, files a person can read whole."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import boneyard.web

WEB = Path(boneyard.web.__file__).parent
ROOMS = {"guard", "store", "compute", "play", "table", "people", "pages"}
LONGEST = 600


def module_name(path: Path) -> str:
    parts = path.relative_to(WEB.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path) -> set[str]:
    """The boneyard.web modules ``path`` imports when it runs (``if TYPE_CHECKING:`` aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for child in ast.walk(node))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("boneyard.web")}


def test_the_web_layer_is_in_rooms() -> None:
    loose = sorted(p.name for p in WEB.glob("*.py"))
    assert loose == [
        *("__init__.py", "app.py", "errors.py", "names.py", "networks.py", "ops.py", "schemas.py"),
        "settings.py",
    ]
    assert {p.name for p in WEB.iterdir() if p.is_dir() and p.name != "__pycache__"} == ROOMS


def test_every_room_has_its_place_in_the_rooms_contract() -> None:
    """The rooms' order is written once, as import-linter's ``web-rooms`` layers (which
    ``lint-imports`` and ``tests/core/test_layering.py`` check): each room stands in it."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    contracts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in contracts["contracts"] if c["id"] == "web-rooms"]
    placed = {name.strip() for layer in layers for name in layer.split("|")}
    assert placed == ROOMS | {"app"}


def test_no_import_circle_among_the_web_modules() -> None:
    modules = {module_name(path): path for path in WEB.rglob("*.py")}
    graph = {
        name: {m for m in runtime_imports(path) if m in modules and m != name}
        for name, path in modules.items()
    }
    # the package's face (boneyard.web imports the app) is how programs start it, not a tie
    graph = {name: targets - {"boneyard.web"} for name, targets in graph.items()}
    state: dict[str, int] = {}
    circle: list[str] = []

    def visit(name: str, path: list[str]) -> bool:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                circle.extend([*path[path.index(target) :], target])
                return True
            if target not in state and visit(target, [*path, target]):
                return True
        state[name] = 2
        return False

    for name in sorted(graph):
        if name not in state and visit(name, [name]):
            break
    assert circle == [], " -> ".join(circle)


def test_no_web_file_is_longer_than_a_reader_takes_in() -> None:
    long = {
        str(path.relative_to(WEB)): lines
        for path in WEB.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST
    }
    assert long == {}
