from __future__ import annotations

import pytest

import boneyard
from boneyard.core.errors import UnknownGameError


def test_unknown_game_suggests_and_lists() -> None:
    with pytest.raises(UnknownGameError) as error:
        boneyard.load_game("obontoo")
    message = str(error.value)
    assert "unknown game 'obontoo'" in message
    assert "did you mean 'obonto'?" in message
    for name in boneyard.list_games():
        assert name in message


def test_list_games_is_sorted_and_loadable() -> None:
    names = boneyard.list_games()
    assert names == sorted(names)
    for name in names:
        assert boneyard.load_game(name).info.name == name


def test_public_api_is_exactly_the_contract() -> None:
    for name in ("list_games", "load_game", "CHANCE", "TERMINAL", "IllegalActionError"):
        assert hasattr(boneyard, name)
    assert (boneyard.CHANCE, boneyard.TERMINAL) == (-1, -4)
