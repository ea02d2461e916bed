"""Self-play studies (``boneyard analyze GAME``): who moved first, who won, lengths, skill."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from boneyard.ai.arena import GameRecord, GameTask, play_game
from boneyard.ai.study import Group, StudyPlan, plan_tasks, run_study, self_play_summary, winners
from boneyard.cli import main

# 3x3 OYNO with one bone a side: red (seat 0, first) wins with its forced first place
ONE_BONE = {"size": 3, "bones_per_player": 1}


def record(returns: list[float], first: int = 0, turns: int = 10) -> GameRecord:
    return GameRecord(0, 0, 0, ["x"] * len(returns), returns, turns, 0.0, first, turns)


def test_the_arena_records_who_moved_first_and_the_decisions() -> None:
    # Bond O Cones: after the set-up a chance event (first 0 / first 1) names who starts
    firsts = {
        play_game(GameTask("bondo_cones", {}, ("random", "random"), s)).first_player
        for s in range(6)
    }
    assert firsts == {0, 1}
    game = play_game(GameTask("obonto", {"first": 1}, ("random", "random"), 2))
    assert game.first_player == 1
    oyno = play_game(GameTask("oyno", ONE_BONE, ("random", "random"), 0))
    assert (oyno.first_player, oyno.turns, oyno.returns) == (0, 1, [1.0, -1.0])
    # chance outcomes are actions but not decisions
    bonbon = play_game(GameTask("bonbon", {}, ("random", "random"), 0))
    assert bonbon.turns < bonbon.length


def test_winners_are_the_top_returns_and_a_tie_of_all_is_a_draw() -> None:
    assert winners(record([1.0, -1.0])) == [0]
    assert winners(record([0.0, 0.0])) == []
    assert winners(record([2.0, 0.0, 2.0])) == [0, 2]
    assert winners(record([1.0])) == [0]


def test_self_play_counts_the_first_player_not_seat_zero() -> None:
    games = [record([1.0, -1.0], first=0), record([1.0, -1.0], first=1), record([0.0, 0.0])]
    summary = self_play_summary(Group("self", ("random",), {}, 2), games)
    assert summary["first_player_wins"]["count"] == 1
    assert summary["second_player_wins"]["count"] == 1
    assert summary["draws"]["count"] == 1
    assert summary["seat_wins"][0]["count"] == 2
    assert summary["first_player_score"]["rate"] == pytest.approx(0.5)
    low, high = summary["first_player_wins"]["interval_95"]
    assert low < 1 / 3 < high


def test_a_study_of_a_game_the_first_player_always_wins() -> None:
    plan = StudyPlan("oyno", ("random", "greedy"), (6, 4), (4,), params=ONE_BONE, seed=2)
    summary = run_study(plan)
    by_level = {entry["level"]: entry for entry in summary["self_play"]}
    assert by_level["random"]["games"] == 6 and by_level["greedy"]["games"] == 4
    for entry in by_level.values():
        assert entry["first_player_wins"]["rate"] == 1.0
        assert entry["draws"]["count"] == 0
        assert entry["length"]["histogram"] == {"1": entry["games"]}
    (skill,) = summary["skill"]
    # seats alternate, and whoever sits first wins: the stronger wins exactly half
    assert (skill["bot_a"], skill["bot_b"], skill["wins"], skill["losses"]) == (
        "greedy",
        "random",
        2,
        2,
    )


def test_player_counts_make_one_group_a_count() -> None:
    plan = StudyPlan("bonbon", ("random",), (3,), (), player_counts=(2, 4))
    groups, tasks = plan_tasks(plan)
    assert [(g.kind, g.players) for g in groups] == [("self", 2), ("self", 4)]
    assert [len(t.seats) for t in tasks] == [2, 2, 2, 4, 4, 4]
    assert len({t.seed for t in tasks}) == 6
    with pytest.raises(ValueError, match="no players parameter"):
        plan_tasks(StudyPlan("bones", ("random",), (1,), (), player_counts=(2,)))


def test_plans_refuse_counts_that_do_not_fit_the_levels() -> None:
    with pytest.raises(ValueError, match="one per level"):
        StudyPlan("bones", ("random", "greedy"), (1,), (1,))
    with pytest.raises(ValueError, match="neighbouring levels"):
        StudyPlan("bones", ("random", "greedy"), (1, 1), ())
    with pytest.raises(ValueError, match="must differ"):
        StudyPlan("bones", ("random", "random"), (1, 1), (1,))


def test_the_command_writes_json_and_plots(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "analyze",
            "oyno",
            "--levels",
            "random,greedy",
            "-n",
            "4",
            "--skill-games",
            "2",
            "-p",
            "size=3",
            "-p",
            "bones_per_player=1",
            "--out",
            str(tmp_path),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "oyno.json").read_text())
    assert summary["command"].startswith("boneyard analyze oyno")
    assert summary["commit"]
    assert summary["self_play"][0]["first_player_wins"]["rate"] == 1.0
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    if pngs:  # matplotlib (the analysis extra) installed
        assert pngs == ["oyno-length.png", "oyno-outcomes.png", "oyno-skill.png"]


def test_the_command_explains_bad_counts() -> None:
    result = CliRunner().invoke(main, ["analyze", "bones", "-n", "3,4,5"])
    assert result.exit_code == 2
    assert "give one number, or 2 (one each), not 3" in result.output
    result = CliRunner().invoke(main, ["analyze", "bones", "--bones", "3"])
    assert result.exit_code == 2 and "oyno_puzzle only" in result.output
