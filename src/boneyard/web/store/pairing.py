"""Storage of quick pairing: the people waiting for an opponent in a game, and their pairings.

A seek is a row while its person waits (their page asks again every few seconds, which keeps
it fresh); a newcomer takes the waiting seek nearest in rating, within a gap that widens the
longer that seek has waited, by one conditional update (``taken``), so that two newcomers on
two processes never take the same seek. The pair's game link is written back to the taken
seek, where its page finds it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Boolean, Float, String, delete, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.games import Base, Store

FRESH_SECONDS = 20.0
"""A seek whose page has not asked for this long is gone (the page was closed)."""
GAP = 200.0
"""The rating gap two seekers may have at first ..."""
GAP_PER_SECOND = 20.0
"""... widened by this much for each second the waiting one has waited."""


class SeekRow(Base):
    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    seeker: Mapped[str] = mapped_column(String(64))
    """Who seeks: ``account:<id>``, or ``address:<client>`` for someone without an account
    (one seek each: nobody is paired with themselves)."""
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    rating: Mapped[float] = mapped_column(Float)
    created: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    taken: Mapped[bool] = mapped_column(Boolean, default=False)
    url: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The seat's link in the pair's game, once paired."""


@dataclass(frozen=True)
class Seek:
    id: str
    game: str
    seeker: str
    account_id: str | None
    name: str
    rating: float
    created: float


class PairingStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    def seek(self, seek: Seek) -> Seek | None:
        """Take the waiting seek nearest ``seek`` in rating and within the gap (answers it,
        taken: the caller makes the game and calls ``paired``), or store ``seek`` to wait
        (answers None). An earlier seek of the same seeker is replaced."""
        now = time.time()
        with self.store.engine.begin() as connection:
            connection.execute(
                delete(SeekRow).where(
                    (SeekRow.seen < now - FRESH_SECONDS) | (SeekRow.seeker == seek.seeker),
                    SeekRow.url.is_(None),
                )
            )
            waiting = connection.execute(
                select(SeekRow).where(
                    SeekRow.game == seek.game, SeekRow.taken.is_(False), SeekRow.url.is_(None)
                )
            ).all()
            near = [
                row
                for row in waiting
                if abs(row.rating - seek.rating) <= GAP + GAP_PER_SECOND * (now - row.created)
            ]
            for row in sorted(near, key=lambda row: (abs(row.rating - seek.rating), row.created)):
                done = connection.execute(
                    update(SeekRow)
                    .where(SeekRow.id == row.id, SeekRow.taken.is_(False))
                    .values(taken=True)
                )
                if done.rowcount == 1:
                    return Seek(
                        row.id, row.game, row.seeker, row.account_id, row.name, row.rating,
                        row.created,
                    )  # fmt: skip
            connection.execute(
                insert(SeekRow).values(
                    id=seek.id,
                    game=seek.game,
                    seeker=seek.seeker,
                    account_id=seek.account_id,
                    name=seek.name,
                    rating=seek.rating,
                    created=now,
                    seen=now,
                    taken=False,
                    url=None,
                )
            )
        return None

    def paired(self, seek_id: str, url: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(update(SeekRow).where(SeekRow.id == seek_id).values(url=url))

    def release(self, seek_id: str) -> None:
        """A taken seek whose game could not be made waits again."""
        with self.store.engine.begin() as connection:
            connection.execute(update(SeekRow).where(SeekRow.id == seek_id).values(taken=False))

    def look(self, seek_id: str) -> tuple[bool, str | None]:
        """``(known, the game link or None)`` of a seek, kept fresh; a delivered link is
        forgotten (the page goes there)."""
        now = time.time()
        with self.store.engine.begin() as connection:
            row = connection.execute(
                select(SeekRow.url, SeekRow.seen).where(SeekRow.id == seek_id)
            ).first()
            if row is None or (row[0] is None and row[1] < now - FRESH_SECONDS):
                return False, None
            if row[0] is not None:
                connection.execute(delete(SeekRow).where(SeekRow.id == seek_id))
                return True, str(row[0])
            connection.execute(update(SeekRow).where(SeekRow.id == seek_id).values(seen=now))
        return True, None

    def cancel(self, seek_id: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(
                delete(SeekRow).where(SeekRow.id == seek_id, SeekRow.taken.is_(False))
            )
