"""The session of play around a game: resign, draw offers, abort, takeback, rematch, stand-in.

These are actions of the web layer, not of the rules: each is stored, numbered and tied to the
move number it was played on (``session_store.SessionEventRow``), so that a game replayed from
the store (after a restart, or on the replay page) shows them and ends the same way.

- A game that ends here (a resignation, an agreed draw, an abort before the first move) keeps
  its engine state as it stood, with its ``Ending`` beside it (``endings.py``): everything that
  asks the live game whether it is ``over`` (moves, hints, the computer, the replay) then
  treats the game as over.
- A takeback removes the engine actions from the taker's last move on and keeps them in the
  event (the log keeps a record); the live game is rebuilt from the shortened log. Against the
  computer it is refused once a chance event or a reveal happened since that move; against a
  person it is a request the other accepts.
- A rated game (``LiveGame.rated``) counts only once each side has moved: before that a
  resignation or an agreed draw calls it off (an abort, as on lichess), and the computer never
  stands in for an absent person there: without a clock, the present player may claim the win
  or call the game off after the set silence; with one, the clock decides.
- A rematch creates the next game of the series with the same people, on the same terms
  (variant, clock, rated); who moves first follows
  the game's own series rules (its spec's ``SeriesRules``: the loser, or else the seats take
  turns), and a game whose rules go on from the end position (Obonto) continues from there with
  the totals carried.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from boneyard.core.phrasing import capital
from boneyard.web import names
from boneyard.web.errors import WebError
from boneyard.web.play import words
from boneyard.web.play.events import GameLoaded
from boneyard.web.play.live import LiveGame
from boneyard.web.play.manager import GameManager
from boneyard.web.store.ratings import RatingStore
from boneyard.web.store.sessions import SeriesGame, SessionEvent, SessionStore
from boneyard.web.table.endings import (
    ALWAYS_STORED,
    ENDINGS,
    ending_of,
    player_moves,
    seat_name,
)
from boneyard.web.table.series import (
    moved_urls,
    next_seating,
    next_urls,
    pair_key,
    series_score,
)
from boneyard.web.table.session import (
    Session,
    SessionSettings,
    absent_seat,
    can_abort,
    event_bytes,
    is_person,
    last_move_of,
    pending,
    played,
    session_of,
    takeback_refusal,
)

STAND_IN_LEVEL = "medium"


class SessionManager:
    """The session layer of one app: it calls its GameManager, and hears its games' news
    (``attach``: subscribed to ``GameLoaded`` by ``web/app.py``)."""

    def __init__(
        self, manager: GameManager, store: SessionStore, settings: SessionSettings | None = None
    ) -> None:
        self.manager = manager
        self.store = store
        self.settings = settings or SessionSettings()
        self._rematch_lock = asyncio.Lock()
        self.ratings: RatingStore | None = None
        """Which games are rated, and where a rematch of one is noted (set by ``web/app.py``)."""

    # ----- attaching to live games ---------------------------------------------------------------

    async def attach(self, event: GameLoaded) -> None:
        """Give the game made its session: the stored web-layer actions (read off the event
        loop, on the store's reader threads), and an ending re-applied."""
        live = event.live
        events, series, onwards, rated = await self.manager.read_store(self._read, live.id)
        live.rated = live.rated or rated
        before = live.session
        session = Session(
            events, series, self.manager.settings.events_in_view, self.settings.stand_in_seconds
        )
        session.next_urls.update(onwards)
        live.session = session
        # its events count in the game's memory (those of a session read before, once)
        counted = sum(map(event_bytes, before.events)) if isinstance(before, Session) else 0
        self.manager.grow(live, sum(map(event_bytes, events)) - counted)
        live.ending = None  # (read again with the events: a game reloaded from the store)
        for stored in events:
            if stored.kind in ENDINGS:
                live.ending = ending_of(live, stored)

    def _read(
        self, game_id: str
    ) -> tuple[list[SessionEvent], SeriesGame | None, dict[int, str], bool]:
        """A game's session as stored, with each seat's link onwards, and whether it is rated
        (on a store thread)."""
        events = self.store.events(game_id)
        series = self.store.series_game(game_id)
        onwards: dict[int, str] = {}
        for stored in events:
            if stored.kind == "moved":
                onwards.update(
                    moved_urls(self.manager.store, self.store, series, stored.detail["to"])
                )
        if series is not None and series.next_game is not None:
            onwards.update(next_urls(self.manager.store, self.store, series, series.next_game))
        rated = self.ratings is not None and bool(self.ratings.rated_ids([game_id]))
        return events, series, onwards, rated

    def load_moved_urls(self, session: Session, target_id: str) -> None:
        """Each person's link into the continuing game an open game was replaced by (on a
        store thread: it reads)."""
        session.next_urls.update(
            moved_urls(self.manager.store, self.store, session.series, target_id)
        )

    async def note(
        self, live: LiveGame, kind: str, detail: dict[str, Any], seat: int | None = None
    ) -> None:
        """Store a web-layer note on ``live`` (a puzzle's set-up, a solution shown) and tell."""
        async with live.lock:
            await self.record(live, kind, seat, detail)
            await self.manager.announce(live, live.seq)

    # ----- web-layer actions ---------------------------------------------------------------------

    async def request(
        self,
        live: LiveGame,
        seat: int | None,
        what: str,
        target: int | None = None,
        name: str | None = None,
        client: str | None = None,
    ) -> None:
        """Do ``what`` for ``seat``; ``client`` (the address charged) sets up a rematch."""
        if seat is None:
            raise WebError(403, "spectator", "a spectator cannot do that: open an invite link")
        if live.stored.seats[seat]["kind"] != "human":
            raise WebError(403, "not_a_person", "the computer plays this seat now")
        handlers: dict[str, Callable[[LiveGame, int], Any]] = {
            "resign": self.resign,
            "offer_draw": self.offer_draw,
            "accept_draw": self.accept_draw,
            "decline_draw": self.decline_draw,
            "abort": self.abort,
            "takeback": self.takeback,
            "accept_takeback": self.accept_takeback,
            "decline_takeback": self.decline_takeback,
            "rematch": lambda live, seat: self.rematch(live, seat, client),
            "claim_victory": lambda live, seat: self.claim(live, seat, "claim"),
            "call_off": lambda live, seat: self.claim(live, seat, "call_off"),
        }
        if what == "stand_in":
            await self.stand_in(live, seat, target)
            return
        if what == "name":
            await self.rename(live, seat, name)
            return
        handler = handlers.get(what)
        if handler is None:
            known = ", ".join([*handlers, "stand_in", "name"])
            raise WebError(400, "bad_request", f"unknown request {what!r}; requests: {known}")
        await handler(live, seat)

    async def record(
        self,
        live: LiveGame,
        kind: str,
        seat: int | None,
        detail: dict[str, Any] | None = None,
        **changes: Any,
    ) -> SessionEvent:
        """Store one web-layer action (locked by the caller) and remember it. Past the game's
        ``session_events_per_game`` only an ending, a leaving or a stand-in is stored."""
        session = session_of(live)
        number = len(session.events)
        limit = self.manager.settings.session_events_per_game
        if number >= limit and kind not in ALWAYS_STORED:
            raise WebError(
                429,
                "too_many_events",
                f"this game has stored {limit} requests (offers, names, takebacks), the most "
                "this server keeps for one game; it can still be played, resigned or left",
            )
        event = await self.manager.in_store(
            lambda: self.store.add_event(
                live.id, number, live.seq, kind, seat, detail or {}, **changes
            )
        )
        session.events.append(event)
        self.manager.grow(live, event_bytes(event))
        return event

    def _refuse_if_over(self, live: LiveGame) -> None:
        if live.over:
            raise WebError(409, "game_over", f"the game is over: {live.status_text()}")

    async def resign(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            self._refuse_if_over(live)
            if live.num_seats < 2:
                raise WebError(409, "alone", "a puzzle cannot be resigned: just leave it")
            if live.num_seats > 2:
                # The others play on: the computer takes the seat of whoever leaves.
                await self._hand_to_computer(live, seat, seat, "left")
                return
            if live.rated and not played(live):
                await self._call_off_unplayed(live, seat)
                return
            returns = [1.0 if s != seat else -1.0 for s in range(live.num_seats)]
            event = await self.record(live, "resign", seat, {"returns": returns}, returns=returns)
            live.ending = ending_of(live, event)
            await self.manager.announce(live, live.seq)

    async def offer_draw(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            self._refuse_if_over(live)
            session = session_of(live)
            if not live.game.spec.series.can_be_drawn:
                raise WebError(409, "no_draws", f"{live.game.title} never ends in a draw")
            others = [s for s in range(live.num_seats) if s != seat]
            if not others or not all(is_person(live, s) for s in others):
                raise WebError(409, "no_draws", "draws are offered to people, not the computer")
            if pending(session, live, "draw_offer") is not None:
                raise WebError(409, "already_offered", "a draw offer is already waiting")
            await self.record(live, "draw_offer", seat)
            await self.manager.announce(live, live.seq)

    async def accept_draw(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            self._refuse_if_over(live)
            offer = pending(session_of(live), live, "draw_offer")
            if offer is None or offer.seat == seat:
                raise WebError(409, "no_offer", "there is no draw offer to accept")
            if live.rated and not played(live):
                await self._call_off_unplayed(live, seat)
                return
            returns = [0.0] * live.num_seats
            event = await self.record(
                live, "draw_agreed", seat, {"returns": returns}, returns=returns
            )
            live.ending = ending_of(live, event)
            await self.manager.announce(live, live.seq)

    async def decline_draw(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            offer = pending(session_of(live), live, "draw_offer")
            if offer is None or offer.seat == seat:
                raise WebError(409, "no_offer", "there is no draw offer to decline")
            await self.record(live, "draw_declined", seat)
            await self.manager.announce(live, live.seq)

    async def abort(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            self._refuse_if_over(live)
            if not can_abort(live):
                raise WebError(
                    409,
                    "started",
                    "the first move has been played: the game can only be resigned now"
                    if not live.rated
                    else "each side has moved: the game can only be resigned now",
                )
            if player_moves(live) > 0:
                await self._call_off_unplayed(live, seat)
                return
            returns = [0.0] * live.num_seats
            event = await self.record(live, "abort", seat, {"returns": returns}, returns=returns)
            live.ending = ending_of(live, event)
            await self.manager.announce(live, live.seq)

    async def _call_off_unplayed(self, live: LiveGame, seat: int) -> None:
        """End a rated game before each side has moved: an abort, never a win or a draw.
        Locked."""
        returns = [0.0] * live.num_seats
        detail = {"returns": returns, "reason": "not_played"}
        event = await self.record(live, "abort", seat, detail, returns=returns)
        live.ending = ending_of(live, event)
        await self.manager.announce(live, live.seq)

    async def claim(self, live: LiveGame, seat: int, kind: str) -> None:
        """In a rated game without a clock, after the set silence of the person to move:
        ``kind`` "claim" wins the game for ``seat`` (two seats), "call_off" ends it for
        nobody."""
        async with live.lock:
            self._refuse_if_over(live)
            if not live.rated:
                raise WebError(
                    409,
                    "not_rated",
                    "claiming the win is for rated games; here the computer can play for them",
                )
            if live.clock is not None:
                raise WebError(
                    409,
                    "timed_game",
                    "in a timed game the clock decides: a player who does not move loses on time",
                )
            if kind == "claim" and live.num_seats != 2:
                raise WebError(
                    409, "not_two", "the win is claimed in a game of two; call the game off"
                )
            if not played(live):
                raise WebError(
                    409,
                    "not_played",
                    "not each side has moved yet: call the game off instead, it will not count",
                )
            waited = session_of(live).waited(live)
            absent = absent_seat(live, seat, waited, self.settings.stand_in_seconds)
            if absent is None:
                left = max(0.0, self.settings.stand_in_seconds - waited)
                raise WebError(
                    409,
                    "not_away",
                    "only when the other side is to move and has been silent for "
                    f"{self.settings.stand_in_seconds:g} s; wait {left:.0f} s more",
                )
            if kind == "claim":
                returns = [1.0 if s == seat else -1.0 for s in range(live.num_seats)]
            else:
                returns = [0.0] * live.num_seats
            detail = {"returns": returns, "target": absent}
            event = await self.record(live, kind, seat, detail, returns=returns)
            live.ending = ending_of(live, event)
            await self.manager.announce(live, live.seq)

    # ----- takeback ------------------------------------------------------------------------------

    async def takeback(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            self._refuse_if_over(live)
            start = last_move_of(live, seat)
            others = [s for s in range(live.num_seats) if s != seat]
            if any(is_person(live, s) for s in others):
                session = session_of(live)
                if pending(session, live, "takeback_request") is not None:
                    raise WebError(409, "already_asked", "a takeback request is already waiting")
                await self.record(live, "takeback_request", seat)
                await self.manager.announce(live, live.seq)
                return
            refusal = takeback_refusal(live, seat)
            if refusal is not None:
                raise WebError(409, "takeback_refused", refusal)
            await self._take_back(live, seat, start)

    async def accept_takeback(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            self._refuse_if_over(live)
            request = pending(session_of(live), live, "takeback_request")
            if request is None or request.seat == seat or request.seat is None:
                raise WebError(409, "no_request", "there is no takeback request to accept")
            await self._take_back(live, request.seat, last_move_of(live, request.seat))

    async def decline_takeback(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            request = pending(session_of(live), live, "takeback_request")
            if request is None or request.seat == seat:
                raise WebError(409, "no_request", "there is no takeback request to decline")
            await self.record(live, "takeback_declined", seat)
            await self.manager.announce(live, live.seq)

    async def _take_back(self, live: LiveGame, seat: int, start: int) -> None:
        """Remove the actions from ``start`` on (kept in the event) and rebuild. Locked."""
        if live.bot_task is not None:
            live.bot_task.cancel()  # its move was chosen for a position that is gone
            live.bot_task = None
        undone = [list(pair) for pair in live.stored.actions[start:]]
        await self.record(live, "takeback", seat, {"undone": undone, "from": start}, cut_from=start)
        # The shortened log is replayed (and said in words) in the work pool: a long game's
        # takeback walks hundreds of actions. Until it is back the game stays as it was.
        shortened = replace(live.stored, actions=live.stored.actions[:start])
        rebuilt = await self.manager.replay_stored(shortened)
        del live.stored.actions[start:]
        words.forget(live)  # the moves from ``start`` on are gone: so is what was said of them
        words.keep_told(live, rebuilt.words_memory)
        live.state = rebuilt.state
        live.ending = rebuilt.ending
        live.log = rebuilt.log
        live.session = rebuilt.session
        await self.manager.announce(live, start)

    # ----- stand-in ------------------------------------------------------------------------------

    async def stand_in(self, live: LiveGame, seat: int, target: int | None) -> None:
        async with live.lock:
            self._refuse_if_over(live)
            to_move = live.to_move()
            if target is None:
                target = to_move
            if target != to_move or target == seat or not is_person(live, target):
                raise WebError(
                    409, "not_away", "only the person to move can be replaced, by someone else"
                )
            if live.clock is not None:
                raise WebError(
                    409,
                    "timed_game",
                    "in a timed game the clock decides: a player who does not move loses on time",
                )
            if live.rated:
                raise WebError(
                    409,
                    "rated_game",
                    "in a rated game the computer never plays for a person: claim the win or "
                    "call the game off instead",
                )
            waited = session_of(live).waited(live)
            if waited < self.settings.stand_in_seconds:
                left = self.settings.stand_in_seconds - waited
                raise WebError(
                    409,
                    "not_away",
                    f"they have had {waited:.0f} s for this move; wait {left:.0f} s more",
                )
            await self._hand_to_computer(live, seat, target, "stand_in")

    async def _hand_to_computer(self, live: LiveGame, seat: int, target: int, kind: str) -> None:
        label = seat_name(live, target)
        seats = [dict(info) for info in live.stored.seats]
        seats[target].update(kind="computer", level=STAND_IN_LEVEL, was="human")
        if kind == "stand_in":
            seats[target]["away"] = True  # handed over by the others: it did not leave
        await self.record(live, kind, seat, {"label": label, "target": target}, seats=seats)
        live.stored.seats[:] = seats
        await self.manager.announce(live, live.seq)

    # ----- names ---------------------------------------------------------------------------------

    async def rename(self, live: LiveGame, seat: int, name: object) -> None:
        """``seat``'s display name, set by that seat (a friend who opened an invite link)."""
        cleaned = names.given_name(name)
        async with live.lock:
            if live.stored.seats[seat].get("name") == cleaned:
                return
            others = (info.get("name") for s, info in enumerate(live.stored.seats) if s != seat)
            names.distinct_name(cleaned, others)
            interval = self.manager.settings.rename_seconds
            last = next(
                (
                    e
                    for e in reversed(session_of(live).events)
                    if e.kind == "named" and e.seat == seat
                ),
                None,
            )
            if last is not None and time.time() - last.time < interval:
                wait = interval - (time.time() - last.time)
                raise WebError(
                    429,
                    "too_many_names",
                    f"a seat changes its name at most once in {interval:g} seconds; try again "
                    f"in {max(1, round(wait))} seconds",
                    retry_after=wait,
                )
            seats = [dict(info) for info in live.stored.seats]
            seats[seat]["name"] = cleaned
            side = capital(live.game.seat_name(seat))
            await self.record(live, "named", seat, {"side": side, "name": cleaned}, seats=seats)
            live.stored.seats[:] = seats
            await self.manager.announce(live, live.seq)

    # ----- rematch -------------------------------------------------------------------------------

    async def rematch(self, live: LiveGame, seat: int, client: str | None = None) -> None:
        if not live.over:
            raise WebError(409, "not_finished", "a rematch starts once this game is over")
        async with self._rematch_lock:
            session = session_of(live)
            if session.series is not None and session.series.next_game is not None:
                return  # the other side asked first: the next game exists
            series = session.series or SeriesGame(
                game_id=live.id,
                series_id=live.id,
                number=1,
                members=list(range(live.num_seats)),
                people=[None] * live.num_seats,
                next_game=None,
                open_seats=[],
                listed=False,
                created=time.time(),
                carried={},
            )
            if session.series is None:
                await self.manager.in_store(self.store.add_series_game, series, None)
                session.series = series
            order, params = next_seating(live, series, session)
            seats_now = live.stored.seats
            new_seats = []
            for old_seat in order:
                info = seats_now[old_seat]
                human = info["kind"] == "human" or info.get("was") == "human"
                new_seats.append(
                    {"kind": "human"} if human else {"kind": "computer", "level": info["level"]}
                )
            score = series_score(session, live)
            assert score is not None
            carried_wins = [0.0] * live.num_seats
            carried_points = [0] * live.num_seats
            for old_seat, member in enumerate(series.members):
                carried_wins[member] = score["wins"][old_seat]
                if score["points"] is not None:
                    carried_points[member] = score["points"][old_seat]
            next_live = await self.manager.create(
                live.game.name, params, new_seats, client, hints=live.hints_on,
                clock=None if live.clock is None else live.clock.control,
            )  # fmt: skip
            entry = SeriesGame(
                game_id=next_live.id,
                series_id=series.series_id,
                number=series.number + 1,
                members=[series.members[old_seat] for old_seat in order],
                people=[series.people[old_seat] for old_seat in order],
                next_game=None,
                open_seats=[],
                listed=False,
                created=time.time(),
                carried={
                    "wins": carried_wins,
                    "draws": score["draws"],
                    "points": carried_points if score["points"] is not None else None,
                },
            )
            stored = await self.manager.in_store(self.store.add_series_game, entry, live.id)
            if not stored:
                raise WebError(409, "stale", "the next game was started at the same moment")
            if live.rated and self.ratings is not None:
                # the same terms: rated again, each seat its account's (before anyone sees it)
                await self.manager.in_store(
                    self.ratings.note_rated_rematch, live.id, next_live.id, list(order)
                )
                next_live.rated = True
            session_of(next_live).series = entry
            session.series = replace(series, next_game=next_live.id)
            session.next_urls.update(
                await self.manager.read_store(
                    next_urls, self.manager.store, self.store, session.series, next_live.id
                )
            )
            await self.after_rematch(live, next_live, entry)
        async with live.lock:
            await self.manager.announce(live, live.seq)

    async def after_rematch(self, live: LiveGame, next_live: LiveGame, entry: SeriesGame) -> None:
        """Two known people's next Obonto game becomes their continuing game."""
        if live.game.spec.series.continues and len(entry.people) == 2 and all(entry.people):
            pair = pair_key(live.game.name, entry.people)
            await self.manager.in_store(self.store.set_continuing, pair, next_live.id)

    async def replace_game(self, live: LiveGame, target_id: str) -> None:
        """End ``live`` in favour of ``target_id`` (each seat's link there set by the caller)."""
        async with live.lock:
            if live.over:
                return
            returns = [0.0] * live.num_seats
            event = await self.record(
                live, "moved", None, {"returns": returns, "to": target_id}, returns=returns
            )
            live.ending = ending_of(live, event)
            await self.manager.announce(live, live.seq)
