"""Storage of ratings: one rating per account and game, and the rated games' changes.

A rated game is noted when it is made (``rated_games``). When it ends, ``settle`` runs inside
the very transaction that stores its result (the store's ``on_finish``): it marks the game
settled (once: a second ending finds it settled and does nothing), reads its seats' owners and
their ratings, asks the rating system (``web/people/ratings.py``, passed in) for the new ones
and writes them. So a result and the ratings it moves commit together or not at all, on one
process or several.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    Integer,
    String,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.accounts import AccountRow, AccountSeatRow
from boneyard.web.store.games import ActionRow, Base, GameRow, Store

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


class RatingRow(Base):
    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatedGameRow(Base):
    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    settled: Mapped[bool] = mapped_column(Boolean, default=False)
    changes: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    """Per seat ``{"seat", "account", "before", "after", "deviation"}`` once settled; null
    when the game ended unrated (``unrated`` says why)."""
    unrated: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """Why a settled game counted for nobody: one of ``UNRATED_REASONS``."""


@dataclass(frozen=True)
class Rating:
    rating: float
    deviation: float
    volatility: float
    games: int


@dataclass(frozen=True)
class RatedGame:
    """A rated game's note: its game, whether it ended, what it changed or why nothing."""

    game: str
    settled: bool
    changes: list[dict[str, Any]] | None
    unrated: str | None


UNRATED_ENDINGS = frozenset({"abort", "moved", "call_off"})
UNRATED_REASONS = ("not_played", "called_off", "not_accounts", "stand_in", "repeated")
"""Why a rated game counted for nobody: not each side moved (or it was aborted), it was called
off after a player stopped moving, a seat without its own account, the computer stood in for a
person, the pair's daily games used."""
PAIR_GAMES_PER_DAY = 3
"""Counted rated games of one game between the same two accounts in any 24 hours; the next
ones are played unrated (docs/web.md)."""
DAY_SECONDS = 24 * 3600.0


def each_side_moved(actions: Sequence[tuple[int, int]], seats: int) -> bool:
    """Whether every one of ``seats`` made a move of its own in ``actions`` (``(action,
    player)``; chance's are not a seat's): the least a game is played with before it counts
    for a rating or an arena's score. Before that a game is aborted, as on lichess."""
    moved = {player for _action, player in actions if player >= 0}
    return seats > 0 and all(seat in moved for seat in range(seats))


FRESH = Rating(START_RATING, START_DEVIATION, START_VOLATILITY, 0)

RatingSystem = Callable[[list[Rating], list[float]], list[Rating]]
"""New ratings of a game's seats from their ratings before it and the game's returns."""


class RatingStore:
    """The rating tables; ``system`` rates a finished game (given by ``web/people/ratings``)."""

    def __init__(self, store: Store, system: RatingSystem) -> None:
        self.store = store
        self.system = system
        store.create_tables([RatingRow.__table__, RatedGameRow.__table__])
        add_unrated_column(store)
        store.on_finish.append(self.settle)
        store.unsettled.append(self.unsettled)

    def note_rated(self, game_id: str, game: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(insert(RatedGameRow).values(game_id=game_id, game=game))

    def note_rated_rematch(self, game_id: str, rematch_id: str, order: list[int]) -> bool:
        """Note ``rematch_id`` rated as ``game_id`` is, each of its seats its account's as in
        ``game_id`` (its seat ``n`` is the old seat ``order[n]``), in one transaction. False
        (nothing written) when ``game_id`` is not rated."""
        with self.store.engine.begin() as connection:
            game = connection.execute(
                select(RatedGameRow.game).where(RatedGameRow.game_id == game_id)
            ).scalar_one_or_none()
            if game is None:
                return False
            owners = dict(
                connection.execute(
                    select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                        AccountSeatRow.game_id == game_id
                    )
                ).all()
            )
            now = time.time()
            rows = [
                {"game_id": rematch_id, "seat": seat, "account_id": owners[old], "created": now}
                for seat, old in enumerate(order)
                if old in owners
            ]
            if rows:
                connection.execute(insert(AccountSeatRow), rows)
            connection.execute(insert(RatedGameRow).values(game_id=rematch_id, game=game))
        return True

    def rated_game(self, game_id: str) -> RatedGame | None:
        """The rating note of a rated game; None when the game is not rated.
        ``unrated``: why it counted for nobody, or, before its end, "repeated" when it will
        not count (its two accounts used their games of the day: said before it starts)."""
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(
                    RatedGameRow.settled,
                    RatedGameRow.changes,
                    RatedGameRow.unrated,
                    RatedGameRow.game,
                ).where(RatedGameRow.game_id == game_id)
            ).first()
            if row is None:
                return None
            settled, changes, unrated = bool(row[0]), row[1], row[2]
            if not settled:
                found = self._accounts(connection, game_id)
                if found is not None and self._pair_limit_reached(connection, game_id, *found):
                    unrated = "repeated"
        return RatedGame(str(row[3]), settled, changes, unrated)

    def rated_ids(self, game_ids: list[str]) -> set[str]:
        """Which of ``game_ids`` are rated."""
        if not game_ids:
            return set()
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(RatedGameRow.game_id).where(RatedGameRow.game_id.in_(game_ids))
            ).all()
        return {r[0] for r in rows}

    def seat_ratings(self, game_ids: list[str]) -> dict[str, dict[int, tuple[str, Rating]]]:
        """For each game, its seats owned by accounts: the account's name and its rating in
        that game (a fresh one where it has none yet)."""
        if not game_ids:
            return {}
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(
                    AccountSeatRow.game_id,
                    AccountSeatRow.seat,
                    AccountRow.name,
                    RatingRow.rating,
                    RatingRow.deviation,
                    RatingRow.volatility,
                    RatingRow.games,
                )
                .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
                .outerjoin(
                    RatingRow,
                    (RatingRow.account_id == AccountSeatRow.account_id)
                    & (RatingRow.game == GameRow.name),
                )
                .where(AccountSeatRow.game_id.in_(game_ids))
            ).all()
        found: dict[str, dict[int, tuple[str, Rating]]] = {}
        for game_id, seat, name, rating, deviation, volatility, games in rows:
            known = FRESH if rating is None else Rating(rating, deviation, volatility, games)
            found.setdefault(game_id, {})[int(seat)] = (name, known)
        return found

    @staticmethod
    def unsettled(connection: Connection, limit: int) -> list[str]:
        """Finished rated games not settled (for the sweep, ``store/settling.py``)."""
        rows = connection.execute(
            select(RatedGameRow.game_id)
            .join(GameRow, GameRow.id == RatedGameRow.game_id)
            .where(GameRow.finished.is_(True), RatedGameRow.settled.is_(False))
            .limit(limit)
        ).all()
        return [row[0] for row in rows]

    def settle(self, connection: Connection, game_id: str, returns: list[float], how: str) -> None:
        """Move the ratings of a finished rated game, in the transaction of its result; or
        note why it counts for nobody (``unrated``)."""
        done = connection.execute(
            update(RatedGameRow)
            .where(RatedGameRow.game_id == game_id, RatedGameRow.settled.is_(False))
            .values(settled=True)
        )
        if done.rowcount != 1:
            return  # not rated, or settled already
        returns = list(returns)
        reason = self._unrated(connection, game_id, how, returns)
        found = self._accounts(connection, game_id)
        if reason is None and found is None:
            reason = "not_accounts"
        if (
            reason is None
            and found is not None
            and self._pair_limit_reached(connection, game_id, *found)
        ):
            reason = "repeated"
        if reason is not None or found is None:
            connection.execute(
                update(RatedGameRow).where(RatedGameRow.game_id == game_id).values(unrated=reason)
            )
            return
        game, ids, _created = found
        rows = {
            r.account_id: Rating(r.rating, r.deviation, r.volatility, r.games)
            for r in connection.execute(
                select(RatingRow)
                .where(RatingRow.game == game, RatingRow.account_id.in_(ids))
                .with_for_update()
            ).all()
        }
        before = [rows.get(a, FRESH) for a in ids]
        after = self.system(before, returns)  # before any rating is written
        self._ensure(connection, [a for a in ids if a not in rows], game)
        now = time.time()
        changes = []
        for seat, (account, old, new) in enumerate(zip(ids, before, after, strict=True)):
            connection.execute(
                update(RatingRow)
                .where(RatingRow.account_id == account, RatingRow.game == game)
                .values(
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=new.volatility,
                    games=old.games + 1,
                    updated=now,
                )
            )
            changes.append(
                {
                    "seat": seat,
                    "account": account,
                    "before": old.rating,
                    "after": new.rating,
                    "deviation": new.deviation,
                }
            )
        connection.execute(
            update(RatedGameRow).where(RatedGameRow.game_id == game_id).values(changes=changes)
        )

    @staticmethod
    def _unrated(
        connection: Connection, game_id: str, how: str, returns: list[float]
    ) -> str | None:
        """Why the game's play rates nobody ("not_played", "stand_in"), or None. A person who
        left a game of three or more (the computer played on for them) ranks last in
        ``returns``: what the computer did after counts for nobody."""
        if how == "call_off":
            return "called_off"
        if how in UNRATED_ENDINGS:
            return "not_played"
        seats = connection.execute(select(GameRow.seats).where(GameRow.id == game_id)).scalar_one()
        actions = connection.execute(
            select(ActionRow.action, ActionRow.player).where(ActionRow.game_id == game_id)
        ).all()
        if not each_side_moved([(a, p) for a, p in actions], len(seats)):
            return "not_played"
        stood_in = [s for s, info in enumerate(seats) if info.get("was") == "human"]
        if stood_in and len(seats) == 2:
            return "stand_in"
        if stood_in:
            last = min(returns) - 1.0
            for seat in stood_in:
                returns[seat] = last
        return None

    @staticmethod
    def _accounts(connection: Connection, game_id: str) -> tuple[str, list[str], float] | None:
        """``(game name, the account of each seat, when the game was made)``; None unless
        every seat (two at least) is a different account's."""
        game, seats, created = connection.execute(
            select(RatedGameRow.game, GameRow.seats, GameRow.created)
            .join(GameRow, GameRow.id == RatedGameRow.game_id)
            .where(RatedGameRow.game_id == game_id)
        ).one()
        owners = dict(
            connection.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.game_id == game_id
                )
            ).all()
        )
        accounts = [owners.get(seat) for seat in range(len(seats))]
        if None in accounts or len(set(accounts)) != len(accounts) or len(accounts) < 2:
            return None
        return str(game), [str(a) for a in accounts], float(created)

    @staticmethod
    def _pair_limit_reached(
        connection: Connection, game_id: str, game: str, ids: list[str], created: float
    ) -> bool:
        """Whether two of ``ids`` already had ``PAIR_GAMES_PER_DAY`` counted rated games of
        ``game`` made in the 24 hours before this one (``game_id``, made at ``created``)."""
        for first, second in combinations(ids, 2):
            together = connection.execute(
                select(RatedGameRow.changes)
                .join(GameRow, GameRow.id == RatedGameRow.game_id)
                .where(
                    RatedGameRow.game == game,
                    RatedGameRow.settled.is_(True),
                    RatedGameRow.game_id != game_id,
                    GameRow.created >= created - DAY_SECONDS,
                    GameRow.created <= created,
                    RatedGameRow.game_id.in_(
                        select(AccountSeatRow.game_id).where(AccountSeatRow.account_id == first)
                    ),
                    RatedGameRow.game_id.in_(
                        select(AccountSeatRow.game_id).where(AccountSeatRow.account_id == second)
                    ),
                )
            ).scalars()
            if sum(1 for changes in together if changes) >= PAIR_GAMES_PER_DAY:
                return True
        return False

    def _ensure(self, connection: Connection, account_ids: list[str], game: str) -> None:
        """A fresh rating row for each of ``account_ids`` that has none in ``game`` yet."""
        if not account_ids:
            return
        dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        rows = [
            {
                "account_id": account,
                "game": game,
                "rating": FRESH.rating,
                "deviation": FRESH.deviation,
                "volatility": FRESH.volatility,
                "games": 0,
                "updated": time.time(),
            }
            for account in account_ids
        ]
        connection.execute(dialect.insert(RatingRow).values(rows).on_conflict_do_nothing())

    def ratings_of(self, account_id: str) -> dict[str, Rating]:
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(RatingRow).where(RatingRow.account_id == account_id)
            ).all()
        return {r.game: Rating(r.rating, r.deviation, r.volatility, r.games) for r in rows}

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[str, Rating]]:
        """The best ratings of ``game``, best first: ``(account name, rating)``."""
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(
                    AccountRow.name,
                    RatingRow.rating,
                    RatingRow.deviation,
                    RatingRow.volatility,
                    RatingRow.games,
                )
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game, RatingRow.games > 0)
                .order_by(RatingRow.rating.desc())
                .limit(limit)
            ).all()
        return [(r[0], Rating(r[1], r[2], r[3], r[4])) for r in rows]


def add_unrated_column(store: Store) -> None:
    """Give a ``rated_games`` table made before games said why they counted for nobody its
    ``unrated`` column (older settled games keep null: their reason was not kept)."""
    columns = {column["name"] for column in inspect(store.engine).get_columns("rated_games")}
    if "unrated" in columns:
        return
    exists = "" if store.is_sqlite else "IF NOT EXISTS "
    try:
        with store.engine.begin() as connection:
            connection.execute(
                text(f"ALTER TABLE rated_games ADD COLUMN {exists}unrated VARCHAR(16)")
            )
    except OperationalError:  # another process starting together added it first (SQLite)
        columns = {column["name"] for column in inspect(store.engine).get_columns("rated_games")}
        if "unrated" not in columns:
            raise
