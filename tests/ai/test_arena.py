"""The arena: seats alternate, games are seeded and replay, results add up, files are written."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import boneyard
from boneyard.ai.arena import (
    GameTask,
    build_bot,
    head_to_head,
    parse_bot_spec,
    play_game,
    round_robin,
    run_tasks,
)
from boneyard.cli import main


def test_bot_specs_carry_options() -> None:
    assert parse_bot_spec("mcts:iterations=50,rollout_depth=none,rollout=heuristic") == (
        "mcts",
        {"iterations": 50, "rollout_depth": None, "rollout": "heuristic"},
    )
    assert parse_bot_spec("Hard") == ("hard", {})
    bot = build_bot("mcts:time_limit=0.2", boneyard.load_game("bones"), 0, 1, 0.7)
    assert bot.budget.time_limit == 0.2  # the spec's own limit wins over the arena's
    with pytest.raises(ValueError, match="name=value"):
        parse_bot_spec("mcts:iterations")


def test_seats_alternate_and_results_add_up() -> None:
    result = head_to_head("obonto", "greedy", "random", games=4, seed=3)
    (pair,) = result.pairs
    assert pair.games == 4
    assert pair.wins + pair.draws + pair.losses == 4
    assert [record.seats for record in pair.records] == [
        ["greedy", "random"],
        ["random", "greedy"],
    ] * 2
    low, high = pair.interval
    assert low <= pair.score <= high
    for record in pair.records:
        assert sum(record.returns) == 0.0  # Obonto is zero-sum


def test_a_game_replays_exactly_from_its_task() -> None:
    task = GameTask("obonto", dict(boneyard.load_game("obonto").params), ("greedy", "random"), 17)
    assert play_game(task).returns == play_game(task).returns


def test_equal_seeds_give_equal_arenas() -> None:
    first = head_to_head("bones", "greedy", "random", games=2, seed=5)
    second = head_to_head("bones", "greedy", "random", games=2, seed=5)
    assert [r.returns for r in first.pairs[0].records] == [
        r.returns for r in second.pairs[0].records
    ]


def test_one_player_games_compare_both_bots_on_the_same_deal() -> None:
    name = "oyno_puzzle" if "oyno_puzzle" in boneyard.list_games() else None
    if name is None:
        pytest.skip("oyno_puzzle has not landed")
    result = head_to_head(name, "random", "greedy", games=2, seed=1, params={"max_moves": 10})
    (pair,) = result.pairs
    assert pair.games == 2
    assert len(pair.records) == 4  # each deal played once by each bot
    assert {tuple(r.seats) for r in pair.records} == {("random",), ("greedy",)}


def test_round_robin_fits_elo_and_writes_json_and_csv(tmp_path: Path) -> None:
    result = round_robin("bones", ["random", "greedy", "easy"], games=2, seed=2)
    assert len(result.pairs) == 3
    assert set(result.elo) == {"random", "greedy", "easy"}
    assert sum(result.elo.values()) == pytest.approx(0.0, abs=1e-6)
    result.write_json(tmp_path / "r.json")
    result.write_csv(tmp_path / "r.csv")
    doc = json.loads((tmp_path / "r.json").read_text())
    assert len(doc["games"]) == 6
    assert doc["pairs"][0]["games"] == 2
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert len(rows) == 6
    assert rows[0]["bot_a"] == "random"


def test_worker_processes_give_the_same_results_as_inline() -> None:
    game = boneyard.load_game("bones", width=5, height=5, pieces=5)
    tasks = [GameTask("bones", dict(game.params), ("greedy", "random"), seed) for seed in (1, 2)]
    inline = run_tasks(tasks)
    pooled = run_tasks(tasks, workers=2)
    assert [r.returns for r in inline] == [r.returns for r in pooled]
    assert [r.seed for r in pooled] == [1, 2]  # task order, whatever finished first


def test_bad_arena_input_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot or level"):
        head_to_head("obonto", "grandmaster", "random", games=1)
    with pytest.raises(ValueError, match="backends"):
        head_to_head("obonto", "random", "greedy", games=1, backend="spark")
    with pytest.raises(ValueError, match="two bots"):
        round_robin("obonto", ["random"], games=1)


def test_the_arena_command(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "a.json"
    result = runner.invoke(
        main,
        [
            "arena",
            "bones",
            "greedy",
            "random",
            "-n",
            "2",
            "--quiet",
            "--json",
            str(out),
            "-p",
            "width=6",
            "-p",
            "height=5",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output
    assert json.loads(out.read_text())["params"]["width"] == 6
    bad = runner.invoke(main, ["arena", "bones", "greedy"])
    assert bad.exit_code != 0
    assert "two bots" in bad.output


@pytest.mark.slow
@pytest.mark.ray
def test_a_small_ray_arena_runs_locally() -> None:
    ray = pytest.importorskip("ray")
    try:
        result = head_to_head(
            "bones",
            "greedy",
            "random",
            games=2,
            seed=4,
            params={"width": 5, "height": 5, "pieces": 5},
            backend="ray",
            ray_init={"num_cpus": 1, "log_to_driver": False},
        )
        inline = head_to_head(
            "bones",
            "greedy",
            "random",
            games=2,
            seed=4,
            params={"width": 5, "height": 5, "pieces": 5},
        )
    finally:
        ray.shutdown()
    assert result.pairs[0].games == 2
    assert [r.returns for r in result.pairs[0].records] == [
        r.returns for r in inline.pairs[0].records
    ]


def test_the_arena_command_round_robin_prints_an_elo_table(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    result = CliRunner().invoke(
        main,
        [
            "arena",
            "bones",
            "--round-robin",
            "random,greedy,easy",
            "-n",
            "1",
            "--quiet",
            "--csv",
            str(out),
            "-p",
            "width=5",
            "-p",
            "height=5",
            "-p",
            "pieces=5",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output
    assert len(list(csv.DictReader(out.open()))) == 3


def test_greedy_with_a_time_limit_still_answers_from_one_resample() -> None:
    game = boneyard.load_game("bonbon")
    bot = build_bot("greedy:samples=50,time_limit=0.000001", game, 0, 1, None)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert bot.step(state) in state.legal_actions()
