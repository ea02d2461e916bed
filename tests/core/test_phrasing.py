"""The shared phrasing of counts beside their limits (``core/phrasing.py``)."""

from __future__ import annotations

from boneyard.core.phrasing import count_toward


def test_a_far_limit_is_left_out_and_a_near_one_is_said() -> None:
    assert count_toward(4, 40) == "4"
    assert count_toward(35, 40) == "35"
    assert count_toward(36, 40) == "36 of at most 40"
    assert count_toward(15, 1000, "then a draw") == "15"
    assert count_toward(950, 1000, "then a draw") == "950 of 1000, then a draw"


def test_the_bonbon_panel_says_the_round_alone_while_the_limit_is_far() -> None:
    from tests.games.bonbon.bonbon_helpers import new

    state = new("tiles 1 2 3")
    panel = {item.label: item.value for item in state.game.panel(state.observation(0), 0)}
    assert panel["Round"] == "1"
