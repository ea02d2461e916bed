"""How bots turn returns and heuristic estimates into values in [0, 1], one per seat.

Search bots (MCTS, ISMCTS) average values, so values must share one scale across games: a game's
utility range can be +-1 (Bones) or a match score (Obonto). A seat's value mixes its *outcome*
(the share of the other seats it beats, ties counting half: win 1, draw 0.5, loss 0 in a
two-player game) with its return scaled into [0, 1], so a search prefers winning first and
winning by more second.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from boneyard.core.game import Game, State

OUTCOME_WEIGHT = 0.8
"""How much of a value is the outcome (who beats whom); the rest is the scaled return."""


def _scaled(game: Game, value: float) -> float:
    low, high = game.info.min_utility, game.info.max_utility
    if high <= low:
        return 0.5
    return min(1.0, max(0.0, (value - low) / (high - low)))


def values_from_returns(game: Game, returns: list[float]) -> list[float]:
    """Values in [0, 1] for every seat from final returns."""

    def share_beaten(mine: float, theirs: float) -> float:
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    return _values(game, returns, share_beaten)


def values_from_return_arrays(returns: Any, low: float, high: float, xp: Any = np) -> Any:
    """``values_from_returns`` over arrays, for batch trainers: ``returns`` shaped
    ``(..., seats)``, the game's utility range ``low``..``high``, ``xp`` numpy or
    ``jax.numpy``; values in [0, 1] of the same shape (the same numbers, seat by seat)."""
    players = returns.shape[-1]
    if high > low:
        scaled = xp.clip((returns - low) / (high - low), 0.0, 1.0)
    else:
        scaled = xp.full(returns.shape, 0.5)
    if players == 1:
        return scaled
    mine, theirs = returns[..., :, None], returns[..., None, :]
    beaten = xp.where(mine > theirs, 1.0, xp.where(mine == theirs, 0.5, 0.0))
    outcome = (beaten.sum(-1) - 0.5) / (players - 1)  # (a seat ties itself: take that away)
    return OUTCOME_WEIGHT * outcome + (1.0 - OUTCOME_WEIGHT) * scaled


def values_from_estimates(game: Game, estimates: list[float]) -> list[float]:
    """Values in [0, 1] for every seat from heuristic estimates of their returns.

    Like ``values_from_returns``, but "who beats whom" is soft: an estimate is a guess, so a
    small lead is worth a little more than half, not a whole win.
    """
    width = max(game.info.max_utility - game.info.min_utility, 1e-9)
    # A lead of a tenth of the utility range counts as about three quarters of a win.
    softness = 0.1 * width

    def share_beaten(mine: float, theirs: float) -> float:
        return 0.5 + 0.5 * math.tanh((mine - theirs) / softness)

    return _values(game, estimates, share_beaten)


def _values(
    game: Game, numbers: list[float], share_beaten: Callable[[float, float], float]
) -> list[float]:
    """Each seat's blend of its outcome against the others and its own scaled number."""
    players = len(numbers)
    values = []
    for seat, mine in enumerate(numbers):
        scaled = _scaled(game, mine)
        if players == 1:
            values.append(scaled)
            continue
        beaten = sum(
            share_beaten(mine, theirs) for other, theirs in enumerate(numbers) if other != seat
        )
        outcome = beaten / (players - 1)
        values.append(OUTCOME_WEIGHT * outcome + (1.0 - OUTCOME_WEIGHT) * scaled)
    return values


def is_zero_sum_pair(game: Game) -> bool:
    """Two players and a symmetric utility range: one seat's estimate is minus the other's."""
    return game.info.num_players == 2 and abs(game.info.min_utility + game.info.max_utility) < 1e-12


def estimates(state: State, perspective: int | None = None) -> list[float]:
    """The game's heuristic estimate for every seat.

    In a two-player zero-sum game only ``perspective``'s estimate is computed (heuristics can be
    slow, and searches call this at every leaf); the other seat gets its negation.
    """
    game = state.game
    if perspective is not None and is_zero_sum_pair(game):
        mine = game.evaluate(state, perspective)
        return [mine, -mine] if perspective == 0 else [-mine, mine]
    return [game.evaluate(state, seat) for seat in range(game.info.num_players)]


def state_values(state: State, perspective: int | None = None) -> list[float]:
    """Values of ``state`` for every seat: exact at the end, the game's heuristic before it."""
    game = state.game
    if state.is_terminal():
        return values_from_returns(game, list(state.returns()))
    return values_from_estimates(game, estimates(state, perspective))
