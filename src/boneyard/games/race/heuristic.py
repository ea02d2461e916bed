"""The value Race's bots search with (``Game.evaluate``): who is likely to reach the goal."""

from __future__ import annotations

from boneyard.core.game import State
from boneyard.games.race.observation import observe


def evaluate(state: State, seat: int) -> float:
    """The end's returns; before it, a small lead for the seat to move when the goal is a
    multiple of three away (the other side can then always answer)."""
    if state.is_terminal():
        return state.returns()[seat]
    observation = observe(state, seat)
    left = observation["goal"] - observation["total"]
    mover = observation["current_player"]
    if mover < 0:
        return 0.0
    good_for_mover = 0.1 if left % 3 else -0.1
    return good_for_mover if mover == seat else -good_for_mover
