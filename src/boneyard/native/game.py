"""``NativeGame``: a game whose states live in Rust (``boneyard.native._engine``).

What the engine contract asks of a game (its info, parameters, states, the JSON round trip) is
answered here; the words and drawings for people come from the Python game, which the native
one carries (``python_game``), because they read only observations. Hooks that read a state
itself (``evaluate``, ``state_observation_tensor``, ``state_action_mask``) get the same state
rebuilt by the Python engine from its JSON: correct, not fast; the native searches do not use
them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.core.errors import InvalidStateError, UnknownGameError
from boneyard.core.game import Game, GameInfo, Observation, State, check_state_document
from boneyard.core.registry import load_game as load_python_game

try:
    from boneyard.native import _engine
    from boneyard.native._engine import State as NativeState
except ImportError as error:  # a source tree whose Rust was never built
    raise ImportError(
        "boneyard's native engines are not built: `make run` or `make test` builds them, or "
        f"`pip install -e .` with Rust's cargo on the PATH ({error})"
    ) from error

__all__ = ["NativeGame", "NativeState", "has_native_engine", "load_game", "native_games"]


_DOCUMENT_KEYS = frozenset({"game", "params", "history", "snapshot"})
"""What a native state document holds (``State.to_json``), all a native game reads."""


def native_games() -> list[str]:
    """The games that have a native engine, sorted."""
    return sorted(_engine.game_names())


def has_native_engine(name: str) -> bool:
    """Whether ``name`` has a native engine."""
    return name in _engine.game_names()


def load_game(name: str, **params: Any) -> NativeGame:
    """The native engine of ``name`` with ``params``: the parameters and their errors are the
    Python game's; a game without a native engine raises UnknownGameError saying so."""
    python_game = load_python_game(name, **params)
    if not has_native_engine(python_game.name):
        raise UnknownGameError(
            f"{name!r} has no native engine; games with one: {', '.join(native_games())} "
            f"(boneyard.load_game({name!r}) is its Python engine)"
        )
    return NativeGame(python_game)


class NativeGame:
    """A game with the engine contract of ``boneyard.core.game.Game`` and native states."""

    engine = "native"

    def __init__(self, python_game: Game) -> None:
        self.python_game = python_game
        """The same game in the Python engine: its words, drawings and parameters."""
        info = python_game.info
        self._core = _engine.Game(
            python_game.name,
            json.dumps(dict(python_game.params)),
            max(info.num_distinct_actions, info.max_chance_outcomes),
        )

    # ----- what the contract says of a game -----------------------------------------------

    @property
    def name(self) -> str:
        return self.python_game.name

    @property
    def title(self) -> str:
        return self.python_game.title

    @property
    def params(self) -> dict[str, Any]:
        return self.python_game.params

    @property
    def info(self) -> GameInfo:
        return self.python_game.info

    @property
    def chance(self) -> bool:
        return self.python_game.chance

    @property
    def perfect_information(self) -> bool:
        return self.python_game.perfect_information

    def num_players(self) -> int:
        return self.python_game.num_players()

    def max_game_length(self) -> int:
        return self.python_game.max_game_length()

    def utility_range(self) -> tuple[float, float]:
        return self.python_game.utility_range()

    def num_distinct_actions(self) -> int:
        return self.python_game.num_distinct_actions()

    def max_chance_outcomes(self) -> int:
        return self.python_game.max_chance_outcomes()

    def new_initial_state(self) -> NativeState:
        return self._core.new_initial_state(self)

    def state_from_json(self, doc: Mapping[str, Any]) -> NativeState:
        """Rebuild a state from either engine's ``to_json()``; a bad document raises
        InvalidStateError, as the Python engine's does."""
        history = check_state_document(self.python_game, doc)
        unread = sorted(set(doc) - _DOCUMENT_KEYS)
        if unread:
            # A key only the Python engine writes (Obonto's "position" of a state set up from a
            # board) changes the state: ignoring it would give another position, silently.
            raise InvalidStateError(
                f"the native {self.name} engine cannot read a state document's "
                f"{', '.join(map(repr, unread))}; boneyard.load_game({self.name!r}) reads it"
            )
        snapshot = doc.get("snapshot")
        if snapshot is not None:
            return self._core.state_from_snapshot(self, json.dumps(snapshot), history)
        state = self.new_initial_state()
        for number, action in enumerate(history):
            try:
                state.apply_action(action)
            except ValueError as error:
                raise InvalidStateError(
                    f"state document's action {number} ({action}) is illegal: {error}"
                ) from None
        return state

    def random_playouts(self, games: int, seed: int = 0) -> tuple[int, int]:
        """Play ``games`` random games inside Rust (the GIL released); ``(games, actions)``."""
        return self._core.random_playouts(games, seed)

    # ----- hooks that read a state: the Python engine's, on the same state ----------------

    def python_state(self, state: NativeState) -> State:
        """``state`` rebuilt by the Python engine (the same position and history)."""
        return self.python_game.state_from_json(state.to_json())

    def evaluate(self, state: NativeState, seat: int) -> float:
        return self.python_game.evaluate(self.python_state(state), seat)

    def state_observation_tensor(self, state: NativeState, seat: int | None) -> Sequence[float]:
        return self.python_game.observation_tensor(state.observation(seat))

    # The interfaces' road to the same numbers (``boneyard.interop``), here through the
    # observation: the Python engine's fast road reads a Python state's fields.
    _state_observation_tensor = state_observation_tensor

    def state_action_mask(self, state: NativeState) -> bytearray | None:
        """``None``: the interfaces make the mask from ``legal_actions()``, already fast here."""
        return None

    # ----- words and drawings: the Python game's, from observations ------------------------

    def render_text(self, observation: Observation) -> str:
        return self.python_game.render_text(observation)

    def __getattr__(self, name: str) -> Any:
        # The rest of the Python game's face (render_svg, prompt, panel, result, seat_name,
        # observation_tensor, ...) reads observations only: the same for either engine.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.python_game, name)

    def __reduce__(self) -> tuple[Any, ...]:
        # The Rust half is made again from the Python game, which pickles as it always has.
        return (NativeGame, (self.python_game,))

    def __repr__(self) -> str:
        return "boneyard.native." + repr(self.python_game).removeprefix("boneyard.")
