"""Names in the docs and docstrings stay true: every ``boneyard.x.y`` names a module (and what
follows, something that module defines), and every ``name.py`` names a file that exists. Module
names from before a move (the web's rooms) otherwise linger for years."""

from __future__ import annotations

import re
from pathlib import Path

import boneyard

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(boneyard.__file__).parent
TEXTS = [
    *sorted(SOURCE.rglob("*.py")),
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "README.md",
    *sorted((ROOT / "benchmarks").glob("*.py")),
]
DOTTED = re.compile(r"\bboneyard(?:\.[A-Za-z_]\w*)+")
NOT_MODULES = {
    "boneyard.db": "the default SQLite file",
    "boneyard.bots": "the bot workers' logger",
    "boneyard.access": "the access log's logger",
    "boneyard.toml": "a config file's name in an example",
    "boneyard.db.secret": "the server secret's key file beside the default SQLite file",
}
FILE = re.compile(r"(?<![\w/.-])((?:[a-z_]+/)*[a-z_]+\.py)\b")


def _module_file(parts: list[str]) -> Path | None:
    folder = SOURCE.joinpath(*parts[1:])
    if (folder / "__init__.py").is_file():
        return folder / "__init__.py"
    # A compiled module (the native engines' extension) is named by its typed stub.
    for suffix in (".py", ".pyi"):
        if folder.with_suffix(suffix).is_file():
            return folder.with_suffix(suffix)
    return None


def _defines(module: Path, name: str) -> bool:
    text = module.read_text(encoding="utf-8")
    if module.name == "__init__.py":  # a package re-exports (its imports span lines)
        return re.search(rf"\b{name}\b", text) is not None
    pattern = rf"^\s*(?:(?:async\s+)?def|class)\s+{name}\b|^\s*{name}\s*[:=]|\bimport\b.*\b{name}\b"
    return re.search(pattern, text, re.M) is not None


def _broken_dotted(name: str) -> bool:
    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        module = _module_file(parts[:length])
        if module is not None:
            rest = parts[length:]
            return bool(rest) and not _defines(module, rest[0])
    return True


def test_every_dotted_boneyard_name_exists() -> None:
    broken = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in TEXTS
        for name in DOTTED.findall(path.read_text(encoding="utf-8"))
        if name not in NOT_MODULES and _broken_dotted(name.rstrip("."))
    }
    assert sorted(broken) == []


def test_every_file_named_exists() -> None:
    names = {
        path.relative_to(ROOT).as_posix()
        for folder in ("src", "tests", "benchmarks", "examples", "deploy", ".ci")
        for path in (ROOT / folder).rglob("*.py")
    }
    missing = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in TEXTS
        for name in FILE.findall(path.read_text(encoding="utf-8"))
        if not any(known == name or known.endswith("/" + name) for known in names)
    }
    assert sorted(missing) == []
