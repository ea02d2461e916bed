"""Each game's scale of levels (issue 28): distinct levels, each a bot that plays a legal move,
the old names as aliases, the measured ratings, and a cheap seeded look at the ladder."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

import boneyard
from boneyard.ai import check_levels, make_bot
from boneyard.ai.arena import GameTask, play_game
from boneyard.ai.levels import (
    LEVEL_NAMES,
    MAX_LEVEL,
    NETWORK_BOTS,
    hint_level,
    level_choices,
    level_for,
    level_label,
    level_number,
    rating_of,
    scale_for,
)
from boneyard.core.errors import UnknownGameError
from boneyard.core.registry import game_spec, load_game
from boneyard.core.spec import Level, Scale

from .cases import bones_cycle

GAMES = ("obonto", "bones", "oyno", "oyno_puzzle", "bondo_cones", "bonbon")


@pytest.mark.parametrize("name", GAMES)
def test_every_level_is_a_distinct_bot_or_budget(name: str) -> None:
    steps = game_spec(name).scale.steps
    assert 2 <= len(steps) <= MAX_LEVEL
    assert len({step.describe() for step in steps}) == len(steps)
    assert steps[0].bot != "random", "the weakest level still plays sensible moves"


@pytest.mark.parametrize("name", GAMES)
def test_every_level_plays_a_legal_move(name: str) -> None:
    game = boneyard.load_game(name)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    for number in scale_for(name).numbers:
        bot = make_bot(str(number), game, seat, seed=number, time_limit=0.05)
        assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_the_old_names_are_aliases_on_the_scale(name: str) -> None:
    scale = scale_for(name)
    numbers = [scale.aliases[alias] for alias in LEVEL_NAMES]
    assert numbers == sorted(numbers) and numbers[0] == 1
    above_hard = scale.steps[numbers[-1] :]
    # Above hard only what beat it at hard's time: the trained expert, or a search in Rust.
    assert all(step.bot == "expert" or step.bot.startswith("native_") for step in above_hard)
    # A network's level stands at the top alone: it is above the searches it beat.
    assert not any(step.bot in NETWORK_BOTS for step in above_hard[:-1])
    assert all(step.options.get("time_limit") == 1.0 for step in above_hard)
    for alias, number in zip(LEVEL_NAMES, numbers):
        assert level_for(name, alias) == level_for(name, number) == level_for(name, str(number))
        assert level_number(name, alias.upper()) == number


def test_hard_keeps_its_one_second_search() -> None:
    assert level_for("bones", "hard") == Level("alphabeta", {"time_limit": 1.0})
    assert level_for("obonto", "hard").options["iterations"] == 20000


def test_bones_top_level_leaves_the_cycle_the_plain_search_walks_into() -> None:
    """Level 5 (and so a hint, and a game stored at level 5) is the native alpha-beta that
    plays a move bringing back a seen position only when clearly best: at depth 3 the plain
    search repeats in the traced cycle, level 5 does not."""
    from boneyard.ai.repetition import repeating_actions

    state = bones_cycle()
    repeats = repeating_actions(state)
    assert scale_for("bones").strongest == "5"
    # A depth and a long clock, so the search is depth 3 on any machine.
    plain = make_bot("native_alphabeta", state.game, 0, seed=1, max_depth=3, time_limit=30)
    assert plain.step(state) in repeats
    top = make_bot("5", state.game, 0, seed=1, max_depth=3, time_limit=30)
    move = top.step(state)
    assert move in state.legal_actions() and move not in repeats


def test_an_unknown_game_has_no_levels() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'obontoo'; did you mean 'obonto'"):
        scale_for("obontoo")
    with pytest.raises(UnknownGameError, match="games: bonbon, bondo_cones"):
        level_for("no_such_game", "easy")


def test_every_game_names_bots_and_options_that_exist() -> None:
    check_levels()


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (Level("mctss"), "level 2 of obonto names bot 'mctss'; bots: alphabeta, expert, greedy,"),
        (
            Level("mcts", {"iteration": 5}),
            "level 2 of obonto: bot 'mcts' has no option 'iteration'; its options: ",
        ),
    ],
)
def test_a_misspelt_bot_in_a_spec_is_refused_naming_the_bots(step: Level, message: str) -> None:
    spec = game_spec("obonto")
    steps = (spec.scale.steps[0], step)
    misspelt = dataclasses.replace(spec, levels=Scale(steps, {"easy": 1, "medium": 2, "hard": 2}))
    with pytest.raises(ValueError, match=re.escape(message)):
        check_levels([misspelt])


def test_the_command_line_checks_the_levels_when_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from boneyard.cli import main

    spec = game_spec("obonto")
    misspelt = dataclasses.replace(spec, levels=Scale((Level("mctss"),)))
    monkeypatch.setattr("boneyard.ai.game_specs", lambda: [misspelt])
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code != 0
    assert "names bot 'mctss'; bots:" in str(result.exception)


def test_an_unknown_level_is_refused_naming_the_levels() -> None:
    with pytest.raises(ValueError, match="levels: 1 to 5 or easy, medium, hard"):
        level_for("bones", 6)
    with pytest.raises(ValueError, match="levels: 1 to 5"):
        make_bot("0", "bones", 0)
    with pytest.raises(ValueError, match="unknown bot or level"):
        make_bot("9", "bones", 0)


def test_a_scale_refuses_repeats_and_bad_aliases() -> None:
    greedy = Level("greedy", use_solver=False)
    with pytest.raises(ValueError, match="differ"):
        Scale((greedy, greedy))
    with pytest.raises(ValueError, match="alias"):
        Scale((greedy, Level("greedy")), {"hard": 3})
    with pytest.raises(ValueError, match="1 to 8"):
        Scale(tuple(Level("mcts", {"iterations": n}) for n in range(1, 10)))


def test_choices_show_numbers_ratings_and_aliases() -> None:
    choices = level_choices("bones")
    assert [c["number"] for c in choices] == list(scale_for("bones").numbers)
    assert choices[0]["aliases"] == ["easy"] and "hard" in choices[-2]["aliases"]
    assert choices[-1]["aliases"] == []  # the native search above hard has a number only
    for choice in choices:
        assert choice["words"].startswith(f"Level {choice['number']}")
        assert "alphabeta" not in choice["words"] and "greedy" not in choice["words"]
        if choice["rating"] is not None:
            assert f"about {choice['rating']}" in choice["words"]
    assert rating_of("bones", 1) in (None, 1000)
    assert rating_of("no_such_game", 1) is None
    assert level_label("3") == "level 3" and level_label("easy") == "easy"


@pytest.mark.parametrize(("name", "weak", "strong"), [("bones", 1, 2), ("oyno", 1, 3)])
def test_a_stronger_level_beats_a_weaker_one(name: str, weak: int, strong: int) -> None:
    """Seeded, by iterations or depth, not by the clock: the same games every run."""

    def spec(number: int) -> str:
        level = level_for(name, number)
        options = {k: v for k, v in level.options.items() if k != "time_limit"}
        options["use_solver"] = level.use_solver
        return level.bot + ":" + ",".join(f"{k}={v}" for k, v in options.items())

    score = 0.0
    games = 4
    for index in range(games):
        seats = (spec(strong), spec(weak)) if index % 2 == 0 else (spec(weak), spec(strong))
        record = play_game(GameTask(name, {}, seats, seed=100 + index, index=index))
        mine = record.returns[seats.index(spec(strong))]
        theirs = record.returns[1 - seats.index(spec(strong))]
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    assert score / games > 0.5


def test_stored_ratings_match_the_levels_they_measured() -> None:
    """Every game in ratings.json was measured on its current scale, each level once."""
    from boneyard.ai.levels import _ratings

    for name, result in _ratings().get("games", {}).items():
        scale = scale_for(name)
        assert [int(n) for n in result["levels"]] == list(scale.numbers), name
        for number, entry in result["levels"].items():
            assert entry["bot"] == scale.level(number).describe(), (name, number)
            if entry["rating"] is None:  # it won every game: only a lower bound is known
                assert entry["at_least"] > result["levels"][str(int(number) - 1)]["rating"]
                assert rating_of(name, int(number)) is None
            else:
                assert rating_of(name, int(number)) is not None


def test_the_expert_stands_above_hard_where_its_network_beats_hard() -> None:
    """Bon-Bon: hard (level 4), the native ISMCTS that beat it (5), the expert above both (6),
    its search in Rust (``native_expert``: the same network and search as ``expert``)."""
    scale = scale_for("bonbon")
    assert scale.level(scale.strongest).bot == "native_expert"
    assert int(scale.strongest) == scale.aliases["hard"] + 2
    native = scale.level(scale.aliases["hard"] + 1)
    assert native.bot == "native_ismcts" and native.options["time_limit"] == 1.0


def test_an_old_games_hard_still_plays_hards_search() -> None:
    """A game stored with the level ``hard`` before the native levels came keeps its bot: the
    Python search at 1 s, not the level above it."""
    from boneyard.ai.mcts import ISMCTSBot

    game = load_game("bonbon")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    bot = make_bot("hard", game, state.current_player(), seed=1, time_limit=0.05)
    assert type(bot) is ISMCTSBot
    assert bot.step(state) in state.legal_actions()
    for name, bot_name in (("bones", "alphabeta"), ("obonto", "mcts"), ("oyno", "alphabeta")):
        assert make_bot("hard", load_game(name), 0, seed=1).name == bot_name


def test_a_hint_asks_the_strongest_level(monkeypatch: pytest.MonkeyPatch) -> None:
    import boneyard.ai as ai

    asked: list[str] = []
    real = ai.make_bot

    def recorded(level: str, *args: Any, **options: Any) -> Any:
        asked.append(level)
        return real(level, *args, **options)

    monkeypatch.setattr(ai, "make_bot", recorded)
    for name in ("bonbon", "bones"):
        state = load_game(name).new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        assert ai.hint(state, seed=1) in state.legal_actions()
    assert asked == [scale_for("bonbon").strongest, scale_for("bones").strongest]


def test_a_hint_in_bon_bon_for_four_asks_the_native_search_for_want_of_a_network() -> None:
    assert hint_level(load_game("bonbon", players=4)) == "5"
    assert level_for("bonbon", 5).bot == "native_ismcts"
    assert hint_level(load_game("bonbon")) == scale_for("bonbon").strongest


def test_oynos_top_level_plays_a_solved_duel_perfectly() -> None:
    """Where the duel is small enough to solve within a move (3x3 with two bones a side), the
    top level plays a best move of the native exact solve, its search only beyond it."""
    import random

    from boneyard.solvers import oyno_duel

    game = load_game("oyno", size=3, bones_per_player=2)
    solution = oyno_duel.solve(3, 2, place_rule=str(game.params["place_rule"]), engine="native")
    top = scale_for("oyno").strongest
    rng = random.Random(3)
    checked = 0
    while checked < 12:
        state = game.new_initial_state()
        while not state.is_terminal() and checked < 12:
            bot = make_bot(top, game, state.current_player(), seed=checked, time_limit=0.05)
            assert bot.step(state) in solution.best_actions(state), state.history()
            checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
