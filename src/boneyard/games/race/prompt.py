"""Race's words for people: what to decide now, and an action in words."""

from __future__ import annotations

from boneyard.games.race.observation import RaceObservation
from boneyard.games.race.rules import RaceGame


def prompt(game: RaceGame, observation: RaceObservation, seat: int) -> str:
    left = observation["goal"] - observation["total"]
    return f"Add one or two to the total; {left} to go to reach {observation['goal']}."


def action_label(game: RaceGame, observation: RaceObservation, action: str) -> str:
    return {"+1": "Add one", "+2": "Add two"}.get(action, action)
