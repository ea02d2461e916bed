"""``boneyard solve oyno_puzzle`` and ``boneyard analyze oyno_puzzle``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from boneyard.cli import main


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, AssertionError)
    return result.exit_code, result.output


def test_solve_prints_moves_and_boards() -> None:
    code, output = run("solve", "oyno_puzzle", "--start", "U...D/.D.../..o../...U./D...U")
    assert code == 0
    assert "optimal solution: 3 moves" in output
    assert "1. a5-" in output and "3. " in output
    assert output.rstrip().endswith("solved in 3 moves")


def test_solve_quiet_prints_only_the_moves() -> None:
    code, output = run("solve", "oyno_puzzle", "--start", "U.D/.o./...", "-q")
    assert code == 0
    assert len(output.split()) == 1 and "-" in output


def test_solve_already_solved() -> None:
    code, output = run("solve", "oyno_puzzle", "--start", "U.U/.o./...")
    assert code == 0 and "already solved" in output


def test_solve_unsolvable_says_so() -> None:
    code, output = run("solve", "oyno_puzzle", "--start", "DD./DoD/UDD")
    assert code == 1
    assert "no solution" in output


def test_solve_bad_start_is_a_clear_error_without_traceback() -> None:
    result = CliRunner().invoke(
        main, ["solve", "oyno_puzzle", "--start", "U...D/.D.../..o../...U./D..xU"]
    )
    assert result.exit_code == 2
    assert "rank 1, cell d1: 'x' is not one of U, D, ., o" in result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, ValueError)


def test_solve_start_without_up_bone() -> None:
    code, output = run("solve", "oyno_puzzle", "--start", "D.D/.o./...")
    assert code == 2
    assert "at least one up bone" in output


def test_analyze_writes_json_and_chart(tmp_path: Path) -> None:
    code, output = run(
        "analyze", "oyno_puzzle", "--bones", "6", "--size", "3", "--out", str(tmp_path)
    )
    assert code == 0, output
    summary = json.loads((tmp_path / "oyno-3x3-6.json").read_text())
    assert summary["setups"] == 1736 and summary["solvable"] == 1736
    assert summary["gods_number"] == 6
    assert summary["distribution"] == {"1": 312, "2": 528, "3": 488, "4": 316, "5": 76, "6": 16}
    assert (tmp_path / "oyno-3x3-6.png").exists()


def test_analyze_refuses_bad_bone_counts() -> None:
    code, output = run("analyze", "oyno_puzzle", "--bones", "8", "--size", "3")
    assert code == 2 and "1 to 7" in output
    code, output = run("analyze", "oyno_puzzle", "--bones", "3", "--size", "4")
    assert code == 2 and "odd" in output


def test_analyze_refuses_what_does_not_fit_in_memory() -> None:
    code, output = run("analyze", "oyno_puzzle", "--bones", "12")
    assert code == 2 and "positions" in output and "at most" in output
