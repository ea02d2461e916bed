"""The arena's statistics against values computed by hand."""

from __future__ import annotations

import math

import pytest

from boneyard.ai.stats import elo_difference, elo_ratings, expected_score, wilson_interval


def test_wilson_interval_of_8_in_10() -> None:
    # p = 0.8, n = 10, z = 1.96: centre (0.8 + 0.19208) / 1.38415 = 0.71675,
    # half width 1.96 * sqrt(0.016 + 0.0096040) / 1.38415 = 0.22659.
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval_at_the_edges_stays_inside_0_1() -> None:
    low, high = wilson_interval(0, 20)
    assert low == 0.0
    assert high == pytest.approx(1.96**2 / (20 + 1.96**2), abs=1e-3)  # 0.1611
    low, high = wilson_interval(20, 20)
    assert high == 1.0
    assert low == pytest.approx(20 / (20 + 1.96**2), abs=1e-3)  # 0.8389


def test_wilson_interval_counts_draws_half() -> None:
    low, high = wilson_interval(5, 10)
    assert low + high == pytest.approx(1.0)  # symmetric around one half


def test_wilson_interval_refuses_a_score_above_the_games() -> None:
    with pytest.raises(ValueError, match="outside"):
        wilson_interval(11, 10)


def test_elo_difference_of_known_scores() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_difference(10 / 11) == pytest.approx(400.0)
    assert elo_difference(1.0) == math.inf
    assert expected_score(400.0, 0.0) == pytest.approx(10 / 11)


def test_elo_ratings_of_two_players_match_the_score() -> None:
    ratings = elo_ratings(2, [(0, 1, 75, 100)], prior_draws=0)
    assert ratings[0] - ratings[1] == pytest.approx(190.85, abs=0.01)
    assert sum(ratings) == pytest.approx(0.0, abs=1e-6)


def test_elo_ratings_of_a_consistent_round_robin() -> None:
    # A beats B 75%, B beats C 75%, so Elo predicts A beats C 90% (a 381.7 point gap);
    # with exactly those results the fit puts the three 190.85 points apart.
    ratings = elo_ratings(3, [(0, 1, 75, 100), (1, 2, 75, 100), (0, 2, 90, 100)], prior_draws=0)
    assert ratings[0] - ratings[1] == pytest.approx(190.85, abs=0.01)
    assert ratings[1] - ratings[2] == pytest.approx(190.85, abs=0.01)


def test_elo_ratings_stay_finite_for_a_perfect_score_with_the_prior() -> None:
    ratings = elo_ratings(2, [(0, 1, 10, 10)], prior_draws=1.0)
    # 10.5 of 11 points: 400 log10(10.5 / 0.5) = 528.9 apart.
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(21), abs=0.01)
