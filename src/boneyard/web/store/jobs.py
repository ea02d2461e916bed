"""The ``bot_jobs`` table: computer moves and hints waiting for a ``boneyard bots`` worker
(``compute/jobs.py`` submits, claims and answers them)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Float, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.games import Base

CLIENT_LENGTH = 64
"""The longest client (address) a job keeps: an IPv6 address with its zone fits."""


class JobRow(Base):
    __tablename__ = "bot_jobs"
    __table_args__ = (Index("bot_jobs_by_turn", "status", "priority", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(80), unique=True)
    """The kind and a digest of the arguments: every web process holding a game asks for its
    computer's move (the seed is the game's, seat's and move number's), and they share one job."""
    kind: Mapped[str] = mapped_column(String(16))
    priority: Mapped[int] = mapped_column(Integer)
    client: Mapped[str] = mapped_column(String(CLIENT_LENGTH), default="", server_default="")
    """The client the job is asked for, as a keyed hash of its address (``keys.py``): workers
    take the clients in turn."""
    args: Mapped[list[Any]] = mapped_column(JSON)
    budget: Mapped[float] = mapped_column(Float)
    """Seconds the bot may think; the worker kills it at ``budget + GRACE``."""
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    """waiting, running, done or failed."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    worker: Mapped[str | None] = mapped_column(String(128), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[float] = mapped_column(Float)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a worker claimed it (its latest try): ``finished - started`` is the service it
    had, which the turns in the table count (``JobQueue.claim``)."""
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
