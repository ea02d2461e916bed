"""The end of a Bon-Bon round in words (``round_words.py``): each score and how it was made,
who went out and why, who takes a chocolate, from the seat's own observations only."""

from __future__ import annotations

from typing import Any

from tests.games.bonbon.bonbon_helpers import new

from boneyard.games.bonbon.rules import BonBonState


def summary_of_last(state: BonBonState, move: str, seat: int | None) -> dict[str, Any] | None:
    """The summary ``seat`` is given when ``move`` is played on ``state``."""
    before = state.observation(seat)
    state.apply_action(state.string_to_action(move))
    return state.game.round_summary(before, state.observation(seat), seat)


ROUND = ("tiles 1 1 2", "draw", "card 5", "down", "bonus 2", "draw", "card 4", "down")
"""Red plays 5 and 4 face down; blue passes first with the tile worth 2."""


def test_a_round_that_goes_on_has_no_summary() -> None:
    state = new(*ROUND[:-1])
    assert summary_of_last(state, "down", 0) is None


def test_the_winner_and_every_score_with_how_it_was_made() -> None:
    state = new(*ROUND, "draw", "card 3", "up")
    summary = summary_of_last(state.clone(), "pass", 0)
    assert summary == {
        "round": 1,
        "title": "Round 1: You win with 13 points.",
        "lines": [
            "You: 13 points (cards 5 + 4 + 3; +1 for face-down cards in a row) and take a "
            "chocolate.",
            "Blue: 2 points (bonus tile 2).",
            "Chocolates won so far: You 1, Blue 0 (the first to 3 wins the game).",
        ],
    }
    # Blue never saw red's face-down cards: only their count and what the score gives away.
    blue = summary_of_last(state, "pass", 1)
    assert blue is not None
    assert blue["title"] == "Round 1: Red wins with 13 points."
    assert blue["lines"][0] == (
        "Red: 13 points (card 3; 2 face-down cards worth 9; +1 for face-down cards in a row) "
        "and takes a chocolate."
    )


def test_the_shared_limit_breaking_says_who_broke_it_and_what_the_others_lost() -> None:
    state = new(
        "tiles 1 1 2",
        *("draw", "card 5", "up", "draw", "card 4", "down"),
        *("draw", "card 4", "up", "draw", "card 1", "down", "draw", "card 3"),
    )
    summary = summary_of_last(state, "up", None)  # red's 3 takes the marker to 12 of 10
    assert summary is not None
    assert summary["title"] == "Round 1: Blue wins with 0 points."
    assert summary["lines"] == [
        "Blue: 0 points (no cards) and takes a chocolate.",
        "Blue lost 2 face-down cards at the end of the run when the shared limit broke.",
        "Red took the shared marker past 10, which ended the round: out, no score.",
        "Chocolates won so far: Red 0, Blue 1 (the first to 3 wins the game).",
    ]


def test_a_player_out_earlier_is_said_to_have_gone_over_their_own_limit() -> None:
    state = new(*ROUND, "draw", "card 3", "up")
    before = state.observation(0)
    state.apply_action(state.string_to_action("pass"))
    after = state.observation(0)
    # As if blue had gone over its own limit earlier in the round (the limit falls with wins).
    before["status"][1] = "eliminated"
    before["up_totals"][1], before["personal_limits"][1] = 11, 9
    after["last_round"]["scores"][1] = None
    summary = state.game.round_summary(before, after, 0)
    assert summary is not None
    assert "Blue went over their own limit of 9 (face up 11): out, no score." in summary["lines"]


def test_the_table_names_people_by_their_own_names() -> None:
    state = new(*ROUND, "draw", "card 3", "up")
    before = state.observation(None)
    state.apply_action(state.string_to_action("pass"))
    summary = state.game.round_summary(before, state.observation(None), None, ["Ann", "Bo"])
    assert summary is not None
    assert summary["title"] == "Round 1: Ann wins with 13 points."
    assert summary["lines"][-1] == (
        "Chocolates won so far: Ann 1, Bo 0 (the first to 3 wins the game)."
    )


def test_a_special_card_names_itself() -> None:
    state = new("tiles 1 1 2", "draw", "card peek", "up", "card 3", "bonus 2")
    summary = summary_of_last(state, "pass", 0)
    assert summary is not None
    assert "You: 1 point (a peek card worth 1)." in summary["lines"]
