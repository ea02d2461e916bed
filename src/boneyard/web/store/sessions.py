"""Storage of the session of play around games: web-layer actions, series, people, open seats.

The engine's action log (``games.py``) holds what the rules know. This module holds what the web
layer adds, in tables of the same database: every web-layer action of a game (a resignation, a
draw offer and its answer, an abort, a takeback with the moves it removed, a stand-in) numbered
in order and tied to the move number it was played on; which series a game belongs to and who
sits where; light identities (a display name and the hash of a secret the browser keeps); and
which seats of an open game still wait for someone.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, Float, Integer, String, delete, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.games import ActionRow, Base, GameRow, Store


class SessionEventRow(Base):
    __tablename__ = "session_events"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    at_seq: Mapped[int] = mapped_column(Integer)
    """The move number (engine actions stored) when it was played."""
    kind: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    time: Mapped[float] = mapped_column(Float)


class SeriesGameRow(Base):
    __tablename__ = "series_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    series_id: Mapped[str] = mapped_column(String(32), index=True)
    number: Mapped[int] = mapped_column(Integer)
    members: Mapped[list[int]] = mapped_column(JSON)
    """For each seat, the series member who sits there (members are the first game's seats)."""
    people: Mapped[list[str | None]] = mapped_column(JSON)
    """For each seat, the person (light identity) who sits there, when known."""
    next_game: Mapped[str | None] = mapped_column(String(32), nullable=True)
    open_seats: Mapped[list[int]] = mapped_column(JSON)
    """Seats still waiting for someone to join (listed in the lobby while any remain)."""
    listed: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float)
    carried: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The series score before this game, per member: ``{"wins": [...], "draws": n,
    "points": [...] or null}`` (points: Obonto's totals, carried from match to match)."""


class PersonRow(Base):
    __tablename__ = "people"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    secret_hash: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)


class ContinuingRow(Base):
    __tablename__ = "continuing_games"

    pair: Mapped[str] = mapped_column(String(140), primary_key=True)
    """The game name and the two people's ids, sorted: one continuing game for each pair."""
    game_id: Mapped[str] = mapped_column(String(32))
    """The pair's latest game: resumed while unfinished, continued from its end otherwise."""


@dataclass(frozen=True)
class SessionEvent:
    number: int
    at_seq: int
    kind: str
    seat: int | None
    detail: dict[str, Any]
    time: float

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at_seq, "kind": self.kind, "seat": self.seat, **self.detail}


@dataclass(frozen=True)
class SeriesGame:
    game_id: str
    series_id: str
    number: int
    members: list[int]
    people: list[str | None]
    next_game: str | None
    open_seats: list[int]
    listed: bool
    created: float
    carried: dict[str, Any]


def secret_hash(secret: str) -> str:
    return hashlib.sha256(f"boneyard person:{secret}".encode()).hexdigest()


class SessionStore:
    """Synchronous reads and writes of the session tables, on the game store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ----- web-layer actions ---------------------------------------------------------------------

    def events(self, game_id: str) -> list[SessionEvent]:
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(SessionEventRow)
                .where(SessionEventRow.game_id == game_id)
                .order_by(SessionEventRow.number)
            ).all()
        return [
            SessionEvent(r.number, r.at_seq, r.kind, r.seat, dict(r.detail or {}), r.time)
            for r in rows
        ]

    def add_event(
        self,
        game_id: str,
        number: int,
        at_seq: int,
        kind: str,
        seat: int | None,
        detail: dict[str, Any],
        *,
        returns: list[float] | None = None,
        seats: list[dict[str, Any]] | None = None,
        cut_from: int | None = None,
        also: Callable[[Any], None] | None = None,
    ) -> SessionEvent:
        """Store one web-layer action numbered ``number`` (taken: nothing is stored).

        ``returns`` marks the game finished; ``seats`` replaces the seat list (a stand-in);
        ``cut_from`` removes the engine actions from that sequence number on (a takeback: the
        event's detail keeps them), ``also`` makes more writes (a clock's: ``store/clocks.py``,
        which raises to store nothing), all in the same transaction.
        """
        now = time.time()
        with self.store.engine.begin() as connection:
            connection.execute(
                insert(SessionEventRow).values(
                    game_id=game_id,
                    number=number,
                    at_seq=at_seq,
                    kind=kind,
                    seat=seat,
                    detail=detail,
                    time=now,
                )
            )
            if cut_from is not None:
                connection.execute(
                    delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.seq >= cut_from)
                )
            values: dict[str, Any] = {}
            if returns is not None:
                values.update(finished=True, returns=json.dumps(returns))
            if seats is not None:
                values["seats"] = seats
            if values:
                connection.execute(update(GameRow).where(GameRow.id == game_id).values(**values))
            if returns is not None:
                self.store.finished(connection, game_id, returns, kind)
            if also is not None:
                also(connection)
            self.store.changed(connection, game_id)
        return SessionEvent(number, at_seq, kind, seat, detail, now)

    def called_off(self, game_ids: list[str]) -> set[str]:
        """Which of ``game_ids`` were called off (each seat's returns alike, yet no draw)."""
        if not game_ids:
            return set()
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(SessionEventRow.game_id)
                .where(SessionEventRow.game_id.in_(game_ids), SessionEventRow.kind == "abort")
                .distinct()
            ).all()
        return {row[0] for row in rows}

    # ----- series and open seats -----------------------------------------------------------------

    def series_game(self, game_id: str) -> SeriesGame | None:
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(SeriesGameRow).where(SeriesGameRow.game_id == game_id)
            ).first()
        return None if row is None else _series_game(row)

    def series(self, series_id: str) -> list[SeriesGame]:
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(SeriesGameRow)
                .where(SeriesGameRow.series_id == series_id)
                .order_by(SeriesGameRow.number)
            ).all()
        return [_series_game(r) for r in rows]

    def add_series_game(self, entry: SeriesGame, previous: str | None) -> bool:
        """Store ``entry``; with ``previous``, only if that game has no next game yet.

        Returns False (nothing stored) when another rematch got there first.
        """
        with self.store.engine.begin() as connection:
            if previous is not None:
                done = connection.execute(
                    update(SeriesGameRow)
                    .where(SeriesGameRow.game_id == previous, SeriesGameRow.next_game.is_(None))
                    .values(next_game=entry.game_id)
                )
                if done.rowcount != 1:
                    return False
            connection.execute(
                insert(SeriesGameRow).values(
                    game_id=entry.game_id,
                    series_id=entry.series_id,
                    number=entry.number,
                    members=entry.members,
                    people=entry.people,
                    next_game=entry.next_game,
                    open_seats=entry.open_seats,
                    listed=entry.listed,
                    created=entry.created,
                    carried=entry.carried,
                )
            )
            if previous is not None:
                self.store.changed(connection, previous)  # its players' rematch links
        return True

    def fill_seat(self, game_id: str, seat: int, person: str | None) -> bool:
        """Take open ``seat`` (for ``person``); False when it was no longer open."""
        with self.store.engine.begin() as connection:
            row = connection.execute(
                select(SeriesGameRow).where(SeriesGameRow.game_id == game_id).with_for_update()
            ).first()
            if row is None or seat not in row.open_seats:
                return False
            people = list(row.people)
            people[seat] = person
            connection.execute(
                update(SeriesGameRow)
                .where(SeriesGameRow.game_id == game_id)
                .values(open_seats=[s for s in row.open_seats if s != seat], people=people)
            )
            self.store.changed(connection, game_id)
        return True

    def listed_games(self, limit: int = 200) -> list[SeriesGame]:
        """Listed games not yet over, the newest first."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(SeriesGameRow)
                .join(GameRow, GameRow.id == SeriesGameRow.game_id)
                .where(SeriesGameRow.listed.is_(True), GameRow.finished.is_(False))
                .order_by(SeriesGameRow.created.desc())
                .limit(limit)
            ).all()
        return [_series_game(r) for r in rows]

    def games_between_people(self, limit: int = 200) -> list[tuple[str, list[str]]]:
        """``(game id, seat names)`` of the games not yet over whose seats are all people's
        (two or more), the newest first, however they were made (quick pairing, an invitation,
        an arena, the lobby): the lobby's games to watch. A game against the computer is not
        listed, nor one that still waits for someone to join."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(GameRow.id, GameRow.seats, SeriesGameRow.open_seats)
                .outerjoin(SeriesGameRow, SeriesGameRow.game_id == GameRow.id)
                .where(GameRow.finished.is_(False))
                .order_by(GameRow.created.desc())
                .limit(limit * 4)
            ).all()
        between = [
            (row.id, [str(seat.get("name") or "") for seat in row.seats])
            for row in rows
            if not row.open_seats
            and len(row.seats) >= 2
            and all(seat.get("kind") == "human" for seat in row.seats)
        ]
        return between[:limit]

    def created_of(self, game_ids: list[str]) -> dict[str, float]:
        """When each of ``game_ids`` was made (seconds since 1970)."""
        if not game_ids:
            return {}
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(GameRow.id, GameRow.created).where(GameRow.id.in_(game_ids))
            ).all()
        return {r[0]: float(r[1]) for r in rows}

    def finished_ids(self, game_ids: list[str]) -> set[str]:
        if not game_ids:
            return set()
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(GameRow.id).where(GameRow.id.in_(game_ids), GameRow.finished.is_(True))
            ).all()
        return {r[0] for r in rows}

    def game_names(self, game_ids: list[str]) -> dict[str, tuple[str, dict[str, Any], bool]]:
        """``(name, params, hints on)`` of each game (``hints`` rides on every seat row)."""
        if not game_ids:
            return {}
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(GameRow.id, GameRow.name, GameRow.params, GameRow.seats).where(
                    GameRow.id.in_(game_ids)
                )
            ).all()
        return {r[0]: (r[1], dict(r[2]), any(seat.get("hints") for seat in r[3])) for r in rows}

    # ----- people and their continuing games -----------------------------------------------------

    def person(self, person_id: str, secret: str) -> dict[str, str] | None:
        with self.store.engine.connect() as connection:
            row = connection.execute(select(PersonRow).where(PersonRow.id == person_id)).first()
        if row is None or row.secret_hash != secret_hash(secret):
            return None
        return {"id": row.id, "name": row.name}

    def add_person(self, person_id: str, name: str, secret: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(
                insert(PersonRow).values(
                    id=person_id, name=name, secret_hash=secret_hash(secret), created=time.time()
                )
            )

    def rename_person(self, person_id: str, name: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(update(PersonRow).where(PersonRow.id == person_id).values(name=name))

    def names(self, person_ids: list[str]) -> dict[str, str]:
        if not person_ids:
            return {}
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(PersonRow.id, PersonRow.name).where(PersonRow.id.in_(person_ids))
            ).all()
        return {r[0]: r[1] for r in rows}

    def continuing(self, pair: str) -> str | None:
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(ContinuingRow.game_id).where(ContinuingRow.pair == pair)
            ).first()
        return None if row is None else str(row[0])

    def set_continuing(self, pair: str, game_id: str) -> None:
        with self.store.engine.begin() as connection:
            done = connection.execute(
                update(ContinuingRow).where(ContinuingRow.pair == pair).values(game_id=game_id)
            )
            if done.rowcount == 0:
                connection.execute(insert(ContinuingRow).values(pair=pair, game_id=game_id))

    def continuing_of(self, person_id: str) -> list[tuple[str, str]]:
        """``(pair, game id)`` of every continuing game ``person_id`` is part of."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(ContinuingRow.pair, ContinuingRow.game_id).where(
                    ContinuingRow.pair.contains(person_id)
                )
            ).all()
        return [(r[0], r[1]) for r in rows if person_id in r[0].split(":")[1:]]


def _series_game(row: Any) -> SeriesGame:
    return SeriesGame(
        game_id=row.game_id,
        series_id=row.series_id,
        number=row.number,
        members=list(row.members),
        people=list(row.people),
        next_game=row.next_game,
        open_seats=list(row.open_seats),
        listed=bool(row.listed),
        created=row.created,
        carried=dict(row.carried or {}),
    )
