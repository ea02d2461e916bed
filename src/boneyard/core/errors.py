"""The project's exceptions: one small hierarchy, each a ``ValueError``.

Every message says what was wrong and what is allowed, quoting the input, in the style of
python-chess: ``illegal action 'd1-d5' in obonto: the lion moves exactly 1 step; legal: ...``.
"""

from __future__ import annotations


class BoneyardError(ValueError):
    """Base class of every error boneyard raises for bad input."""


class UnknownGameError(BoneyardError):
    """A game name that is not registered."""


class InvalidParameterError(BoneyardError):
    """An unknown game parameter, or a value outside what the parameter allows."""


class InvalidActionStringError(BoneyardError):
    """An action string that is not well-formed notation for the game."""


class IllegalActionError(BoneyardError):
    """A well-formed action that the rules do not allow in this state."""


class InvalidPositionError(BoneyardError):
    """A malformed position string (for example a game's ``start`` parameter)."""


class InvalidStateError(BoneyardError):
    """A state document (``to_json``) that cannot be restored."""
