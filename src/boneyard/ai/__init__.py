"""Computer opponents: named bots, levels per game, and a hint for the player to move.

>>> import boneyard
>>> from boneyard.ai import make_bot
>>> game = boneyard.load_game("obonto")          # doctest: +SKIP
>>> bot = make_bot("hard", game, seat=0, seed=1)  # doctest: +SKIP
>>> action = bot.step(game.new_initial_state())   # doctest: +SKIP

``make_bot`` takes a level (``easy``, ``medium``, ``hard``: what the interfaces offer) or a bot
name (``random``, ``greedy``, ``mcts``, ``ismcts``, ``alphabeta``, ``expert``: for the arena and
research; ``expert`` is a search guided by the game's shipped network, ``ai/expert.py``;
``native_greedy``, ``native_alphabeta``, ``native_mcts``, ``native_ismcts``, ``native_lookahead``,
``native_rollouts`` and ``native_expert`` are the searches run in Rust, ``ai/native.py``).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import Any

from boneyard.ai.alphabeta import AlphaBetaBot
from boneyard.ai.base import Bot, Budget
from boneyard.ai.expert import ExpertBot
from boneyard.ai.greedy import GreedyBot
from boneyard.ai.levels import LEVEL_NAMES, Level, hint_level, is_level_name, level_for
from boneyard.ai.lookahead import LookaheadBot
from boneyard.ai.mcts import ISMCTSBot, MCTSBot
from boneyard.ai.native import (
    NativeAlphaBetaBot,
    NativeExpertBot,
    NativeGreedyBot,
    NativeIsmctsBot,
    NativeLookaheadBot,
    NativeMctsBot,
    NativeRolloutsBot,
)
from boneyard.ai.random_bot import RandomBot
from boneyard.ai.repetition import repeating_actions
from boneyard.core.game import Game, State
from boneyard.core.registry import game_specs, load_game
from boneyard.core.spec import GameSpec

BOTS: dict[str, type[Bot]] = {
    bot.name: bot
    for bot in (
        RandomBot,
        GreedyBot,
        MCTSBot,
        ISMCTSBot,
        AlphaBetaBot,
        LookaheadBot,
        ExpertBot,
        NativeAlphaBetaBot,
        NativeMctsBot,
        NativeIsmctsBot,
        NativeLookaheadBot,
        NativeRolloutsBot,
        NativeExpertBot,
        NativeGreedyBot,
    )
}
"""Bot name -> class. Every bot plays every registered game."""


def list_bots() -> list[str]:
    """The bot names ``make_bot`` accepts besides the levels."""
    return sorted(BOTS)


def _accepted(cls: type[Bot]) -> set[str]:
    return set(inspect.signature(cls.__init__).parameters) - {"self", "game", "seat"}


def check_levels(specs: Iterable[GameSpec] | None = None) -> None:
    """Refuse a game whose level names a bot, or a bot option, that does not exist, naming
    those that do: a game's spec names its bots as text (the games sit below ``ai``), so the
    commands check every registered game's levels when they start (``boneyard.cli``)."""
    for spec in game_specs() if specs is None else specs:
        for number, step in enumerate(spec.scale.steps, 1):
            where = f"level {number} of {spec.name}"
            if step.bot not in BOTS:
                raise ValueError(f"{where} names bot {step.bot!r}; bots: {', '.join(list_bots())}")
            unknown = sorted(set(step.options) - _accepted(BOTS[step.bot]))
            if unknown:
                raise ValueError(
                    f"{where}: bot {step.bot!r} has no option {', '.join(map(repr, unknown))}; "
                    f"its options: {', '.join(sorted(_accepted(BOTS[step.bot])))}"
                )


def make_bot(
    name_or_level: str,
    game: Game | str,
    seat: int,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
    **options: Any,
) -> Bot:
    """A bot for ``seat`` of ``game``: a level (a number on the game's scale, or easy/medium/
    hard) or a bot name.

    ``time_limit`` (seconds a move) replaces the level's time budget for bots that have one.
    The levels ``medium`` and ``hard`` let an exact solver answer where one decides the position
    (the Obonto solo phase, the OYNO puzzle); a bot name is the algorithm alone unless
    ``use_solver=True`` is given.
    Extra ``options`` (``iterations=...``, ``max_depth=...``) go to the bot. An unknown name
    raises ValueError listing the levels and bots.
    """
    if isinstance(game, str):
        game = load_game(game)
    if not isinstance(name_or_level, str):
        raise ValueError(f"a bot is named by a string, not {type(name_or_level).__name__}")
    name = name_or_level.strip().lower()
    if is_level_name(name):
        level = level_for(game, name)
        check_levels([game.spec])
        bot_name = level.bot
        settings: dict[str, Any] = dict(level.options)
        settings["use_solver"] = level.use_solver
    elif name in BOTS:
        bot_name = name
        # A bot name means the algorithm alone; the levels add the exact solvers.
        settings = {"use_solver": False}
    else:
        raise ValueError(
            f"unknown bot or level {name_or_level!r}; levels: {game.spec.scale.allowed()}; "
            f"bots: {', '.join(list_bots())}"
        )
    cls = BOTS[bot_name]
    accepted = _accepted(cls)
    if time_limit is not None and "time_limit" in accepted:
        settings["time_limit"] = time_limit
    settings.update(options)
    unknown = sorted(set(settings) - accepted)
    if unknown:
        raise ValueError(
            f"bot {bot_name!r} has no option {', '.join(map(repr, unknown))}; "
            f"its options: {', '.join(sorted(accepted))}"
        )
    return cls(game, seat, seed=seed, **{k: v for k, v in settings.items() if k != "seed"})


def hint(state: State, seat: int | None = None, *, seed: int | None = None) -> int:
    """The strongest level's move (or the exact solver's) for ``seat``, by default the mover.

    A move that brings back a position the game has seen is the hint only when clearly best
    (``ai/repetition.py``). The state is not changed. It is an error to ask at a chance node,
    at the end, or for a seat that is not to move.
    """
    player = state.current_player()
    if state.is_terminal() or state.is_chance_node():
        raise ValueError(
            f"no hint in {state.game.name}: "
            + ("the game is over" if state.is_terminal() else "chance is to move")
        )
    if seat is None:
        seat = player
    if seat != player:
        raise ValueError(f"no hint for seat {seat}: seat {player} is to move")
    bot = make_bot(hint_level(state.game), state.game, seat, seed=seed)
    bot.avoid = repeating_actions(state)
    return bot.step(state)


__all__ = [
    "BOTS",
    "LEVEL_NAMES",
    "Bot",
    "Budget",
    "Level",
    "check_levels",
    "hint",
    "level_for",
    "list_bots",
    "make_bot",
]
