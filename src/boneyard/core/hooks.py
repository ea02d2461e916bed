"""What a game gives beyond its rules, as ``Protocol``s its spec is checked against.

A game's spec (``core/spec.py``) names one object for each concern: usually a module of its
package (``draw``, ``prompt``, ``heuristic``, ``tensor``, ``search``), which mypy checks against
the protocol below like any other object, so a missing or misspelt function is a type error, not
a silent fall back to a default. Where one package holds two games (OYNO), a small class of
static methods gathers each game's functions.

The parameters that differ from game to game are the protocols' type parameters: the game
(``G``), its observation ``TypedDict`` (``O``) and its state (``S``). A game's ``GameSpec`` binds
them once, from its ``game`` and ``state`` classes and its drawing's observation type, so mypy
checks every hook against the same three types: a prompt that reads another game's
observation, or a heuristic written for another state, is a type error. ``render_svg`` ends in
``*args: Any, **options: Any`` so that each game keeps its own typed keyword options.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from boneyard.core.game import Game, PanelItem, State

G = TypeVar("G", bound="Game", contravariant=True)
"""A game's ``Game`` class."""
O = TypeVar("O", contravariant=True)  # noqa: E741
"""A game's observation (its ``TypedDict``)."""
S = TypeVar("S", bound="State", contravariant=True)
"""A game's ``State`` class."""


class Drawing(Protocol[O]):
    """The board drawn from what one seat may see (``draw.py``)."""

    def render_text(self, observation: O, /) -> str: ...

    def render_svg(self, observation: O, /, *args: Any, **options: Any) -> str: ...


class Words(Protocol[G, O]):
    """The words a person reads (``prompt.py``); ``PlainWords`` says the least that is true."""

    def prompt(self, game: G, observation: O, seat: int, /) -> str: ...

    def describe_action(
        self, game: G, observation: O, actor: int | None, action: str, /
    ) -> str: ...

    def action_label(self, game: G, observation: O, action: str, /) -> str: ...

    def panel(self, game: G, observation: O, seat: int | None, /) -> list[PanelItem]: ...

    def result(
        self, game: G, observation: O, seat: int | None, returns: Sequence[float], /
    ) -> str: ...


class SetUpWords(Protocol[G, O]):
    """For a game whose seats set up before play: whether a seat is setting up now."""

    def in_setup(self, game: G, observation: O, /) -> bool: ...


class RoundWords(Protocol[G, O]):
    """For a game played in rounds: the end of a round in words, as one seat saw it.

    ``round_summary(game, before, after, seat, names)`` is given the seat's observations just
    before and just after one action and returns ``None`` unless that action ended a round; then
    a JSON object: ``round`` (its number), ``title`` (one line: who won it) and ``lines`` (each
    player's score and how it was made, who went out and why). ``names`` are what the table
    calls each seat (the people's own names where they gave them); ``None``: the game's seat
    names."""

    def round_summary(
        self,
        game: G,
        before: O,
        after: O,
        seat: int | None,
        names: Sequence[str] | None,
        /,
    ) -> dict[str, Any] | None: ...


class Heuristic(Protocol[S]):
    """The value bots search with (``heuristic.py``), inside the utility range."""

    def evaluate(self, state: S, seat: int, /) -> float: ...


class Tensor(Protocol[G, O]):
    """Fixed-size numbers for learning interfaces (``tensor.py``)."""

    def observation_tensor_shape(self, game: G, /) -> tuple[int, ...]: ...

    def observation_tensor(self, game: G, observation: O, /) -> Sequence[float]: ...

    def observation_bounds(self, game: G, /) -> tuple[float, float]:
        """The least and greatest number the tensor can hold (the interfaces' bounded
        spaces)."""
        ...


class StateTensor(Protocol[S]):
    """The same numbers as ``Tensor.observation_tensor`` straight from a state (faster)."""

    def state_tensor(self, state: S, seat: int | None, /) -> Sequence[float]: ...


class ActionMask(Protocol[S]):
    """The legal actions of the player to move as a new byte mask (a state that keeps one)."""

    def state_action_mask(self, state: S, /) -> bytearray: ...


class Search(Protocol[O]):
    """A game's own search on a model of its own (``search.py``), for the ``lookahead`` bot."""

    def lookahead_values(
        self, observation: O, actions: list[int], time_limit: float | None, /
    ) -> dict[int, float]: ...


class PlainWords:
    """The words of a game that gives none of its own: the seat's name and the action's text."""

    # ``observation: object``: these read no observation, so every game's own type is accepted.

    @staticmethod
    def prompt(game: Game, observation: object, seat: int) -> str:
        return f"Your move, {game.seat_name(seat)}."

    @staticmethod
    def describe_action(game: Game, observation: object, actor: int | None, action: str) -> str:
        who = "Chance" if actor is None else game.seat_name(actor)
        return f"{who}: {action}"

    @staticmethod
    def action_label(game: Game, observation: object, action: str) -> str:
        return action

    @staticmethod
    def panel(game: Game, observation: object, seat: int | None) -> list[PanelItem]:
        return []

    @staticmethod
    def result(game: Game, observation: object, seat: int | None, returns: Sequence[float]) -> str:
        best = max(returns)
        winners = [s for s, value in enumerate(returns) if value == best]
        if len(winners) == len(returns):
            return "The game is drawn."
        if seat is not None and seat in winners:
            return "You won." if len(winners) == 1 else "You share the win."
        names = " and ".join(game.seat_name(s) for s in winners)
        return f"{names} won." if seat is None else f"You lost: {names} won."


PLAIN_WORDS: Words[Game, object] = PlainWords()
