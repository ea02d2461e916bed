"""The arena's statistics: a Wilson score interval and Elo ratings.

A game between two bots scores 1 (win), 1/2 (draw) or 0 (loss) for the first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z_95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson_interval(score: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``score`` points (draws half) in ``games``.

    >>> low, high = wilson_interval(8, 10)
    >>> round(low, 4), round(high, 4)
    (0.4902, 0.9433)
    """
    if games <= 0:
        return (0.0, 1.0)
    if not 0 <= score <= games:
        raise ValueError(f"score {score} is outside 0 to {games} games")
    p = score / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(score: float) -> float:
    """The Elo difference that predicts an expected ``score`` in [0, 1] (infinite at 0 and 1).

    >>> round(elo_difference(0.75), 2)
    190.85
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(rating: float, other: float) -> float:
    """The Elo expectation of a player rated ``rating`` against one rated ``other``."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def elo_ratings(
    players: int,
    results: Sequence[tuple[int, int, float, int]],
    *,
    prior_draws: float = 1.0,
    iterations: int = 10000,
    tolerance: float = 1e-9,
) -> list[float]:
    """Maximum-likelihood Elo ratings (mean 0) from ``(i, j, score of i, games)`` results.

    ``prior_draws`` adds that many virtual draws to every pair that met, so a bot that won every
    game gets a large finite rating instead of infinity; 0 gives the plain maximum likelihood.
    The fit runs Hunter's minorisation-maximisation for the Bradley-Terry model, which Elo is.
    """
    wins = [[0.0] * players for _ in range(players)]
    for i, j, score, games in results:
        if not (0 <= i < players and 0 <= j < players) or i == j:
            raise ValueError(f"bad pair ({i}, {j}) for {players} players")
        if not 0 <= score <= games:
            raise ValueError(f"score {score} is outside 0 to {games} games")
        wins[i][j] += score + prior_draws / 2
        wins[j][i] += games - score + prior_draws / 2
    strength = [1.0] * players
    for _ in range(iterations):
        new = []
        for i in range(players):
            total_wins = sum(wins[i])
            denominator = sum(
                (wins[i][j] + wins[j][i]) / (strength[i] + strength[j])
                for j in range(players)
                if j != i and wins[i][j] + wins[j][i] > 0
            )
            if total_wins <= 0 or denominator <= 0:
                new.append(1e-12 if total_wins <= 0 else strength[i])
            else:
                new.append(total_wins / denominator)
        geometric = math.exp(sum(math.log(max(s, 1e-300)) for s in new) / players)
        new = [s / geometric for s in new]
        change = max(abs(a - b) for a, b in zip(new, strength))
        strength = new
        if change < tolerance:
            break
    return [400.0 * math.log10(max(s, 1e-300)) for s in strength]
