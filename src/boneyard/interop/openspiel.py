"""Every boneyard game as an OpenSpiel Python game (``boneyard_obonto``, ``boneyard_bones``, ...).

>>> import pyspiel                                                         # doctest: +SKIP
>>> from boneyard.interop import openspiel
>>> openspiel.register()                                                   # doctest: +SKIP
>>> game = pyspiel.load_game("boneyard_obonto")                           # doctest: +SKIP
>>> pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)  # doctest: +SKIP

The adapter is thin, because boneyard's contract follows OpenSpiel's names: a
``BoneyardSpielState`` wraps one boneyard ``State`` and forwards ``current_player``,
``legal_actions``, ``chance_outcomes``, ``apply_action``, ``returns`` and action strings to it.
What OpenSpiel gets:

- Game type: sequential; chance mode explicit stochastic when the game has chance nodes, else
  deterministic; perfect or imperfect information as the game declares; terminal rewards.
  Utility: a game may declare ``utility_sum`` (a number: constant-sum, 0.0: zero-sum; ``None``:
  general-sum); otherwise a two-player game whose utility range is symmetric (``-u .. u``) is
  zero-sum, and every other game general-sum. OpenSpiel's ``random_sim_test`` checks the claim.
- Game parameters: the boneyard parameters with their defaults (``pyspiel.load_game(
  "boneyard_obonto(games=3)")``, or ``openspiel.load_game("obonto", games=3)``); a text
  parameter whose default is none is written ``""``, and ``,``, ``(``, ``)``, ``%`` in text
  values as ``%2C``, ``%28``, ``%29``, ``%25`` (game strings split on commas).
- Observation string: the JSON of ``state.observation(player)``; observation tensor: the game's
  ``observation_tensor`` of it (where the game has one). With ``private_info=NONE`` the observer
  shows the spectator's view, ``observation(None)``.
- Information-state string: the player's observation plus its action history as that player saw
  it (``action_string_for(player, action)`` at every step, chance outcomes included; a secret
  shows as ``?``), so two histories a player cannot tell apart give the same string (what CFR and
  ISMCTS key their tables on).
- Information-state tensor (every game with an observation tensor): the player's observation
  tensor, then its memory of the game so far, ``MEMORY_SIZE`` numbers: how many actions it has
  seen, over ``max_game_length``. A boneyard observation already holds all a seat knows of the
  hidden facts (what it peeked at, what was spied: ``resample`` reads nothing else), so the
  memory adds where in the game the seat is. Two histories that end in the same observation
  after as many actions share a tensor (the string tells every history apart). Its size is
  ``game.information_state_tensor_size()``; a game without an observation tensor declares no
  tensors, and asking for one raises ``NotImplementedError`` (never an empty list).
- ``undo_action(player, action)`` takes back the last action (checked to be it): the boneyard
  state is played again from the start without it (a cost that grows with the game), and
  ``history()`` / ``move_number()`` follow (read from the adapter, as pyspiel's own record of a
  Python game cannot be shortened: its Python-game trampoline has no ``UndoAction``).
  ``serialize()`` (and ``pickle``) write pyspiel's format with the adapter's history and move
  number, so ``game.deserialize_state`` restores, after any applies and undos, the state a
  fresh one reaches by applying its ``history()``: its C++ record included.
- ``resample_from_infostate(player, sampler)`` draws a state consistent with what ``player``
  knows (OpenSpiel's ISMCTS uses it), seeded from the sampler: in a hidden-information game, a
  history that looks to ``player`` step by step as the true one did (``consistent_history``),
  played from the start, so the world has a real ``history()`` of the same length, the same
  move number and ``player``'s information state string and tensor. Where no such history is
  found within ``HISTORY_BUDGET`` actions, the world is ``state.resample``'s hidden facts
  alone: it keeps the move number and ``player``'s information state, and its ``history()``
  raises ``ResampledHistoryError`` (``information_history(player)`` is the history as the
  player saw it).
- ``MCTSBot`` (OpenSpiel's perfect-information search) on a hidden-information game searches the
  true state, hidden cards and all: the adapter warns (``PerfectInformationSearchWarning``) when
  it clones a state for it. Use ``ISMCTSBot`` or the CFR family there.
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from boneyard.core.game import Game, State
from boneyard.core.registry import game_class, list_games
from boneyard.interop import observation_shape, resolve_game, state_observation_array

__all__ = [
    "HISTORY_BUDGET",
    "MEMORY_SIZE",
    "PREFIX",
    "BoneyardSpielGame",
    "BoneyardSpielState",
    "PerfectInformationSearchWarning",
    "PlayerAction",
    "ResampledHistoryError",
    "boneyard_state",
    "consistent_history",
    "game_type",
    "load_game",
    "register",
    "register_game_class",
    "spiel_name",
]

PREFIX = "boneyard_"

MEMORY_SIZE = 1
"""Numbers the information-state tensor adds after the observation tensor (see module doc)."""

HISTORY_BUDGET = 20_000
"""The most actions ``resample_from_infostate`` applies while it looks for a history the player
cannot tell from the true one (see ``consistent_history``)."""


class PlayerAction(NamedTuple):
    """An entry of ``full_history()``: who played which action (pyspiel's ``PlayerAction``
    cannot be made from Python)."""

    player: int
    action: int


class ResampledHistoryError(ValueError):
    """A resampled state's action ids were asked for: it has the hidden facts, not a history."""


class PerfectInformationSearchWarning(UserWarning):
    """A perfect-information search (OpenSpiel's ``MCTSBot``) is searching a hidden-information
    game's true state: it sees what no player may see."""


# OpenSpiel's perfect-information search (module, function): its clone of a hidden-information
# state is warned of; the rollouts ISMCTS borrows from the same module clone resampled worlds
_PERFECT_INFORMATION_SEARCH = ("open_spiel.python.algorithms.mcts", "_apply_tree_policy")

_registered: dict[str, type[Game]] = {}


def spiel_name(name: str) -> str:
    """OpenSpiel's short name of a boneyard game: ``obonto`` -> ``boneyard_obonto``."""
    return PREFIX + name


def register(games: list[str] | None = None) -> list[str]:
    """Register ``games`` (default: every boneyard game) with pyspiel; return their short names.

    Registering again is harmless.
    """
    return [register_game_class(game_class(name)) for name in (games or list_games())]


def register_game_class(cls: type[Game]) -> str:
    """Register one boneyard ``Game`` subclass with pyspiel as ``boneyard_<name>``."""
    short_name = spiel_name(cls.name)
    if short_name in _registered:
        return short_name
    spiel_type = game_type(cls)
    # The creator pyspiel keeps must be a class, like OpenSpiel's own Python games: pyspiel
    # drops its reference after the interpreter has shut down, and a class (which refers to
    # itself) is never freed by that, where a plain function would crash the exit.
    creator = type(
        f"BoneyardSpielGame_{cls.name}",
        (BoneyardSpielGame,),
        {"boneyard_class": cls, "spiel_type": spiel_type, "__module__": __name__},
    )
    pyspiel.register_game(spiel_type, creator)
    _registered[short_name] = cls
    return short_name


def load_game(name: str, **params: Any) -> BoneyardSpielGame:
    """``pyspiel.load_game`` of boneyard game ``name`` with boneyard parameters.

    Registers the game first if needed, and writes text values the way game strings need them.
    """
    short_name = spiel_name(name)
    if short_name not in _registered:
        register([name])
    spiel_params: dict[str, Any] = {}
    for key, value in params.items():
        if value is None:
            value = ""
        spiel_params[key] = _escape(value) if isinstance(value, str) else value
    game: BoneyardSpielGame = pyspiel.load_game(short_name, spiel_params)
    return game


def _utility_sum(game: Game) -> float | None:
    """The constant sum of the returns, or ``None`` for a general-sum game (see module doc)."""
    declared = getattr(game, "utility_sum", _UNSET)
    if declared is not _UNSET:
        return None if declared is None else float(declared)  # type: ignore[arg-type]
    info = game.info
    if info.num_players == 2 and info.min_utility == -info.max_utility:
        return 0.0
    return None


_UNSET = object()


def game_type(cls: type[Game]) -> pyspiel.GameType:
    """The pyspiel ``GameType`` of a boneyard game class (read from its default variant)."""
    game = cls()
    utility_sum = _utility_sum(game)
    if utility_sum is None:
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    elif utility_sum == 0.0:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    else:
        utility = pyspiel.GameType.Utility.CONSTANT_SUM
    return pyspiel.GameType(
        short_name=spiel_name(cls.name),
        long_name=f"boneyard {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if cls.chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if cls.perfect_information
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=observation_shape(game) is not None,
        provides_observation_string=True,
        provides_observation_tensor=observation_shape(game) is not None,
        parameter_specification=_parameter_specification(cls),
        default_loadable=True,
    )


# OpenSpiel's game strings ("boneyard_obonto(games=3,start=...)") split on commas and nest on
# parentheses, so text values travel with those characters percent-escaped.
_ESCAPES = (("%", "%25"), (",", "%2C"), ("(", "%28"), (")", "%29"))


def _escape(text: str) -> str:
    for raw, escaped in _ESCAPES:
        text = text.replace(raw, escaped)
    return text


def _unescape(text: str) -> str:
    for raw, escaped in reversed(_ESCAPES):
        text = text.replace(escaped, raw)
    return text


ENGINE_PARAMETER = "engine"
"""The game string's parameter that picks the engine: ``boneyard_obonto(engine=native)`` plays
on the Rust engine of ``boneyard.native``; ``python`` (the default) on the Python rules."""


def _parameter_specification(cls: type[Game]) -> dict[str, Any]:
    spec: dict[str, Any] = {ENGINE_PARAMETER: "python"}
    for parameter in cls.parameters:
        if parameter.type is str:
            spec[parameter.name] = _escape(str(parameter.default or ""))
        elif parameter.default is not None:
            spec[parameter.name] = parameter.default
    return spec


def _boneyard_params(cls: type[Game], params: Mapping[str, Any]) -> dict[str, Any]:
    """pyspiel parameters back to boneyard ones (``""`` for a text default of none)."""
    declared = {parameter.name: parameter for parameter in cls.parameters}
    result: dict[str, Any] = {}
    for name, value in params.items():
        if name == ENGINE_PARAMETER:
            continue
        parameter = declared.get(name)
        if parameter is not None and parameter.type is str and isinstance(value, str):
            value = _unescape(value)
            if parameter.default is None and value == "":
                value = None
        result[name] = value
    return result


class BoneyardSpielGame(pyspiel.Game):
    """A loaded boneyard game as a pyspiel game (one subclass per game, made by ``register``)."""

    boneyard_class: type[Game]
    spiel_type: pyspiel.GameType

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        cls = self.boneyard_class
        given = dict(params or {})
        self.boneyard_game = _make_game(
            cls, _boneyard_params(cls, given), str(given.get(ENGINE_PARAMETER, "python"))
        )
        info = self.boneyard_game.info
        self._shape = observation_shape(self.boneyard_game)
        spiel_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=info.max_chance_outcomes,
            num_players=info.num_players,
            min_utility=float(info.min_utility),
            max_utility=float(info.max_utility),
            utility_sum=_utility_sum(self.boneyard_game),
            max_game_length=info.max_game_length,
        )
        super().__init__(self.spiel_type, spiel_info, dict(params or {}))

    def new_initial_state(self) -> BoneyardSpielState:
        return BoneyardSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> _Observer:
        if params:
            raise ValueError(f"boneyard observers take no parameters; got {params!r}")
        return _Observer(self.boneyard_game, self._shape, iig_obs_type)


class _Inner:
    """The wrapped boneyard state, kept in one attribute so pyspiel's clone stays fast.

    pyspiel clones a Python state by deep-copying its attributes, and serialises it by pickling
    them: this holder turns the first into ``State.clone`` and the second into ``to_json``.
    ``views`` holds, per seat, the action strings that seat saw (hidden-information games only).
    ``origin`` is the state the boneyard history starts from (the initial state, or a resampled
    world, whose boneyard history is empty), never changed: ``undo_action`` plays the history
    again from it. ``resampled_for`` is the seat a resampled world was drawn for (else ``None``)
    and ``moves_before`` the actions played before it was drawn.
    """

    __slots__ = ("moves_before", "no_history", "origin", "resampled_for", "state", "views")

    def __init__(
        self,
        state: State,
        views: list[list[str]] | None,
        origin: State | None = None,
        resampled_for: int | None = None,
        moves_before: int = 0,
    ) -> None:
        self.state = state
        self.views = views
        self.origin = state.clone() if origin is None else origin
        self.resampled_for = resampled_for
        self.moves_before = moves_before
        self.no_history: set[tuple[int, tuple[int, ...]]] = set()
        """(player, history) pairs whose search for a consistent history ran out of budget:
        ISMCTS resamples the same state at every simulation, and pays the search once."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Inner:
        views = None if self.views is None else [list(view) for view in self.views]
        return _Inner(self.state.clone(), views, self.origin, self.resampled_for, self.moves_before)

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.state.game
        return (
            _restore,
            (
                type(getattr(game, "python_game", game)),
                dict(game.params),
                getattr(game, "engine", "python"),
                self.state.to_json(),
                self.views,
                self.origin.to_json(),
                self.resampled_for,
                self.moves_before,
            ),
        )


def _make_game(cls: type[Game], params: dict[str, Any], engine: str) -> Game:
    """The boneyard game ``cls`` with ``params`` on ``engine`` (``python`` or ``native``)."""
    if engine == "python":
        return cls(**params)
    return resolve_game(cls.name, params, engine)


def _restore(
    cls: type[Game],
    params: dict[str, Any],
    engine: str,
    doc: dict[str, Any],
    views: list[list[str]] | None,
    origin: dict[str, Any] | None = None,
    resampled_for: int | None = None,
    moves_before: int = 0,
) -> _Inner:
    game = _make_game(cls, params, engine)
    start = None if origin is None else game.state_from_json(origin)
    return _Inner(game.state_from_json(doc), views, start, resampled_for, moves_before)


def consistent_history(
    game: Game, history: list[int], player: int, rng: random.Random, budget: int = HISTORY_BUDGET
) -> list[int] | None:
    """A history of as many actions as ``history`` that ``player`` cannot tell from it: at every
    step the same action string for ``player`` (``action_string_for``) and after it the same
    ``observation(player)``, so the same information state. Drawn forward, a chance outcome by
    its probability and another seat's hidden choice uniformly among those that look the same to
    ``player``, going back a step where the next one cannot look the same (depth first). An
    action ``player`` saw whole is kept. ``None`` if ``budget`` actions were applied first.

    The world at its end is consistent with what ``player`` knows; it is not drawn exactly from
    the posterior (the search's first consistent history, not one weighted over all of them)."""
    seen = _Seen(game, history, player)
    path: list[int] = []
    frames: list[tuple[State, list[int]]] = []
    if history:
        start = game.new_initial_state()
        frames.append((start, seen.candidates(start, 0, rng)))
    spent = 0
    while len(path) < len(history):
        at, left = frames[-1]
        step = len(path)
        child = None
        while left and spent < budget:
            action = left.pop()
            spent += 1
            child = at.clone()
            child.apply_action(action)
            if child.observation(player) == seen.observations[step + 1]:
                path.append(action)
                break
            child = None
        if child is None and (spent >= budget or not path):
            return None  # (not path: cannot be, the true history is consistent)
        if child is None:  # no action here looks the same: back a step
            path.pop()
            frames.pop()
        elif step + 1 < len(history):
            frames.append((child, seen.candidates(child, step + 1, rng)))
    return path


class _Seen:
    """What ``player`` saw of a history: each action's string and the observation after it."""

    def __init__(self, game: Game, history: list[int], player: int) -> None:
        state = game.new_initial_state()
        self.player = player
        self.history = history
        self.views: list[str] = []
        self.whole: list[bool] = []
        self.observations = [state.observation(player)]
        for action in history:
            view = state.action_string_for(player, action)
            self.views.append(view)
            self.whole.append(view == state.action_to_string(action))
            state.apply_action(action)
            self.observations.append(state.observation(player))

    def candidates(self, at: State, step: int, rng: random.Random) -> list[int]:
        """The actions at ``step`` that look to the player as the true one did, the next to try
        last (a list popped from its end)."""
        view, legal = self.views[step], at.legal_actions()
        if self.whole[step]:  # seen whole: the same action, if it can be played here
            offered = [self.history[step]] if self.history[step] in legal else []
        elif at.is_chance_node():
            weighted = [(o, p) for o, p in at.chance_outcomes() if p > 0.0]
            # a random order weighted by probability (the first is a draw from the outcomes)
            weighted.sort(key=lambda op: rng.random() ** (1.0 / op[1]))
            offered = [o for o, _ in weighted]
        else:
            offered = list(legal)
            rng.shuffle(offered)
        return [a for a in offered if at.action_string_for(self.player, a) == view]


class BoneyardSpielState(pyspiel.State):
    """One boneyard state as a pyspiel state."""

    def __init__(self, game: BoneyardSpielGame) -> None:
        super().__init__(game)
        bgame = game.boneyard_game
        views: list[list[str]] | None = None
        if not bgame.perfect_information:
            views = [[] for _ in range(bgame.info.num_players + 1)]  # the seats, then spectator
        self._inner = _Inner(bgame.new_initial_state(), views)

    # ----- the pyspiel hooks ------------------------------------------------------------------

    def current_player(self) -> int:
        return self._inner.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._inner.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._inner.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        inner = self._inner
        if inner.views is not None:
            state, views = inner.state, inner.views
            for seat in range(len(views) - 1):
                views[seat].append(state.action_string_for(seat, action))
            views[-1].append(state.action_string_for(None, action))
        inner.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._inner.state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._inner.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(value) for value in self._inner.state.returns()]

    def __str__(self) -> str:
        return str(self._inner.state)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one, with a history that looks to
        ``player_id`` as this one's did (``consistent_history``): the same information state
        string and tensor, the same move number. Where no such history is found within
        ``HISTORY_BUDGET`` actions (or this state is itself a world without a history), the
        world is ``state.resample``'s, and its ``history()`` raises ``ResampledHistoryError``;
        the state remembers that, and later draws for the same player go straight to it."""
        seed = int(float(probability_sampler()) * 2**32)
        inner = self._inner
        new = self.get_game().new_initial_state()
        game = inner.state.game
        if not game.perfect_information and inner.resampled_for is None:
            history = inner.state.history()
            searched = (player_id, tuple(history))
            if searched not in inner.no_history:
                rng = random.Random(seed)
                found = consistent_history(game, history, player_id, rng, HISTORY_BUDGET)
                if found is not None:
                    for action in found:
                        new.apply_action(action)
                    return new
                inner.no_history.add(searched)
        resampled = inner.state.resample(player_id, random.Random(seed))
        views = self._views_for(resampled, player_id)
        if resampled.move_number() == inner.state.move_number():
            # a world with its history (a perfect-information game's: the state itself)
            new._inner = _Inner(
                resampled, views, inner.origin, inner.resampled_for, inner.moves_before
            )
        else:
            new._inner = _Inner(
                resampled,
                views,
                resampled.clone(),
                resampled_for=player_id,
                moves_before=self.move_number() - resampled.move_number(),
            )
        return new

    def clone(self) -> Any:
        inner = self._inner
        caller = sys._getframe(1)
        if (
            inner.views is not None
            and caller.f_code.co_name == _PERFECT_INFORMATION_SEARCH[1]
            and caller.f_globals.get("__name__") == _PERFECT_INFORMATION_SEARCH[0]
        ):
            warnings.warn(
                f"OpenSpiel's MCTSBot is searching the true state of "
                f"{inner.state.game.name}, a hidden-information game: it sees the hidden "
                "facts no player may see; use ISMCTSBot (resample_from_infostate) or CFR",
                PerfectInformationSearchWarning,
                stacklevel=2,
            )
        return super().clone()

    # ----- the history, kept by the adapter (pyspiel's record of a Python game only grows) -----

    def history(self) -> list[int]:
        inner = self._inner
        if inner.resampled_for is not None:
            raise ResampledHistoryError(
                f"this state is a world resampled for player {inner.resampled_for} after "
                f"{inner.moves_before} actions: it has the hidden facts, not the actions that "
                "led to them (the ids of what the player never saw would be invented); "
                f"information_history({inner.resampled_for}) is the history as that player "
                "saw it"
            )
        return inner.state.history()

    def full_history(self) -> list[Any]:
        self.history()  # a resampled world has none: say so
        return self._record()

    def _record(self) -> list[PlayerAction]:
        """Who played what since the state's origin (a resampled world: since it was drawn)."""
        inner = self._inner
        state = inner.origin.clone()
        players = []
        for action in inner.state.history():
            players.append(PlayerAction(state.current_player(), action))
            state.apply_action(action)
        return players

    def history_str(self) -> str:
        return ", ".join(str(action) for action in self.history())

    def move_number(self) -> int:
        inner = self._inner
        return inner.moves_before + inner.state.move_number()

    def is_initial_state(self) -> bool:
        return self.move_number() == 0

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, ``action`` by ``player`` (checked): the boneyard state is
        played again from its start without it."""
        inner = self._inner
        played = inner.state.history()
        if not played:
            moved = "no action" if inner.resampled_for is None else "no action since resampling"
            raise ValueError(f"undo_action({player}, {action}): {moved} to undo")
        if played[-1] != action:
            raise ValueError(
                f"undo_action({player}, {action}): the last action is {played[-1]}, "
                "only the last action can be undone"
            )
        before = inner.origin.clone()
        for earlier in played[:-1]:
            before.apply_action(earlier)
        if before.current_player() != player:
            raise ValueError(
                f"undo_action({player}, {action}): action {action} was played by "
                f"{before.current_player()}, not {player}"
            )
        inner.state = before
        if inner.views is not None:
            for view in inner.views:
                view.pop()

    # ----- saving, in pyspiel's format, from the adapter's record ------------------------------

    def serialize(self) -> str:
        """pyspiel's serialisation of a Python state (its history, its move number, then its
        pickled attributes), with the history and the move number read from the adapter.

        pyspiel's own record of a Python state only grows (its Python-game trampoline has no
        ``UndoAction``, and the base class's is a fatal error), so after an undo it still holds
        the action taken back: written as it is, ``game.deserialize_state`` would restore a
        state whose C++ history and move number disagree with it."""
        record = ",".join(f"{entry.player}:{entry.action}" for entry in self._record())
        attributes = super().serialize().split("\n", 2)[2]
        return f"history={record}\nmove_number={self.move_number()}\n{attributes}"

    def __getstate__(self) -> str:
        """For ``pickle`` (pyspiel's ``serialize_game_and_state``): the state part is
        ``serialize``'s, so a pickled state restores right after an undo too."""
        text = pyspiel.serialize_game_and_state(self.get_game(), self)
        head, marker, _ = text.partition("[State]\n")
        return f"{head}{marker}{self.serialize()}"

    # ----- for callers that want the boneyard state ----------------------------------------------

    @property
    def boneyard_state(self) -> State:
        """The wrapped boneyard state (read it; changing it bypasses pyspiel's history)."""
        return self._inner.state

    def information_history(self, player: int | None) -> list[str]:
        """The actions so far as ``player`` (``None``: a spectator) saw them."""
        views = self._inner.views
        if views is not None:
            return list(views[-1 if player is None else player])
        state = self._inner.state
        return [str(action) for action in state.history()]

    def _views_for(self, resampled: State, player: int) -> list[list[str]] | None:
        """Every seat's view of a resampled state's history.

        Replays the history when it leads to the resampled state; otherwise every seat gets
        ``player``'s own view (which is what the resampling seat knows of it).
        """
        if self._inner.views is None:
            return None
        seats = resampled.game.info.num_players
        replay = resampled.game.new_initial_state()
        views: list[list[str]] = [[] for _ in range(seats + 1)]
        try:
            for action in resampled.history():
                for seat in range(seats):
                    views[seat].append(replay.action_string_for(seat, action))
                views[-1].append(replay.action_string_for(None, action))
                replay.apply_action(action)
        except ValueError:
            replay = None  # type: ignore[assignment]
        if replay is not None and replay.to_json() == resampled.to_json():
            views[player] = list(self._inner.views[player])
            return views
        return [list(self._inner.views[player]) for _ in range(seats + 1)]


def boneyard_state(state: Any) -> State:
    """The boneyard state inside a pyspiel state made by this adapter."""
    inner: State = state.boneyard_state
    return inner


class _Observer:
    """pyspiel's Python observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(
        self,
        game: Game,
        shape: tuple[int, ...] | None,
        iig_obs_type: pyspiel.IIGObservationType | None,
    ) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = (
            pyspiel.PrivateInfoType.SINGLE_PLAYER
            if iig_obs_type is None
            else iig_obs_type.private_info
        )
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS and not game.perfect_information:
            raise ValueError(
                f"{game.name} has hidden information: boneyard observers show one seat's view "
                "(private_info SINGLE_PLAYER) or the spectator's (NONE), not all players'"
            )
        self.spectator = private == pyspiel.PrivateInfoType.NONE
        self.shape = shape
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        self.observation_size = 0 if shape is None else int(np.prod(shape))
        if shape is not None:
            memory = MEMORY_SIZE if self.perfect_recall else 0
            self.tensor = np.zeros(self.observation_size + memory, np.float32)
            self.dict = {"observation": self.tensor[: self.observation_size].reshape(shape)}
            if memory:
                self.dict["memory"] = self.tensor[self.observation_size :]

    def _observation(self, state: BoneyardSpielState, player: int) -> dict[str, Any]:
        return state.boneyard_state.observation(None if self.spectator else player)

    def set_from(self, state: BoneyardSpielState, player: int) -> None:
        if self.tensor is None:
            raise NotImplementedError(
                f"{self.game.name} has no observation tensor (Game.observation_tensor_shape), "
                "so OpenSpiel gets no observation or information-state tensor from it; the "
                "strings (observation_string, information_state_string) are provided"
            )
        seat = None if self.spectator else player
        size = self.observation_size
        self.tensor[:size] = state_observation_array(self.game, state.boneyard_state, seat, (size,))
        if self.perfect_recall:
            # every seat sees that each action happens (what it was may be secret)
            self.tensor[size] = state.move_number() / max(self.game.info.max_game_length, 1)

    def string_from(self, state: BoneyardSpielState, player: int) -> str:
        text = json.dumps(self._observation(state, player), sort_keys=True, separators=(",", ":"))
        if not self.perfect_recall:
            return text
        history = state.information_history(None if self.spectator else player)
        return text + " | " + " ".join(history)
