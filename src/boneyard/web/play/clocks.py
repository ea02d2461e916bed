"""How a game's clock ticks: time controls, and the clock's state after a move or a change.

Two kinds of time control, as lichess has them:

- real time: ``initial`` seconds for the game and ``increment`` seconds added after each move
  (Fischer): "5+3" is five minutes and three seconds a move;
- correspondence: ``days`` per move, each move starting the next seat's days afresh.

The clock of the seat to move runs only while a person is to move (never a computer's, never
while the game waits for someone to take a free seat, never once it is over). Before a seat's
first move its clock does not run: the first move is due within ``clock_first_move_seconds``
(correspondence: within the days a move), and a game abandoned before every person moved is
called off, unrated (``web/table/clocks.py`` does that, and ends the game of a seat whose time
ran out). Everything here is a pure function of a ``ClockRecord`` (the stored row) and a time:
the store's times are the truth, and the server, not the page, keeps the clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from boneyard.web.errors import WebError
from boneyard.web.store.clocks import ClockRecord, ClockStore, Write

if TYPE_CHECKING:
    from collections.abc import Callable


DAY = 86_400.0
MAX_INITIAL_SECONDS = 3 * 3600
MAX_INCREMENT_SECONDS = 180
MAX_DAYS = 14


@dataclass(frozen=True)
class TimeControl:
    """Real time (``initial`` + ``increment`` seconds) or correspondence (``days`` a move)."""

    initial: float = 0.0
    increment: float = 0.0
    days: int | None = None

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> TimeControl:
        if doc.get("days") is not None:
            return cls(days=int(doc["days"]))
        return cls(float(doc.get("initial", 0)), float(doc.get("increment", 0)))

    def to_json(self) -> dict[str, Any]:
        if self.days is not None:
            return {"days": self.days}
        return {"initial": _number(self.initial), "increment": _number(self.increment)}

    @property
    def per_move(self) -> float | None:
        """A correspondence game's seconds a move (None: real time)."""
        return None if self.days is None else self.days * DAY

    @property
    def speed(self) -> str:
        """The lobby's family of the control, as lichess sorts them: by the time a game of 40
        moves a side lasts at most (``initial + 40 * increment``), or correspondence."""
        if self.days is not None:
            return "correspondence"
        lasts = self.initial + 40 * self.increment
        return next(name for name, under in SPEED_LIMITS if lasts < under)

    def words(self) -> str:
        """As people say it: "5+3" (minutes + seconds a move), "3 days a move"."""
        if self.days is not None:
            return f"{self.days} day{'s' if self.days != 1 else ''} a move"
        minutes = self.initial / 60
        shown = f"{minutes:g}" if minutes >= 1 or minutes == 0 else _fraction(self.initial)
        return f"{shown}+{self.increment:g}"


SPEED_LIMITS: tuple[tuple[str, float], ...] = (
    ("bullet", 180.0),
    ("blitz", 480.0),
    ("rapid", 1500.0),
    ("classical", float("inf")),
)
"""Real-time speeds by the seconds a 40-move game lasts at most, as lichess draws the lines."""

SPEEDS: tuple[tuple[str, str], ...] = (
    ("untimed", "No clock"),
    ("bullet", "Bullet"),
    ("blitz", "Blitz"),
    ("rapid", "Rapid"),
    ("classical", "Classical"),
    ("correspondence", "Days a move"),
)
"""The lobby's time-control filter: (speed, words)."""


def clock_summary(control: dict[str, Any] | None) -> dict[str, Any]:
    """A game's time control as the lobby lists it: its words and its speed."""
    if control is None:
        return {"control": None, "words": "no clock", "speed": "untimed"}
    timed = TimeControl.from_json(control)
    return {"control": timed.to_json(), "words": timed.words(), "speed": timed.speed}


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _fraction(seconds: float) -> str:
    """Less than a minute, as lichess writes it: ¼, ½, ¾ of a minute, else seconds."""
    named = {15.0: "¼", 30.0: "½", 45.0: "¾"}
    return named.get(float(seconds), f"{seconds:g}s")


def new_record(
    game_id: str, control: TimeControl | None, seats: int, at_seq: int
) -> ClockRecord | None:
    """A game's clock before anyone moved: full time each, none running (None: untimed)."""
    if control is None:
        return None
    full = control.per_move if control.per_move is not None else control.initial
    return ClockRecord(
        game_id=game_id,
        control=control.to_json(),
        remaining=(float(full),) * seats,
        started=(False,) * seats,
        running=None,
        since=0.0,
        at_seq=at_seq,
        version=0,
        deadline=None,
    )


def control_of(record: ClockRecord) -> TimeControl:
    return TimeControl.from_json(record.control)


def deadline_of(record: ClockRecord, first_move_seconds: float) -> float | None:
    """When the running seat's time runs out, or its first move falls due; None: stopped."""
    seat = record.running
    if seat is None:
        return None
    if not record.started[seat]:
        per_move = control_of(record).per_move
        return record.since + (per_move if per_move is not None else first_move_seconds)
    return record.since + record.remaining[seat]


def time_left(record: ClockRecord, seat: int, now: float) -> float:
    """``seat``'s time at ``now`` (never below zero)."""
    left = record.remaining[seat]
    if seat == record.running and record.started[seat]:
        left -= now - record.since
    return max(0.0, left)


def switched(
    record: ClockRecord,
    running: int | None,
    now: float,
    at_seq: int,
    first_move_seconds: float,
    movers: tuple[int, ...] = (),
) -> ClockRecord:
    """The clock at ``now``, when the game reached move ``at_seq`` with ``running`` (a seat,
    or None) to move next; ``movers``: the seats that just moved (a move: Fischer's
    increment, a first move noted), none for any other change (a takeback, a stand-in)."""
    control = control_of(record)
    remaining = list(record.remaining)
    started = list(record.started)
    before = record.running
    if before is not None and started[before]:
        remaining[before] = max(0.0, remaining[before] - (now - record.since))
        if before in movers and running != before and control.per_move is None:
            remaining[before] += control.increment
    for seat in movers:
        started[seat] = True
    if control.per_move is not None:  # correspondence: each move starts with its days afresh
        for seat in range(len(remaining)):
            if not (seat == running == before):
                remaining[seat] = control.per_move
    changed = replace(
        record,
        remaining=tuple(remaining),
        started=tuple(started),
        running=running,
        since=now,
        at_seq=at_seq,
        version=record.version + 1,
    )
    return replace(changed, deadline=deadline_of(changed, first_move_seconds))


def stopped_at_flag(record: ClockRecord) -> ClockRecord:
    """The clock once the running seat's time ran out: that seat at zero, none running."""
    seat = record.running
    remaining = list(record.remaining)
    if seat is not None and record.started[seat]:
        remaining[seat] = 0.0
    return replace(
        record,
        remaining=tuple(remaining),
        running=None,
        since=record.deadline if record.deadline is not None else record.since,
        version=record.version + 1,
        deadline=None,
    )


def ticked_clock(
    clock: GameClock | None,
    running: int | None,
    actions: list[tuple[int, int]],
    seq: int,
    received: float,
) -> tuple[ClockRecord, Write] | None:
    """``clock`` after ``actions`` received at ``received`` brought its game to move number
    ``seq``, where ``running``'s clock runs (``LiveGame.running_seat``), and the write that
    stores it with the move, on condition that the stored clock is the one this copy saw (None:
    an untimed game)."""
    if clock is None:
        return None
    movers = tuple(sorted({seat for _action, seat in actions}))
    record = clock.after_move(running, movers, received, seq)
    return record, ClockStore.replacing(clock.record.version, record)


class GameClock:
    """A live game's clock (``LiveGame.clock``): the stored record, as this process last saw
    it, and the owner's time source."""

    def __init__(
        self, record: ClockRecord, now: Callable[[], float], first_move_seconds: float
    ) -> None:
        self.record = record
        self.now = now
        self.first_move_seconds = first_move_seconds

    @property
    def control(self) -> TimeControl:
        return control_of(self.record)

    def refuse_late(self, seat: int, received: float) -> None:
        """Refuse (409) a move of ``seat`` received after its time ran out."""
        record = self.record
        if record.running == seat and record.deadline is not None and received >= record.deadline:
            raise WebError(
                409,
                "time_over",
                "your time ran out before this move arrived; the game ends on time",
            )

    def after_move(
        self, running: int | None, movers: tuple[int, ...], received: float, seq: int
    ) -> ClockRecord:
        """The clock after a move received at ``received`` brought its game to move number
        ``seq``, ``running``'s clock to run."""
        return switched(self.record, running, received, seq, self.first_move_seconds, movers)

    def view(self, halted: bool) -> dict[str, Any]:
        """What every seat is told: each seat's time left, whose clock runs (none while the
        game is ``halted``: over, or waiting for people), and (before a seat's first move) how
        long that first move may take."""
        record = self.record
        now = self.now()
        running = None if halted else record.running
        first_move_left = None
        if running is not None and not record.started[running]:
            deadline = deadline_of(record, self.first_move_seconds)
            first_move_left = None if deadline is None else round(max(0.0, deadline - now), 1)
        return {
            "control": self.control.to_json(),
            "words": self.control.words(),
            "remaining": [round(time_left(record, s, now), 1) for s in range(len(record.started))],
            "running": running,
            "ticking": running is not None and record.started[running],
            "first_move_left": first_move_left,
            # the seats whose time ran out (lost on time, or handed to the computer)
            "ran_out": [
                seat
                for seat, left in enumerate(record.remaining)
                if left <= 0 and record.started[seat] and seat != record.running
            ],
        }


PRESETS: tuple[tuple[str, str], ...] = (
    ("", "No clock"),
    ("60+0", "1+0 · bullet"),
    ("180+2", "3+2 · blitz"),
    ("300+3", "5+3 · blitz"),
    ("600+5", "10+5 · rapid"),
    ("900+10", "15+10 · rapid"),
    ("1d", "1 day a move"),
    ("3d", "3 days a move"),
    ("7d", "7 days a move"),
)
"""The forms' time controls, as lichess offers them: (value, words); seconds+seconds or days."""


def preset_control(value: str | None) -> TimeControl | None:
    """The time control a form's ``clock`` field names (empty: none); 400 for another value."""
    if not value:
        return None
    for known, _words in PRESETS:
        if value == known:
            if known.endswith("d"):
                return TimeControl(days=int(known[:-1]))
            initial, increment = known.split("+")
            return TimeControl(float(initial), float(increment))
    allowed = ", ".join(words for _value, words in PRESETS)
    raise WebError(400, "bad_clock", f"the clock is one of: {allowed}; not {value!r}")
