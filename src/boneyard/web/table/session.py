"""What the web layer knows about one live game beyond its rules: its stored events, its place
in a series, each seat's link into the next game."""

from __future__ import annotations

import json
import time
import weakref
from dataclasses import InitVar, dataclass, field
from typing import TYPE_CHECKING, Any

from boneyard.web.errors import WebError
from boneyard.web.play.live import LiveGame
from boneyard.web.store.sessions import SeriesGame, SessionEvent

if TYPE_CHECKING:
    from boneyard.web.table.sessions import SessionManager


@dataclass
class SessionSettings:
    stand_in_seconds: float = 120.0
    """How long the seat to move must have been silent before the others may hand it to the
    computer."""


@dataclass
class Session:
    """What the web layer knows about one live game, beyond its rules."""

    manager: SessionManager
    game: InitVar[LiveGame]
    events: list[SessionEvent]
    series: SeriesGame | None
    next_urls: dict[int, str] = field(default_factory=dict)
    """Per seat of this game: the link to the seat its person has in the next game."""
    clock_seq: int = -1
    clock_since: float = 0.0
    _live: weakref.ref[LiveGame] = field(init=False, repr=False)

    def __post_init__(self, game: LiveGame) -> None:
        self.live = game

    # The live game holds its session (``LiveGame.session``): the session holds it back weakly, so a
    # game dropped from memory is freed at once, not at the next full garbage collection (the
    # largest OYNO boards are megabytes each: the server grew without bound between two).
    @property
    def live(self) -> LiveGame:
        live = self._live()
        if live is None:
            raise WebError(409, "gone", "this game left memory; load it again")
        return live

    @live.setter
    def live(self, live: LiveGame) -> None:
        self._live = weakref.ref(live)

    def view(self, seat: int | None, every_event: bool = False) -> dict[str, Any]:
        """The session as ``seat`` sees it: the latest ``events_in_view`` events, or with
        ``every_event`` every event stored."""
        return self.manager.session_view(self, seat, every_event)

    def waiting_for_people(self) -> bool:
        """An open game of the lobby whose free seats nobody took yet: it takes no move."""
        return self.series is not None and bool(self.series.open_seats) and not self.live.over

    def waited(self) -> float:
        """Seconds since the game reached its current move number (as this server saw it)."""
        if self.clock_seq != self.live.seq:
            self.clock_seq = self.live.seq
            self.clock_since = time.time()
        return time.time() - self.clock_since


def session_of(live: LiveGame) -> Session:
    session = live.session
    if not isinstance(session, Session):
        raise WebError(500, "no_session", "this game has no session of play")
    return session


def event_bytes(event: SessionEvent) -> int:
    """What one stored event holds in memory, roughly (its words are made when shown)."""
    return 400 + len(json.dumps(event.detail))
