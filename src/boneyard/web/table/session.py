"""What the web layer knows about one live game beyond its rules: its stored events, its place
in a series, each seat's link into the next game; and the session as each seat sees it.

A ``Session`` holds no pointer back: not to the live game (which holds it), nor to the session
layer that made it (``sessions.py``). Whatever it tells is asked with the live game passed in.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from boneyard.core.game import CHANCE
from boneyard.web.errors import WebError
from boneyard.web.play.live import LiveGame
from boneyard.web.store.ratings import each_side_moved
from boneyard.web.store.sessions import SeriesGame, SessionEvent
from boneyard.web.table.endings import ENDINGS, event_words, player_moves
from boneyard.web.table.series import series_score


@dataclass
class SessionSettings:
    stand_in_seconds: float = 120.0
    """How long the seat to move must have been silent before the others may hand it to the
    computer."""


@dataclass
class Session:
    """What the web layer knows about one live game, beyond its rules."""

    events: list[SessionEvent]
    series: SeriesGame | None
    events_in_view: int
    """The latest events a view carries (``Settings.events_in_view``)."""
    stand_in_seconds: float
    next_urls: dict[int, str] = field(default_factory=dict)
    """Per seat of this game: the link to the seat its person has in the next game."""
    clock_seq: int = -1
    clock_since: float = 0.0

    def view(self, live: LiveGame, seat: int | None, every_event: bool = False) -> dict[str, Any]:
        """The session of ``live`` as ``seat`` sees it: the latest ``events_in_view`` events,
        or with ``every_event`` every event stored."""
        return session_view(self, live, seat, every_event)

    def waited(self, live: LiveGame) -> float:
        """Seconds since the game reached its current move number (as this server saw it)."""
        if self.clock_seq != live.seq:
            self.clock_seq = live.seq
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


def pending(session: Session, live: LiveGame, kind: str) -> SessionEvent | None:
    """An offer or request still open: the last web-layer action, on the current move."""
    # a seat naming itself in between leaves an offer open
    said = [event for event in session.events if event.kind != "named"]
    if not said:
        return None
    last = said[-1]
    if last.kind == kind and last.at_seq == live.seq:
        return last
    return None


def is_person(live: LiveGame, seat: int | None) -> bool:
    return seat is not None and live.stored.seats[seat]["kind"] == "human"


def played(live: LiveGame) -> bool:
    """Whether each side has moved: a rated game counts from then on (before, it is aborted)."""
    return each_side_moved(live.stored.actions, live.num_seats)


def can_abort(live: LiveGame) -> bool:
    """Before the first move; a rated game until each side has moved (as on lichess)."""
    return player_moves(live) == 0 or (live.rated and not played(live))


def absent_seat(live: LiveGame, seat: int | None, waited: float, silence: float) -> int | None:
    """The person to move who has been silent for ``silence`` seconds while ``seat`` (another
    person) waits, in a game without a clock; None if there is none."""
    to_move = live.to_move()
    if seat is None or to_move < 0 or to_move == seat or live.over or live.clock is not None:
        return None
    if not is_person(live, seat) or not is_person(live, to_move) or waited < silence:
        return None
    return to_move


def last_move_of(live: LiveGame, seat: int) -> int:
    for seq in range(len(live.stored.actions) - 1, -1, -1):
        if live.stored.actions[seq][1] == seat:
            return seq
    raise WebError(409, "no_move", "you have not moved yet: there is nothing to take back")


def takeback_refusal(live: LiveGame, seat: int) -> str | None:
    """Why ``seat``'s last move may not be taken back against the computer, or None.

    Refused once a chance event happened since that move (a roll, a shuffle, a draw), or
    a reveal: an action that looks different to different seats (a card seen, a look at a
    hidden piece), in a game with hidden information.
    """
    start = last_move_of(live, seat)
    for entry in live.log[start:]:
        if entry.player == CHANCE:
            return "something was left to chance since that move: it stands"
        if not live.game.perfect_information and len(set(entry.strings)) > 1:
            return "something hidden was revealed since that move: it stands"
    return None


def session_view(
    session: Session, live: LiveGame, seat: int | None, every_event: bool = False
) -> dict[str, Any]:
    """The session of ``live`` as ``seat`` sees it (``Session.view``)."""
    # The puzzle's panel says it; a seat's own page knows its own new name ("White is now
    # called Ann" read by Ann is about herself, in the third person).
    shown = [
        e
        for e in session.events
        if e.kind != "puzzle" and not (e.kind == "named" and seat is not None and e.seat == seat)
    ]
    if not every_event:
        shown = shown[-session.events_in_view :]
    over = live.over
    draw_offer = pending(session, live, "draw_offer")
    takeback_request = pending(session, live, "takeback_request")
    ending = next((e for e in reversed(session.events) if e.kind in ENDINGS), None)
    person = is_person(live, seat)
    others = [s for s in range(live.num_seats) if s != seat]
    others_people = bool(others) and all(is_person(live, s) for s in others)
    waited = session.waited(live)
    to_move = live.to_move()
    # In a rated game the computer never stands in: the present player claims the win or
    # calls the game off once the absent one has been silent long enough (lichess's rule).
    absent = absent_seat(live, seat, waited, session.stand_in_seconds)
    unplayed = not played(live)
    claimable = live.rated and absent is not None and not unplayed
    # An open game still waiting for someone to join is only called off: there is nobody yet
    # to resign to or to offer a draw (a lichess seek is cancelled, never resigned).
    seeking = live.waiting_for_people()
    can = {
        # a rated game not yet played by each side is called off, not resigned (lichess)
        "resign": person
        and not over
        and not seeking
        and live.num_seats > 1
        and not (live.rated and unplayed),
        "offer_draw": person
        and not over
        and not seeking
        and others_people
        and live.game.spec.series.can_be_drawn
        and draw_offer is None,
        "answer_draw": person and draw_offer is not None and draw_offer.seat != seat,
        "abort": person and not over and live.num_seats > 1 and can_abort(live),
        "takeback": person
        and not over
        and takeback_request is None
        and any(p == seat for _a, p in live.stored.actions)
        and (others_people or (seat is not None and takeback_refusal(live, seat) is None)),
        "answer_takeback": person
        and takeback_request is not None
        and takeback_request.seat != seat,
        "rematch": person
        and over
        and live.num_seats > 1
        and (session.series is None or session.series.next_game is None),
        # a timed game: the clock decides, as on lichess (``absent_seat`` is None there)
        "stand_in": not live.rated and absent is not None,
        "claim_victory": claimable and live.num_seats == 2,
        "call_off": claimable,
    }
    return {
        "ending": None
        if ending is None
        else {"kind": ending.kind, "seat": ending.seat, "words": str(live.status_text())},
        "can": can,
        "draw_offer": None if draw_offer is None else {"seat": draw_offer.seat},
        "takeback_request": None if takeback_request is None else {"seat": takeback_request.seat},
        "events": [
            {"at": e.at_seq, "kind": e.kind, "seat": e.seat, "words": event_words(live, e)}
            for e in shown
        ],
        "events_total": len(session.events),
        "series": series_score(session, live),
        "next_url": session.next_urls.get(seat) if seat is not None else None,
        "follow": ending is not None and ending.kind == "moved",
        "next_game": session.series.next_game if session.series else None,
        "waiting": None if to_move < 0 else {"seat": to_move, "seconds": round(waited)},
        "stand_in_after": session.stand_in_seconds,
        "open_seats": list(session.series.open_seats) if session.series else [],
        "puzzle": puzzle_view(session, live),
    }


def puzzle_view(session: Session, live: LiveGame) -> dict[str, Any] | None:
    """A puzzle of the ladder or the daily puzzle: its level, the shortest solution's length
    and the moves used so far (``web/people/ladder.py`` notes it when it deals the puzzle)."""
    note = next((e for e in session.events if e.kind == "puzzle"), None)
    ladder = live.game.spec.ladder
    if note is None or ladder is None:
        return None
    observation = live.state.observation(None)
    shown = next((e for e in session.events if e.kind == "solution_shown"), None)
    return {
        "level": note.detail.get("level"),
        "date": note.detail.get("date"),
        ladder.parameter: note.detail[ladder.parameter],
        "shortest": note.detail["shortest"],
        "used": observation.get("moves", 0),
        "solved": bool(observation.get("solved")),
        "solution_url": None if shown is None else shown.detail["replay_url"],
    }
