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
- ``prompt.py``: the words a person reads.

The core finds the hooks in ``draw``, ``heuristic``, ``tensor`` and ``prompt`` by their names;
nothing is forwarded by hand. The game is not registered (``boneyard.list_games()`` does not show
it): a real game puts ``@register`` on its ``Game`` class. Its conformance test and golden
playthrough are in ``tests/games/race``.
"""

from boneyard.games.race.rules import RaceGame, RaceState

__all__ = ["RaceGame", "RaceState"]
