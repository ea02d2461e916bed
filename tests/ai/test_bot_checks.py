"""The checks every bot shares, written once in ``ai/base.py``: its time limit and its counts
(``time_limit_seconds``, ``whole_number``: a bad value is refused with the same sentence whichever
bot is asked, a good one kept) and whose turn it is (``Bot.check_turn``, for a Python or a native
state alike)."""

from __future__ import annotations

import inspect
import math
from typing import Any

import pytest

import boneyard
from boneyard import native
from boneyard.ai import BOTS, list_bots, make_bot
from boneyard.ai.base import Budget, time_limit_seconds, whole_number

TIMED_BOTS = sorted(
    name for name, cls in BOTS.items() if "time_limit" in inspect.signature(cls.__init__).parameters
)

BAD_TIME_LIMITS = [0, -1.5, math.nan, math.inf, True, "1"]


def test_the_timed_bots_are_the_searches() -> None:
    # The list the tests below run over is not empty by accident.
    assert {"alphabeta", "greedy", "lookahead", "mcts", "native_alphabeta"} <= set(TIMED_BOTS)


@pytest.mark.parametrize("bot_name", TIMED_BOTS)
@pytest.mark.parametrize("time_limit", BAD_TIME_LIMITS, ids=repr)
def test_every_timed_bot_refuses_a_bad_time_limit(bot_name: str, time_limit: Any) -> None:
    # Before: alphabeta took any of these, and the Budget bots (mcts, expert, ...) nan, inf, True.
    with pytest.raises(ValueError, match=r"time_limit must be positive seconds, not "):
        make_bot(bot_name, "obonto", 0, time_limit=time_limit)


@pytest.mark.parametrize("bot_name", TIMED_BOTS)
def test_every_timed_bot_keeps_a_good_time_limit(bot_name: str) -> None:
    bot = make_bot(bot_name, "obonto", 0, time_limit=0.25)
    holder: Any = getattr(bot, "budget", bot)  # the searches on a Budget keep it there
    assert holder.time_limit == 0.25


@pytest.mark.parametrize(
    ("bot_name", "options", "message"),
    [
        ("alphabeta", {"max_depth": 0}, "max_depth is a whole number of plies from 1 up, not 0"),
        ("alphabeta", {"max_depth": 2.5}, "max_depth is a whole number of plies from 1 up"),
        ("alphabeta", {"max_depth": True}, "max_depth is a whole number of plies from 1 up"),
        ("mcts", {"iterations": 0}, "iterations is a whole number from 1 up, not 0"),
        ("mcts", {"iterations": 2.5}, "iterations is a whole number from 1 up, not 2.5"),
        ("greedy", {"samples": 0}, "samples is a whole number from 1 up, not 0"),
        ("greedy", {"evaluations": 0}, "evaluations is a whole number from 1 up, not 0"),
        (
            "native_alphabeta",
            {"max_depth": 65},
            "max_depth is a whole number of plies from 1 to 64, not 65",
        ),
        (
            "native_alphabeta",
            {"threat_plies": -1},
            "threat_plies is a whole number of plies from 0 to 64, not -1",
        ),
        ("native_lookahead", {"max_depth": 9}, "max_depth is a whole number from 0 to 8, not 9"),
        ("native_lookahead", {"reply_width": 0}, "reply_width is a whole number from 1 to 100"),
    ],
)
def test_a_bad_count_names_the_option_and_its_range(
    bot_name: str, options: dict[str, Any], message: str
) -> None:
    # Before: alphabeta took 2.5 and True as depths, mcts 2.5 iterations.
    with pytest.raises(ValueError, match=message):
        make_bot(bot_name, "bondo_cones", 0, **options)


def test_the_validators_return_what_they_accept() -> None:
    assert whole_number("width", 100, 1, 100) == 100
    assert whole_number("iterations", 10**9, 1) == 10**9
    assert time_limit_seconds(None) is None
    assert time_limit_seconds(2) == 2
    budget = Budget(iterations=5)
    assert (budget.iterations, budget.time_limit) == (5, None)
    with pytest.raises(ValueError, match="a budget needs iterations, a time limit, or both"):
        Budget()


@pytest.mark.parametrize("use_solver", [False, True])
@pytest.mark.parametrize("engine", ["python", "native"])
@pytest.mark.parametrize("bot_name", list_bots())
def test_every_bot_refuses_a_state_it_does_not_play(
    bot_name: str, engine: str, use_solver: bool
) -> None:
    # Before: native_lookahead (and native_alphabeta with the solvers) read a native state of
    # another game as their own game's document first, and failed on that instead.
    load = boneyard.load_game if engine == "python" else native.load_game
    state: Any = load("bones").new_initial_state()
    options: dict[str, Any] = {"seed": 1, "time_limit": 0.05, "use_solver": use_solver}
    with pytest.raises(ValueError, match="plays seat 1 of bones, but the state asks for 0"):
        make_bot(bot_name, "bones", 1, **options).step(state)
    with pytest.raises(ValueError, match="this bot plays obonto, not bones"):
        make_bot(bot_name, "obonto", 0, **options).step(state)
