"""Bond O Cones notation: stable ids, strings both ways, helpful errors."""

from __future__ import annotations

import pytest

from boneyard import InvalidActionStringError
from boneyard.games.bondo_cones import notation as nt


def test_documented_ids() -> None:
    # ids are part of the interface: these never change
    assert nt.string_to_player_action("c3-c5") == 22 * 120 + 42
    assert nt.string_to_player_action("ring d4-e5") == 14400 + 33 * 120 + 44
    assert nt.string_to_player_action("take g9>d4") == 28800 + 86 * 120 + 33
    assert nt.string_to_player_action("put e3") == 43200 + 24
    assert nt.string_to_player_action("ring d4") == 43320 + 33
    assert nt.string_to_player_action("ring *-e5") == 43440 + 44
    assert nt.string_to_player_action("peek c3") == 43560 + 22
    assert nt.string_to_player_action("spy d4") == 43680 + 33
    assert nt.string_to_player_action("seize d4") == 43800 + 33
    assert [nt.string_to_player_action(w) for w in ("battle", "roll", "pass")] == [
        43920,
        43921,
        43922,
    ]
    assert nt.NUM_DISTINCT_ACTIONS == 43923
    assert [nt.string_to_chance_outcome(f"roll {f}") for f in nt.FACES] == list(range(6))
    assert nt.string_to_chance_outcome("first 1") == 7
    assert nt.string_to_chance_outcome("battle won") == 8
    assert nt.string_to_chance_outcome("battle lost") == 9
    assert nt.string_to_chance_outcome("put a1") == 10
    assert nt.string_to_chance_outcome("ring g9") == 130 + 86
    assert nt.MAX_CHANCE_OUTCOMES == 250


def test_every_id_round_trips() -> None:
    for action in range(nt.NUM_DISTINCT_ACTIONS):
        text = nt.player_action_to_string(action)
        assert nt.string_to_player_action(text) == action
    for outcome in range(nt.MAX_CHANCE_OUTCOMES):
        text = nt.chance_outcome_to_string(outcome)
        assert nt.string_to_chance_outcome(text) == outcome


@pytest.mark.parametrize("text", ["c3", "c3-z9", "fly c3", "take g9-d4", "ring", "put", "roll 3"])
def test_bad_player_strings(text: str) -> None:
    with pytest.raises(InvalidActionStringError, match="Bond O Cones"):
        nt.string_to_player_action(text)


@pytest.mark.parametrize("text", ["roll 5", "first 2", "battle draw", "put k1", "c3-c5"])
def test_bad_chance_strings(text: str) -> None:
    with pytest.raises(InvalidActionStringError, match="Bond O Cones"):
        nt.string_to_chance_outcome(text)


def test_out_of_range_ids() -> None:
    with pytest.raises(ValueError):
        nt.player_action_to_string(nt.NUM_DISTINCT_ACTIONS)
    with pytest.raises(ValueError):
        nt.chance_outcome_to_string(-1)


def test_cone_tokens() -> None:
    assert nt.cone_token(0, 8, 0) == "b8"
    assert nt.cone_token(1, None, 1) == "w?+"
    assert nt.cone_token(0, 0, 2) == "b0#"
    assert nt.parse_cone_token("W4+") == (1, 4, 1)
    for bad in ("x4", "b3", "b", "b4++"):
        with pytest.raises(ValueError):
            nt.parse_cone_token(bad)


def test_observed_tokens() -> None:
    assert nt.observed_token(0, 8, 1, peeked=True) == "b8+p"
    assert nt.observed_token(1, None, 0, spied=True) == "w?s"
    assert nt.parse_observed_token("w?+s") == {
        "seat": 1,
        "value": None,
        "rings": 1,
        "peeked": False,
        "spied": True,
    }
    with pytest.raises(ValueError):
        nt.parse_observed_token("b3")
    assert nt.observed_cones({"cones": {"a1": "b0#p"}})["a1"]["rings"] == 2
