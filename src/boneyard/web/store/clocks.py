"""Storage of game clocks: one row per timed game, rewritten with every move.

The clock is kept from the store's times, like the action log: each move writes the clock's
new state in the transaction that stores the move (``Store.append_actions``'s ``also``), so a
server killed at any moment leaves the clock where the last stored move left it, and a
restarted server reads every running clock back (``running``) and ends those whose time ran
out meanwhile. Every write is conditional on the ``version`` it replaces: of two processes that
both see a clock run out, or a move racing a flag, exactly one write succeeds (the other finds
the version moved on, changes nothing, and reads the clock again). Storage knows nothing about
how a clock ticks: ``web/play/clocks.py`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.games import Base, StaleCopy, Store


class ClockRow(Base):
    __tablename__ = "clocks"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    control: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``{"initial": seconds, "increment": seconds}`` (real time) or ``{"days": n}``."""
    remaining: Mapped[list[float]] = mapped_column(JSON)
    """Each seat's time left, as of ``since`` (the running seat's goes down from there)."""
    started: Mapped[list[bool]] = mapped_column(JSON)
    """Whether each seat has made its first move (before that its clock does not run)."""
    running: Mapped[int | None] = mapped_column(Integer, nullable=True)
    since: Mapped[float] = mapped_column(Float)
    at_seq: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    """When the running seat's time runs out (or its first move is due); null when stopped."""


@dataclass(frozen=True)
class ClockRecord:
    """One game's clock as stored: the time each seat had at ``since``, and whose is running."""

    game_id: str
    control: dict[str, Any]
    remaining: tuple[float, ...]
    started: tuple[bool, ...]
    running: int | None
    since: float
    at_seq: int
    version: int
    deadline: float | None

    def values(self) -> dict[str, Any]:
        return {
            "control": dict(self.control),
            "remaining": list(self.remaining),
            "started": list(self.started),
            "running": self.running,
            "since": self.since,
            "at_seq": self.at_seq,
            "version": self.version,
            "deadline": self.deadline,
        }


Write = Callable[[Any], None]
"""A write run on a connection inside someone else's transaction (a move's, an ending's)."""


class ClockStore:
    """Reads and conditional writes of the clocks table, on the game store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def read(self, game_id: str) -> ClockRecord | None:
        with self.store.reads.connect() as connection:
            row = connection.execute(select(ClockRow).where(ClockRow.game_id == game_id)).first()
        return None if row is None else _record(row)

    @staticmethod
    def inserting(record: ClockRecord) -> Write:
        """The write that stores a new game's clock (in the game's own transaction)."""

        def write(connection: Any) -> None:
            connection.execute(insert(ClockRow).values(game_id=record.game_id, **record.values()))

        return write

    @staticmethod
    def replacing(old_version: int, record: ClockRecord) -> Write:
        """The write that replaces the clock at ``old_version`` by ``record``: ``StaleCopy``
        (the transaction rolls back) when another write got there first."""

        def write(connection: Any) -> None:
            done = connection.execute(
                update(ClockRow)
                .where(ClockRow.game_id == record.game_id, ClockRow.version == old_version)
                .values(**record.values())
            )
            if done.rowcount != 1:
                raise StaleCopy(record.game_id)

        return write

    def replace(self, old_version: int, record: ClockRecord) -> bool:
        """``replacing`` in a transaction of its own; False (nothing changed) when stale."""
        try:
            with self.store.engine.begin() as connection:
                self.replacing(old_version, record)(connection)
        except StaleCopy:
            return False
        return True

    def controls(self, game_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The time control of each timed game of ``game_ids`` (untimed games are left out)."""
        if not game_ids:
            return {}
        query = select(ClockRow.game_id, ClockRow.control).where(ClockRow.game_id.in_(game_ids))
        with self.store.reads.connect() as connection:
            return {str(row[0]): dict(row[1]) for row in connection.execute(query)}

    def running(self, until: float | None = None) -> list[tuple[str, float]]:
        """``(game id, deadline)`` of every running clock (due by ``until``, when given)."""
        query = select(ClockRow.game_id, ClockRow.deadline).where(ClockRow.deadline.is_not(None))
        if until is not None:
            query = query.where(ClockRow.deadline <= until)
        with self.store.reads.connect() as connection:
            rows = connection.execute(query.order_by(ClockRow.deadline)).all()
        return [(str(r[0]), float(r[1] or 0.0)) for r in rows]


def _record(row: Any) -> ClockRecord:
    return ClockRecord(
        game_id=row.game_id,
        control=dict(row.control),
        remaining=tuple(float(x) for x in row.remaining),
        started=tuple(bool(x) for x in row.started),
        running=row.running,
        since=float(row.since),
        at_seq=int(row.at_seq),
        version=int(row.version),
        deadline=None if row.deadline is None else float(row.deadline),
    )
