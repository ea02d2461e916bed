"""Race's words for people: what to decide now, an action in words, and the end."""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.core.game import PanelItem
from boneyard.core.hooks import PlainWords
from boneyard.games.race.observation import RaceObservation
from boneyard.games.race.rules import RaceGame


def prompt(game: RaceGame, observation: RaceObservation, seat: int) -> str:
    left = observation["goal"] - observation["total"]
    return f"Add one or two to the total; {left} to go to reach {observation['goal']}."


def describe_action(
    game: RaceGame, observation: RaceObservation, actor: int | None, action: str
) -> str:
    return PlainWords.describe_action(game, observation, actor, action)


def action_label(game: RaceGame, observation: RaceObservation, action: str) -> str:
    return {"+1": "Add one", "+2": "Add two"}.get(action, action)


def panel(game: RaceGame, observation: RaceObservation, seat: int | None) -> list[PanelItem]:
    return [PanelItem("Total", f"{observation['total']} of {observation['goal']}")]


def result(
    game: RaceGame, observation: RaceObservation, seat: int | None, returns: Sequence[float]
) -> str:
    return PlainWords.result(game, observation, seat, returns)
