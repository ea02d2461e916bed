"""Display names: one line of visible text, told apart from the other names at a table.

A name is what others read beside a seat, in the lobby and in the moves' words, so it must not
hide anything, reorder the page or pass for someone else's. The rule is Unicode's own, not a
list of tricks seen so far:

- the text is NFKC-normalised (full-width and styled letters become the plain ones) and its
  runs of spaces, tabs and line ends become one space; at most ``NAME_LIMIT`` characters stay;
- refused anywhere in it: direction controls, control characters, line and paragraph
  separators, format characters (``Cf``: zero-width spaces, tag characters), private-use,
  surrogate and unassigned code points, and the default-ignorable code points (the Hangul
  fillers, U+115F/U+1160/U+3164/U+FFA0, are letters that draw nothing) -- but a variation
  selector right after a sign, which only picks an emoji's look;
- it needs one visible character: a letter, digit, punctuation or sign that draws something
  (not only combining marks, not the braille blank U+2800);
- no two names at a table look alike: their confusable skeletons (Unicode TR39, from the data
  the ``confusable-homoglyphs`` package ships) differ, so "Ann" and Cyrillic "Аnn" cannot sit
  at one table.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache

import regex
from confusable_homoglyphs.confusables import confusables_data

from boneyard.web.errors import WebError

NAME_LIMIT = 30
"""The longest display name a person may give."""

ALLOWED = (
    f"a name is 1 to {NAME_LIMIT} characters of visible text: letters, digits, punctuation, "
    "signs and single spaces"
)
"""What a name may be, said after every refusal."""

DIRECTION_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Characters that reorder the text around them: in a name they could reverse a sentence."""

BLANK_SIGNS = frozenset("\u2800")
"""Signs that draw nothing though Unicode calls them symbols (the braille blank)."""

_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")
_REFUSED_CATEGORIES = {
    "Cc": "control characters",
    "Cf": "invisible formatting characters",
    "Co": "private-use characters",
    "Cs": "unpaired surrogates",
    "Cn": "unassigned code points",
    "Zl": "line separators",
    "Zp": "paragraph separators",
}


def _code(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def name_problem(text: str) -> str | None:
    """Why ``text`` (normalised by ``normal_form``) cannot be a display name, or None."""
    for index, char in enumerate(text):
        if char in DIRECTION_CONTROLS:
            return (
                "a name cannot hold characters that change the direction of the text around "
                f"it, like {_code(char)}; {ALLOWED}"
            )
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES:
            what = _REFUSED_CATEGORIES[category]
            if category == "Cc":
                return f"a name is one line of text, without control characters like {_code(char)}"
            return f"a name shows only visible characters, not {what} like {_code(char)}; {ALLOWED}"
        if _INVISIBLE.match(char) and not _selects_a_look(text, index):
            return (
                f"a name shows only visible characters, not {_code(char)}, which draws nothing; "
                f"{ALLOWED}"
            )
    if not any(_visible(char) for char in text):
        return (
            "a name needs at least one visible letter, digit or sign (not only spaces, blanks "
            f"or marks that sit on other letters); {ALLOWED}"
        )
    return None


def _selects_a_look(text: str, index: int) -> bool:
    """A variation selector right after a sign: it picks how an emoji looks, and hides nothing."""
    return (
        text[index] in _VARIATION_SELECTORS
        and index > 0
        and unicodedata.category(text[index - 1]) in ("So", "Sk", "Sm")
    )


def _visible(char: str) -> bool:
    return (
        unicodedata.category(char)[0] in "LNPS"
        and char not in BLANK_SIGNS
        and not _INVISIBLE.match(char)
    )


def normal_form(name: str) -> str:
    """``name`` NFKC-normalised, its spaces collapsed, cut to ``NAME_LIMIT`` characters."""
    normal = unicodedata.normalize("NFKC", name)
    return " ".join(_split_spaces(normal))[:NAME_LIMIT]


def _split_spaces(text: str) -> list[str]:
    """``text``'s words between spaces, tabs and line ends (but not the separators Unicode
    keeps for lines and paragraphs: those are refused, not folded)."""
    return [word for word in regex.split(r"[\t\n\r\p{Zs}]+", text) if word]


def clean_name(name: object) -> str | None:
    """A display name as given, normalised (``normal_form``), or ``None`` (none given, or one
    that ``name_problem`` refuses)."""
    return _clean_name(name) if isinstance(name, str) else None


@lru_cache(maxsize=4096)
def _clean_name(name: str) -> str | None:
    # Kept: every view of a game names each seat, and the rule's Unicode work is the largest
    # part of a view's time when many games are played (benchmarks/web_clocks.py's arena).
    text = normal_form(name)
    return text if text and name_problem(text) is None else None


def given_name(name: object) -> str:
    """A name a person gives (a seat's, or their identity's in the lobby), normalised as
    ``clean_name``; a missing, empty or invisible one is refused (400) with the reason."""
    text = normal_form(name) if isinstance(name, str) else ""
    if not text:
        raise WebError(400, "bad_name", f"a name is 1 to {NAME_LIMIT} characters, not only spaces")
    problem = name_problem(text)
    if problem is not None:
        raise WebError(400, "bad_name", problem)
    return text


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the one character (or short string) that every
    character which looks like it maps to (TR39's confusables.txt, both ways in the package's
    data; a class is one prototype and the characters mapped to it)."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    degree: dict[str, int] = {}
    for source, targets in confusables_data.items():
        source = source.replace("\u200e", "")  # the data wraps right-to-left letters in marks
        for target in targets:
            glyph = str(target["c"]).replace("\u200e", "")
            if not source or not glyph:
                continue
            degree[source] = degree.get(source, 0) + 1
            parent[root(source)] = root(glyph)
    classes: dict[str, list[str]] = {}
    for key in parent:
        classes.setdefault(root(key), []).append(key)
    prototypes: dict[str, str] = {}
    for members in classes.values():
        # Sources are single characters: a longer member is the prototype; else the one all
        # the others map to (the most connected).
        longer = sorted(m for m in members if len(m) > 1)
        prototype = longer[0] if longer else max(members, key=lambda m: (degree.get(m, 0), -ord(m)))
        for member in members:
            if len(member) == 1 and member != prototype:
                prototypes[member] = prototype
    return prototypes


def skeleton(name: str) -> str:
    """TR39's skeleton of ``name``: two names with one skeleton look alike on the page."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", name)
    kept = (char for char in decomposed if not _INVISIBLE.match(char))
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in kept))


def look_alike(name: str, others: Iterable[str | None]) -> str | None:
    """The first of ``others`` that looks like ``name`` (one skeleton), or None."""
    mine = skeleton(name)
    return next((other for other in others if other and skeleton(other) == mine), None)


def distinct_name(name: str, others: Iterable[str | None]) -> str:
    """``name``, refused (409 ``name_taken``) when it looks like one of the ``others`` already
    at the table."""
    same = look_alike(name, others)
    if same is None:
        return name
    raise WebError(
        409,
        "name_taken",
        f"{name!r} looks like {same!r}, the name of another player at this table: choose a "
        "name the others can tell apart from it",
    )
