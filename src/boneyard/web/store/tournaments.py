"""Storage of arena tournaments: the tournament, its players (score, streak, current game) and
its games.

Every change to one tournament first bumps its row's ``version`` (``_touch``): that update
takes the row's lock, so the changes to one tournament follow each other on any number of
processes (PostgreSQL's row lock; SQLite's one writer), and the version tells pages and sockets
that something changed. Pairing (``claim_pairs``) marks the players it pairs as taken, in that
same transaction, only where they are still free: two processes that pair at once pair each
player once, and only the process whose claim committed makes the games (``started``). The end
(``finish``) is one conditional update. A game's result is scored by ``score``, in the very
transaction that stores it (the store's ``on_finish``), once (``scored``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, Float, Integer, String, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store import arena
from boneyard.web.store.games import ActionRow, Base, GameRow, Store
from boneyard.web.store.sessions import SessionEventRow

PENDING = "pending"
"""A player's ``game_id`` between the pairing and their game's creation."""
PENDING_SECONDS = 60.0
"""A pairing whose game was not made in this long (its process died) is undone."""


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    minutes: Mapped[float] = mapped_column(Float)
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    creator: Mapped[str] = mapped_column(String(40))
    """The name of the account that made it."""
    created: Mapped[float] = mapped_column(Float)
    starts: Mapped[float] = mapped_column(Float, index=True)
    ends: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)


class EntrantRow(Base):
    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    score: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    sheet: Mapped[list[int]] = mapped_column(JSON)
    """The points of each game, in order (a streak's doubled wins show as 4)."""
    firsts: Mapped[int] = mapped_column(Integer, default=0)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The game being played, ``PENDING`` while it is made, null when free."""
    paired_at: Mapped[float] = mapped_column(Float, default=0.0)
    free_since: Mapped[float] = mapped_column(Float)
    last_opponent: Mapped[str | None] = mapped_column(String(32), nullable=True)
    joined: Mapped[float] = mapped_column(Float)


class TournamentGameRow(Base):
    __tablename__ = "tournament_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(32), index=True)
    accounts: Mapped[list[str]] = mapped_column(JSON)
    """The account of each seat."""
    scored: Mapped[bool] = mapped_column(Boolean, default=False)


@dataclass(frozen=True)
class Tournament:
    id: str
    game: str
    kind: str
    minutes: float
    clock: dict[str, Any]
    creator: str
    starts: float
    ends: float
    finished: bool
    version: int

    def status(self, now: float) -> str:
        """``upcoming``, ``running``, ``ending`` (time is up, games still being played) or
        ``finished``."""
        if self.finished:
            return "finished"
        if now < self.starts:
            return "upcoming"
        return "running" if now < self.ends else "ending"


@dataclass(frozen=True)
class Pairing:
    """A game to make: the accounts of its seats and their names."""

    tournament: Tournament
    accounts: tuple[str, str]
    names: tuple[str, str]


def _tournament(row: Any) -> Tournament:
    return Tournament(
        row.id, row.game, row.kind, row.minutes, dict(row.clock), row.creator, row.starts,
        row.ends, bool(row.finished), int(row.version),
    )  # fmt: skip


class TournamentStore:
    def __init__(self, store: Store) -> None:
        self.store = store
        store.create_tables(
            [TournamentRow.__table__, EntrantRow.__table__, TournamentGameRow.__table__]
        )
        store.on_finish.append(self.score)
        store.unsettled.append(self.unscored)

    # ----- making, joining ---------------------------------------------------------------------

    def create(self, tournament: Tournament, most_open: int) -> bool:
        """Store ``tournament``; False, with nothing stored, when its creator has ``most_open``
        unfinished tournaments already."""
        with self.store.engine.begin() as connection:
            unfinished = connection.execute(
                select(func.count())
                .select_from(TournamentRow)
                .where(
                    TournamentRow.creator == tournament.creator, TournamentRow.finished.is_(False)
                )
            ).scalar_one()
            if unfinished >= most_open:
                return False
            connection.execute(
                insert(TournamentRow).values(
                    id=tournament.id,
                    game=tournament.game,
                    kind=tournament.kind,
                    minutes=tournament.minutes,
                    clock=tournament.clock,
                    creator=tournament.creator,
                    created=time.time(),
                    starts=tournament.starts,
                    ends=tournament.ends,
                    finished=False,
                    version=0,
                )
            )
        return True

    def join(self, tournament_id: str, account_id: str, name: str) -> str | None:
        """Enter (or come back after withdrawing); answers why not (``"over"``) or None."""
        now = time.time()
        with self.store.engine.begin() as connection:
            row = self._touch(connection, tournament_id)
            if row is None:
                return "unknown"
            if row.finished or now >= row.ends:
                return "over"
            came_back = connection.execute(
                update(EntrantRow)
                .where(
                    EntrantRow.tournament_id == tournament_id, EntrantRow.account_id == account_id
                )
                .values(withdrawn=False, free_since=now)
            )
            if came_back.rowcount == 0:
                connection.execute(
                    insert(EntrantRow).values(
                        tournament_id=tournament_id,
                        account_id=account_id,
                        name=name,
                        score=0,
                        streak=0,
                        sheet=[],
                        firsts=0,
                        withdrawn=False,
                        game_id=None,
                        paired_at=0.0,
                        free_since=now,
                        last_opponent=None,
                        joined=now,
                    )
                )
        return None

    def withdraw(self, tournament_id: str, account_id: str) -> bool:
        """Leave: paired no more (a game being played is played out); False if not in it."""
        with self.store.engine.begin() as connection:
            if self._touch(connection, tournament_id) is None:
                return False
            done = connection.execute(
                update(EntrantRow)
                .where(
                    EntrantRow.tournament_id == tournament_id, EntrantRow.account_id == account_id
                )
                .values(withdrawn=True)
            )
        return done.rowcount == 1

    @staticmethod
    def _touch(connection: Connection, tournament_id: str) -> Any:
        """Bump the version (and so take the tournament's row lock); answers the row, or None."""
        done = connection.execute(
            update(TournamentRow)
            .where(TournamentRow.id == tournament_id)
            .values(version=TournamentRow.version + 1)
        )
        if done.rowcount == 0:
            return None
        return connection.execute(
            select(TournamentRow).where(TournamentRow.id == tournament_id)
        ).first()

    # ----- pairing, results, the end ----------------------------------------------------------

    def due(self, now: float) -> list[tuple[str, float, int]]:
        """The tournaments that have started and are not finished (to pair, or to end), each
        ``(id, its end, how many of its players are free)``: a pairing whose game was never
        made counts its players free once it is ``PENDING_SECONDS`` old (``claim_pairs``
        undoes it)."""
        stale = (EntrantRow.game_id == PENDING) & (EntrantRow.paired_at < now - PENDING_SECONDS)
        free = (
            select(func.count())
            .select_from(EntrantRow)
            .where(
                EntrantRow.tournament_id == TournamentRow.id,
                EntrantRow.game_id.is_(None) | stale,
                EntrantRow.withdrawn.is_(False),
            )
            .scalar_subquery()
        )
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(TournamentRow.id, TournamentRow.ends, free).where(
                    TournamentRow.finished.is_(False), TournamentRow.starts <= now
                )
            ).all()
        return [(r[0], float(r[1]), int(r[2])) for r in rows]

    def claim_pairs(self, tournament_id: str, now: float) -> list[Pairing]:
        """Pair the free players of a running tournament (``arena.pair``), marking them taken;
        the caller makes each game and calls ``started`` (or ``unpair``). Nothing changes when
        there is no one to pair."""
        with self.store.engine.connect() as connection, connection.begin() as transaction:
            row = self._touch(connection, tournament_id)
            if row is None or row.finished or not row.starts <= now < row.ends:
                transaction.rollback()
                return []
            connection.execute(
                update(EntrantRow)
                .where(
                    EntrantRow.tournament_id == tournament_id,
                    EntrantRow.game_id == PENDING,
                    EntrantRow.paired_at < now - PENDING_SECONDS,
                )
                .values(game_id=None)
            )
            players = connection.execute(
                select(EntrantRow).where(
                    EntrantRow.tournament_id == tournament_id, EntrantRow.withdrawn.is_(False)
                )
            ).all()
            free = [
                arena.Entrant(p.account_id, p.score, p.last_opponent, p.free_since, p.firsts)
                for p in players
                if p.game_id is None
            ]
            playing = sum(1 for p in players if p.game_id is not None)
            pairs = arena.pair(free, playing, now, arena.rematch_wait(dict(row.clock)))
            if not pairs:
                transaction.rollback()
                return []
            names = {p.account_id: p.name for p in players}
            for first, second in pairs:
                taken = connection.execute(
                    update(EntrantRow)
                    .where(
                        EntrantRow.tournament_id == tournament_id,
                        EntrantRow.account_id.in_([first, second]),
                        EntrantRow.game_id.is_(None),
                    )
                    .values(game_id=PENDING, paired_at=now)
                )
                if taken.rowcount != 2:
                    raise RuntimeError(f"tournament {tournament_id}: a player paired twice")
            transaction.commit()
        tournament = _tournament(row)
        return [Pairing(tournament, pair, (names[pair[0]], names[pair[1]])) for pair in pairs]

    def started(self, pairing: Pairing, game_id: str) -> None:
        """The pairing's game is made: its players are in it."""
        tournament_id = pairing.tournament.id
        with self.store.engine.begin() as connection:
            self._touch(connection, tournament_id)
            connection.execute(
                insert(TournamentGameRow).values(
                    game_id=game_id,
                    tournament_id=tournament_id,
                    accounts=list(pairing.accounts),
                    scored=False,
                )
            )
            for account_id in pairing.accounts:
                connection.execute(
                    update(EntrantRow)
                    .where(
                        EntrantRow.tournament_id == tournament_id,
                        EntrantRow.account_id == account_id,
                    )
                    .values(game_id=game_id)
                )
            connection.execute(
                update(EntrantRow)
                .where(
                    EntrantRow.tournament_id == tournament_id,
                    EntrantRow.account_id == pairing.accounts[0],
                )
                .values(firsts=EntrantRow.firsts + 1)
            )

    def unpair(self, pairing: Pairing) -> None:
        """The pairing's game was not made (time ran out, or it failed): both are free again."""
        with self.store.engine.begin() as connection:
            self._touch(connection, pairing.tournament.id)
            connection.execute(
                update(EntrantRow)
                .where(
                    EntrantRow.tournament_id == pairing.tournament.id,
                    EntrantRow.account_id.in_(list(pairing.accounts)),
                    EntrantRow.game_id == PENDING,
                )
                .values(game_id=None)
            )

    @staticmethod
    def unscored(connection: Connection, limit: int) -> list[str]:
        """Finished tournament games not scored (for the sweep, ``store/settling.py``)."""
        rows = connection.execute(
            select(TournamentGameRow.game_id)
            .join(GameRow, GameRow.id == TournamentGameRow.game_id)
            .where(GameRow.finished.is_(True), TournamentGameRow.scored.is_(False))
            .limit(limit)
        ).all()
        return [row[0] for row in rows]

    def score(self, connection: Connection, game_id: str, returns: list[float], how: str) -> None:
        """The store's ``on_finish``: a tournament game's result, scored once, in the
        transaction that stores it. Its players are free again. A game called off scores
        nothing, and whoever let their first move lapse is paused (``withdrawn``: not paired
        until they come back, as lichess pauses them); a game in which a side made fewer than
        the arena's moves (``arena.scores``) scores nothing either."""
        row = connection.execute(
            select(TournamentGameRow).where(
                TournamentGameRow.game_id == game_id, TournamentGameRow.scored.is_(False)
            )
        ).first()
        if row is None:
            return
        self._touch(connection, row.tournament_id)
        done = connection.execute(
            update(TournamentGameRow)
            .where(TournamentGameRow.game_id == game_id, TournamentGameRow.scored.is_(False))
            .values(scored=True)
        )
        if done.rowcount != 1:
            return
        now = time.time()
        accounts = list(row.accounts)
        counts = how != "abort" and arena.scores(_moves_by_seat(connection, game_id, len(accounts)))
        lapsed = _lapsed_seat(connection, game_id) if how == "abort" else None
        for seat, account_id in enumerate(accounts):
            player = connection.execute(
                select(EntrantRow.streak, EntrantRow.sheet).where(
                    EntrantRow.tournament_id == row.tournament_id,
                    EntrantRow.account_id == account_id,
                )
            ).first()
            if player is None:
                continue
            values: dict[str, Any] = {
                "free_since": now,
                "last_opponent": accounts[1 - seat],
            }
            if counts:
                gained, streak = arena.points(arena.outcome(returns, seat), player.streak)
                values.update(
                    score=EntrantRow.score + gained,
                    streak=streak,
                    sheet=[*player.sheet, gained],
                )
            if seat == lapsed:
                values["withdrawn"] = True
            connection.execute(
                update(EntrantRow)
                .where(
                    EntrantRow.tournament_id == row.tournament_id,
                    EntrantRow.account_id == account_id,
                    EntrantRow.game_id == game_id,
                )
                .values(game_id=None, **values)
            )

    def finish(self, tournament_id: str, now: float) -> bool:
        """End a tournament whose time is up and whose last games are over (pairings not yet
        made are undone); True for the one call that ended it."""
        with self.store.engine.begin() as connection:
            # the tournament's lock first, as every change to it takes it (no deadlock)
            connection.execute(
                select(TournamentRow.id).where(TournamentRow.id == tournament_id).with_for_update()
            )
            connection.execute(
                update(EntrantRow)
                .where(EntrantRow.tournament_id == tournament_id, EntrantRow.game_id == PENDING)
                .where(
                    select(TournamentRow.ends)
                    .where(TournamentRow.id == tournament_id)
                    .scalar_subquery()
                    <= now
                )
                .values(game_id=None)
            )
            playing = (
                select(func.count())
                .select_from(EntrantRow)
                .where(EntrantRow.tournament_id == tournament_id, EntrantRow.game_id.is_not(None))
                .scalar_subquery()
            )
            done = connection.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.finished.is_(False),
                    TournamentRow.ends <= now,
                    playing == 0,
                )
                .values(finished=True, version=TournamentRow.version + 1)
            )
        return done.rowcount == 1

    # ----- reads ---------------------------------------------------------------------------------

    def get(self, tournament_id: str) -> Tournament | None:
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(TournamentRow).where(TournamentRow.id == tournament_id)
            ).first()
        return None if row is None else _tournament(row)

    def listed(self, limit: int = 50) -> list[Tournament]:
        """The newest tournaments, unfinished ones first."""
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(TournamentRow)
                .order_by(TournamentRow.finished, TournamentRow.starts.desc())
                .limit(limit)
            ).all()
        return [_tournament(row) for row in rows]

    def versions(self, tournament_ids: list[str]) -> dict[str, int]:
        if not tournament_ids:
            return {}
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(TournamentRow.id, TournamentRow.version).where(
                    TournamentRow.id.in_(tournament_ids)
                )
            ).all()
        return {r[0]: int(r[1]) for r in rows}

    def standings(self, tournament_id: str) -> list[dict[str, Any]]:
        """The players, best first: ``{"account", "name", "score", "sheet", "streak", "game",
        "withdrawn", "token"}`` (``game`` and ``token``: the game being played and the
        player's seat token in it, or null)."""
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(EntrantRow, GameRow.seats, TournamentGameRow.accounts)
                .outerjoin(GameRow, GameRow.id == EntrantRow.game_id)
                .outerjoin(TournamentGameRow, TournamentGameRow.game_id == EntrantRow.game_id)
                .where(EntrantRow.tournament_id == tournament_id)
            ).all()
        table = []
        for player in rows:
            token = None
            if player.seats is not None and player.accounts is not None:
                token = player.seats[list(player.accounts).index(player.account_id)]["token"]
            table.append(
                {
                    "account": player.account_id,
                    "name": player.name,
                    "score": player.score,
                    "sheet": list(player.sheet),
                    "streak": player.streak,
                    "game": player.game_id if token else None,
                    "token": token,
                    "withdrawn": player.withdrawn,
                    "joined": player.joined,
                }
            )
        table.sort(key=lambda p: (-p["score"], p["joined"], p["name"]))
        return table

    def tournament_of_games(self, game_ids: list[str]) -> dict[str, str]:
        """Which of ``game_ids`` belong to a tournament: game id -> tournament id."""
        if not game_ids:
            return {}
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(TournamentGameRow.game_id, TournamentGameRow.tournament_id).where(
                    TournamentGameRow.game_id.in_(game_ids)
                )
            ).all()
        return {r[0]: r[1] for r in rows}


def _moves_by_seat(connection: Connection, game_id: str, seats: int) -> list[int]:
    """How many moves each seat made in ``game_id`` (chance outcomes are nobody's)."""
    made = dict(
        connection.execute(
            select(ActionRow.player, func.count())
            .where(ActionRow.game_id == game_id, ActionRow.player >= 0)
            .group_by(ActionRow.player)
        ).all()
    )
    return [int(made.get(seat, 0)) for seat in range(seats)]


def _lapsed_seat(connection: Connection, game_id: str) -> int | None:
    """The seat whose first move lapsed, where that called ``game_id`` off (its last event,
    stored in this transaction just before the result); None for any other call-off."""
    last = connection.execute(
        select(SessionEventRow.seat, SessionEventRow.detail)
        .where(SessionEventRow.game_id == game_id)
        .order_by(SessionEventRow.number.desc())
        .limit(1)
    ).first()
    if last is None or last.seat is None or (last.detail or {}).get("reason") != "no_first_move":
        return None
    return int(last.seat)
