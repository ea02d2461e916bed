"""Every registered game and variant speaks to people in words (boneyard.testing.word_check)."""

from __future__ import annotations

from typing import Any

import pytest

from boneyard import load_game
from boneyard.testing import variants
from boneyard.testing.word_check import check_text, check_words

VARIANTS = variants()


def _id(variant: tuple[str, dict[str, Any]]) -> str:
    name, params = variant
    return name + "".join(f"-{k}={v}" for k, v in sorted(params.items()))


@pytest.mark.parametrize("variant", VARIANTS, ids=[_id(v) for v in VARIANTS])
def test_words(variant: tuple[str, dict[str, Any]]) -> None:
    name, params = variant
    check_words(load_game(name, **params), playouts=2, seed=1)


@pytest.mark.parametrize(
    "text",
    [
        "your move, seat 0",
        "phase setup_put",
        "Game over: player 1 won",
        "winner: None",
        "scores [3, 1]",
        "to move 0",
    ],
)
def test_developer_words_are_caught(text: str) -> None:
    with pytest.raises(AssertionError):
        check_text(text, {"to_move": 0}, "a test")


def test_plain_words_pass() -> None:
    check_text("South to move: the lion goes 1 step.", {"to_move": 0}, "a test")
