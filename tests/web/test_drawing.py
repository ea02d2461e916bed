"""A board drawing sent as what changed (``web/play/drawing.py``): rebuilt exactly, and small."""

from __future__ import annotations

import itertools
import random

import pytest

import boneyard
from boneyard.web.play.drawing import changes, lines_of, rebuilt

GAMES = ("obonto", "oyno", "bones", "bondo_cones", "bonbon")


def drawings_along_a_game(name: str, seed: int) -> list[str]:
    game = boneyard.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    drawn = []
    while not state.is_terminal() and len(drawn) < 80:
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        drawn.append(game.render_svg(state.observation(0)))  # as one seat sees it
        state.apply_action(rng.choice(state.legal_actions()))
    return drawn


@pytest.mark.parametrize("name", GAMES)
def test_each_drawing_is_rebuilt_from_the_one_before_and_costs_a_fraction(name: str) -> None:
    drawn = drawings_along_a_game(name, seed=5)
    sent = whole = 0
    for before, after in itertools.pairwise(drawn):
        held = lines_of(before)
        assert held is not None
        pieces = changes(held, lines_of(after) or ())
        assert rebuilt(held, pieces) == after
        sent += sum(len(p) if isinstance(p, str) else 8 for p in pieces)
        whole += len(after)
    assert sent < whole / 4, f"{name}: what changed is {sent} of {whole} characters"


@pytest.mark.parametrize(
    ("held", "new"),
    [
        ((), ("a", "b")),
        (("a", "b"), ()),
        (("a", "b", "c"), ("c", "b", "a")),
        (("x", "x", "y"), ("x", "y", "x", "x", "z")),
        (("a",), ("a", "a", "a")),
    ],
)
def test_changes_rebuild_any_lines(held: tuple[str, ...], new: tuple[str, ...]) -> None:
    assert rebuilt(held, changes(held, new)) == "\n".join(new)


def test_an_unchanged_drawing_is_one_run() -> None:
    lines = tuple(f"<rect n='{n}'/>" for n in range(50))
    assert changes(lines, lines) == [[0, 50]]
