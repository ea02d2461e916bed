"""Bond O Cones hidden information: what each seat sees, how actions look, and resampling."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from tests.games.bondo_cones.bondo_helpers import new_game, play, set_up, setup_puts

from boneyard import InvalidStateError
from boneyard.games.bondo_cones.board import START_FIELDS
from boneyard.games.bondo_cones.notation import INDEX, NAMES, observed_cones
from boneyard.games.bondo_cones.rules import VALUES, BondoConesState

PUBLIC_LINE = ["first 0", "roll 3", "c3-c6", "roll eye", "peek e12", "roll 2", "c6-c8"]


def _other_arrangement() -> list[str]:
    """White's sixteen puts on other squares than ``setup_puts(1)``: the same public picture
    once set-up ends, but different values under the cones."""
    fields = [NAMES[sq] for sq in START_FIELDS[1]]
    return [f"put {name}" for name in reversed(fields[10:])]


def test_states_differing_in_white_secrets_look_the_same_to_black() -> None:
    game = new_game()
    one = game.new_initial_state()
    two = game.new_initial_state()
    play(one, *setup_puts(0), "ring d4")
    play(two, *setup_puts(0), "ring d4")
    for put_one, put_two in zip(setup_puts(1), _other_arrangement()):
        assert one.observation(0) == two.observation(0)
        assert one.observation(None) == two.observation(None)
        assert one.action_string_for(0, one.string_to_action(put_one)) == "put ?"
        assert one.action_string_for(None, one.string_to_action(put_one)) == "put ?"
        assert one.action_string_for(1, one.string_to_action(put_one)) == put_one
        play(one, put_one)
        play(two, put_two)
    play(one, "ring g9")
    play(two, "ring g9")
    for move in PUBLIC_LINE:
        assert one.observation(0) == two.observation(0)
        assert one.observation(None) == two.observation(None)
        assert one.observation(1) != two.observation(1)
        assert str(one) != str(two)  # the referee's board shows the values
        play(one, move)
        play(two, move)
    assert one.observation(0) == two.observation(0)


def test_black_sees_nothing_of_whites_setup_until_the_zeros_fill() -> None:
    game = new_game()
    state = play(game.new_initial_state(), *setup_puts(0), "ring d4", "put d9", "put g9")
    assert not [c for c in observed_cones(state.observation(0)).values() if c["seat"] == 1]
    assert len([c for c in observed_cones(state.observation(1)).values() if c["seat"] == 1]) == 2
    assert state.observation(0)["setup_progress"] == [17, 2]
    assert state.observation(0)["next_value"] == 4  # which value comes next is public


def test_random_setup_hides_the_draws_from_the_other_seat() -> None:
    game = new_game(setup="random")
    state = game.new_initial_state()
    action = state.string_to_action("put c3")
    assert state.action_string_for(0, action) == "put c3"
    assert state.action_string_for(1, action) == "put ?"
    assert state.action_string_for(None, action) == "put ?"


def test_own_values_always_shown_opponent_values_only_when_known() -> None:
    state = play(set_up(new_game()), *PUBLIC_LINE)
    black, white = state.observation(0), state.observation(1)
    for name, cone in observed_cones(black).items():
        if cone["seat"] == 0:
            assert cone["value"] == state.value[INDEX[name]]
        else:
            assert cone["value"] is None
    for cone in observed_cones(white).values():
        if cone["seat"] == 0:
            assert cone["value"] is None


def _mid_game() -> BondoConesState:
    game = new_game()
    state = game.position(
        {
            "a1": "b4",
            "b1": "b2",
            "c1": "b0",
            "e7": "w4",
            "f7": "w2",
            "g7": "w0",
            "h7": "w1",
            "i7": "w8+",
            "j7": "w0",
        },
        windows=(3, 0),
        scores=(11, 2),
    )
    state.captured = [[4, 4, 2, 1], [2]]
    state.flags[INDEX["f7"]] |= 2  # black spied f7
    return state


def test_resample_keeps_the_view_and_deals_the_values_left() -> None:
    state = _mid_game()
    view = state.observation(0)
    assert observed_cones(view)["f7"]["value"] == 2
    assert observed_cones(view)["e7"]["value"] is None
    seen: set[tuple[int, ...]] = set()
    for seed in range(30):
        sample = state.resample(0, random.Random(seed))
        assert sample.observation(0) == view
        white = {NAMES[sq]: sample.value[sq] for sq in range(120) if sample.owner[sq] == 1}
        assert white["f7"] == 2
        left = Counter(VALUES) - Counter([4, 4, 2, 1, 2])
        assert Counter(white[name] for name in ("e7", "g7", "h7", "i7", "j7")) <= left
        seen.add(tuple(sorted(white.items())))  # type: ignore[arg-type]
    assert len(seen) > 5  # the hidden values really vary


def test_resample_depends_only_on_the_observation() -> None:
    one = _mid_game()
    two = _mid_game()
    two.value[INDEX["e7"]], two.value[INDEX["i7"]] = 8, 4  # different truth, same view to black
    assert one.observation(0) == two.observation(0)
    assert one.observation(1) != two.observation(1)
    assert (
        one.resample(0, random.Random(3)).to_json() == two.resample(0, random.Random(3)).to_json()
    )


def test_resample_during_the_opponents_secret_setup() -> None:
    game = new_game()
    state = play(game.new_initial_state(), *setup_puts(0), "ring d4", "put d9", "put e10")
    sample = state.resample(0, random.Random(1))
    assert sample.observation(0) == state.observation(0)
    white = sorted(sample.value[sq] for sq in range(120) if sample.owner[sq] == 1)
    assert white == [4, 8]
    assert all(sq in START_FIELDS[1] for sq in range(120) if sample.owner[sq] == 1)
    # white itself can be resampled too: it sees all of black
    sample = state.resample(1, random.Random(1))
    assert sample.observation(1) == state.observation(1)


def test_snapshot_round_trip_and_bad_documents() -> None:
    game = new_game()
    state = play(set_up(game), *PUBLIC_LINE)
    doc = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(doc)
    assert again.to_json() == state.to_json()
    assert again.legal_actions() == state.legal_actions()
    replayed = game.state_from_json({k: v for k, v in doc.items() if k != "snapshot"})
    assert replayed.to_json() == state.to_json()
    for broken in (
        {"owner": [2] * 120},
        {"phase": "nap"},
        {"value": "none"},
        {"scores": [1]},
        {"last_move": [1, 2, 3]},
        {"scores": [5, 99]},
        {"phase": "setup_put"},
        {"rings": [2] * 120},
        {"value": [8] * 120},
    ):
        bad = json.loads(json.dumps(doc))
        bad["snapshot"].update(broken)
        with pytest.raises(InvalidStateError):
            game.state_from_json(bad)
    with pytest.raises(InvalidStateError):
        game.state_from_json({**doc, "snapshot": {"owner": []}})


def test_hand_built_positions_round_trip() -> None:
    game = new_game()
    state = game.position({"d4": "b4+", "e7": "w2"}, die="2", scores=(3, 5))
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json() and str(again) == str(state)
