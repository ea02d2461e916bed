"""Pydantic models at the web boundary: what the API accepts and what it answers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import parse_qsl

from fastapi import Path, Request
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from boneyard.web.errors import WebError
from boneyard.web.play.clocks import (
    MAX_DAYS,
    MAX_INCREMENT_SECONDS,
    MAX_INITIAL_SECONDS,
    TimeControl,
)

ParamValue = StrictBool | StrictInt | StrictFloat | StrictStr

DIGITS = "^[0-9]{1,9}$"
"""A whole number in an address: ASCII digits only (not '+3', '1_2' or other scripts' digits,
which Python's ``int`` would read)."""


def number_in_path(description: str) -> Any:
    """A path parameter of ``DIGITS`` (read with ``int`` by the route)."""
    return Path(pattern=DIGITS, description=description)


Number = Annotated[StrictStr, Field(pattern=DIGITS)]
"""A whole number sent as text (a form field, an address): ASCII digits, at most nine."""
PersonName = Annotated[
    StrictStr, Field(max_length=60, description="A person's display name (optional).")
]
"""A display name as sent, before the name rule (``web/names.py``) reads it."""
LevelText = Annotated[StrictStr, Field(max_length=20)]
"""A computer's level as text: a number on the game's scale or an alias (easy, medium, hard)."""
LevelName = StrictInt | LevelText
"""A computer's level as the API takes it: its number, or as text."""


HINTS_CHOICE = (
    "Hints (the strongest computer's move) for people playing each other. Off by default: "
    "between two or more people only a game created with hints on offers them. Against the "
    "computer, at one screen and in puzzles there are hints either way."
)


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["human", "computer"] = "human"
    level: LevelName | None = Field(
        default=None,
        description="The computer's level, only for kind 'computer': a number on the game's "
        "scale (1, the weakest, up to at most 8; see the game's `levels`) or easy, medium, hard.",
    )
    name: PersonName | None = None


RATED_CHOICE = (
    "A rated game (signed in; every seat a person's): when it ends, the ratings of the "
    "accounts in its seats move, if each seat is a different account's."
)


class ClockSpec(BaseModel):
    """A time control: real time ``{"initial": seconds, "increment": seconds}`` (Fischer) or
    correspondence ``{"days": n}`` a move."""

    model_config = ConfigDict(extra="forbid")

    initial: StrictInt | StrictFloat | None = Field(
        default=None,
        ge=0,
        le=MAX_INITIAL_SECONDS,
        description=f"Real time: seconds each side has for the game (0 to {MAX_INITIAL_SECONDS}).",
    )
    increment: StrictInt | StrictFloat | None = Field(
        default=None,
        ge=0,
        le=MAX_INCREMENT_SECONDS,
        description=f"Real time: seconds added after each move (0 to {MAX_INCREMENT_SECONDS}).",
    )
    days: StrictInt | None = Field(
        default=None,
        ge=1,
        le=MAX_DAYS,
        description=f"Correspondence: days a move (1 to {MAX_DAYS}).",
    )

    @model_validator(mode="after")
    def one_kind(self) -> ClockSpec:
        real_time = self.initial is not None or self.increment is not None
        if self.days is not None and real_time:
            raise ValueError(
                'a clock is {"initial": seconds, "increment": seconds} (real time) or '
                '{"days": n} (correspondence), not both'
            )
        if self.days is None and (self.initial or 0) + (self.increment or 0) <= 0:
            raise ValueError(
                'a real-time clock needs time: "initial" seconds for the game, "increment" '
                'seconds a move, or both above 0 (or {"days": n} for correspondence)'
            )
        return self

    def control(self) -> TimeControl:
        if self.days is not None:
            return TimeControl(days=self.days)
        return TimeControl(float(self.initial or 0), float(self.increment or 0))


CLOCK_CHOICE = (
    "A time control for people playing: real time {initial, increment} in seconds (Fischer) "
    "or correspondence {days}. Games against the computer are untimed unless asked for."
)


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="A registered game name, e.g. 'obonto'.")
    params: dict[str, ParamValue] = Field(
        default_factory=dict,
        description="Game parameters by name; text is parsed as a form field would be.",
    )
    seats: list[SeatSpec] | None = Field(
        default=None, description="One entry per seat; default: every seat human."
    )
    hints: StrictBool = Field(default=False, description=HINTS_CHOICE)
    rated: StrictBool = Field(default=False, description=RATED_CHOICE)
    clock: ClockSpec | None = Field(default=None, description=CLOCK_CHOICE)


class SeatLink(BaseModel):
    seat: int
    label: str
    kind: str
    level: str | None
    token: str | None = Field(description="The seat's secret; only for human seats.")
    url: str | None = Field(description="The invite link of a human seat.")


class CreatedGame(BaseModel):
    id: str
    game: str
    params: dict[str, Any]
    seed_hash: str = Field(description="SHA-256 of the seed; the seed is revealed at the end.")
    seats: list[SeatLink]
    spectator_url: str
    replay_url: str
    together_url: str | None = Field(
        description="One page that plays every human seat (friends at the same screen)."
    )


class Act(BaseModel):
    # exactly one of the two ways to name the action (else 422 bad_action)
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"oneOf": [{"required": ["action"]}, {"required": ["action_string"]}]},
    )

    token: StrictStr = Field(description="The acting seat's secret token.")
    seq: StrictInt = Field(description="The move number the action is played on (the view's seq).")
    action: StrictInt | None = Field(default=None, description="An action id.")
    action_string: StrictStr | None = Field(default=None, description="Or its notation.")


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: StrictStr
    tokens: list[StrictStr] = Field(
        default_factory=list,
        max_length=16,
        description="The other people's tokens, from a page that plays every person's seat "
        "(one screen): such a page has hints even in a game created with hints off.",
    )


class Hint(BaseModel):
    seq: int
    action: int
    string: str


class LegalAction(BaseModel):
    id: int
    string: str


class LogLine(BaseModel):
    seq: int
    player: int = Field(description="The seat that played it, or -1 for chance.")
    string: str = Field(description="The action as this seat sees it (secrets show as '?').")
    words: str | None = Field(
        default=None,
        description="The action in the game's words as this seat saw it (views with the "
        "drawing; empty: nothing worth a line).",
    )


class LogPage(BaseModel):
    """Lines of a game's move log before ``before``, as one seat (or a spectator) saw them."""

    log_from: int = Field(description="The sequence number of the first line sent.")
    log: list[LogLine]


class SeatInfo(BaseModel):
    seat: int
    label: str
    kind: str
    person: bool = Field(
        default=False,
        description="A person holds or held this seat (the computer may play it since): "
        "hints between people follow these seats.",
    )


class View(BaseModel):
    """All that one seat (or a spectator) is sent: never the full state or another's secrets."""

    game_id: str
    game: str
    title: str
    params: dict[str, Any]
    created: float = Field(description="When the game was made, in seconds since 1970 (UTC).")
    seq: int = Field(description="How many actions are stored; act on this number.")
    seat: int | None
    seats: list[SeatInfo]
    hints_on: bool = Field(
        default=False, description="The game was created with hints on for people."
    )
    current_player: int | None
    terminal: bool
    returns: list[float] | None
    status: str
    observation: dict[str, Any]
    legal: list[LegalAction]
    log_update: bool = Field(
        default=False,
        description="A live update over a WebSocket: ``log`` holds only the lines from "
        "``log_from`` on, to be joined to the lines the client has.",
    )
    log_from: int = Field(
        description="The sequence number of the first log line sent: a view carries the latest "
        "100 lines; earlier ones are read with GET /api/games/{id}/log"
    )
    log: list[LogLine]
    svg: str | None
    text: str
    seed_hash: str
    seed: str | None = Field(description="Revealed once the game is over.")
    # Words for people (``boneyard.web.play.words``); only in views with the drawing.
    prompt: str | None = Field(default=None, description="What this seat must decide now.")
    watching: bool = Field(
        default=False,
        description="This seat's person left the game: the computer plays it; its page watches.",
    )
    you_mark: str = Field(
        default="",
        description="How this seat's page marks its own seat: ' (you)', ', in your place' once "
        "the computer plays it, '' for a spectator.",
    )
    recent: list[str] = Field(default_factory=list, description="Others' actions in words.")
    labels: dict[str, str] = Field(default_factory=dict, description="Action string -> label.")
    panel: list[dict[str, Any]] = Field(default_factory=list, description="Labelled facts.")
    players: list[dict[str, Any]] = Field(default_factory=list, description="Names of seats.")
    result: str | None = Field(default=None, description="The end in words, once over.")
    quick_setup: bool = Field(default=False, description="A random set-up may be asked for.")
    round_summary: dict[str, Any] | None = Field(
        default=None,
        description="In a game played in rounds, the last round that ended, in this seat's "
        "words: round, title, lines, and seq (the action that ended it).",
    )
    session: dict[str, Any] | None = Field(
        default=None,
        description="The session of play around the game (web/table/sessions.py): how it ended, "
        "offers waiting, the series score, the next game's link for this seat.",
    )
    clock: dict[str, Any] | None = Field(
        default=None,
        description="A timed game's clock: control, words ('5+3'), remaining (seconds per "
        "seat, as of this view), running (the seat whose clock runs, or null), ticking (false "
        "before that seat's first move), first_move_left (seconds to make it), ran_out (the "
        "seats whose time ran out).",
    )


class Frame(BaseModel):
    """One step of a replay, as a spectator saw it."""

    step: int
    steps: int
    status: str
    observation: dict[str, Any]
    svg: str | None
    text: str
    log_from: int = Field(
        default=0,
        description="The sequence number of the first log line sent (the latest 100 before the "
        "step; earlier ones: GET /api/games/{id}/log)",
    )
    log: list[LogLine]
    seats: list[SeatInfo]
    seed: str | None
    seed_hash: str


class LevelChoice(BaseModel):
    number: int = Field(description="The level's number on the game's scale, from 1.")
    rating: int | None = Field(
        description="Its Elo rating measured in the arena (level 1 at 1000), or null."
    )
    aliases: list[str] = Field(description="The old names (easy, medium, hard) of this level.")
    words: str = Field(description="The level for a person: 'Level 3 · about 1150'.")


class GameKind(BaseModel):
    name: str
    title: str
    info: dict[str, Any]
    rules_url: str
    new_url: str
    levels: list[LevelChoice] = Field(
        default_factory=list, description="The computer's levels, weakest first."
    )


class ErrorBody(BaseModel):
    error: str = Field(description="A short code: stale, illegal, wrong_token, ...")
    detail: str = Field(description="What was wrong, in words.")


# ----- HTML forms: the same types as the API ----------------------------------------------------

FORM_FIELDS = 200
"""The most fields a form may send (a Custom game form sends a few dozen)."""

FormT = TypeVar("FormT", bound=BaseModel)


def dotted(where: tuple[Any, ...]) -> str:
    """A field's place in a body, as ``seats.1.name``."""
    return ".".join(str(part) for part in where if part != "body")


FieldNamer = Callable[[tuple[Any, ...]], str]
"""Names a field from its place in a body (pydantic's ``loc``)."""


def validation_words(errors: Sequence[Any], name_of: FieldNamer = dotted) -> str:
    """Pydantic's refusals as one line: each field (as ``name_of`` names it) and what was
    wrong with it."""
    problems = []
    for item in errors:
        where = name_of(tuple(item.get("loc", ()))) or "body"
        problems.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(problems)


async def form_fields(request: Request) -> dict[str, str]:
    """An HTML form's fields (``application/x-www-form-urlencoded``; the last of a repeated
    field), or 400 ``bad_form`` for a body that is no form."""
    try:
        pairs = parse_qsl(
            (await request.body()).decode("utf-8"),
            keep_blank_values=True,
            errors="strict",
            max_num_fields=FORM_FIELDS,
        )
    except ValueError:  # bytes that are not UTF-8 (a UnicodeDecodeError), too many fields
        raise WebError(
            400,
            "bad_form",
            f"a form is sent as UTF-8 text, at most {FORM_FIELDS} fields, as a browser sends it",
        ) from None
    return dict(pairs)


def parse_form(
    model: type[FormT],
    fields: dict[str, Any],
    name_of: FieldNamer = dotted,
) -> FormT:
    """``fields`` checked by ``model`` (built of the API's own types), or 422 ``bad_form``
    saying which field (named by ``name_of``, as the form names it) was wrong and how, as the
    API's own refusals do."""
    try:
        return model.model_validate(fields)
    except ValidationError as error:
        words = validation_words(error.errors(), name_of)
        raise WebError(422, "bad_form", f"the form was refused: {words}") from None
