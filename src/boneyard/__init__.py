"""boneyard: five tabletop games, their computer opponents, solvers and interfaces.

>>> import boneyard
>>> game = boneyard.load_game("obonto")
>>> state = game.new_initial_state()
>>> state.current_player()
0
"""

from boneyard.core.errors import (
    BoneyardError,
    IllegalActionError,
    InvalidActionStringError,
    InvalidParameterError,
    InvalidPositionError,
    InvalidStateError,
    UnknownGameError,
)
from boneyard.core.game import CHANCE, TERMINAL, Game, GameInfo, Observation, PanelItem, State
from boneyard.core.parameters import Parameter
from boneyard.core.registry import list_games, load_game, register

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BoneyardError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "InvalidActionStringError",
    "InvalidParameterError",
    "InvalidPositionError",
    "InvalidStateError",
    "Observation",
    "PanelItem",
    "Parameter",
    "State",
    "UnknownGameError",
    "list_games",
    "load_game",
    "register",
]

__version__ = "0.1.0"
