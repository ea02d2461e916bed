"""Race: the template game. Copy this package to start a new game (docs/adding_a_game.md).

Two players take turns adding 1 or 2 to a running total; after each move a coin adds 0 or 1.
Whoever brings the total to the goal with a move wins; a coin that does it ends in a draw. Small
as it is, it has what the engine contract asks of a game, one file per concern:

- ``rules.py``: the ``Game`` (metadata and parameters) and the ``State`` (its fields declared
  once, the rules as small hooks);
- ``notation.py``: action ids and their strings;
- ``observation.py``: what a seat sees, as a ``TypedDict`` every reader is checked against;
- ``draw.py``: the board as text and SVG, from an observation;
- ``heuristic.py``: the value bots search with;
- ``tensor.py``: fixed-size numbers for learning interfaces;
- ``prompt.py``: the words a person reads;
- this file: the game's spec, which names all of the above, its levels, the web's limits for its
  parameters and its series rules (``boneyard.core.spec``).

The template is not registered (``boneyard.list_games()`` does not show it): its spec is only
declared (``declare``, so its classes find it); a real game wraps its spec in
``register(...)``. Its conformance test and golden playthrough are in
``tests/games/race``.
"""

from boneyard.core.spec import GameSpec, SeriesRules, declare
from boneyard.games.race import draw, heuristic, prompt, tensor
from boneyard.games.race.rules import RaceGame, RaceState

SPEC = declare(
    GameSpec(
        game=RaceGame,
        state=RaceState,
        drawing=draw,
        words=prompt,
        heuristic=heuristic,
        tensor=tensor,
        web_limits={"goal": 30},
        series=SeriesRules(loser_starts=True),
    )
)
"""Race as the rest of boneyard sees it. A real game writes ``SPEC = register(GameSpec(...))``
(``from boneyard.core.registry import register``)."""

__all__ = ["SPEC", "RaceGame", "RaceState"]
