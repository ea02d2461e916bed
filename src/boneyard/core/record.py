"""A state's fields, declared once: how each is copied, saved and compared.

A game's ``State`` subclass annotates each of its fields with one of the kinds below, at class
level, once, and says so with the ``@declared`` decorator::

    @declared
    class BonesState(State):
        _table: Shared[DominoTable]      # the game's, the same object in every copy
        _player: Value[int]              # immutable: shared, saved, compared
        _heights: Copied[list[int]]      # a container: each copy gets its own
        _tensor_memo: Transient[list[Any] | None]   # a clone starts with None

The decorator makes the class's record once, when the class is made, and keeps it as the class
attribute ``record`` (its base's fields, then its own); nothing reads annotations after that.
From the record the core has ``State.clone`` (a function generated once per class, as fast as a
hand-written field-by-field copy), the JSON snapshot of games that save their fields
(``State.saves_record``) and its restore, and the conformance kit compares whole records and
proves that no copied field is shared by mistake. ``State`` itself declares ``_history`` and
``_legal_cache`` in its own written record (``game.py``); ``game`` is shared. A subclass that is
not decorated has its base's record (a test's toy state, which declares nothing, has
``State``'s, and clones by deep copy).

The kinds, each a :class:`Field`:

============  ===========================  =====  ========
kind          a clone gets                 saved  compared
============  ===========================  =====  ========
``Value``     the same (immutable) object  yes    yes
``Shared``    the same object              no     yes
``Copied``    a one-level copy             yes    yes
``Nested``    a copy of each item          yes    yes
``Derived``   a one-level copy             no     yes
``Memo``      a one-level copy             no     no
``Cache``     the same object              no     no
``Transient`` ``None``                     no     no
============  ===========================  =====  ========

"Saved" fields go into ``to_json()["snapshot"]``; ``Derived`` ones are rebuilt from them by the
game's ``State._after_restore``. "Compared" fields are those two equal states agree on; memos and
caches may differ between a state and its restored copy.
"""

from __future__ import annotations

import enum
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeAlias, TypeVar

T = TypeVar("T")
C = TypeVar("C", bound=type)


@dataclass(frozen=True)
class Field:
    """How one declared field of a state is copied, saved and compared."""

    copy: str
    """``"share"``, ``"copy"`` (one level), ``"nested"`` (each item copied) or ``"reset"``."""
    saved: bool
    compared: bool


VALUE = Field("share", saved=True, compared=True)
SHARED = Field("share", saved=False, compared=True)
COPIED = Field("copy", saved=True, compared=True)
NESTED = Field("nested", saved=True, compared=True)
DERIVED = Field("copy", saved=False, compared=True)
MEMO = Field("copy", saved=False, compared=False)
CACHE = Field("share", saved=False, compared=False)
TRANSIENT = Field("reset", saved=False, compared=False)

Value: TypeAlias = Annotated[T, VALUE]
"""An immutable value (int, str, tuple, None): shared by copies, saved, compared."""
Shared: TypeAlias = Annotated[T, SHARED]
"""An object every copy shares on purpose (the game's tables, a list never changed in place)."""
Copied: TypeAlias = Annotated[T, COPIED]
"""A container (list, bytearray, dict, set) of immutable items: each copy gets its own."""
Nested: TypeAlias = Annotated[T, NESTED]
"""A list of containers (a run of cards per seat): each copy gets its own of each."""
Derived: TypeAlias = Annotated[T, DERIVED]
"""A container the game rebuilds from the saved fields (``_after_restore``): copied, not saved."""
Memo: TypeAlias = Annotated[T, MEMO]
"""A container of results worked out lazily: copied, neither saved nor compared."""
Cache: TypeAlias = Annotated[T, CACHE]
"""A value worked out lazily and never changed in place: shared, neither saved nor compared."""
Transient: TypeAlias = Annotated[T, TRANSIENT]
"""Scratch kept for one state only: a clone starts with ``None``."""


@dataclass(frozen=True)
class Record:
    """The declared fields of one State class, in declaration order (base class first)."""

    fields: dict[str, Field]
    types: dict[str, Any]
    clone: Callable[[Any], Any]

    def saved(self) -> list[str]:
        return [name for name, spec in self.fields.items() if spec.saved]

    def compared(self) -> list[str]:
        return [name for name, spec in self.fields.items() if spec.compared]


def record_of(cls: type) -> Record:
    """The record of the State class ``cls``: its own (``@declared``) or its nearest base's."""
    record: Record = cls.record  # type: ignore[attr-defined]
    return record


def declared(cls: C) -> C:
    """Class decorator: make ``cls``'s record from its base's and the fields ``cls`` annotates,
    once, and keep it as ``cls.record``; a field without a kind is a TypeError."""
    base: Record = record_of(cls.__mro__[1])
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = dict(base.fields)
    kinds = dict(base.types)
    for name in inspect.get_annotations(cls):
        hint = hints[name]
        if typing.get_origin(hint) is typing.ClassVar or name == "game":
            continue
        marks = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Field)]
        if len(marks) != 1:
            raise TypeError(
                f"{cls.__name__}.{name}: declare how the field is copied "
                "(Value, Shared, Copied, Nested, Derived, Memo, Cache or Transient)"
            )
        fields[name] = marks[0]
        kinds[name] = typing.get_args(hint)[0]
    cls.record = Record(fields, kinds, _compile_clone(cls, fields, kinds))  # type: ignore[attr-defined]
    return cls


def _compile_clone(
    cls: type, fields: dict[str, Field], kinds: dict[str, Any]
) -> Callable[..., Any]:
    """A clone function with one line per field, as a person would write it for speed."""
    # type(self), not cls: an undecorated subclass (a test's variant) clones to its own class.
    lines = ["def clone(self):", "    new = _new(type(self))", "    new.game = self.game"]
    for name, spec in fields.items():
        if spec.copy == "share":
            lines.append(f"    new.{name} = self.{name}")
        elif spec.copy == "reset":
            lines.append(f"    new.{name} = None")
        elif spec.copy == "copy":
            lines.append(f"    new.{name} = {_copy_expression(f'self.{name}', kinds[name])}")
        else:
            inner = _item_type(kinds[name])
            item = _copy_expression("item", inner)
            lines.append(f"    new.{name} = [{item} for item in self.{name}]")
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__}
    exec("\n".join(lines), namespace)  # the text holds declared field names only
    clone: Callable[..., Any] = namespace["clone"]
    clone.__qualname__ = f"{cls.__name__}.clone"
    return clone


def _copy_expression(expression: str, kind: Any) -> str:
    origin = typing.get_origin(kind) or kind
    if origin in (list, bytearray, dict, set):
        return f"{expression}.copy()"  # a method call: faster than a slice, which builds one
    raise TypeError(f"cannot copy a {kind!r} one level: declare a list, bytearray, dict or set")


def _item_type(kind: Any) -> Any:
    if typing.get_origin(kind) is not list:
        raise TypeError(f"a Nested field is a list of containers, not {kind!r}")
    return typing.get_args(kind)[0]


# ----- the JSON snapshot ------------------------------------------------------------------------


def encode(value: Any, kind: Any = Any) -> Any:
    """A saved field's value as JSON-safe data: tuples become lists, a field declared as an enum
    its member's name in lower case (``"setup_put"``), whether it holds the member or its int."""
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(value).name.lower()
    if isinstance(value, enum.Enum):
        return value.name.lower()
    if isinstance(value, (list, tuple, bytearray)):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    return value


def decode(value: Any, kind: Any, where: str) -> Any:
    """``encode``'s inverse for a value of declared type ``kind``; a value of another shape
    raises ValueError naming ``where`` and what is allowed."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return _decode_union(value, typing.get_args(kind), where)
    if kind is Any:
        return value
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _decode_member(value, kind, where)
    if kind in _SCALARS:
        accepts, allowed = _SCALARS[kind]
        if not accepts(value):
            raise ValueError(f"'{where}' is {value!r}; allowed: {allowed}")
        return float(value) if kind is float else value
    if kind is bytearray:
        return bytearray(decode(value, list[int], where))
    if origin in (list, tuple, set):
        return _decode_sequence(value, origin, typing.get_args(kind), where)
    if origin is dict:
        key_type, item_type = typing.get_args(kind)
        if key_type is not str or not isinstance(value, dict):
            raise ValueError(f"'{where}' is {value!r}; allowed: an object")
        return {key: decode(item, item_type, where) for key, item in value.items()}
    raise TypeError(f"'{where}': a field of type {kind!r} cannot be saved as JSON")


def _decode_member(value: Any, kind: type[enum.Enum], where: str) -> enum.Enum:
    """The member of ``kind`` a saved name (``"setup_put"``) stands for."""
    names = {member.name.lower(): member for member in kind}
    if value not in names:
        raise ValueError(f"'{where}' is {value!r}; allowed: {', '.join(names)}")
    return names[value]


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_SCALARS: dict[Any, tuple[Callable[[Any], bool], str]] = {
    bool: (lambda value: isinstance(value, bool), "true or false"),
    int: (_is_integer, "an integer"),
    float: (_is_number, "a number"),
    str: (lambda value: isinstance(value, str), "text"),
}
"""A saved scalar's type -> whether a JSON value is one, and what is allowed, in words."""


def _decode_union(value: Any, options: tuple[Any, ...], where: str) -> Any:
    """The first option of a union ``value`` decodes as (``None`` where the union allows it)."""
    if value is None and type(None) in options:
        return None
    errors = []
    for option in options:
        if option is type(None):
            continue
        try:
            return decode(value, option, where)
        except ValueError as error:
            errors.append(str(error))
    raise ValueError("; ".join(errors))


def _decode_sequence(value: Any, origin: Any, args: tuple[Any, ...], where: str) -> Any:
    """A list, set or tuple (of fixed length, or ``tuple[T, ...]``) from a JSON list."""
    if not isinstance(value, list):
        raise ValueError(f"'{where}' is {value!r}; allowed: a list")
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        if len(value) != len(args):
            raise ValueError(f"'{where}' needs {len(args)} items, not {len(value)}")
        return tuple(decode(v, a, where) for v, a in zip(value, args))
    return origin(decode(v, args[0], where) for v in value)


def snapshot(state: Any) -> dict[str, Any]:
    """The saved fields of ``state`` as JSON-safe data (``_history`` lives beside it)."""
    record = record_of(type(state))
    return {name: encode(getattr(state, name)) for name in record.saved() if name != "_history"}


def restore(state: Any, saved: Mapping[str, Any]) -> None:
    """Set the saved fields of ``state`` (a new initial state) from ``snapshot``'s document."""
    if not isinstance(saved, Mapping):
        raise ValueError(f"a snapshot is an object, not {type(saved).__name__}")
    record = record_of(type(state))
    for name in record.saved():
        if name == "_history":
            continue
        if name not in saved:
            raise ValueError(f"the snapshot lacks '{name}'")
        setattr(state, name, decode(saved[name], record.types[name], name))
