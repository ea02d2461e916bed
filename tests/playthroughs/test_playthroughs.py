"""The golden playthroughs still describe what the games do (rewrite: make playthroughs).

boneyard's own games keep theirs here; another game keeps them in its own folder
(``boneyard.testing.playthroughs.golden_path``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boneyard.testing.playthroughs import difference, expected_files, golden_path, stale_files

FOLDER = Path(__file__).parent
EXPECTED = expected_files()


@pytest.mark.parametrize("filename", sorted(EXPECTED))
def test_playthrough_unchanged(filename: str) -> None:
    name, params = EXPECTED[filename]
    found = difference(golden_path(filename, name, FOLDER), name, params)
    assert found is None, found


def test_no_stale_files() -> None:
    stale = [path.name for path in stale_files(FOLDER)]
    assert not stale, f"golden files for no registered game or variant: {stale}"
