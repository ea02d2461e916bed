"""Games and states travel pickled to worker processes (the web's set-ups, bots, arenas)."""

from __future__ import annotations

import pickle

import pytest

import boneyard


@pytest.mark.parametrize("name", boneyard.list_games())
def test_every_game_and_its_state_pickle_and_come_back_equal(name: str) -> None:
    game = boneyard.load_game(name)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.game.params == game.params and copy.game.spec is game.spec
    assert copy.to_json() == state.to_json()
    assert copy.legal_actions() == state.legal_actions()
