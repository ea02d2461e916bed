"""OYNO: the one-player puzzle (``oyno_puzzle``) and the two-player game (``oyno``).

Both share the board and its notation (``board``); each game's rules live in its own module.
"""

from boneyard.games.oyno import duel, puzzle

__all__ = ["duel", "puzzle"]
