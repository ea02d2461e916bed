"""One version number (src/boneyard/core/version.py), the same in pyproject.toml, the changelog's
newest entry, CITATION.cff and ``boneyard --version``; the LICENSE is the one pyproject names."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml
from click.testing import CliRunner

from boneyard.cli import main
from boneyard.core.version import __version__

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_has_the_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__


def test_the_changelog_opens_with_this_version() -> None:
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert headings[0] == __version__, "the newest entry is this release's"
    assert len(headings) == len(set(headings)), "each release once"


def test_the_citation_names_this_version_and_the_license() -> None:
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["version"] == __version__ and citation["cff-version"] == "1.2.0"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert citation["license"] == project["license"]["text"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_command_says_the_version() -> None:
    answer = CliRunner().invoke(main, ["--version"])
    assert answer.exit_code == 0 and answer.output.strip() == f"boneyard, version {__version__}"
