"""Any sequence of actions, legal or not, through every native game and variant: nothing but an
``IllegalActionError`` ever comes out, a refused action changes nothing, and the process lives
(a panic in Rust would surface as pyo3's PanicException, which is no ValueError)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boneyard.core.errors import IllegalActionError
from boneyard.native import load_game, native_games
from boneyard.testing import variants

CASES = [
    pytest.param(name, params, id=f"{name}-{params}")
    for name, params in variants()
    if name in native_games()
]

# Mostly small ids (often legal), some far out of range, some not ints at all.
ACTIONS = st.one_of(
    st.integers(min_value=-2, max_value=60),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([True, None, "0", 1.0]),
)


@pytest.mark.parametrize(("name", "params"), CASES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_actions_are_played_or_refused(name: str, params: dict[str, Any], data: Any) -> None:
    state = load_game(name, **params).new_initial_state()
    for _ in range(data.draw(st.integers(min_value=0, max_value=120))):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = data.draw(st.one_of(ACTIONS, st.sampled_from(legal)))
        before = state.to_json()
        try:
            state.apply_action(action)
        except IllegalActionError:
            assert state.to_json() == before
        else:
            assert type(action) is int and action in legal
            assert state.history()[-1] == action
