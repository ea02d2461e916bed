"""The golden playthroughs still describe what the games do (rewrite: make playthroughs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boneyard.testing.playthroughs import expected_files, playthrough

FOLDER = Path(__file__).parent
EXPECTED = expected_files()


@pytest.mark.parametrize("filename", sorted(EXPECTED))
def test_playthrough_unchanged(filename: str) -> None:
    path = FOLDER / filename
    name, params = EXPECTED[filename]
    assert path.exists(), f"{filename} is missing: run `make playthroughs` and review it"
    want = path.read_text().splitlines()
    got = playthrough(name, params).splitlines()
    for number, (old, new) in enumerate(zip(want, got), start=1):
        assert old == new, f"{filename}:{number} differs\n  golden: {old}\n  now:    {new}"
    assert len(want) == len(got), f"{filename}: {len(want)} lines golden, {len(got)} now"


def test_no_stale_files() -> None:
    present = {path.name for path in FOLDER.glob("*.txt")}
    stale = present - set(EXPECTED)
    assert not stale, f"golden files for no registered game or variant: {sorted(stale)}"
