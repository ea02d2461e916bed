"""Bon-Bon decks as data: a TOML file lists the kinds of card, and this module checks it.

A deck file holds one ``[[card]]`` table per kind of card, each with every field below::

    [[card]]
    name = "chocolate 3"   # a label for messages and the rules page
    value = 3              # printed value, an integer >= 0
    count = 11             # copies in the deck, an integer >= 1
    face_up_only = false   # true: can only be played face up
    effect = "none"        # none, wrapper, peek, second, gift or caught

Wrapper, gift and caught cards must be face up only. A *kind* is what a draw reveals: a plain
chocolate is its value and face-up-only flag (``3``, ``3!``), an effect card is its effect
(``wrapper``, ``peek``, ...), so two tables may not describe the same kind.

Kinds are kept in a canonical order, which fixes their chance-outcome ids: with ``V`` the highest
value of a plain chocolate in the deck, plain ``v`` is id ``v``, face-up-only ``v!`` is
``V + 1 + v``, and the effects follow at ``2 (V + 1)``: wrapper, peek, second, gift, caught.
"""

from __future__ import annotations

import functools
import os
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from boneyard.core.errors import InvalidParameterError

EFFECTS = ("wrapper", "peek", "second", "gift", "caught")
"""The effects, in the order of their ids."""

FACE_UP_EFFECTS = frozenset({"wrapper", "gift", "caught"})
"""Effects whose cards can only be played face up."""

FIELDS = ("name", "value", "count", "face_up_only", "effect")
MAX_VALUE = 99
MAX_CARDS = 500
DEFAULT_DECK = "default"
"""The ``deck`` parameter value that means the packaged ``decks/default.toml``."""


@dataclass(frozen=True)
class CardKind:
    """One kind of card: what a draw reveals."""

    name: str
    value: int
    count: int
    face_up_only: bool
    effect: str
    """``"none"`` for a plain chocolate, else one of ``EFFECTS``."""

    @property
    def label(self) -> str:
        """The kind in notation: ``3``, ``3!``, ``wrapper``, ``peek``, ..."""
        if self.effect != "none":
            return self.effect
        return f"{self.value}!" if self.face_up_only else str(self.value)

    def sort_key(self) -> tuple[int, int]:
        if self.effect != "none":
            return (2, EFFECTS.index(self.effect))
        return (1 if self.face_up_only else 0, self.value)


@dataclass(frozen=True)
class Deck:
    """The kinds of a deck in canonical order, with their chance-outcome ids."""

    kinds: tuple[CardKind, ...]

    @property
    def size(self) -> int:
        return sum(kind.count for kind in self.kinds)

    @property
    def max_plain_value(self) -> int:
        return max((k.value for k in self.kinds if k.effect == "none"), default=0)

    @property
    def outcome_space(self) -> int:
        """How many card outcome ids the deck's id scheme spans."""
        return 2 * (self.max_plain_value + 1) + len(EFFECTS)

    def outcome_id(self, kind: CardKind) -> int:
        top = self.max_plain_value + 1
        if kind.effect != "none":
            return 2 * top + EFFECTS.index(kind.effect)
        return top + kind.value if kind.face_up_only else kind.value

    def to_json(self) -> list[dict[str, Any]]:
        return [
            {
                "name": k.name,
                "label": k.label,
                "value": k.value,
                "count": k.count,
                "face_up_only": k.face_up_only,
                "effect": k.effect,
            }
            for k in self.kinds
        ]


def _card_error(where: str, number: int, name: object, problem: str) -> InvalidParameterError:
    shown = f"card {number}" + (f" ({name!r})" if isinstance(name, str) else "")
    return InvalidParameterError(f"deck {where}: {shown}: {problem}")


def parse_deck(data: dict[str, Any], where: str) -> Deck:
    """Check a parsed deck document and build its Deck; errors name the card and the field."""
    cards = data.get("card")
    if not isinstance(cards, list) or not cards:
        raise InvalidParameterError(f"deck {where}: needs [[card]] tables, one per kind of card")
    unknown_top = sorted(set(data) - {"card"})
    if unknown_top:
        raise InvalidParameterError(
            f"deck {where}: unknown top-level key {unknown_top[0]!r}; only [[card]] tables"
        )
    kinds: list[CardKind] = []
    seen: dict[str, int] = {}
    for number, card in enumerate(cards, start=1):
        kind = _card_kind(card, where, number)
        if kind.label in seen:
            raise _card_error(
                where,
                number,
                card["name"],
                f"field 'effect'/'value' repeats kind {kind.label!r} of card {seen[kind.label]}",
            )
        seen[kind.label] = number
        kinds.append(kind)
    deck = Deck(tuple(sorted(kinds, key=CardKind.sort_key)))
    if deck.size > MAX_CARDS:
        raise InvalidParameterError(f"deck {where}: {deck.size} cards; at most {MAX_CARDS}")
    return deck


def _card_kind(card: object, where: str, number: int) -> CardKind:
    """One [[card]] table as its CardKind: its fields all there, nothing else, each allowed."""
    if not isinstance(card, dict):
        raise _card_error(where, number, None, "is not a table")
    name = card.get("name")
    for field in FIELDS:
        if field not in card:
            raise _card_error(where, number, name, f"missing field '{field}'")
    extra = sorted(set(card) - set(FIELDS))
    if extra:
        raise _card_error(
            where, number, name, f"unknown field '{extra[0]}'; fields: {', '.join(FIELDS)}"
        )
    if not isinstance(name, str) or not name.strip():
        raise _card_error(where, number, None, "field 'name' must be non-empty text")
    problem = _field_problem(card)
    if problem:
        raise _card_error(where, number, name, problem)
    fields = (card["value"], card["count"], card["face_up_only"], card["effect"])
    return CardKind(name.strip(), *fields)


def _field_problem(card: dict[str, Any]) -> str | None:
    """What is wrong with a card's value, count, face_up_only or effect, or ``None``."""
    value, count = card["value"], card["count"]
    face_up_only, effect = card["face_up_only"], card["effect"]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VALUE:
        return f"field 'value' is {value!r}: an integer 0 to {MAX_VALUE}"
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_CARDS:
        return f"field 'count' is {count!r}: an integer 1 to {MAX_CARDS}"
    if not isinstance(face_up_only, bool):
        return f"field 'face_up_only' is {face_up_only!r}: true or false"
    if effect != "none" and effect not in EFFECTS:
        return f"field 'effect' is {effect!r}: one of none, {', '.join(EFFECTS)}"
    if effect in FACE_UP_EFFECTS and not face_up_only:
        return f"field 'face_up_only' must be true for a {effect} card"
    return None


@functools.lru_cache(maxsize=32)
def _load(path: str, stamp: int) -> Deck:
    if path == DEFAULT_DECK:
        text = resources.files(__package__).joinpath("decks/default.toml").read_text("utf-8")
    else:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise InvalidParameterError(
                f"deck {path!r}: cannot read it ({error.strerror}); give a TOML deck file "
                f"or {DEFAULT_DECK!r}"
            ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidParameterError(f"deck {path!r}: not valid TOML: {error}") from None
    return parse_deck(data, repr(path))


def load_deck(path: str) -> Deck:
    """The deck in the TOML file ``path`` (``"default"``: the packaged default deck)."""
    stamp = 0
    if path != DEFAULT_DECK:
        try:
            stamp = os.stat(path).st_mtime_ns
        except OSError:
            stamp = -1
    return _load(path, stamp)


def check_deck(path: str) -> str | None:
    """The ``deck`` parameter's check: an error message, or None when the deck loads."""
    try:
        load_deck(path)
    except InvalidParameterError as error:
        return str(error)
    return None
