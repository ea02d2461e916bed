"""The layers: the import-linter contracts in pyproject.toml hold, and docs/architecture.md
draws the same layers."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _contract_layers() -> list[set[str]]:
    """The layers contract's layers, top first, each the set of its packages' folder names."""
    (layers,) = [c["layers"] for c in _contracts() if c["id"] == "layers"]
    assert isinstance(layers, list)
    return [
        {name.strip().removeprefix("boneyard.") for name in re.split(r"[|:]", layer)}
        for layer in layers
    ]


def _drawn_layers() -> list[set[str]]:
    """The layers of the first picture of docs/architecture.md: a line that starts with a
    folder (``web/  |  interop/``), top first."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    picture = text.split("```")[1]
    folder = r"[a-z_]+/(?:<name>/)?"
    layers = []
    for line in picture.splitlines():
        found = re.match(rf"\s*({folder}(?:\s*\|\s*{folder})*)(?:\s{{2,}}|$)", line)
        if found:
            names = (part.strip().split("/")[0] for part in found.group(1).split("|"))
            layers.append(set(names))
    return layers


def test_the_contracts_hold() -> None:
    code = lint_imports(config_filenames=(str(PYPROJECT),), no_cache=True, no_logo=True)
    assert code == 0, "an import crosses a layer: run lint-imports for the details"


def test_the_architecture_page_draws_the_contracted_layers() -> None:
    assert _drawn_layers() == _contract_layers()


def test_the_layers_cover_every_package_but_the_test_kit() -> None:
    import boneyard

    source = Path(boneyard.__file__).parent
    packages = {path.parent.name for path in source.glob("*/__init__.py")}
    layered = set().union(*_contract_layers())
    assert packages - layered == {"testing"}
    assert [path.name for path in source.glob("*.py")] == ["__init__.py"]
