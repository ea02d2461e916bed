"""Game parameters declared as data: type, default, allowed values and a one-line description.

A game declares its parameters once, as the fields of a frozen dataclass (``parameter``), which
is also the typed object its rules read them as (``read_parameters``); ``load_game``, the
command line, the web form and the docs read the ``Parameter`` list derived from it. Values
arrive as Python objects (``load_game(games=3)``) or as text (``-p games=3`` on the command
line, a web form field) and are checked the same way.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

from boneyard.core.errors import InvalidParameterError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

ParameterValue = int | float | bool | str

_TRUE_WORDS = {"true", "yes", "on", "1"}
_FALSE_WORDS = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Parameter:
    """One declared parameter of a game.

    ``check`` is an extra rule beyond type and range (an odd board size, a well-formed start
    position): it returns an error message, or ``None`` when the value is fine.
    """

    name: str
    type: type
    default: ParameterValue | None
    description: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[ParameterValue, ...] | None = None
    check: Callable[[Any], str | None] | None = None
    local_only: bool = False
    """The value names something on this machine (a file): remote users get only the default."""
    advanced: bool = False
    """A value a player would not usually choose (a start position, who begins): forms fold it
    under *Advanced*."""
    question: str | None = None
    """How to ask a player for the value in plain words ("Who is younger?"), where the
    description is written for developers."""
    choice_labels: tuple[str, ...] | None = None
    """The ``choices`` in plain words, in the same order, for forms ("At random")."""

    def __post_init__(self) -> None:
        if self.choice_labels is not None and (
            self.choices is None or len(self.choice_labels) != len(self.choices)
        ):
            raise ValueError(f"parameter {self.name!r}: one choice label per choice")

    def allowed(self) -> str:
        """What values are allowed, in words."""
        if self.choices is not None:
            return "one of " + ", ".join(repr(choice) for choice in self.choices)
        kind = {int: "an integer", float: "a number", bool: "true or false", str: "text"}.get(
            self.type, self.type.__name__
        )
        if self.minimum is not None and self.maximum is not None:
            return f"{kind} from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"{kind} of at least {self.minimum}"
        if self.maximum is not None:
            return f"{kind} of at most {self.maximum}"
        return kind

    def validate(self, value: Any) -> ParameterValue | None:
        """Return ``value`` converted to this parameter's type, or raise InvalidParameterError."""
        if isinstance(value, str) and self.type is not str:
            value = self._parse_text(value)
        value = self._coerce(value)
        if self.choices is not None and value not in self.choices:
            self._reject(value)
        if self.minimum is not None and value < self.minimum:
            self._reject(value)
        if self.maximum is not None and value > self.maximum:
            self._reject(value)
        if self.check is not None and value is not None:
            problem = self.check(value)
            if problem:
                raise InvalidParameterError(
                    f"bad value {value!r} for parameter '{self.name}': {problem}"
                )
        return value

    def _parse_text(self, text: str) -> Any:
        word = text.strip().lower()
        if self.type is bool:
            if word in _TRUE_WORDS:
                return True
            if word in _FALSE_WORDS:
                return False
            self._reject(text)
        try:
            return self.type(text.strip())
        except ValueError:
            self._reject(text)

    def _coerce(self, value: Any) -> Any:
        if value is None and self.default is None:
            return None
        if self.type is bool:
            if isinstance(value, bool):
                return value
            self._reject(value)
        if self.type is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            self._reject(value)
        if self.type is float:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
            self._reject(value)
        if not isinstance(value, self.type):
            self._reject(value)
        return value

    def _reject(self, value: Any) -> None:
        raise InvalidParameterError(
            f"bad value {value!r} for parameter '{self.name}': allowed is {self.allowed()}"
        )

    def to_json(self) -> dict[str, Any]:
        """The declaration as JSON-safe data (for the web form and the docs)."""
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "description": self.description,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices) if self.choices is not None else None,
            "allowed": self.allowed(),
            "local_only": self.local_only,
            "advanced": self.advanced,
            "question": self.question,
            "choice_labels": list(self.choice_labels) if self.choice_labels else None,
        }


def resolve_parameters(
    game_name: str, declared: Iterable[Parameter], given: Mapping[str, Any]
) -> dict[str, ParameterValue | None]:
    """Check ``given`` against ``declared`` and fill in defaults.

    Raises InvalidParameterError naming an unknown parameter (and the known ones) or a bad value.
    """
    by_name = {parameter.name: parameter for parameter in declared}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise InvalidParameterError(
                f"unknown parameter '{name}' for game '{game_name}'; parameters: {known}"
            )
    return {
        name: parameter.validate(given[name]) if name in given else parameter.default
        for name, parameter in by_name.items()
    }


def parse_assignments(assignments: Iterable[str]) -> dict[str, str]:
    """Split ``["games=3", "start=..."]`` (command line ``-p`` options) into a dict of text."""
    values: dict[str, str] = {}
    for assignment in assignments:
        name, sep, value = assignment.partition("=")
        if not sep or not name.strip():
            raise InvalidParameterError(
                f"bad parameter {assignment!r}: write it as name=value, for example games=3"
            )
        values[name.strip()] = value
    return values


# ----- a game's parameters as a typed object ---------------------------------------------------

ParametersT = TypeVar("ParametersT", bound="DataclassInstance")


@dataclass(frozen=True)
class About:
    """What a form asks about one parameter and what it allows: the metadata of the field that
    declares it, written in its annotation, while the field's default is its plain default::

        goal: Annotated[int, About("the total that ends the game", minimum=2, maximum=50)] = 7

    The parameter's name is the field's, its type the annotation's first argument (``str |
    None`` for one that may be unset); ``declared_parameters`` derives the ``Parameter`` every
    form and check reads. So mypy checks the default against the type, and nothing pretends to
    be what it is not."""

    description: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[ParameterValue, ...] | None = None
    check: Callable[[Any], str | None] | None = None
    local_only: bool = False
    advanced: bool = False
    question: str | None = None
    choice_labels: tuple[str, ...] | None = None


def declared_parameters(parameters_class: type) -> tuple[Parameter, ...]:
    """The ``Parameter`` of each field of a parameters dataclass, in order (``Game.parameters``);
    a field without its ``About`` is a TypeError."""
    hints = typing.get_type_hints(parameters_class, include_extras=True)
    declared = []
    for declared_field in fields(parameters_class):
        hint = hints[declared_field.name]
        about = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, About)]
        if len(about) != 1:
            raise TypeError(
                f"{parameters_class.__name__}.{declared_field.name}: declare the parameter as "
                "Annotated[type, About(description, ...)] = default"
            )
        kind = typing.get_args(hint)[0]
        if typing.get_origin(kind) in (typing.Union, types.UnionType):
            (kind,) = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        info = about[0]
        declared.append(
            Parameter(
                declared_field.name,
                kind,
                declared_field.default,  # type: ignore[arg-type]
                description=info.description,
                minimum=info.minimum,
                maximum=info.maximum,
                choices=info.choices,
                check=info.check,
                local_only=info.local_only,
                advanced=info.advanced,
                question=info.question,
                choice_labels=info.choice_labels,
            )
        )
    return tuple(declared)


def read_parameters(
    parameters_class: type[ParametersT], values: Mapping[str, ParameterValue | None]
) -> ParametersT:
    """``values`` (checked by ``resolve_parameters``) as the game's typed parameters object:
    its fields' values (a subclass of the game, a test's variant, may declare more)."""
    names = [declared_field.name for declared_field in fields(parameters_class)]
    typed: ParametersT = parameters_class(**{name: values[name] for name in names})
    return typed
