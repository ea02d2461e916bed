"""Live games: the one place a game's full state lives while the server runs.

A ``LiveGame`` is rebuilt from the stored action log (``manager.GameManager`` does that, and
every change goes through its asyncio lock). It is data the modules around it read: it calls
neither its words nor its session. What leaves the server for a seat is made from it by
``views.seat_view``: that seat's observation, its legal actions when it is to move, and the
move log as that seat sees it. Never the state, ``to_json``, the seed (until the end) or
another seat's hidden values.

The app is split by concern: ``catalog`` (games and parameters), ``settings`` (server policy),
``chance`` (seeding), ``bots`` (bot workers), ``work`` (set-ups and replays off the loop),
``manager`` (creating, loading, acting, subscribers) with ``cache`` (what stays in memory) and
``computer`` (computer seats and hints), ``guard`` (headers, origins, sizes), ``limits`` (rates)
``views`` (what a seat is sent) and this module (one live game).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from boneyard.ai.levels import LEVEL_NAMES as LEVELS
from boneyard.ai.levels import level_label
from boneyard.core.game import CHANCE, TERMINAL, Game, State
from boneyard.web.compute.chance import chance_outcome, seed_hash
from boneyard.web.errors import WebError
from boneyard.web.play.catalog import Catalog, parse_params, seat_count_for
from boneyard.web.play.drawing import Lines
from boneyard.web.settings import Settings
from boneyard.web.store.games import StoredGame
from boneyard.web.store.sessions import SeriesGame

if TYPE_CHECKING:
    from boneyard.web.play.clocks import GameClock

log = logging.getLogger("boneyard.web")

LOG_IN_VIEW = 100
"""The move log's lines a view or a replay frame carries: the latest ones. Building and
encoding a view happens on the event loop, so it must not grow with a game's length; earlier
lines are paged with ``GET /api/games/{id}/log`` (a charged read)."""


class Subscriber(Protocol):
    seat: int | None
    draw: bool
    drawing: Lines | None
    """The board drawing this subscriber was last sent (``play/drawing.py``): the next view
    carries only what changed since it."""

    def offer(self, text: str) -> bool:
        """Queue a message already encoded as JSON (one encoding per seat, not per socket);
        False when the subscriber's queue is full (it fell behind: it is dropped)."""
        ...


class PlaySession(Protocol):
    """What the table (``web/table/``) gives a live game: the session of play it lives in. The
    live game reads its series (data) and never calls it: the views ask the session for its
    part (``views.seat_view``)."""

    series: SeriesGame | None
    """Its place in a series; an open game of the lobby whose ``open_seats`` nobody took yet
    takes no move."""

    def view(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The session of ``live`` as ``seat`` sees it (offers, series, rematch), carried in
        every view."""
        ...


@dataclass
class LogEntry:
    seq: int
    player: int
    strings: list[str]
    """How the action looks to each seat, then (last) to a spectator."""


@dataclass(frozen=True)
class Ending:
    """How the web layer ended a game (a resignation, an agreed draw, an abort, two people led
    to their continuing game): a result kept beside the engine state, which stays as it was,
    like python-chess's ``Outcome``."""

    kind: str
    returns: tuple[float, ...]
    words: str
    """The ending in words, as the status line says it."""


@dataclass
class LiveGame:
    id: str
    stored: StoredGame
    game: Game
    state: State
    log: list[LogEntry]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    bot_standby_at: int | None = None
    """While ``bot_task`` only stands by (another process asks for the computer's move): the
    sequence number it stands by at."""
    payer: str = ""
    """The client (address) the computer's thinking in this game is charged to: the person's
    who moved last, else the one who made the game (``compute/fairness.py``)."""
    seat_clients: dict[int, str] = field(default_factory=dict)
    """The client each person's seat last played or opened a socket from (its hints' payer)."""
    resting: bool = False
    """The computer to move waits for its payer's thinking budget to refill."""
    last_used: float = field(default_factory=time.monotonic)
    memory: int = 0
    """Estimated bytes this game holds (the server's memory budget)."""
    hint_at: dict[int, float] = field(default_factory=dict)
    """When each seat last asked for a hint (``time.monotonic``)."""
    ending: Ending | None = None
    """Set when the web layer ended the game; the engine state is then left as it stood."""
    words_memory: object = None
    """What ``words`` said of this game's moves so far (kept with the game, gone with it)."""
    session: PlaySession | None = None
    """The session of play (``web/table/``: offers, series, rematch), a service the table gives
    each live game; ``None`` where no table is attached (the play layer alone)."""
    rated: bool = False
    """A rated game (``rated.py``, or read with its session): the computer never stands in,
    and the game counts only once each side has moved."""
    ended_told: bool = False
    """Whether its end was published (``events.GameEnded``), once per live copy."""
    clock: GameClock | None = None
    """The game's clock (``play/clocks.py``), attached by ``web/table/clocks.py``; ``None``
    for an untimed game."""

    def waiting_for_people(self) -> bool:
        """Whether the game waits for someone to take a free seat (an open game of the lobby):
        no person's move is taken until then. The session of play knows."""
        series = self.session.series if self.session is not None else None
        return series is not None and bool(series.open_seats) and not self.over

    @property
    def computers_only(self) -> bool:
        return all(seat["kind"] == "computer" for seat in self.stored.seats)

    def is_idle(self, now: float, idle_seconds: float) -> bool:
        """Nobody watches it, nothing is moving in it, and it went unused for ``idle_seconds``."""
        return (
            not self.subscribers
            and (self.bot_task is None or self.bot_task.done())
            and not self.lock.locked()
            and now - self.last_used >= idle_seconds
        )

    @property
    def over(self) -> bool:
        """Whether the game is over: by its rules, or ended by the web layer."""
        return self.ending is not None or self.state.is_terminal()

    def running_seat(self, state: State | None = None) -> int | None:
        """Whose clock runs (at ``state``, by default its own): the person to move, while the
        game is on and no seat waits for someone."""
        state = self.state if state is None else state
        if self.ending is not None or state.is_terminal() or self.waiting_for_people():
            return None
        seat = state.current_player()
        if seat < 0 or self.stored.seats[seat]["kind"] != "human":
            return None
        return seat

    def returns(self) -> list[float]:
        """Each seat's result: the ending's, or the rules'."""
        return list(self.ending.returns) if self.ending is not None else self.state.returns()

    def to_move(self) -> int:
        """The seat to move, ``CHANCE``, or ``TERMINAL`` once the game is over either way."""
        return TERMINAL if self.ending is not None else self.state.current_player()

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def num_seats(self) -> int:
        return self.game.info.num_players

    @property
    def people_seats(self) -> list[int]:
        """The seats people hold or held (one the computer took over from a person counts)."""
        return [
            seat
            for seat, info in enumerate(self.stored.seats)
            if info["kind"] == "human" or info.get("was") == "human"
        ]

    @property
    def hints_on(self) -> bool:
        """Whether the game was created with hints on for people playing each other. Stored on
        every seat row (the games table has no column for a game-wide choice)."""
        return any(info.get("hints") for info in self.stored.seats)

    def hints_for(self, held: set[int]) -> bool:
        """Whether a page holding the seats ``held`` may ask for hints. Fair play: between two
        or more people only when the game was created with hints on; always against the
        computer, and at one screen (a page that holds every person's seat: nobody to wrong)."""
        people = self.people_seats
        return len(people) < 2 or self.hints_on or set(people) <= held

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token stands for; ``None`` (no token) is a spectator; a wrong one: 403."""
        if token is None or token == "":
            return None
        given = token.encode("utf-8", "replace")
        for seat, info in enumerate(self.stored.seats):
            if info["token"] is not None and secrets.compare_digest(
                str(info["token"]).encode(), given
            ):
                return seat
        raise WebError(403, "wrong_token", f"that token is not a seat of game {self.id}")

    def is_persons(self, seat: int) -> bool:
        """Whether a person holds ``seat`` (not the computer, from the start or since)."""
        return bool(self.stored.seats[seat]["kind"] == "human")

    def check_person(self, seat: int | None) -> None:
        """Refuse (403) a token whose seat a person no longer holds: the computer took it over
        (its person resigned a game of three or more, or a stand-in). It may still watch."""
        if seat is not None and self.stored.seats[seat]["kind"] != "human":
            raise WebError(
                403,
                "seat_taken_over",
                "the computer plays this seat now; this link can still watch the game",
            )

    def seat_label(self, seat: int) -> str:
        names = self.game.info.seat_names
        label = names[seat] if seat < len(names) else f"Player {seat + 1}"
        info = self.stored.seats[seat]
        if info["kind"] == "computer":
            label += f" (computer, {level_label(info['level'])})"
        return str(label)

    def status_text(self) -> str:
        if self.ending is not None:
            return self.ending.words
        if self.state.is_terminal():
            returns = self.state.returns()
            best = max(returns)
            winners = [s for s, r in enumerate(returns) if r == best]
            shown = ", ".join(f"{self.seat_label(s)} {r:g}" for s, r in enumerate(returns))
            if len(returns) == 1:
                return f"Game over: {shown}"
            if len(winners) == len(returns):
                return f"Game over: a draw ({shown})"
            names = " and ".join(self.seat_label(s) for s in winners)
            return f"Game over: {names} {'win' if len(winners) > 1 else 'wins'} ({shown})"
        player = self.state.current_player()
        if player == CHANCE:
            return "Chance to move"
        return f"{self.seat_label(player)} to move"


def render(game: Game, observation: dict[str, Any], **options: Any) -> tuple[str | None, str]:
    """The board drawn from an observation: SVG when the game draws one, else text.

    The text is empty when there is an SVG (it is drawn on every move for every seat: the
    time matters).
    """
    svg: str | None
    try:
        svg = game.render_svg(observation, **options)
    except NotImplementedError:
        svg = None
    except Exception:  # a drawing bug must not take the game page down
        log.exception("render_svg failed for %s", game.name)
        svg = None
    if svg is not None:
        return svg, ""
    try:
        text = game.render_text(observation)
    except NotImplementedError:
        text = json.dumps(observation, indent=1, sort_keys=True)
    except Exception:
        log.exception("render_text failed for %s", game.name)
        text = json.dumps(observation, indent=1, sort_keys=True)
    return svg, text


__all__ = [
    "LEVELS",
    "LOG_IN_VIEW",
    "Catalog",
    "LiveGame",
    "LogEntry",
    "Settings",
    "Subscriber",
    "WebError",
    "chance_outcome",
    "parse_params",
    "render",
    "seat_count_for",
    "seed_hash",
]
