"""The core tests' game: the template game (``boneyard.games.race``), with one more parameter.

Players alternately add 1 or 2 (actions 0 and 1, "+1" and "+2") to a running total; after each
move a coin (chance outcomes 0 "coin 0" and 1 "coin 1", probabilities 1/4 and 3/4) adds 0 or 1.
Whoever brings the total to 7 or more with a move wins; a coin that does it ends in a draw. The
``label`` parameter (a text with choices) is here only for the parameter tests.
"""

from __future__ import annotations

from boneyard.core.parameters import Parameter
from boneyard.games.race import RaceGame as TemplateRace
from boneyard.games.race import RaceState

__all__ = ["RaceGame", "RaceState"]


class RaceGame(TemplateRace):
    parameters = (
        *TemplateRace.parameters,
        Parameter("label", str, "race", "a name", choices=("race", "sprint")),
    )
