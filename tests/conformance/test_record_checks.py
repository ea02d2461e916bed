"""The conformance kit compares whole declared records: it catches a clone that shares a
mutable field, a field declared with the wrong kind, and a field not declared at all."""

from __future__ import annotations

import pytest

from boneyard.core.record import Shared, declared
from boneyard.games.bones.rules import BonesGame, BonesState
from boneyard.testing import ConformanceError, check_game


class SharingBonesState(BonesState):
    """Bones with the clone the review found: ``_allowed`` and ``_legal`` shared, not copied."""

    def clone(self) -> SharingBonesState:
        new = object.__new__(SharingBonesState)
        new.__dict__.update(vars(self))
        new._history = self._history[:]
        new._top_piece = self._top_piece[:]
        new._top_colour = self._top_colour[:]
        new._heights = self._heights[:]
        new._pieces = self._pieces[:]
        new._tensor_memo = None
        return new


@declared
class MisdeclaredBonesState(BonesState):
    """Bones whose record declares ``_allowed`` and ``_legal`` shared by mistake."""

    _allowed: Shared[bytearray]
    _legal: Shared[list[int]]


class UndeclaredBonesState(BonesState):
    """Bones that keeps a field its record does not declare."""

    def _apply_action(self, action: int) -> None:
        super()._apply_action(action)
        self.moves_seen = len(self._pieces)


def _game(state_class: type[BonesState]) -> BonesGame:
    class Variant(BonesGame):
        def new_initial_state(self) -> BonesState:
            return state_class(self)

    return Variant(width=5, height=5, pieces=5)


def test_the_real_bones_passes() -> None:
    check_game(_game(BonesState), playouts=2, seed=1)


def test_a_clone_that_shares_allowed_and_legal_fails() -> None:
    with pytest.raises(ConformanceError, match="shares field _allowed"):
        check_game(_game(SharingBonesState), playouts=2, seed=1)


def test_a_field_declared_shared_by_mistake_fails() -> None:
    with pytest.raises(ConformanceError, match="changed the original's field _allowed"):
        check_game(_game(MisdeclaredBonesState), playouts=2, seed=1)


def test_an_undeclared_field_fails() -> None:
    with pytest.raises(ConformanceError, match="undeclared fields \\['moves_seen'\\]"):
        check_game(_game(UndeclaredBonesState), playouts=2, seed=1)
