"""A game's declaration: everything the rest of boneyard needs to know about it, in one place.

Like OpenSpiel's ``GameType``, a spec is data that every layer reads: the rules classes, the
objects that draw, phrase, judge and encode its positions (checked against ``core/hooks.py``'s
protocols), its levels, the web's limits for its parameters, its series rules, and the modules
of its solver and batch engine, named as text so that they are imported only when asked for (the
core never imports JAX). Each game's package exports its spec as ``SPEC`` from its
``__init__.py`` and registers it (``core/registry.py``); nothing outside ``games/`` keeps a table
keyed by a game's name.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import pkgutil
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from boneyard.core.hooks import (
    PLAIN_WORDS,
    ActionMask,
    Drawing,
    Heuristic,
    RoundWords,
    Search,
    SetUpWords,
    StateTensor,
    Tensor,
    Words,
)
from boneyard.core.parameters import ParameterValue

if TYPE_CHECKING:
    from boneyard.core.game import Game, State

# ----- levels ------------------------------------------------------------------------------------

LEVEL_NAMES: tuple[str, ...] = ("easy", "medium", "hard")
"""The three named levels: aliases onto each game's numbered scale (``Scale``)."""

MAX_LEVEL = 8
"""A game's scale has at most this many levels, numbered from 1 (the weakest)."""


@dataclass(frozen=True)
class Level:
    """One level of one game: a bot name, its options, and whether exact solvers may answer."""

    bot: str
    options: Mapping[str, Any] = field(default_factory=dict)
    use_solver: bool = True

    def describe(self) -> str:
        options = ", ".join(f"{key}={value}" for key, value in self.options.items())
        solver = "" if self.use_solver else ", no solver"
        return f"{self.bot}({options}{solver})"


HARD_SECONDS = 1.0
"""The hard levels' time cap a move: even on a loaded machine it answers within 2 seconds."""

Levels = Mapping[str, Level]
"""Level name -> Level; a game's spec may leave some levels to ``DEFAULT_LEVELS``."""

DEFAULT_LEVELS: Levels = MappingProxyType(
    {
        "easy": Level("greedy", use_solver=False),
        "medium": Level("mcts", {"iterations": 300, "time_limit": 0.3}),
        "hard": Level("mcts", {"iterations": 5000, "time_limit": HARD_SECONDS}),
    }
)
"""What a level means in a game whose spec does not say."""


@dataclass(frozen=True, eq=False)
class Scale:
    """One game's levels on a scale: ``steps[0]`` is level 1, the weakest, each one stronger.

    Each step is a different bot or budget; the arena measures the ladder (benchmarks/levels.py,
    the ratings in ``boneyard/ai/ratings.json``). The names easy, medium and hard are aliases of
    numbers on the scale (``aliases``), so that stored games and old clients keep working. The
    top step is the strongest bot within hard's budget (a hint asks it): where a bot beats hard at
    hard's time (the trained ``expert``, a native search), it is a step above hard, which stays
    where it was.
    """

    steps: tuple[Level, ...]
    aliases: Mapping[str, int] = field(default_factory=dict)
    """easy/medium/hard -> a level number; one left out is 1, the middle, the top."""

    def __post_init__(self) -> None:
        if not 1 <= len(self.steps) <= MAX_LEVEL:
            raise ValueError(f"a scale has 1 to {MAX_LEVEL} levels, not {len(self.steps)}")
        if len({step.describe() for step in self.steps}) != len(self.steps):
            raise ValueError("the levels of a scale must differ")
        defaults = {"easy": 1, "medium": (len(self.steps) + 1) // 2, "hard": len(self.steps)}
        aliases = {**defaults, **self.aliases}
        for name, number in aliases.items():
            if name not in LEVEL_NAMES or not 1 <= number <= len(self.steps):
                raise ValueError(f"bad alias {name}={number} for levels 1 to {len(self.steps)}")
        object.__setattr__(self, "aliases", MappingProxyType(aliases))

    @property
    def numbers(self) -> range:
        return range(1, len(self.steps) + 1)

    @property
    def strongest(self) -> str:
        """The top level's number: the level a hint asks."""
        return str(len(self.steps))

    def allowed(self) -> str:
        """The level names this scale accepts, in words (for error messages)."""
        return f"1 to {len(self.steps)} or {', '.join(LEVEL_NAMES)}"

    def number(self, level: str | int) -> int:
        """The number of ``level`` (a number, its digits, or an alias); ValueError otherwise."""
        text = str(level).strip().lower()
        if text in self.aliases:
            return self.aliases[text]
        if text.isdecimal() and int(text) in self.numbers:
            return int(text)
        raise ValueError(f"unknown level {str(level)!r}; levels: {self.allowed()}")

    def level(self, level: str | int) -> Level:
        """The Level of ``level``; an unknown level raises ValueError naming the allowed ones."""
        return self.steps[self.number(level) - 1]


def scale_of(levels: Levels | Scale) -> Scale:
    """A spec's levels as a scale: a mapping of the three names gives three steps."""
    if isinstance(levels, Scale):
        return levels
    steps = tuple(levels.get(name, DEFAULT_LEVELS[name]) for name in LEVEL_NAMES)
    return Scale(steps, {name: number for number, name in enumerate(LEVEL_NAMES, 1)})


def is_level_name(level: object) -> bool:
    """Whether ``level`` may name a level of some game: an alias or a number 1 to MAX_LEVEL."""
    text = str(level).strip().lower()
    return text in LEVEL_NAMES or (text.isdecimal() and 1 <= int(text) <= MAX_LEVEL)


def check_level_name(level: str) -> None:
    """Refuse a level no game has with a ValueError naming the levels."""
    if not is_level_name(level):
        raise ValueError(
            f"unknown level {level!r}; levels: 1 to {MAX_LEVEL} or {', '.join(LEVEL_NAMES)}"
        )


# ----- series, ladder, solver --------------------------------------------------------------------

NextGame = Callable[[Any, "int | None"], Mapping[str, ParameterValue]]
"""The next game of a match from the end of the last: the final state and the seat that lost by
leaving (a resignation; ``None`` when the rules ended the game) -> the parameters to change."""


@dataclass(frozen=True)
class SeriesRules:
    """How one game of a series (a rematch, a match) leads to the next, by the game's rules."""

    loser_starts: bool = False
    """The loser of a game moves first in the next (otherwise the seats take turns)."""
    can_be_drawn: bool = True
    """A game can end in a draw (players may then agree one)."""
    random_first_seats: bool = False
    """The first game between players seats them at random unless one chose a seat (the rules
    say to draw for who plays which colour); the rules' seat 0 still moves first."""
    next_game: NextGame | None = None
    """The next game continues from the end of the last (its points carry), or ``None``: every
    game starts afresh."""

    @property
    def continues(self) -> bool:
        return self.next_game is not None


@dataclass(frozen=True)
class PuzzleLadder:
    """A one-player game's ladder of puzzles and its puzzle of the day (the web's ``/ladder``).

    Level N sets ``parameter`` to ``first + N - 1``; the puzzle of a day starts from the set-up
    ``daily_start(date)`` gives, with ``parameter`` at ``daily``. ``parameter`` is also the key
    under which the web tells the puzzle's size. The shortest solution of a puzzle is the game's
    solver's (``boneyard.solvers.shortest_line``), which must solve from the start."""

    parameter: str
    first: int
    levels: int
    daily: int
    daily_start: Callable[[str], str]
    """The set-up (the game's ``start`` parameter) of a date written YYYY-MM-DD; ValueError for
    anything else. The same for everyone who asks for that date."""

    def value_of_level(self, level: int) -> int | None:
        """``parameter``'s value at ``level``, or ``None`` past the ladder's ends."""
        return self.first + level - 1 if 1 <= level <= self.levels else None


@dataclass(frozen=True)
class Solver:
    """A game's exact solver: a module loaded only when a bot or a command asks for it."""

    module: str
    """A module giving ``best_action(state) -> int | None``."""
    solves_from_start: bool = False
    """The module also gives ``solve(state) -> list[int] | None``, a whole optimal line (``boneyard
    solve``)."""
    analysis: str | None = None
    """A module giving an exhaustive analysis of every set-up (``boneyard analyze --bones``)."""


# ----- the spec ----------------------------------------------------------------------------------


GameT = TypeVar("GameT", bound="Game")
StateT = TypeVar("StateT", bound="State")
ObservationT = TypeVar("ObservationT")


@dataclass(frozen=True)
class GameSpec(Generic[GameT, StateT, ObservationT]):
    """One game's declaration (see the module). Made once, in the game's ``__init__.py``.

    Its type parameters, the game's ``Game`` and ``State`` classes and its observation type,
    are bound by the arguments (``game``, ``state``, the hooks), and every hook is checked
    against them (``core/hooks.py``)."""

    game: type[GameT]
    state: type[StateT] | None
    """The state class (``None`` only in the plain spec of a class no spec names)."""
    drawing: Drawing[ObservationT] | None = None
    words: Words[GameT, ObservationT] = PLAIN_WORDS
    set_up_words: SetUpWords[GameT, ObservationT] | None = None
    round_words: RoundWords[GameT, ObservationT] | None = None
    """Where the game is played in rounds: the summary shown when one ends."""
    heuristic: Heuristic[StateT] | None = None
    tensor: Tensor[GameT, ObservationT] | None = None
    state_tensor: StateTensor[StateT] | None = None
    action_mask: ActionMask[StateT] | None = None
    search: Search[ObservationT] | None = None
    levels: Levels | Scale = field(default_factory=lambda: DEFAULT_LEVELS)
    """The game's levels: a ``Scale`` (level 1 to N, easy/medium/hard its aliases), or the
    older mapping of the three names (three steps; ``DEFAULT_LEVELS`` fills what it leaves)."""
    web_limits: Mapping[str, int] = field(default_factory=dict)
    """Integer parameter -> the largest value the web offers (a server may change it), where
    the game's own range is more than a web server should take on for a stranger."""
    solver: Solver | None = None
    batch_engine: str | None = None
    """``"module:Class"`` of the game's engine in ``boneyard.jax`` (needs JAX), or ``None``."""
    series: SeriesRules = SeriesRules()
    ladder: PuzzleLadder | None = None

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def scale(self) -> Scale:
        """The game's levels on their scale."""
        return scale_of(self.levels)

    def level(self, level: str | int) -> Level:
        """The Level ``level`` (a number or an alias) of this game; an unknown level raises
        ValueError naming the game's levels."""
        return self.scale.level(level)

    def load_solver(self) -> Any:
        """The solver's module, imported now (``None``: the game has no solver)."""
        return None if self.solver is None else importlib.import_module(self.solver.module)

    def load_batch_engine(self) -> Any:
        """The batch engine's class, imported now (needs JAX); ``None``: the game has none."""
        if self.batch_engine is None:
            return None
        module, _, name = self.batch_engine.partition(":")
        return getattr(importlib.import_module(module), name)

    def check_references(self) -> None:
        """Refuse a solver or batch engine named by a module or name that does not exist,
        naming those that do, without importing them (a batch engine needs JAX): the
        registry calls this when the game registers, so a misspelt name stops the start."""
        where = f"the spec of {self.name}"
        if self.solver is not None:
            wanted = ["best_action", *(["solve"] if self.solver.solves_from_start else [])]
            _check_defines(self.solver.module, wanted, f"{where}: solver")
            if self.solver.analysis is not None:
                _check_defines(self.solver.analysis, [], f"{where}: analysis")
        if self.batch_engine is not None:
            module, colon, name = self.batch_engine.partition(":")
            if not colon or not name:
                raise ValueError(f"{where}: a batch engine is 'module:Class', not {module!r}")
            _check_defines(module, [name], f"{where}: batch engine")


def _check_defines(module: str, names: list[str], what: str) -> None:
    """Refuse ``module`` unless its source file exists and defines each of ``names`` at its top
    level; read, not imported (only the packages above it are)."""
    package = module.rpartition(".")[0]
    try:
        found = importlib.util.find_spec(module) if not package else None
        if package:
            parent = importlib.util.find_spec(package)
            folders = list(parent.submodule_search_locations or []) if parent else []
            found = importlib.machinery.PathFinder.find_spec(module, folders)
    except ModuleNotFoundError:
        found = None
    if found is None or found.origin is None or not found.origin.endswith(".py"):
        siblings = _modules_in(package)
        raise ValueError(
            f"{what} module {module!r} does not exist; modules in {package or 'the top level'}: "
            f"{', '.join(siblings) or 'none'}"
        )
    # A scan of the text, not a parse: this runs at every start, for every game.
    text = Path(found.origin).read_text(encoding="utf-8")
    pairs = re.findall(r"^(?:(?:async\s+)?def|class)\s+(\w+)|^(\w+)\s*[:=]", text, re.M)
    defined = {name for pair in pairs for name in pair if name}
    missing = [name for name in names if name not in defined]
    if missing:
        public = sorted(name for name in defined if not name.startswith("_"))
        raise ValueError(
            f"{what} module {module!r} defines no {', '.join(missing)}; it defines: "
            f"{', '.join(public)}"
        )


def _modules_in(package: str) -> list[str]:
    if not package:
        return []
    try:
        parent = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        return []
    folders = list(parent.submodule_search_locations or []) if parent else []
    return [f"{package}.{info.name}" for info in pkgutil.iter_modules(folders)]


_DECLARED: dict[type[Game], GameSpec] = {}
"""Game class -> the spec that declares it (``declare``): where ``spec_of`` looks."""


def declare(spec: GameSpec) -> GameSpec:
    """Make ``spec`` the one its game class (and a subclass of it: a test's variant) answers
    with, without listing the game by name (the ``race`` template does this; ``register`` does
    it and lists the game). Returns ``spec``."""
    known = _DECLARED.get(spec.game)
    if known is not None and known is not spec:
        raise ValueError(f"{spec.game.__name__} is declared by two specs")
    _DECLARED[spec.game] = spec
    return spec


def undeclare(game_class: type[Game]) -> None:
    """Forget the spec of ``game_class`` (a test's temporary game); an unknown class is ignored."""
    _DECLARED.pop(game_class, None)


def spec_of(game_class: type[Game]) -> GameSpec:
    """The spec of ``game_class``: the one declared for it or its nearest declared base, or for
    a class no spec names (a test's toy game) a plain one with every default, so that the
    class's own methods answer."""
    for cls in game_class.__mro__:
        spec = _DECLARED.get(cls)
        if spec is not None:
            return spec
    return GameSpec(game=game_class, state=None)
