"""make_bot's names and levels, the exact-solver registry, and hint."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import boneyard
from boneyard import State, solvers
from boneyard.ai import LEVEL_NAMES, Level, hint, level_for, list_bots, make_bot
from boneyard.core.registry import game_specs
from boneyard.core.spec import GameSpec, declare, undeclare

from .cases import GAME_NAMES
from .toy_games import TicTacToe


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_every_level_of_every_game_makes_a_bot(name: str, level: str) -> None:
    game = boneyard.load_game(name)
    bot = make_bot(level, game, 0, seed=1)
    assert bot.seat == 0
    assert bot.name == level_for(name, level).bot


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_bot_name_makes_a_bot(name: str) -> None:
    for bot_name in list_bots():
        assert make_bot(bot_name, name, 0, seed=1).name == bot_name


def test_an_unknown_name_lists_the_levels_and_the_bots() -> None:
    with pytest.raises(ValueError, match="unknown bot or level 'grandmaster'") as caught:
        make_bot("grandmaster", "obonto", 0)
    message = str(caught.value)
    for allowed in (*LEVEL_NAMES, *list_bots()):
        assert allowed in message


def test_an_unknown_option_names_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match=r"no option 'depth'.*max_depth"):
        make_bot("alphabeta", "obonto", 0, depth=3)


def test_level_for_refuses_an_unknown_level() -> None:
    with pytest.raises(ValueError, match=r"levels: 1 to \d+ or easy, medium, hard"):
        level_for("obonto", "grandmaster")


def test_time_limit_replaces_the_level_time_budget() -> None:
    game = boneyard.load_game("obonto")
    bot = make_bot("mcts", game, 0, time_limit=0.25)
    assert bot.budget.time_limit == 0.25  # type: ignore[attr-defined]
    assert make_bot("alphabeta", game, 0, time_limit=0.5).time_limit == 0.5  # type: ignore[attr-defined]


def test_hard_levels_answer_within_two_seconds_by_their_budget() -> None:
    # The budget is data: every hard level caps its time below 2 s (measured in docs/ai.md).
    for name in GAME_NAMES:
        level = level_for(name, "hard")
        limit = level.options.get("time_limit")
        if level.bot in ("mcts", "ismcts", "alphabeta"):
            assert limit is not None and limit <= 1.6, name


# ----- exact solvers -----------------------------------------------------------------------


class FakeSolver:
    """Answers the last legal action and counts its calls."""

    def __init__(self, answer_illegal: bool = False) -> None:
        self.calls = 0
        self.answer_illegal = answer_illegal

    def __call__(self, state: State) -> int | None:
        self.calls += 1
        if self.answer_illegal:
            return -5
        return state.legal_actions()[-1]


@pytest.fixture
def fake_solver(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSolver]:
    fake = FakeSolver()
    monkeypatch.setitem(solvers._loaded, "obonto", fake)
    yield fake


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_medium_and_hard_play_the_solver_move(fake_solver: FakeSolver, level: str) -> None:
    game = boneyard.load_game("obonto")
    state = game.new_initial_state()
    assert make_bot(level, game, 0, seed=1).step(state) == state.legal_actions()[-1]
    assert fake_solver.calls == 1


@pytest.mark.parametrize("bot_name", ["greedy", "mcts", "ismcts", "alphabeta"])
def test_a_bot_name_asks_the_solver_only_when_told(fake_solver: FakeSolver, bot_name: str) -> None:
    game = boneyard.load_game("obonto")
    state = game.new_initial_state()
    options = (
        {"iterations": 5}
        if "mcts" in bot_name
        else {"max_depth": 1}
        if bot_name == "alphabeta"
        else {}
    )
    make_bot(bot_name, game, 0, seed=1, **options).step(state)
    assert fake_solver.calls == 0
    chosen = make_bot(bot_name, game, 0, seed=1, use_solver=True, **options).step(state)
    assert chosen == state.legal_actions()[-1]
    assert fake_solver.calls == 1


@pytest.mark.parametrize("bot_name", ["random", "easy"])
def test_random_and_easy_never_ask_the_solver(fake_solver: FakeSolver, bot_name: str) -> None:
    game = boneyard.load_game("obonto")
    make_bot(bot_name, game, 0, seed=1).step(game.new_initial_state())
    assert fake_solver.calls == 0


def test_an_illegal_solver_answer_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeSolver(answer_illegal=True)
    monkeypatch.setitem(solvers._loaded, "obonto", fake)
    game = boneyard.load_game("obonto")
    state = game.new_initial_state()
    assert solvers.best_action(state) is None
    action = make_bot("greedy", game, 0, seed=1, use_solver=True).step(state)
    assert action in state.legal_actions()
    assert fake.calls == 2


def test_each_game_names_its_solver_module_in_its_spec() -> None:
    solved = {spec.name: spec.solver for spec in game_specs() if spec.solver is not None}
    assert solved["obonto"].module.endswith("obonto_solo")
    assert solved["oyno_puzzle"].module.endswith("oyno_puzzle")
    assert solvers.solver_for(boneyard.load_game("bones")) is None


def test_a_solver_that_fails_to_import_is_an_error_not_no_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(_spec: GameSpec) -> None:
        raise ImportError("No module named 'boneyard.solvers.broken'")

    monkeypatch.setattr(GameSpec, "load_solver", broken)
    monkeypatch.setattr(solvers, "_loaded", {})
    state = boneyard.load_game("obonto").new_initial_state()
    with pytest.raises(ImportError, match=r"boneyard\.solvers\.broken"):
        solvers.best_action(state)


# ----- hint --------------------------------------------------------------------------------


def test_hint_asks_the_solver_where_there_is_one(fake_solver: FakeSolver) -> None:
    state = boneyard.load_game("obonto").new_initial_state()
    before = state.to_json()
    assert hint(state) == state.legal_actions()[-1]
    assert state.to_json() == before


def test_hint_uses_the_hard_level() -> None:
    declare(
        GameSpec(game=TicTacToe, state=None, levels={"hard": Level("alphabeta", {"max_depth": 9})})
    )
    try:
        _check_hint_completes_the_row()
    finally:
        undeclare(TicTacToe)


def _check_hint_completes_the_row() -> None:
    game = TicTacToe()
    state = game.new_initial_state()
    for move in (0, 3, 1, 4):
        state.apply_action(move)
    assert hint(state) == 2  # x completes the top row
    assert hint(state, 0) == 2


def test_hint_refuses_a_seat_that_is_not_to_move() -> None:
    state = TicTacToe().new_initial_state()
    with pytest.raises(ValueError, match="seat 0 is to move"):
        hint(state, 1)


def test_hint_refuses_a_finished_game() -> None:
    state = TicTacToe().new_initial_state()
    for move in (0, 3, 1, 4, 2):
        state.apply_action(move)
    with pytest.raises(ValueError, match="over"):
        hint(state)
