"""The engine contract every game implements: ``Game``, ``State`` and ``GameInfo``.

The names follow OpenSpiel's on purpose. A game subclasses ``Game`` and ``State`` and fills in
small hooks (``_legal_actions``, ``_apply_action``, ...); the base classes do the shared work once,
like pgx's ``Env.step``: refusing actions in finished states, refusing illegal actions without
touching the state, caching legal actions, keeping the history, validating seats, and the JSON
round trip.

Action ids: player actions are ``0 .. num_distinct_actions - 1`` and chance outcomes are
``0 .. max_chance_outcomes - 1``; which one an id means depends on whose turn it is, as in
OpenSpiel. Every game documents its ids, and they never change meaning between releases.

Optional hooks, each with a default that works, for what bots and interfaces need beyond the
rules. A game gives them by convention, as module-level functions in fixed modules of its
package (``Game._hook``), never by forwarding methods by hand:

* ``draw``: ``render_text(observation)``, ``render_svg(observation, **options)``;
* ``heuristic``: ``evaluate(state, seat)`` (the heuristic bots use);
* ``tensor``: ``observation_tensor_shape(game)``, ``observation_tensor(game, observation)``
  (fixed-size numbers for learning), ``state_tensor(state, seat)`` (the same numbers straight
  from a state) and ``state_action_mask(state)`` (the legal actions as a byte mask);
* ``search``: ``lookahead_values(observation, actions, time_limit)`` (a game's own search);
* ``prompt``: the words for people below.

A hook takes the arguments of the ``Game`` method it serves, and the game first where its first
parameter is named ``game``. ``State.transposition_key`` (a cheap key for search tables) is a
method of the state. A hidden-information game must also give ``State._resample``: a full state
consistent with one seat's view, which is all its bots may search. A state declares its fields
once (``core/record.py``); ``clone`` and the JSON snapshot are derived from that declaration.

Words for people (the web page and the terminal show nothing else): ``Game.pitch`` (one line for
the home page), ``Game.how_to_play`` (the rules in a few sentences), ``Game.prompt`` (what the seat
to act must decide now, in the rules' words), ``Game.describe_action`` (an action in words, as a
viewer saw it), ``Game.action_label`` (the label of a button), ``Game.panel`` (the labelled facts
beside the board), ``Game.result`` (the end in words) and ``Game.in_setup`` (a set-up a person may
leave to chance in one click), with ``State.why_illegal`` (one short reason for a refused action).
The seven Game hooks are found by convention in the game package's ``prompt`` module
(``boneyard.games.<name>.prompt``): a module-level function of the same name taking the game
first, for example ``def prompt(game, observation, seat) -> str``. Each has a plain default.
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from boneyard.core.errors import (
    IllegalActionError,
    InvalidActionStringError,
    InvalidStateError,
)
from boneyard.core.parameters import Parameter, ParameterValue, resolve_parameters
from boneyard.core.record import Cache, Copied, record_of, restore, snapshot

CHANCE = -1
"""``current_player()`` at a chance node (a die roll, a shuffle, a draw)."""

TERMINAL = -4
"""``current_player()`` once the game is over."""

Observation = dict[str, Any]

NOT_ALLOWED = "That move is not allowed now."
"""``State.why_illegal``'s answer where the game gives no reason of its own."""


_NOT_LOOKED_UP = object()


def _takes_the_game(hook: Any) -> bool:
    """Whether a hook found by convention wants the game as its first argument."""
    try:
        parameters = list(inspect.signature(hook).parameters)
    except (TypeError, ValueError):
        return False
    return bool(parameters) and parameters[0] == "game"


def sample_chance_outcome(state: State, rng: random.Random) -> int:
    """A chance outcome of ``state`` (a chance node) drawn from ``rng`` by its probability.

    The one line every player of chance uses (the arena, the search bots, the benchmark, the
    terminal, the test kit), so that equal seeds give equal games everywhere.
    """
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def random_action(state: State, rng: random.Random) -> int:
    """A uniformly random legal action, or at a chance node an outcome drawn by its probability."""
    if state.current_player() == CHANCE:
        return sample_chance_outcome(state, rng)
    return rng.choice(state.legal_actions())


@dataclass(frozen=True)
class PanelItem:
    """One labelled fact beside the board ("Score": "12 - 7"), for people."""

    label: str
    value: str
    picture: str | None = None
    """An SVG document that shows the value (a die face), or ``None``."""

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "picture": self.picture}


@dataclass(frozen=True)
class GameInfo:
    """What a loaded game is, as data (like OpenSpiel's ``_GAME_TYPE`` and ``_GAME_INFO``)."""

    name: str
    title: str
    num_players: int
    min_players: int
    max_players: int
    chance: bool
    perfect_information: bool
    max_game_length: int
    """The most actions (chance outcomes included) one game can take."""
    min_utility: float
    max_utility: float
    num_distinct_actions: int
    max_chance_outcomes: int
    parameters: Mapping[str, ParameterValue | None] = field(default_factory=dict)
    parameter_specs: tuple[Parameter, ...] = ()
    seat_names: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON-safe description, for the web app and the command line."""
        return {
            "name": self.name,
            "title": self.title,
            "num_players": self.num_players,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "chance": self.chance,
            "perfect_information": self.perfect_information,
            "max_game_length": self.max_game_length,
            "min_utility": self.min_utility,
            "max_utility": self.max_utility,
            "num_distinct_actions": self.num_distinct_actions,
            "max_chance_outcomes": self.max_chance_outcomes,
            "parameters": dict(self.parameters),
            "parameter_specs": [spec.to_json() for spec in self.parameter_specs],
            "seat_names": list(self.seat_names),
        }


class Game(ABC):
    """A game with its parameters fixed; it makes states.

    A subclass declares the class attributes below, implements ``new_initial_state`` and the
    sizing hooks (``num_players``, ``max_game_length``, ``utility_range``,
    ``num_distinct_actions``, ``max_chance_outcomes``), and may override the optional hooks
    (``evaluate``, ``render_text``, ``render_svg``, ``observation_tensor``).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    chance: ClassVar[bool] = False
    perfect_information: ClassVar[bool] = True
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    seat_names: ClassVar[tuple[str, ...]] = ()
    rules_page: ClassVar[str | None] = None
    """The file name (without ``.md``) of the rules page in docs/rules; defaults to ``name``."""
    conformance_variants: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    """Parameter sets the conformance suite and the golden playthroughs cover."""
    text_styles: ClassVar[dict[str, str]] = {}
    """Regular expression -> rich style, to colour the text board in the terminal."""
    pitch: ClassVar[str] = ""
    """One line in plain words that makes a newcomer want to play (the home page's card)."""
    how_to_play: ClassVar[tuple[str, ...]] = ()
    """The rules in a few short sentences for someone who has never played: the goal, a turn,
    the end (the game page's *How to play*, the top of the rules page, ``rules`` at the
    terminal). The rules page says the rest."""

    def __init__(self, **params: Any) -> None:
        self._hooks: dict[tuple[str, str], Any] = {}
        self.params: dict[str, ParameterValue | None] = resolve_parameters(
            self.name, self.parameters, params
        )
        self._configure()
        self.info = GameInfo(
            name=self.name,
            title=self.title,
            num_players=self.num_players(),
            min_players=self.min_players,
            max_players=self.max_players,
            chance=self.chance,
            perfect_information=self.perfect_information,
            max_game_length=self.max_game_length(),
            min_utility=self.utility_range()[0],
            max_utility=self.utility_range()[1],
            num_distinct_actions=self.num_distinct_actions(),
            max_chance_outcomes=self.max_chance_outcomes(),
            parameters=dict(self.params),
            parameter_specs=self.parameters,
            seat_names=self.seat_names,
        )

    def _configure(self) -> None:
        """Derive whatever the game needs from ``self.params`` (boards, tables)."""

    # ----- sizing hooks -------------------------------------------------------------------

    def num_players(self) -> int:
        return self.min_players

    @abstractmethod
    def max_game_length(self) -> int: ...

    @abstractmethod
    def utility_range(self) -> tuple[float, float]: ...

    @abstractmethod
    def num_distinct_actions(self) -> int: ...

    def max_chance_outcomes(self) -> int:
        return 0

    # ----- states -------------------------------------------------------------------------

    @abstractmethod
    def new_initial_state(self) -> State: ...

    def state_from_json(self, doc: Mapping[str, Any]) -> State:
        """Rebuild a state from ``State.to_json()``; a bad document raises InvalidStateError."""
        if not isinstance(doc, Mapping):
            raise InvalidStateError(f"a state document is a JSON object, not {type(doc).__name__}")
        if doc.get("game") != self.name:
            raise InvalidStateError(
                f"state document is for game {doc.get('game')!r}, not '{self.name}'"
            )
        if doc.get("params") != self.params:
            raise InvalidStateError(
                f"state document has parameters {doc.get('params')!r}; "
                f"this game has {self.params!r}"
            )
        history = doc.get("history")
        if not isinstance(history, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in history
        ):
            raise InvalidStateError("state document needs 'history', a list of integer actions")
        return self._state_from_json(doc)

    def _state_from_json(self, doc: Mapping[str, Any]) -> State:
        """Replay the history, or, for a game that saves its record, set the saved fields from
        the document's ``snapshot`` (a state resampled from a view has no history to replay)."""
        saved = doc.get("snapshot")
        state = self.new_initial_state()
        if saved is None or not state.saves_record:
            return self.replay(state, doc["history"])
        try:
            restore(state, saved)
            state._after_restore()
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise InvalidStateError(f"bad {self.name} state snapshot: {error}") from None
        state._history = list(doc["history"])
        return state

    @staticmethod
    def replay(state: State, history: list[int]) -> State:
        """Play ``history`` on ``state``; an illegal action raises InvalidStateError naming it."""
        for number, action in enumerate(history):
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                raise InvalidStateError(
                    f"state document's action {number} ({action}) is illegal: {error}"
                ) from None
        return state

    # ----- optional hooks for bots and interfaces ------------------------------------------

    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic value of ``state`` for ``seat``, inside the utility range.

        Bots call it on states they may look at (their own, or resampled ones). Found as
        ``heuristic.evaluate(state, seat)``; without one, only the end of the game is known.
        """
        hook = self._hook("heuristic", "evaluate")
        if hook is not None:
            return float(hook(state, seat))
        if state.is_terminal():
            return state.returns()[seat]
        return 0.0

    def lookahead_values(
        self, observation: Observation, actions: list[int], time_limit: float | None = None
    ) -> dict[int, float] | None:
        """The game's own search, for the ``lookahead`` bot, or ``None`` (the default).

        A value for each of ``actions`` (the legal actions of the seat whose ``observation`` this
        is; higher is better), computed from that observation alone, within ``time_limit``
        seconds. A game whose rules are too slow for a generic search may export a search on a
        compact model of its own here (Bond O Cones does): ``search.lookahead_values(game,
        observation, actions, time_limit)``.
        """
        hook = self._hook("search", "lookahead_values")
        if hook is None:
            return None
        values: dict[int, float] = hook(dict(observation), actions, time_limit)
        return values

    def render_text(self, observation: Observation) -> str:
        """The board as text, drawn from what one seat may see (``draw.render_text``)."""
        return str(self._required_hook("draw", "render_text", "text drawing")(observation))

    def render_svg(self, observation: Observation, **options: Any) -> str:
        """The board as an SVG document, drawn from what one seat may see (``draw.render_svg``)."""
        hook = self._required_hook("draw", "render_svg", "SVG drawing")
        return str(hook(observation, **options))

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of ``observation_tensor`` (``tensor.observation_tensor_shape``)."""
        hook = self._required_hook("tensor", "observation_tensor_shape", "observation tensor")
        return tuple(hook())

    def observation_tensor(self, observation: Observation) -> Sequence[float]:
        """A fixed-size numeric encoding of an observation, for learning interfaces
        (``tensor.observation_tensor``)."""
        hook = self._required_hook("tensor", "observation_tensor", "observation tensor")
        tensor: Sequence[float] = hook(observation)
        return tensor

    def state_observation_tensor(self, state: State, seat: int | None) -> Sequence[float]:
        """``observation_tensor(state.observation(seat))``, the same numbers by a faster road.

        A game may give ``tensor.state_tensor(state, seat)`` to encode straight from its fields,
        skipping the observation dict; the conformance suite checks at every step that both roads
        give equal numbers, so the fast road shows a seat nothing more than its observation does.
        """
        state._check_seat(seat)
        return self._state_observation_tensor(state, seat)

    def _state_observation_tensor(self, state: State, seat: int | None) -> Sequence[float]:
        """``state_observation_tensor`` without checking ``seat`` (for adapters that pass only
        valid seats, at every step)."""
        fast = self._hook("tensor", "state_tensor")
        if fast is not None:
            tensor: Sequence[float] = fast(state, seat)
            return tensor
        return self.observation_tensor(state.observation(seat))

    def state_action_mask(self, state: State) -> bytearray | None:
        """The legal actions of the player to move as a mask, or ``None`` (the default).

        A new bytearray of ``num_distinct_actions`` bytes, 1 at exactly the ids of
        ``state.legal_actions()``: a game whose state keeps such bytes anyway (Bones keeps one
        per placement) gives ``tensor.state_action_mask(state)``, and the interfaces that hand
        agents a mask every turn use it instead of converting the legal list. tests/interop
        checks it against ``legal_actions()`` at every step of random games.
        """
        hook = self._hook("tensor", "state_action_mask")
        if hook is None:
            return None
        mask: bytearray = hook(state)
        return mask

    # ----- hooks found by convention in the game's package ----------------------------------

    def _hook(self, module: str, name: str) -> Any:
        """``name`` from the game package's ``module`` (``boneyard.games.<pkg>.<module>``), or
        ``None`` where the package has no such module or the module no such name.

        The one way a game gives its concerns to the core: the drawing in ``draw``, the
        heuristic in ``heuristic``, the tensors in ``tensor``, its own search in ``search``, the
        words in ``prompt``. A hook takes the arguments of the ``Game`` method it serves, and
        the game before them when its first parameter is named ``game`` (a drawing needs only
        the observation; a tensor's size needs the game's parameters). Looked up once per game
        and kept: the fast tensor is read at every step, and the module is imported only when
        first needed (numpy, drawing).
        """
        key = (module, name)
        cache = self._hooks
        found = cache.get(key, _NOT_LOOKED_UP)
        if found is not _NOT_LOOKED_UP:
            return found
        found = None
        # The game's own package first, then its base classes' (a test's variant of a game).
        packages = dict.fromkeys(
            cls.__module__.rpartition(".")[0]
            for cls in type(self).__mro__
            if issubclass(cls, Game) and cls is not Game and "." in cls.__module__
        )
        for package in packages:
            qualified = f"{package}.{module}"
            try:
                found = getattr(importlib.import_module(qualified), name, None)
            except ModuleNotFoundError as error:
                if error.name != qualified:
                    raise
            if found is not None:
                break
        if found is not None and _takes_the_game(found):
            found = functools.partial(found, self)
        cache[key] = found
        return found

    def gives(self, module: str, name: str) -> bool:
        """Whether the game's package gives the hook ``name`` in ``module`` (an interface may
        take a faster road when it does)."""
        return self._hook(module, name) is not None

    def _required_hook(self, module: str, name: str, what: str) -> Any:
        hook = self._hook(module, name)
        if hook is None:
            raise NotImplementedError(f"{self.name} has no {what}")
        return hook

    # ----- words for people (found in the game package's ``prompt`` module) ---------------

    def seat_name(self, seat: int) -> str:
        """The seat as the game names it (South, black, red), never a bare number."""
        names = self.info.seat_names
        return names[seat] if seat < len(names) else f"player {seat + 1}"

    def prompt(self, observation: Observation, seat: int) -> str:
        """What ``seat``, whose turn it is, must decide now, in the rules' own words.

        ``observation`` is ``seat``'s. For example "Put your cone worth 8 on one of your shaded
        start fields". The default only says whose move it is.
        """
        hook = self._hook("prompt", "prompt")
        if hook is not None:
            return str(hook(observation, seat))
        return f"Your move, {self.seat_name(seat)}."

    def describe_action(self, observation: Observation, actor: int | None, action: str) -> str:
        """``action`` in words, as the viewer whose ``observation`` (of the position *before*
        the action) this is saw it played by ``actor`` (``None``: chance). ``action`` is the
        string ``State.action_string_for(viewer, ...)`` gave, so it hides what the viewer may
        not see. For example "North moved the lion from d1 to d2". A step not worth a line of
        its own is the empty string and the log leaves it out: a chance outcome (one step of a
        deal the board shows) or a move the viewer could not follow (``action`` hides part of
        it), told once with the run it belongs to ("Black put their 16 cones ...")."""
        hook = self._hook("prompt", "describe_action")
        if hook is not None:
            return str(hook(observation, actor, action))
        who = "Chance" if actor is None else self.seat_name(actor)
        return f"{who}: {action}"

    def action_label(self, observation: Observation, action: str) -> str:
        """The label of the button for ``action`` ("Draw a card"), for the seat whose
        ``observation`` this is."""
        hook = self._hook("prompt", "action_label")
        if hook is not None:
            return str(hook(observation, action))
        return action

    def panel(self, observation: Observation, seat: int | None) -> list[PanelItem]:
        """The labelled facts a player wants beside the board (scores, the die, cards left),
        from ``seat``'s observation (``None``: a spectator). Empty by default."""
        hook = self._hook("prompt", "panel")
        if hook is not None:
            return list(hook(observation, seat))
        return []

    def result(self, observation: Observation, seat: int | None, returns: Sequence[float]) -> str:
        """The end of the game in words for ``seat`` ("You won 3-1", "Draw by repetition");
        ``returns`` are the state's returns."""
        hook = self._hook("prompt", "result")
        if hook is not None:
            return str(hook(observation, seat, returns))
        best = max(returns)
        winners = [s for s, value in enumerate(returns) if value == best]
        if len(winners) == len(returns):
            return "The game is drawn."
        if seat is not None and seat in winners:
            return "You won." if len(winners) == 1 else "You share the win."
        names = " and ".join(self.seat_name(s) for s in winners)
        return f"{names} won." if seat is None else f"You lost: {names} won."

    def in_setup(self, observation: Observation) -> bool:
        """Whether the seat whose ``observation`` this is is setting up (placing its pieces
        before play): a person may then leave the rest of its set-up to chance in one click."""
        hook = self._hook("prompt", "in_setup")
        return bool(hook(observation)) if hook is not None else False

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.params.items() if v != self._default(k)}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"boneyard.load_game({self.name!r}{args})"

    def _default(self, name: str) -> ParameterValue | None:
        return next(p.default for p in self.parameters if p.name == name)


class State(ABC):
    """One position of a game, with its history. Mutable: ``apply_action`` changes it in place.

    A subclass implements ``current_player``, ``_legal_actions``, ``_apply_action``,
    ``returns``, ``_action_to_string``, ``_string_to_action``, ``_observation`` and
    ``__str__``; a game with chance implements ``_chance_outcomes``; a game with hidden
    information implements ``_resample`` (and ``action_string_for`` where an action is secret).
    """

    _history: Copied[list[int]]
    _legal_cache: Cache[list[int] | None]
    """The legal actions once asked for; never changed in place, so copies share it."""
    saves_record: ClassVar[bool] = False
    """Whether ``to_json`` saves the declared fields (a ``snapshot``) beside the history, for
    states that are more than a replay of their history (resampled ones)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history = []
        self._legal_cache = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "clone" not in cls.__dict__:
            cls.clone = State._derived_clone  # type: ignore[method-assign]

    # ----- hooks ------------------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """A seat, ``CHANCE`` or ``TERMINAL``."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """Sorted legal action ids at a player node (never called at chance or terminal)."""

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node."""
        raise NotImplementedError(f"{self.game.name} has no chance nodes")

    @abstractmethod
    def _apply_action(self, action: int) -> None:
        """Play a legal action (already checked) or chance outcome."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One value per seat: the result at the end, zeros before it."""

    @abstractmethod
    def _action_to_string(self, action: int) -> str:
        """The notation of ``action`` played from this state."""

    @abstractmethod
    def _string_to_action(self, text: str) -> int:
        """Parse notation (already stripped and lower-cased); raise InvalidActionStringError."""

    @abstractmethod
    def _observation(self, seat: int | None) -> Observation:
        """All that ``seat`` may know (``None``: a spectator), as JSON-safe data."""

    def _resample(self, seat: int, rng: random.Random) -> State:
        raise NotImplementedError(f"{self.game.name} does not resample")

    def _why_illegal(self, action: int) -> str | None:
        """Optionally, the rule an illegal action breaks (for error messages)."""
        return None

    def _after_restore(self) -> None:
        """Rebuild the ``Derived`` fields after a snapshot's saved fields were set, and raise
        ValueError where they break what the rules keep true (games that save their record)."""

    @abstractmethod
    def __str__(self) -> str: ...

    # ----- the contract -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids; at a chance node the outcomes; empty once the game is over."""
        cache = self._legal_cache
        if cache is None:
            cache = self._legal_cache = self._compute_legal()
        return list(cache)

    def _compute_legal(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            outcomes = [outcome for outcome, _ in self._chance_outcomes()]
            outcomes.sort()  # most games list them in order already: one pass then
            return outcomes
        return self._legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` sorted by outcome at a chance node, else empty."""
        if self.current_player() != CHANCE:
            return []
        return sorted(self._chance_outcomes())

    def apply_action(self, action: int) -> None:
        """Play ``action``. An illegal one raises IllegalActionError and changes nothing."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._compute_legal()
        if action not in legal or isinstance(action, bool):
            raise IllegalActionError(self._illegal_message(action))
        self._apply_action(action)
        self._history.append(action)
        self._legal_cache = None

    def _illegal_message(self, action: object) -> str:
        if self.is_terminal():
            return f"the {self.game.name} game is over: no action is legal (got {action!r})"
        shown = repr(action)
        reason = None
        if isinstance(action, int) and not isinstance(action, bool):
            try:
                shown = repr(self._action_to_string(action))
            except (ValueError, IndexError, KeyError):
                shown = repr(action)
            reason = self._why_illegal(action)
        legal = ", ".join(self._action_to_string(a) for a in self.legal_actions())
        because = f": {reason}" if reason else ""
        return f"illegal action {shown} in {self.game.name}{because}; legal: {legal}"

    def why_illegal(self, action: int | str) -> str:
        """One short reason in plain words why ``action`` (an id or its notation) is refused now,
        for a person who clicked it: the rule it breaks where the game knows it, else a generic
        sentence; never the list of legal actions. An empty string when it is legal."""
        if self.is_terminal():
            return "The game is over."
        if self.is_chance_node():
            return "Wait: the game is not waiting for a move now."
        if isinstance(action, str):
            try:
                action = self.string_to_action(action)
            except ValueError:
                return NOT_ALLOWED
        if isinstance(action, bool) or not isinstance(action, int):
            return NOT_ALLOWED
        if action in self.legal_actions():
            return ""
        if not 0 <= action < self.game.info.num_distinct_actions:
            return NOT_ALLOWED
        try:
            reason = self._why_illegal(action)
        except (ValueError, IndexError, KeyError):
            reason = None
        if not reason:
            return NOT_ALLOWED
        first_word = reason.split(" ", 1)[0]
        if not any(char.isdigit() for char in first_word):  # "e5 is taken" keeps its square name
            reason = reason[:1].upper() + reason[1:]
        return reason if reason.endswith((".", "!", "?")) else reason + "."

    def action_to_string(self, action: int) -> str:
        """The notation of ``action`` played from this state (player action or chance outcome)."""
        return self._action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id of ``text``; malformed notation raises InvalidActionStringError.

        Case and surrounding spaces do not matter. A well-formed but illegal action still gets
        its id; ``apply_action`` refuses it with the reason.
        """
        if not isinstance(text, str):
            raise InvalidActionStringError(f"an action string is text, not {type(text).__name__}")
        return self._string_to_action(" ".join(text.strip().lower().split()))

    def action_string_for(self, seat: int | None, action: int) -> str:
        """How ``action``, played from this state, looks to ``seat`` (a secret shows as ``?``)."""
        return self._action_to_string(action)

    def history(self) -> list[int]:
        return list(self._history)

    def move_number(self) -> int:
        """How many actions (chance outcomes included) have been played."""
        return len(self._history)

    def transposition_key(self) -> Any:
        """A hashable key, equal for states that a search may treat as the same position with
        the same player to move (search bots key their transposition tables on it, together with
        ``move_number``). The text of the state by default; a game may return something cheaper
        to build, such as a tuple of its fields."""
        return str(self)

    def observation(self, seat: int | None) -> Observation:
        """All that ``seat`` may know, as a JSON-safe dict; ``seat=None`` is a spectator."""
        self._check_seat(seat)
        return self._observation(seat)

    def resample(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``observation(seat)``, the unknowns drawn from ``rng``.

        It depends on nothing but ``observation(seat)`` and ``rng``.
        """
        self._check_seat(seat)
        if self.game.perfect_information:
            return self.clone()
        return self._resample(seat, rng)

    def clone(self) -> Self:
        """An independent copy, derived from the declared record (``core/record.py``)."""
        return self._derived_clone()

    def _derived_clone(self) -> Self:
        # The first call on a class compiles its clone from the declaration and puts it on the
        # class, so later calls cost what a hand-written field-by-field copy costs.
        cls = type(self)
        record = record_of(cls)
        if len(record.fields) == len(record_of(State).fields):
            return self._deep_clone()  # a class that declares no fields (a test's toy game)
        if cls.__dict__.get("clone") is State._derived_clone:
            cls.clone = record.clone  # type: ignore[method-assign, assignment]
        new: Self = record.clone(self)
        return new

    def _deep_clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__ = copy.deepcopy(self.__dict__, {id(self.game): self.game})
        return new

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe document that ``game.state_from_json`` turns back into this state."""
        doc = {
            "game": self.game.name,
            "params": dict(self.game.params),
            "history": list(self._history),
        }
        if self.saves_record:
            doc["snapshot"] = snapshot(self)
        return doc

    def _check_seat(self, seat: int | None) -> None:
        players = self.game.info.num_players
        if seat is None:
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ValueError(
                f"bad seat {seat!r} for {self.game.name}: seats are 0 to {players - 1}, "
                "or None for a spectator"
            )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game!r} after {len(self._history)} actions>"
