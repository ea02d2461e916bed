"""The exhaustive OYNO puzzle analysis agrees with a plain search and with its published tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.solvers.oyno_reference import reference_distances

from boneyard.games.oyno.board import board
from boneyard.solvers import oyno_analysis

DATA = Path(__file__).resolve().parents[2] / "docs" / "data" / "oyno"


def table_as_dict(size: int, bones: int) -> dict[tuple[int, int], int]:
    """The analysis table, decoded position by position into (occupied, up) grid masks."""
    geometry = board(size)
    resting = geometry.resting
    table = oyno_analysis.distance_table(size, bones)
    cells = oyno_analysis.subsets(len(resting), bones)
    decoded = {}
    for rank, row in enumerate(cells):
        occupied = sum(1 << resting[int(c)] for c in row)
        for sides in range(1 << bones):
            value = int(table[(rank << bones) | sides])
            if value != oyno_analysis.UNREACHED:
                up = sum(1 << resting[int(row[j])] for j in range(bones) if (sides >> j) & 1)
                decoded[(occupied, up)] = value
    return decoded


@pytest.mark.parametrize(("size", "bones"), [(3, b) for b in range(1, 8)] + [(5, 2), (5, 3)])
def test_distance_table_equals_plain_bfs(size: int, bones: int) -> None:
    assert table_as_dict(size, bones) == reference_distances(size, bones)


def test_colex_ranks_are_a_bijection() -> None:
    rows = oyno_analysis.subsets(10, 4)
    ranks = oyno_analysis.colex_rank(rows)
    assert sorted(ranks.tolist()) == list(range(210))
    assert ranks.tolist() == list(range(210))


def test_summary_of_3x3() -> None:
    summary = oyno_analysis.analyze(3, 7)
    assert summary["setups"] == 8 * (2**7 - 2)
    assert summary["solvable"] == 160
    assert summary["unsolvable"] == 848
    assert summary["gods_number"] == 5
    assert sum(summary["distribution"].values()) == summary["solvable"]


def test_single_bone_has_no_legal_setup() -> None:
    summary = oyno_analysis.analyze(5, 1)
    assert summary["setups"] == 0 and summary["gods_number"] is None


@pytest.mark.parametrize("bones", [2, 3, 4, 5])
def test_published_5x5_results_reproduce(bones: int) -> None:
    published = json.loads((DATA / f"oyno-5x5-{bones}.json").read_text())
    fresh = oyno_analysis.analyze(5, bones)
    for key in ("size", "bones", "setups", "solvable", "gods_number", "distribution"):
        assert fresh[key] == published[key], key


def test_published_tables_are_consistent() -> None:
    for bones in range(2, 11):
        published = json.loads((DATA / f"oyno-5x5-{bones}.json").read_text())
        assert published["setups"] == oyno_analysis.position_count(5, bones) - 2 * (
            oyno_analysis.position_count(5, bones) >> bones
        )
        assert sum(published["distribution"].values()) == published["solvable"]
        assert max(int(k) for k in published["distribution"]) == published["gods_number"]


def test_write_results_makes_json_and_png(tmp_path: Path) -> None:
    summary = oyno_analysis.analyze(3, 4)
    json_path, png_path = oyno_analysis.write_results(summary, tmp_path)
    assert json.loads(json_path.read_text())["distribution"] == summary["distribution"]
    assert png_path is not None and png_path.read_bytes()[:4] == b"\x89PNG"
