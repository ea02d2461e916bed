"""One source for "you" (issue 35): every label, tooltip and log line that names a seat is made
from the viewer's seat, so no page credits one seat with another's act.

Over every game, random positions, every seat and a spectator: a spectator is never "you"; and
the words about one thing (a square's tooltip in the drawing, one move in the log) never say the
same sentence with "you" to two seats, since "you" is a different person to each.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import pytest

from boneyard.core.game import CHANCE, Game, State
from boneyard.core.registry import list_games, load_game

SVG = "{http://www.w3.org/2000/svg}"
YOU = re.compile(r"\byou(r|rs)?\b", re.IGNORECASE)
POSITIONS = 6
"""Random games played per game; the words are checked at every step of each."""


def tooltips(game: Game, observation: dict[str, object]) -> dict[str, list[str]]:
    """Each square's (or cone's) tooltips in the drawing, by the square it names."""
    try:
        svg = game.render_svg(observation)
    except NotImplementedError:
        return {}
    found: dict[str, list[str]] = defaultdict(list)
    for node in ET.fromstring(svg).iter():
        where = node.get("data-square") or node.get("data-cone")
        title = node.findtext(f"{SVG}title")
        if where and title:
            found[where].append(title)
    return found


def every_words(game: Game, state: State, viewer: int | None) -> list[str]:
    """Everything the viewer reads about the position but the log: tooltips and the panel."""
    observation = state.observation(viewer)
    words = [title for titles in tooltips(game, observation).values() for title in titles]
    for item in game.panel(observation, viewer):
        words += [item.label, str(item.value)]
    return words


def said_twice(texts: dict[int | None, list[str]]) -> list[str]:
    """Sentences with "you" that two different seats read about the same thing."""
    seen: dict[str, int | None] = {}
    twice = []
    for viewer, lines in texts.items():
        for line in lines:
            if not YOU.search(line):
                continue
            if line in seen and seen[line] != viewer:
                twice.append(f"{line!r} to seat {seen[line]} and seat {viewer}")
            seen.setdefault(line, viewer)
    return twice


def random_action(state: State, rng: random.Random) -> int:
    if state.current_player() == CHANCE:
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        return rng.choices(actions, weights)[0]
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("name", list_games())
def test_you_is_always_the_viewer(name: str) -> None:
    game = load_game(name)
    viewers: list[int | None] = [*range(game.info.num_players), None]
    rng = random.Random(f"you {name}")
    wrongs: list[str] = []
    for _ in range(POSITIONS):
        state = game.new_initial_state()
        for _step in range(rng.randrange(20, 120)):
            if state.is_terminal():
                break
            action = random_action(state, rng)
            actor = state.current_player()
            mover = None if actor == CHANCE else actor
            lines = {
                viewer: [
                    game.describe_action(
                        state.observation(viewer),
                        mover,
                        state.action_string_for(viewer, action),
                    )
                ]
                for viewer in viewers
            }
            wrongs += [f"log: {wrong}" for wrong in said_twice(lines)]
            wrongs += [f"log to a spectator: {line}" for line in lines[None] if YOU.search(line)]
            state.apply_action(action)
            squares: dict[str, dict[int | None, list[str]]] = defaultdict(dict)
            for viewer in viewers:
                for square, titles in tooltips(game, state.observation(viewer)).items():
                    squares[square][viewer] = titles
            for square, texts in squares.items():
                wrongs += [f"{square}: {wrong}" for wrong in said_twice(texts)]
            spectator = every_words(game, state, None)
            wrongs += [f"to a spectator: {text}" for text in spectator if YOU.search(text)]
            if len(wrongs) > 5:
                break
    assert wrongs == [], "\n".join(wrongs[:10])
