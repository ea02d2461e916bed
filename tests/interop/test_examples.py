"""The interop example and benchmark scripts run (tiny settings; their numbers are not checked)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_openspiel_mcts_plays_boneyard_mcts(capsys: pytest.CaptureFixture[str]) -> None:
    example = _load(ROOT / "examples" / "openspiel_mcts_vs_boneyard.py")
    argv = ["--game", "bones", "--games", "2", "--simulations", "3", "--iterations", "3"]
    assert example.main(argv) == 0
    out = capsys.readouterr().out
    assert "game 2: OpenSpiel MCTSBot (seat 1)" in out
    assert "total: OpenSpiel MCTSBot" in out


def test_the_example_refuses_hidden_information_games() -> None:
    example = _load(ROOT / "examples" / "openspiel_mcts_vs_boneyard.py")
    with pytest.raises(SystemExit, match="hidden information"):
        example.main(["--game", "bonbon", "--games", "1"])


def test_the_interop_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load(ROOT / "benchmarks" / "bench_interop.py")
    bench.main(["--games", "bones", "--seconds", "0.05", "--rounds", "1", "--dict-road"])
    out = capsys.readouterr().out
    header, row = out.splitlines()[:2]
    assert header.split()[:8] == [
        "game",
        "engine",
        "step",
        "ratio",
        "agent",
        "ratio",
        "dict",
        "ratio",
    ]
    assert row.startswith("bones") and row.split()[-1] in ("meets", "MISSES")
    assert "bar: the agent loop at most 2.0x" in out
