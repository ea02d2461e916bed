"""The engine contract every game implements: ``Game``, ``State`` and ``GameInfo``.

The names follow OpenSpiel's on purpose. A game subclasses ``Game`` and ``State`` and fills in
small hooks (``_legal_actions``, ``_apply_action``, ...); the base classes do the shared work once,
like pgx's ``Env.step``: refusing actions in finished states, refusing illegal actions without
touching the state, caching legal actions, keeping the history, validating seats, and the JSON
round trip.

Action ids: player actions are ``0 .. num_distinct_actions - 1`` and chance outcomes are
``0 .. max_chance_outcomes - 1``; which one an id means depends on whose turn it is, as in
OpenSpiel. Every game documents its ids, and they never change meaning between releases.

What bots and interfaces need beyond the rules (a drawing, the words for people, a heuristic,
tensors, a search of its own) a game declares in its spec (``core/spec.py``), one object per
concern checked against the protocols of ``core/hooks.py``; the ``Game`` methods below
(``render_text``, ``prompt``, ``evaluate``, ...) call them, each with a plain default where the
spec names none. ``State.transposition_key`` (a cheap key for search tables) is a method of the
state. A hidden-information game must also give ``State._resample``: a full state consistent
with one seat's view, which is all its bots may search. A state declares its fields once
(``core/record.py``); ``clone`` and the JSON snapshot are derived from that declaration.

Words for people (the web page and the terminal show nothing else): ``Game.pitch`` (one line for
the home page), ``Game.how_to_play`` (the rules in a few sentences), ``Game.prompt`` (what the seat
to act must decide now, in the rules' words), ``Game.describe_action`` (an action in words, as a
viewer saw it), ``Game.action_label`` (the label of a button), ``Game.panel`` (the labelled facts
beside the board), ``Game.result`` (the end in words) and ``Game.in_setup`` (a set-up a person may
leave to chance in one click), with ``State.why_illegal`` (one short reason for a refused action).
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self

from boneyard.core.errors import (
    IllegalActionError,
    InvalidActionStringError,
    InvalidStateError,
)
from boneyard.core.parameters import Parameter, ParameterValue, resolve_parameters
from boneyard.core.record import CACHE, COPIED, Record, restore, snapshot
from boneyard.core.spec import GameSpec, spec_of

if TYPE_CHECKING:
    from boneyard.core.hooks import Drawing, Tensor

CHANCE = -1
"""``current_player()`` at a chance node (a die roll, a shuffle, a draw)."""

TERMINAL = -4
"""``current_player()`` once the game is over."""

Observation = dict[str, Any]

NOT_ALLOWED = "That move is not allowed now."
"""``State.why_illegal``'s answer where the game gives no reason of its own."""


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
    turn: bool = False
    """The item says whose turn it is ("To move"): once the game is over a page shows the
    result in its place (a resignation or a fallen flag ends a game whose rules' state is
    still mid-turn)."""

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
    ``num_distinct_actions``, ``max_chance_outcomes``). The optional hooks (``evaluate``,
    ``render_text``, ``prompt``, ...) call what the game's spec names.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    chance: ClassVar[bool] = False
    perfect_information: ClassVar[bool] = True
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    seat_names: ClassVar[tuple[str, ...]] = ()
    rules_version: ClassVar[int] = 1
    """The version of the game's rules, raised by one whenever a change of the rules makes a
    stored list of actions mean another game (other legal moves, another deal, other action
    numbers): a stored game records the version it was played under, and one of another
    version is refused rather than replayed into another position (``web/play/work.py``)."""
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

    @property
    def spec(self) -> GameSpec:
        """The game's declaration, looked up by its class (``core.spec.spec_of``), not kept on
        the game: a game travels pickled to worker processes, and a spec holds its hook
        modules."""
        return spec_of(type(self))

    def __init__(self, **params: Any) -> None:
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
        check_state_document(self, doc)
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

        Bots call it on states they may look at (their own, or resampled ones): the spec's
        ``heuristic``; without one, only the end of the game is known.
        """
        heuristic = self.spec.heuristic
        if heuristic is not None:
            return float(heuristic.evaluate(state, seat))
        if state.is_terminal():
            return state.returns()[seat]
        return 0.0

    def lookahead_values(
        self, observation: Observation, actions: list[int], time_limit: float | None = None
    ) -> dict[int, float] | None:
        """The game's own search, for the ``lookahead`` bot, or ``None`` (the default).

        A value for each of ``actions`` (the legal actions of the seat whose ``observation`` this
        is; higher is better), computed from that observation alone, within ``time_limit``
        seconds. A game whose rules are too slow for a generic search may name a search on a
        compact model of its own as its spec's ``search`` (Bond O Cones does).
        """
        search = self.spec.search
        if search is None:
            return None
        return search.lookahead_values(dict(observation), actions, time_limit)

    def render_text(self, observation: Observation) -> str:
        """The board as text, drawn from what one seat may see (the spec's ``drawing``)."""
        return str(self._drawing().render_text(observation))

    def render_svg(self, observation: Observation, **options: Any) -> str:
        """The board as an SVG document, drawn from what one seat may see."""
        return str(self._drawing().render_svg(observation, **options))

    def _drawing(self) -> Drawing:
        drawing = self.spec.drawing
        if drawing is None:
            raise NotImplementedError(f"{self.name} has no drawing")
        return drawing

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of ``observation_tensor`` (the spec's ``tensor``)."""
        return tuple(self._tensor().observation_tensor_shape(self))

    def observation_tensor(self, observation: Observation) -> Sequence[float]:
        """A fixed-size numeric encoding of an observation, for learning interfaces."""
        return self._tensor().observation_tensor(self, observation)

    def _tensor(self) -> Tensor:
        tensor = self.spec.tensor
        if tensor is None:
            raise NotImplementedError(f"{self.name} has no observation tensor")
        return tensor

    def state_observation_tensor(self, state: State, seat: int | None) -> Sequence[float]:
        """``observation_tensor(state.observation(seat))``, the same numbers by a faster road.

        A game may name a ``state_tensor`` in its spec to encode straight from its fields,
        skipping the observation dict; the conformance suite checks at every step that both roads
        give equal numbers, so the fast road shows a seat nothing more than its observation does.
        """
        state._check_seat(seat)
        return self._state_observation_tensor(state, seat)

    def _state_observation_tensor(self, state: State, seat: int | None) -> Sequence[float]:
        """``state_observation_tensor`` without checking ``seat`` (for adapters that pass only
        valid seats, at every step)."""
        fast = self.spec.state_tensor
        if fast is not None:
            return fast.state_tensor(state, seat)
        return self.observation_tensor(state.observation(seat))

    def state_action_mask(self, state: State) -> bytearray | None:
        """The legal actions of the player to move as a mask, or ``None`` (the default).

        A new bytearray of ``num_distinct_actions`` bytes, 1 at exactly the ids of
        ``state.legal_actions()``: a game whose state keeps such bytes anyway (Bones keeps one
        per placement) names an ``action_mask`` in its spec, and the interfaces that hand agents
        a mask every turn use it instead of converting the legal list. tests/interop checks it
        against ``legal_actions()`` at every step of random games.
        """
        action_mask = self.spec.action_mask
        return None if action_mask is None else action_mask.state_action_mask(state)

    # ----- words for people (the spec's ``words``) --------------------------------------------

    def seat_name(self, seat: int) -> str:
        """The seat as the game names it (South, black, red), never a bare number."""
        names = self.info.seat_names
        return names[seat] if seat < len(names) else f"player {seat + 1}"

    def prompt(self, observation: Observation, seat: int) -> str:
        """What ``seat``, whose turn it is, must decide now, in the rules' own words.

        ``observation`` is ``seat``'s. For example "Put your cone worth 8 on one of your shaded
        start fields". The default only says whose move it is.
        """
        return str(self.spec.words.prompt(self, observation, seat))

    def describe_action(self, observation: Observation, actor: int | None, action: str) -> str:
        """``action`` in words, as the viewer whose ``observation`` (of the position *before*
        the action) this is saw it played by ``actor`` (``None``: chance). ``action`` is the
        string ``State.action_string_for(viewer, ...)`` gave, so it hides what the viewer may
        not see. For example "North moved the lion from d1 to d2". A step not worth a line of
        its own is the empty string and the log leaves it out: a chance outcome (one step of a
        deal the board shows) or a move the viewer could not follow (``action`` hides part of
        it), told once with the run it belongs to ("Black put their 16 cones ...")."""
        return str(self.spec.words.describe_action(self, observation, actor, action))

    def action_label(self, observation: Observation, action: str) -> str:
        """The label of the button for ``action`` ("Draw a card"), for the seat whose
        ``observation`` this is."""
        return str(self.spec.words.action_label(self, observation, action))

    def panel(self, observation: Observation, seat: int | None) -> list[PanelItem]:
        """The labelled facts a player wants beside the board (scores, the die, cards left),
        from ``seat``'s observation (``None``: a spectator). Empty by default."""
        return list(self.spec.words.panel(self, observation, seat))

    def result(self, observation: Observation, seat: int | None, returns: Sequence[float]) -> str:
        """The end of the game in words for ``seat`` ("You won 3-1", "Draw by repetition");
        ``returns`` are the state's returns."""
        return str(self.spec.words.result(self, observation, seat, returns))

    def round_summary(
        self,
        before: Observation,
        after: Observation,
        seat: int | None,
        names: Sequence[str] | None = None,
    ) -> dict[str, Any] | None:
        """The round the action between ``before`` and ``after`` (``seat``'s observations)
        ended, in words (``RoundWords``), or ``None``: no round ended, or the game has none.
        ``names`` name the seats as the table does (default: the game's seat names)."""
        round_words = self.spec.round_words
        if round_words is None:
            return None
        return round_words.round_summary(self, before, after, seat, names)

    def in_setup(self, observation: Observation) -> bool:
        """Whether the seat whose ``observation`` this is is setting up (placing its pieces
        before play): a person may then leave the rest of its set-up to chance in one click."""
        set_up = self.spec.set_up_words
        return bool(set_up.in_setup(self, observation)) if set_up is not None else False

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.params.items() if v != self._default(k)}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"boneyard.load_game({self.name!r}{args})"

    def _default(self, name: str) -> ParameterValue | None:
        return next(p.default for p in self.parameters if p.name == name)


def check_state_document(game: Game, doc: object) -> list[int]:
    """The history of ``doc``, a state document of ``game`` (either engine's ``to_json()``);
    a document of another game, other parameters or no list of actions raises
    InvalidStateError."""
    if not isinstance(doc, Mapping):
        raise InvalidStateError(f"a state document is a JSON object, not {type(doc).__name__}")
    if doc.get("game") != game.name:
        raise InvalidStateError(
            f"state document is for game {doc.get('game')!r}, not '{game.name}'"
        )
    if doc.get("params") != game.params:
        raise InvalidStateError(
            f"state document has parameters {doc.get('params')!r}; this game has {game.params!r}"
        )
    history = doc.get("history")
    if not isinstance(history, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in history
    ):
        raise InvalidStateError("state document needs 'history', a list of integer actions")
    return history


def _as_sentence(reason: str) -> str:
    """A rule's reason as a sentence: a capital (unless it starts with a square's name, "e5 is
    taken") and a full stop."""
    first_word = reason.split(" ", 1)[0]
    if not any(char.isdigit() for char in first_word):
        reason = reason[:1].upper() + reason[1:]
    return reason if reason.endswith((".", "!", "?")) else reason + "."


def _deep_clone(state: State) -> State:
    """The clone of a state whose class declares no fields (a test's toy game)."""
    new = object.__new__(type(state))
    new.__dict__ = copy.deepcopy(state.__dict__, {id(state.game): state.game})
    return new


class State(ABC):
    """One position of a game, with its history. Mutable: ``apply_action`` changes it in place.

    A subclass implements ``current_player``, ``_legal_actions``, ``_apply_action``,
    ``returns``, ``_action_to_string``, ``_string_to_action``, ``_observation`` and
    ``__str__``; a game with chance implements ``_chance_outcomes``; a game with hidden
    information implements ``_resample`` (and ``action_string_for`` where an action is secret).
    """

    _history: list[int]
    _legal_cache: list[int] | None
    """The legal actions once asked for; never changed in place, so copies share it."""
    record: ClassVar[Record] = Record(
        fields={"_history": COPIED, "_legal_cache": CACHE},
        types={"_history": list[int], "_legal_cache": list[int] | None},
        clone=_deep_clone,
    )
    """The declared fields (``core/record.py``): a game's state adds its own with
    ``@declared``; one that declares none clones by deep copy."""
    saves_record: ClassVar[bool] = False
    """Whether ``to_json`` saves the declared fields (a ``snapshot``) beside the history, for
    states that are more than a replay of their history (resampled ones)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history = []
        self._legal_cache = None

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
        action_id = self._action_id(action)
        if action_id is None:
            return NOT_ALLOWED
        if action_id in self.legal_actions():
            return ""
        try:
            reason = self._why_illegal(action_id)
        except (ValueError, IndexError, KeyError):
            reason = None
        return _as_sentence(reason) if reason else NOT_ALLOWED

    def _action_id(self, action: object) -> int | None:
        """``action`` (an id or its notation) as an id the game has, or ``None``."""
        if isinstance(action, str):
            try:
                action = self.string_to_action(action)
            except ValueError:
                return None
        if isinstance(action, bool) or not isinstance(action, int):
            return None
        return action if 0 <= action < self.game.info.num_distinct_actions else None

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

    def position_key(self) -> Any:
        """A hashable key, equal for states a player would call the same position coming back
        (hints avoid a move that brings one back: ``ai/repetition.py``). The transposition key
        by default; a game whose boards repeat while counters move on (Bones: the same colours
        on top, the stacks higher) keys only what a player sees as the position."""
        return self.transposition_key()

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
        """An independent copy, made by the function generated from the class's declared
        record (``core/record.py``)."""
        new: Self = self.record.clone(self)
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
