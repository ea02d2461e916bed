"""Arena games on the native engine (``GameTask.engine``, ``boneyard analyze --engine native``):
the same seed plays the same game as on the Python engine, move for move, for bots that read
native states (``random``) and for those shown the position rebuilt in Python (``greedy``, a
level with an exact solver); the study says which engine played; a bad engine is refused."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import boneyard
from boneyard.ai.arena import GameTask, play_game, tasks_for_pair
from boneyard.ai.study import StudyPlan
from boneyard.cli import main
from boneyard.native import native_games


def _same_game(task: GameTask) -> None:
    python = play_game(task)
    native = play_game(replace(task, engine="native"))
    assert (native.returns, native.length, native.turns, native.first_player) == (
        python.returns,
        python.length,
        python.turns,
        python.first_player,
    ), task


@pytest.mark.parametrize("name", sorted(set(native_games()) & set(boneyard.list_games())))
def test_random_games_are_the_python_engines_move_for_move(name: str) -> None:
    seats = ("random",) if name == "oyno_puzzle" else ("random", "random")
    for seed in range(4):
        _same_game(GameTask(name, {}, seats, seed))


@pytest.mark.parametrize(
    ("name", "params", "seats"),
    [
        ("oyno", {"bones_per_player": 3}, ("greedy", "random")),
        ("bonbon", {}, ("random", "greedy")),
        # Greedy asks Obonto's solo-phase solver when it may, which reads Python states.
        ("obonto", {"games": 1}, ("greedy:use_solver=true", "random")),
    ],
)
def test_a_bot_that_reads_python_states_plays_the_same_game(
    name: str, params: dict[str, object], seats: tuple[str, ...]
) -> None:
    _same_game(GameTask(name, params, seats, 11, time_limit=None))


def test_a_bad_engine_is_refused_with_the_engines() -> None:
    with pytest.raises(ValueError, match="no engine 'rust'; engines: python, native"):
        play_game(GameTask("bones", {}, ("random", "random"), 0, engine="rust"))
    with pytest.raises(ValueError, match="engines: python, native"):
        tasks_for_pair("bones", {}, 2, "random", "random", 2, 0, 0, None, "rust")
    with pytest.raises(ValueError, match="engines: python, native"):
        StudyPlan("bones", ("random",), (2,), (), engine="rust")


def test_the_command_plays_on_the_native_engine_and_says_so(tmp_path: Path) -> None:
    arguments = ["analyze", "oyno", "--levels", "random,native_greedy", "-n", "6"]
    arguments += ["--skill-games", "4", "-p", "bones_per_player=3"]
    result = CliRunner().invoke(
        main, [*arguments, "--engine", "native", "--out", str(tmp_path), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "oyno.json").read_text())
    assert summary["engine"] == "native"
    assert "--engine native" in summary["command"]
    assert summary["games"] == 6 + 6 + 4
    python = CliRunner().invoke(
        main, [*arguments, "--skill-games", "0", "--out", str(tmp_path / "py"), "--quiet"]
    )
    assert python.exit_code == 0, python.output
    again = json.loads((tmp_path / "py" / "oyno.json").read_text())
    # The random self-play is the same games on either engine (in less time, not compared).
    for self_play in (again["self_play"][0], summary["self_play"][0]):
        assert self_play.pop("seconds") > 0
    assert again["self_play"][0] == summary["self_play"][0]
    refused = CliRunner().invoke(main, ["analyze", "bones", "--engine", "rust"])
    assert refused.exit_code == 2 and "'rust' is not one of 'python', 'native'" in refused.output
