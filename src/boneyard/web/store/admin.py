"""The operator's actions on the store (``boneyard admin``): ban and unban, rename, delete an
account with all its data, set a new password, who is online, the maintenance notice; each one
kept in ``admin_actions`` and logged.

They work on the database alone, as any server process does, so they reach every process at
once: a session is looked up on every request (ended here, it is ended everywhere), the notice
is read by every process every few seconds (``NOTICE_SECONDS``).
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Float,
    Integer,
    String,
    Text,
    cast,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.accounts import (
    AccountRow,
    AccountSeatRow,
    LadderProgressRow,
    OwnerAddressRow,
    RecoveryCodeRow,
    SignInRow,
    name_key,
)
from boneyard.web.store.base import Base
from boneyard.web.store.challenges import ChallengeRow
from boneyard.web.store.games import GameRow, Store
from boneyard.web.store.name_looks import name_look
from boneyard.web.store.pairing import SeekRow
from boneyard.web.store.passkeys import PasskeyChallengeRow, PasskeyRow
from boneyard.web.store.ratings import RatedGameRow, RatingRow
from boneyard.web.store.sessions import PersonRow, SeriesGameRow
from boneyard.web.store.tournaments import EntrantRow, TournamentGameRow, TournamentRow

log = logging.getLogger("boneyard.web")

FORMER_PLAYER = "a former player"
"""What a deleted account's name becomes wherever others still see its games."""
NOTICE_LENGTH = 500
"""The longest maintenance notice (a line or two on every page)."""
NOTICE_SECONDS = 10.0
"""How often each server process reads the notice again."""
ONLINE_SECONDS = 300.0
"""An account counts as online when one of its sessions was used this recently (a session's
use is written at most once a minute: ``accounts.SEEN_EVERY``)."""


class NoticeRow(Base):
    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Always 1: there is one notice, or none."""
    words: Mapped[str] = mapped_column(Text)
    posted: Mapped[float] = mapped_column(Float)


class AdminActionRow(Base):
    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    action: Mapped[str] = mapped_column(String(32))
    account: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The account's name when the action was taken (FORMER_PLAYER once it is deleted)."""
    detail: Mapped[str] = mapped_column(Text, default="")


class AdminError(ValueError):
    """An action that cannot be taken as asked (no such account, a name taken): nothing
    changed; the message says why."""


@dataclass(frozen=True)
class Online:
    name: str
    last_seen: float
    sessions: int


@dataclass(frozen=True)
class Deleted:
    """What deleting an account removed or rewrote, by table."""

    counts: dict[str, int]


def _replace_in_json(connection: Any, key: Any, column: Any, old: str, new: Any) -> int:
    """Wherever ``old`` is a value in the JSON ``column`` (in a list, or a dict's value at any
    depth), ``new`` instead; answers the rows changed. The rows are found by the JSON's text
    (a wider net than needed: each is then rewritten exactly)."""

    def swapped(value: Any) -> Any:
        if value == old:
            return new
        if isinstance(value, list):
            return [swapped(item) for item in value]
        if isinstance(value, dict):
            return {name: swapped(item) for name, item in value.items()}
        return value

    changed = 0
    found = connection.execute(
        select(key, column).where(cast(column, String).contains(old, autoescape=True))
    ).all()
    for row_key, value in found:
        if swapped(value) != value:
            connection.execute(
                update(key.class_).where(key == row_key).values({column.key: swapped(value)})
            )
            changed += 1
    return changed


def _replace_id(connection: Any, account_id: str, tombstone: str) -> int:
    """A deleted account's places in tournaments and its rated games' changes keep their
    scores for the others' sake under ``tombstone``, an id no account has: nothing links them
    to the person. Answers the tournament places kept."""
    places = connection.execute(
        update(EntrantRow).where(EntrantRow.account_id == account_id).values(account_id=tombstone)
    )
    connection.execute(
        update(EntrantRow)
        .where(EntrantRow.last_opponent == account_id)
        .values(last_opponent=tombstone)
    )
    _replace_in_json(
        connection, TournamentGameRow.game_id, TournamentGameRow.accounts, account_id, tombstone
    )
    _replace_in_json(connection, RatedGameRow.game_id, RatedGameRow.changes, account_id, tombstone)
    return int(places.rowcount)


class AdminStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    def _account(self, connection: Any, name: str) -> Any:
        row = connection.execute(select(AccountRow).where(AccountRow.key == name_key(name))).first()
        if row is None:
            raise AdminError(f"no account is called {name!r}")
        return row

    def _note(self, connection: Any, action: str, account: str | None, detail: str = "") -> None:
        connection.execute(
            insert(AdminActionRow).values(
                at=time.time(), action=action, account=account, detail=detail
            )
        )
        log.warning("admin: %s %s%s", action, account or "", f" ({detail})" if detail else "")

    # ----- bans ----------------------------------------------------------------------------------

    def ban(self, name: str, reason: str = "") -> int:
        """Ban the account: its sessions end and it cannot sign in again; its name stays its
        own (taken by nobody else). Answers the sessions ended."""
        with self.store.engine.begin() as connection:
            row = self._account(connection, name)
            connection.execute(
                update(AccountRow).where(AccountRow.id == row.id).values(banned=time.time())
            )
            ended = connection.execute(delete(SignInRow).where(SignInRow.account_id == row.id))
            self._note(connection, "ban", row.name, reason)
        return int(ended.rowcount)

    def unban(self, name: str) -> None:
        with self.store.engine.begin() as connection:
            row = self._account(connection, name)
            if row.banned is None:
                raise AdminError(f"the account {row.name!r} is not banned")
            connection.execute(
                update(AccountRow).where(AccountRow.id == row.id).values(banned=None)
            )
            self._note(connection, "unban", row.name)

    def open_seats(self, name: str) -> list[tuple[str, int]]:
        """The account's seats in games not over: ``(game id, seat)``."""
        with self.store.reads.connect() as connection:
            row = self._account(connection, name)
            rows = connection.execute(
                select(AccountSeatRow.game_id, AccountSeatRow.seat)
                .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                .where(AccountSeatRow.account_id == row.id, GameRow.finished.is_(False))
                .order_by(GameRow.created)
            ).all()
        return [(r[0], int(r[1])) for r in rows]

    # ----- names and passwords -------------------------------------------------------------------

    def rename(self, name: str, new_name: str) -> None:
        """Give the account ``new_name`` (checked by the caller against the rules of names),
        shown on its seats, its tournament places and its waiting seeks too; refused when
        another account's name is or looks like it."""
        with self.store.engine.begin() as connection:
            row = self._account(connection, name)
            taken = connection.execute(
                select(AccountRow.name).where(
                    AccountRow.look == name_look(new_name), AccountRow.id != row.id
                )
            ).first()
            if taken is not None:
                raise AdminError(f"{new_name!r} is, or looks like, the name of {taken[0]!r}")
            connection.execute(
                update(AccountRow)
                .where(AccountRow.id == row.id)
                .values(name=new_name, key=name_key(new_name), look=name_look(new_name))
            )
            self._rename_copies(connection, row.id, new_name)
            connection.execute(
                update(TournamentRow)
                .where(TournamentRow.creator == row.name)
                .values(creator=new_name)
            )
            self._note(connection, "rename", row.name, f"now {new_name}")

    def _rename_copies(
        self, connection: Any, account_id: str, new_name: str, forget: bool = False
    ) -> int:
        """Where the account's name was copied (its seats in games, its tournament places, its
        seeks), ``new_name`` instead; ``forget``: its seats are no account's any more. Answers
        the games changed."""
        seats = connection.execute(
            select(AccountSeatRow.game_id, AccountSeatRow.seat).where(
                AccountSeatRow.account_id == account_id
            )
        ).all()
        by_game: dict[str, list[int]] = {}
        for game_id, seat in seats:
            by_game.setdefault(game_id, []).append(int(seat))
        for game_id, numbers in by_game.items():
            game = connection.execute(select(GameRow.seats).where(GameRow.id == game_id)).first()
            if game is None:
                continue
            rows = [dict(info) for info in game[0]]
            for seat in numbers:
                rows[seat]["name"] = new_name
                if forget:
                    rows[seat].pop("account", None)
            connection.execute(update(GameRow).where(GameRow.id == game_id).values(seats=rows))
            self.store.changed(connection, game_id)  # the processes holding it show the name
        connection.execute(
            update(EntrantRow).where(EntrantRow.account_id == account_id).values(name=new_name)
        )
        connection.execute(
            update(SeekRow).where(SeekRow.account_id == account_id).values(name=new_name)
        )
        return len(by_game)

    def set_password(self, name: str, password_hash: str) -> int:
        """The account's password is the one of ``password_hash`` from now on, and every one of
        its sessions ends (answers how many)."""
        with self.store.engine.begin() as connection:
            row = self._account(connection, name)
            connection.execute(
                update(AccountRow)
                .where(AccountRow.id == row.id)
                .values(password_hash=password_hash)
            )
            ended = connection.execute(delete(SignInRow).where(SignInRow.account_id == row.id))
            self._note(connection, "reset-password", row.name)
        return int(ended.rowcount)

    # ----- deleting an account -------------------------------------------------------------------

    def delete(self, name: str) -> Deleted:
        """Delete the account and every datum of it, in one transaction: its sign-ins, recovery
        codes, passkeys, owner's addresses, ratings, puzzle progress, challenges, seeks, its
        claimed person; where others still see its games (their seats, tournament places, the
        admin log) its name becomes ``FORMER_PLAYER``. The games themselves stay: they are
        the other players' too."""
        counts: dict[str, int] = {}
        with self.store.engine.begin() as connection:
            row = self._account(connection, name)
            account_id = row.id
            counts["games"] = self._rename_copies(
                connection, account_id, FORMER_PLAYER, forget=True
            )
            counts["tournament places"] = _replace_id(
                connection, account_id, f"gone-{secrets.token_urlsafe(12)}"
            )
            if row.person_id is not None:
                counts["series"] = _replace_in_json(
                    connection, SeriesGameRow.game_id, SeriesGameRow.people, row.person_id, None
                )
            by_account: list[Any] = [
                AccountSeatRow,
                SignInRow,
                RecoveryCodeRow,
                OwnerAddressRow,
                LadderProgressRow,
                PasskeyRow,
                PasskeyChallengeRow,
                RatingRow,
                SeekRow,
            ]
            for table in by_account:
                done = connection.execute(delete(table).where(table.account_id == account_id))
                counts[table.__tablename__] = int(done.rowcount)
            done = connection.execute(
                delete(ChallengeRow).where(
                    or_(
                        ChallengeRow.challenger == account_id,
                        ChallengeRow.challenged == account_id,
                    )
                )
            )
            counts["challenges"] = int(done.rowcount)
            if row.person_id is not None:
                done = connection.execute(delete(PersonRow).where(PersonRow.id == row.person_id))
                counts["people"] = int(done.rowcount)
            done = connection.execute(
                update(TournamentRow)
                .where(TournamentRow.creator == row.name)
                .values(creator=FORMER_PLAYER)
            )
            counts["tournaments"] = int(done.rowcount)
            connection.execute(
                update(AdminActionRow)
                .where(AdminActionRow.account == row.name)
                .values(account=FORMER_PLAYER)
            )
            connection.execute(delete(AccountRow).where(AccountRow.id == account_id))
            counts["accounts"] = 1
            self._note(connection, "delete", FORMER_PLAYER)
        return Deleted(counts)

    # ----- who is here, the notice ---------------------------------------------------------------

    def online(self, within: float = ONLINE_SECONDS) -> list[Online]:
        """The accounts with a session used within ``within`` seconds, the latest first."""
        since = time.time() - within
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(AccountRow.name, func.max(SignInRow.last_seen), func.count())
                .join(AccountRow, AccountRow.id == SignInRow.account_id)
                .where(SignInRow.last_seen >= since)
                .group_by(AccountRow.name)
                .order_by(func.max(SignInRow.last_seen).desc())
            ).all()
        return [Online(r[0], float(r[1]), int(r[2])) for r in rows]

    def post_notice(self, words: str) -> None:
        words = " ".join(words.split())
        if not words:
            raise AdminError(
                "a notice needs words (to take it down: boneyard admin notice --clear)"
            )
        if len(words) > NOTICE_LENGTH:
            raise AdminError(
                f"a notice is at most {NOTICE_LENGTH} characters; this has {len(words)}"
            )
        with self.store.engine.begin() as connection:
            connection.execute(delete(NoticeRow))
            connection.execute(insert(NoticeRow).values(id=1, words=words, posted=time.time()))
            self._note(connection, "notice", None, words)

    def clear_notice(self) -> bool:
        with self.store.engine.begin() as connection:
            done = connection.execute(delete(NoticeRow))
            self._note(connection, "notice-cleared", None)
        return bool(done.rowcount)

    def notice(self) -> str | None:
        posted = self.posted_notice()
        return None if posted is None else posted[0]

    def posted_notice(self) -> tuple[str, float] | None:
        """The notice's words and when it was posted, if there is one."""
        with self.store.reads.connect() as connection:
            row = connection.execute(select(NoticeRow.words, NoticeRow.posted)).first()
        return None if row is None else (str(row[0]), float(row[1]))

    def actions(self, limit: int = 50) -> list[tuple[float, str, str | None, str]]:
        """The latest actions taken, the newest first: ``(at, action, account, detail)``."""
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(
                    AdminActionRow.at,
                    AdminActionRow.action,
                    AdminActionRow.account,
                    AdminActionRow.detail,
                )
                .order_by(AdminActionRow.id.desc())
                .limit(limit)
            ).all()
        return [(float(r[0]), r[1], r[2], r[3]) for r in rows]
