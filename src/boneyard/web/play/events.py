"""The news of a game, published by its owner (``GameManager``) and heard by the services around it.

One way down: the manager stores a change, then publishes it here; the services the app wires
around it (``web/app.py``: the session of play, the clocks, the tournament director) subscribe
at construction and are called in the order they subscribed. Nothing below calls back up into
what holds it: a service never registers itself on the manager, and the manager knows nothing of
who listens. Like boardgame.io's ``Master``, which takes its storage and transport and emits to
subscribers.

Every handler is awaited in turn before the manager goes on (a game made is not used before each
service gave it its part; a change is sent to the sockets once each service brought its part in
line). A handler reads the store off the event loop (``GameManager.read_store``), never on it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from boneyard.web.play.live import LiveGame


@dataclass(frozen=True)
class GameLoaded:
    """A live game was made: created, read from the store, or rebuilt (a takeback's shortened
    log, another process's change): each service gives it its part (its session, its clock)."""

    live: LiveGame


@dataclass(frozen=True)
class GameChanged:
    """A change was stored and is about to be sent: moves from ``log_from`` on (none when
    ``log_from`` is the game's move number: seats, offers, an ending), made through this process
    or, with ``elsewhere``, through another one (this copy caught up)."""

    live: LiveGame
    log_from: int
    elsewhere: bool = False


@dataclass(frozen=True)
class GameEnded:
    """The game is over (by its rules, or ended by the session of play or its clock), its result
    stored: told once per live copy, after the change that ended it."""

    live: LiveGame


@dataclass(frozen=True)
class SeatOpened:
    """A person's page opened their seat (a socket with its token): a clock that holds the
    seat's first move until its person arrives starts it now (``web/table/clocks.py``)."""

    live: LiveGame
    seat: int


Event = GameLoaded | GameChanged | GameEnded | SeatOpened
E = TypeVar("E", GameLoaded, GameChanged, GameEnded, SeatOpened)
Handler = Callable[[E], Awaitable[None] | None]


class GameEvents:
    """Named, typed events of the games of one app: ``subscribe`` at construction, ``publish``
    by the games' owner alone."""

    def __init__(self) -> None:
        self._handlers: dict[type[Any], list[Callable[[Any], Awaitable[None] | None]]] = {}

    def subscribe(self, kind: type[E], handler: Handler[E]) -> None:
        """Call ``handler`` (plain or async) with every event of ``kind``, after those before."""
        self._handlers.setdefault(kind, []).append(handler)

    async def publish(self, event: Event) -> None:
        """Call each of the event's handlers in turn, each awaited before the next."""
        for handler in list(self._handlers.get(type(event), ())):
            result = handler(event)
            if result is not None:
                await result
