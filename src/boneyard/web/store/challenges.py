"""Storage of challenges: one account asks another, by name, for a game on given terms.

A challenge is open until the challenged accepts or declines it, or the challenger takes it
back; it is answered once (a conditional update: a double click or two tabs answer it once).
An accepted one keeps its game and each side's link into it, so the challenger's page finds
the answer on its next look. Open challenges older than ``OPEN_SECONDS`` are gone, as the
challenger's page may have been closed long ago (lichess lets a challenge lapse too).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, Float, String, func, insert, or_, select, update
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.accounts import AccountRow
from boneyard.web.store.games import Base, Store

OPEN_SECONDS = 30 * 60.0
"""How long a challenge waits for its answer."""
SHOWN_SECONDS = 10 * 60.0
"""How long an answered challenge is still shown to its challenger."""
OPEN_PER_ACCOUNT = 5
"""Challenges one account may have waiting at once (none twice to the same account)."""


class ChallengeRow(Base):
    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenger: Mapped[str] = mapped_column(String(32), index=True)
    challenged: Mapped[str] = mapped_column(String(32), index=True)
    game: Mapped[str] = mapped_column(String(64))
    clock: Mapped[str] = mapped_column(String(20))
    """A time control of ``web/play/clocks.py``'s presets, empty for none."""
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16))
    """"open", "accepted", "declined" or "cancelled"."""
    links: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Once accepted: ``{"challenger": url, "challenged": url}``."""
    created: Mapped[float] = mapped_column(Float)
    answered: Mapped[float | None] = mapped_column(Float, nullable=True)


@dataclass(frozen=True)
class Challenge:
    id: str
    challenger: str
    challenger_name: str
    challenged: str
    challenged_name: str
    game: str
    clock: str
    rated: bool
    status: str
    links: dict[str, Any] | None
    created: float


class ChallengeStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, challenger: str, challenged: str, game: str, clock: str, rated: bool) -> str:
        """A new open challenge; its id. ``ValueError`` (nothing stored) when the challenger
        already has ``OPEN_PER_ACCOUNT`` waiting, or one waiting for the same account."""
        now = time.time()
        with self.store.engine.begin() as connection:
            waiting = connection.execute(
                select(ChallengeRow.challenged).where(
                    ChallengeRow.challenger == challenger,
                    ChallengeRow.status == "open",
                    ChallengeRow.created > now - OPEN_SECONDS,
                )
            ).scalars()
            waiting_for = list(waiting)
            if challenged in waiting_for:
                raise ValueError("already")
            if len(waiting_for) >= OPEN_PER_ACCOUNT:
                raise ValueError("too_many")
            challenge_id = secrets.token_urlsafe(12)
            connection.execute(
                insert(ChallengeRow).values(
                    id=challenge_id, challenger=challenger, challenged=challenged, game=game,
                    clock=clock, rated=rated, status="open", links=None, created=now,
                    answered=None,
                )
            )  # fmt: skip
        return challenge_id

    def get(self, challenge_id: str) -> Challenge | None:
        with self.store.reads.connect() as connection:
            found = self._read(connection, ChallengeRow.id == challenge_id)
        return found[0] if found else None

    def of(self, account_id: str) -> list[Challenge]:
        """The account's challenges to show: open ones either way, and its own answered in
        the last ``SHOWN_SECONDS``; the newest first."""
        now = time.time()
        with self.store.reads.connect() as connection:
            return self._read(
                connection,
                or_(
                    (ChallengeRow.status == "open")
                    & (ChallengeRow.created > now - OPEN_SECONDS)
                    & or_(
                        ChallengeRow.challenger == account_id,
                        ChallengeRow.challenged == account_id,
                    ),
                    (ChallengeRow.status != "open")
                    & (ChallengeRow.challenger == account_id)
                    & (func.coalesce(ChallengeRow.answered, 0.0) > now - SHOWN_SECONDS),
                ),
            )

    def answer(self, challenge_id: str, status: str) -> bool:
        """Answer an open challenge once; False when it was answered already (or lapsed)."""
        now = time.time()
        with self.store.engine.begin() as connection:
            done = connection.execute(
                update(ChallengeRow)
                .where(
                    ChallengeRow.id == challenge_id,
                    ChallengeRow.status == "open",
                    ChallengeRow.created > now - OPEN_SECONDS,
                )
                .values(status=status, answered=now)
            )
        return bool(done.rowcount == 1)

    def set_links(self, challenge_id: str, links: dict[str, Any]) -> None:
        """Each side's link into the game of an accepted challenge."""
        with self.store.engine.begin() as connection:
            connection.execute(
                update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(links=links)
            )

    @staticmethod
    def _read(connection: Any, where: Any) -> list[Challenge]:
        challenger = AccountRow.__table__.alias("challenger_account")
        challenged = AccountRow.__table__.alias("challenged_account")
        rows = connection.execute(
            select(
                ChallengeRow.id,
                ChallengeRow.challenger,
                challenger.c.name,
                ChallengeRow.challenged,
                challenged.c.name,
                ChallengeRow.game,
                ChallengeRow.clock,
                ChallengeRow.rated,
                ChallengeRow.status,
                ChallengeRow.links,
                ChallengeRow.created,
            )
            .join(challenger, challenger.c.id == ChallengeRow.challenger)
            .join(challenged, challenged.c.id == ChallengeRow.challenged)
            .where(where)
            .order_by(ChallengeRow.created.desc())
            .limit(50)
        ).all()
        return [_challenge(r) for r in rows]


def _challenge(r: Any) -> Challenge:
    return Challenge(
        str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]), str(r[6]),
        bool(r[7]), str(r[8]), r[9], float(r[10]),
    )  # fmt: skip
