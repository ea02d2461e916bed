"""Bond O Cones notation: stable action ids, action strings, and cone tokens.

Player action ids (they never change meaning; ``sq`` is a square index, ``rank0 * 10 + file0``,
so ``a1`` is 0 and ``j12`` is 119):

======================  ===================  ===========================================
ids                     string               meaning
======================  ===================  ===========================================
0 + from*120 + to       ``c3-c5``            move a cone (ordinary or BondO)
14400 + from*120 + to   ``ring d4-e5``       move the ring(s) of an own cone (die: ring)
28800 + from*120 + to   ``take g9>d4``       won battle: take the ring of g9, put it on d4
43200 + sq              ``put e3``           set-up: the next cone in value order goes here
43320 + sq              ``ring d4``          set-up: the ring goes on this red-field cone
43440 + sq              ``ring *-e5``        place the set-aside ring (die: ring)
43560 + sq              ``peek c3``          look at an own cone (die: eye)
43680 + sq              ``spy d4``           after a lost battle: learn one loser's value
43800 + sq              ``seize d4``         after a lost battle against a Double: take it
43920                   ``battle``           declare a BondO battle
43921                   ``roll``             do not declare: roll the die
43922                   ``pass``             nothing is possible
======================  ===================  ===========================================

Chance outcome ids:

========  ==================  ====================================================
ids       string              meaning
========  ==================  ====================================================
0 .. 5    ``roll 1`` ..       the die: 1, 2, 3, 4, eye, ring (1/6 each)
          ``roll ring``
6, 7      ``first 0``,        who starts (1/2 each)
          ``first 1``
8, 9      ``battle won``,     the battle, as seen by the seat that declared it
          ``battle lost``
10 + sq   ``put e3``          random set-up: the next cone in value order lands on
                              ``sq``, uniform over the owner's free start fields
130 + sq  ``ring d4``         random set-up: the ring goes on ``sq`` (1/2 each)
========  ==================  ====================================================
"""

from __future__ import annotations

from typing import Any

from boneyard.core.errors import InvalidActionStringError
from boneyard.core.squares import grid
from boneyard.games.bondo_cones.observation import BondoObservation

WIDTH = 10
HEIGHT = 12
SQUARES = WIDTH * HEIGHT
GRID = grid(WIDTH, HEIGHT)
NAMES = GRID.names
INDEX = {name: index for index, name in enumerate(NAMES)}
"""Square name -> index."""

# ----- player actions --------------------------------------------------------------------------
MOVE_BASE = 0
RING_MOVE_BASE = MOVE_BASE + SQUARES * SQUARES
TAKE_BASE = RING_MOVE_BASE + SQUARES * SQUARES
PUT_BASE = TAKE_BASE + SQUARES * SQUARES
SETUP_RING_BASE = PUT_BASE + SQUARES
SET_ASIDE_BASE = SETUP_RING_BASE + SQUARES
PEEK_BASE = SET_ASIDE_BASE + SQUARES
SPY_BASE = PEEK_BASE + SQUARES
SEIZE_BASE = SPY_BASE + SQUARES
BATTLE = SEIZE_BASE + SQUARES
ROLL = BATTLE + 1
PASS = ROLL + 1
NUM_DISTINCT_ACTIONS = PASS + 1

# ----- chance outcomes -------------------------------------------------------------------------
FACES = ("1", "2", "3", "4", "eye", "ring")
FACE_EYE = 4
FACE_RING = 5
FIRST_BASE = 6
BATTLE_WON = 8
BATTLE_LOST = 9
CHANCE_PUT_BASE = 10
CHANCE_RING_BASE = CHANCE_PUT_BASE + SQUARES
MAX_CHANCE_OUTCOMES = CHANCE_RING_BASE + SQUARES

_SQUARE_KINDS = {
    PUT_BASE: "put",
    SETUP_RING_BASE: "ring",
    PEEK_BASE: "peek",
    SPY_BASE: "spy",
    SEIZE_BASE: "seize",
}
_WORD_BASE = {word: base for base, word in _SQUARE_KINDS.items()}


def player_action_to_string(action: int) -> str:
    """The notation of a player action id (no state needed: ids say everything)."""
    if not 0 <= action < NUM_DISTINCT_ACTIONS:
        raise ValueError(f"no Bond O Cones action {action}: ids are 0 to {PASS}")
    if action < RING_MOVE_BASE:
        origin, target = divmod(action - MOVE_BASE, SQUARES)
        return f"{NAMES[origin]}-{NAMES[target]}"
    if action < TAKE_BASE:
        origin, target = divmod(action - RING_MOVE_BASE, SQUARES)
        return f"ring {NAMES[origin]}-{NAMES[target]}"
    if action < PUT_BASE:
        origin, target = divmod(action - TAKE_BASE, SQUARES)
        return f"take {NAMES[origin]}>{NAMES[target]}"
    if action < BATTLE:
        base = PUT_BASE + (action - PUT_BASE) // SQUARES * SQUARES
        square = NAMES[action - base]
        if base == SET_ASIDE_BASE:
            return f"ring *-{square}"
        return f"{_SQUARE_KINDS[base]} {square}"
    return ("battle", "roll", "pass")[action - BATTLE]


def chance_outcome_to_string(outcome: int) -> str:
    """The notation of a chance outcome id."""
    if not 0 <= outcome < MAX_CHANCE_OUTCOMES:
        raise ValueError(f"no Bond O Cones chance outcome {outcome}: ids are 0 to 249")
    if outcome < FIRST_BASE:
        return f"roll {FACES[outcome]}"
    if outcome < BATTLE_WON:
        return f"first {outcome - FIRST_BASE}"
    if outcome < CHANCE_PUT_BASE:
        return "battle won" if outcome == BATTLE_WON else "battle lost"
    if outcome < CHANCE_RING_BASE:
        return f"put {NAMES[outcome - CHANCE_PUT_BASE]}"
    return f"ring {NAMES[outcome - CHANCE_RING_BASE]}"


PLAYER_FORMS = (
    "c3-c5, put e3, ring d4, ring d4-e5, ring *-e5, take g9>d4, peek c3, spy d4, seize d4, "
    "battle, roll, pass"
)
CHANCE_FORMS = (
    "roll 1, roll 2, roll 3, roll 4, roll eye, roll ring, first 0, first 1, battle won, "
    "battle lost, put e3, ring d4"
)


def _square(text: str, whole: str) -> int:
    try:
        return GRID.parse(text)
    except InvalidActionStringError:
        raise InvalidActionStringError(
            f"bad Bond O Cones action {whole!r}: no square {text!r} (squares are a1 to j12)"
        ) from None


def _pair(text: str, separator: str, whole: str) -> tuple[int, int]:
    left, sep, right = text.partition(separator)
    if not sep:
        raise InvalidActionStringError(
            f"bad Bond O Cones action {whole!r}: expected two squares joined by {separator!r}"
        )
    return _square(left, whole), _square(right, whole)


def string_to_player_action(text: str) -> int:
    """Parse a player action (already stripped and lower-cased)."""
    word, _, rest = text.partition(" ")
    if not rest:
        if text in ("battle", "roll", "pass"):
            return BATTLE + ("battle", "roll", "pass").index(text)
        if "-" in text:
            origin, target = _pair(text, "-", text)
            return MOVE_BASE + origin * SQUARES + target
    elif word == "ring" and rest.startswith("*-"):
        return SET_ASIDE_BASE + _square(rest[2:], text)
    elif word == "ring" and "-" in rest:
        origin, target = _pair(rest, "-", text)
        return RING_MOVE_BASE + origin * SQUARES + target
    elif word == "take":
        origin, target = _pair(rest, ">", text)
        return TAKE_BASE + origin * SQUARES + target
    elif word in _WORD_BASE:
        return _WORD_BASE[word] + _square(rest, text)
    raise InvalidActionStringError(
        f"bad Bond O Cones action {text!r}: actions look like {PLAYER_FORMS}"
    )


def string_to_chance_outcome(text: str) -> int:
    """Parse a chance outcome (already stripped and lower-cased)."""
    word, _, rest = text.partition(" ")
    if word == "roll" and rest in FACES:
        return FACES.index(rest)
    if word == "first" and rest in ("0", "1"):
        return FIRST_BASE + int(rest)
    if word == "battle" and rest in ("won", "lost"):
        return BATTLE_WON if rest == "won" else BATTLE_LOST
    if word == "put" and rest:
        return CHANCE_PUT_BASE + _square(rest, text)
    if word == "ring" and rest and "-" not in rest:
        return CHANCE_RING_BASE + _square(rest, text)
    raise InvalidActionStringError(
        f"bad Bond O Cones chance outcome {text!r}: outcomes look like {CHANCE_FORMS}"
    )


# ----- cone tokens (hand-built positions in tests and docs) ------------------------------------

COLOURS = ("b", "w")
"""Seat 0 plays black (``b``), seat 1 white (``w``)."""


def cone_token(seat: int, value: int | None, rings: int) -> str:
    """``b8`` (black 8), ``w?`` (white, value unknown), ``b4+`` (one ring), ``w0#`` (two)."""
    shown = "?" if value is None else str(value)
    return COLOURS[seat] + shown + ("", "+", "#")[rings]


def parse_cone_token(token: str) -> tuple[int, int, int]:
    """``'b4+'`` -> (seat 0, value 4, 1 ring); raises ValueError on anything else."""
    text = token.strip().lower()
    rings = 0
    if text.endswith("+"):
        rings, text = 1, text[:-1]
    elif text.endswith("#"):
        rings, text = 2, text[:-1]
    if len(text) < 2 or text[0] not in COLOURS or not text[1:].isdigit():
        raise ValueError(f"bad cone {token!r}: write b or w, a value, then + or # for rings")
    value = int(text[1:])
    if value not in (0, 1, 2, 4, 8):
        raise ValueError(f"bad cone {token!r}: values are 0, 1, 2, 4 and 8")
    return COLOURS.index(text[0]), value, rings


# ----- cones as an observation shows them ------------------------------------------------------


def observed_token(
    seat: int, value: int | None, rings: int, peeked: bool = False, spied: bool = False
) -> str:
    """A cone in an observation: ``cone_token`` plus ``p`` if its owner has peeked at it and
    ``s`` if the opponent has spied it: ``b8+p``, ``w?s``."""
    return cone_token(seat, value, rings) + ("p" if peeked else "") + ("s" if spied else "")


_OBSERVED: dict[str, dict[str, Any]] = {
    observed_token(seat, value, rings, peeked, spied): {
        "seat": seat,
        "value": value,
        "rings": rings,
        "peeked": peeked,
        "spied": spied,
    }
    for seat in (0, 1)
    for value in (None, 0, 1, 2, 4, 8)
    for rings in (0, 1, 2)
    for peeked in (False, True)
    for spied in (False, True)
}


def parse_observed_token(token: str) -> dict[str, Any]:
    """``'w?+s'`` -> ``{"seat": 1, "value": None, "rings": 1, "peeked": False, "spied": True}``.

    The dicts are shared: do not change them.
    """
    try:
        return _OBSERVED[token]
    except (KeyError, TypeError):
        raise ValueError(
            f"bad observed cone {token!r}: b or w, a value or ?, then + or #, p, s"
        ) from None


def observed_cones(observation: BondoObservation) -> dict[str, dict[str, Any]]:
    """The cones of an observation, square -> ``parse_observed_token`` of its token."""
    return {name: _OBSERVED[token] for name, token in observation["cones"].items()}
