"""The Bones rule page: its worked examples are true and its pictures are the code's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from boneyard.games.bones.examples import EXAMPLES, Example, example_state, pictures
from boneyard.games.bones.rules import BonesGame

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules"
PAGE = DOCS / "bones.md"


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_each_example_says_what_the_rules_say(example: Example) -> None:
    state = example_state(example)
    if example.proposal is None:
        assert state.is_terminal() and state.winner() == 0
        return
    legal = state.string_to_action(example.proposal) in state.legal_actions()
    assert legal == example.legal


@pytest.mark.parametrize("filename", sorted(pictures()))
def test_pictures_match_the_drawing_code(filename: str) -> None:
    path = DOCS / "img" / filename
    assert path.exists(), f"{path} is missing: python -m boneyard.games.bones.examples --write"
    assert path.read_text() == pictures()[filename], f"{filename} is stale: redraw it"


def test_the_page_shows_every_picture_and_names_every_parameter() -> None:
    page = PAGE.read_text()
    for filename in pictures():
        assert f"(img/{filename})" in page
    for parameter in BonesGame.parameters:
        assert f"`{parameter.name}`" in page
        assert f"| {parameter.default}" in page


def test_the_page_is_the_games_rules_page() -> None:
    assert (BonesGame.rules_page or BonesGame.name) == PAGE.stem
