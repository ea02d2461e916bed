"""Moves that bring back a position the game has already seen, for a hint to play only when it
must.

A search that sees one position sees no history: in Bones, laying a piece back on the square
just covered answers the same threat as well as anything, so a hint followed move after move
repeated f4-f5 against f5-f6 until the pieces ran out (issue 35). ``repeating_actions`` names
those moves from the game's history; a bot given them as ``Bot.avoid`` plays one only when it
is better than every other move by more than ``REPEAT_MARGIN``.
"""

from __future__ import annotations

from boneyard.core.game import State

REPEAT_MARGIN = 0.01
"""How much better (in a search's values of a move, a win being worth 1) a move that repeats
must be than the best other move to be played: below it the two count as equal."""


def seen_positions(state: State) -> set[object]:
    """The ``position_key`` of every position of ``state``'s game so far, ``state``'s own
    included (its history replayed from the start)."""
    position = state.game.new_initial_state()
    seen = {position.position_key()}
    for action in state.history():
        position.apply_action(action)
        seen.add(position.position_key())
    return seen


def repeating_actions(state: State) -> frozenset[int]:
    """The legal actions of ``state`` after which the position is one the game has seen.

    Empty in a game with hidden information: the true positions are not the mover's to know.
    """
    if not state.game.perfect_information or state.is_terminal() or state.is_chance_node():
        return frozenset()
    seen = seen_positions(state)
    repeating = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.position_key() in seen:
            repeating.add(action)
    return frozenset(repeating)
