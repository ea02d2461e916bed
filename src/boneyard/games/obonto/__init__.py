"""Obonto: lion, zebra and camel on a board that darkens behind them (see docs/rules/obonto.md)."""

from boneyard.games.obonto.rules import ObontoGame, ObontoState

__all__ = ["ObontoGame", "ObontoState"]
