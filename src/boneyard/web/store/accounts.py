"""Storage of accounts: names, password hashes, recovery codes, sign-in sessions, owned seats.

Tables of the same database as the games. A password is kept only as its argon2id hash (made
and checked by ``web/people/accounts.py`` off the event loop); recovery codes and session ids
are long random strings, so each is kept as its SHA-256 (a fast hash is enough for a secret
with 128 bits of chance in it, and lets a session be found by its id in one look-up).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Float, Integer, String, cast, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.games import Base, GameRow, Store
from boneyard.web.store.keys import keyed_hash
from boneyard.web.store.name_looks import LOOK_LENGTH, add_look_column, name_look
from boneyard.web.store.sessions import PersonRow, SeriesGameRow, secret_hash


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    """The name as its owner wrote it (shown)."""
    key: Mapped[str] = mapped_column(String(40), unique=True)
    """The name folded (``name_key``): two names that differ only in case are one account."""
    look: Mapped[str] = mapped_column(String(LOOK_LENGTH), index=True, default="")
    """How the name looks (``name_look``): no other name may look the same, anywhere."""
    password_hash: Mapped[str] = mapped_column(String(200))
    person_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The light identity (``/api/people``) the account claimed at sign-up, if any."""
    created: Mapped[float] = mapped_column(Float)


class RecoveryCodeRow(Base):
    __tablename__ = "recovery_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), index=True)


class SignInRow(Base):
    __tablename__ = "sign_ins"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the cookie's session id: a copy of the table opens no session."""
    account_id: Mapped[str] = mapped_column(String(32), index=True)
    created: Mapped[float] = mapped_column(Float)
    last_seen: Mapped[float] = mapped_column(Float)


class OwnerAddressRow(Base):
    __tablename__ = "owner_addresses"

    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    address_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    """HMAC-SHA256, under the server's secret, of the account's folded name and an address
    that signed in to it (the address is not kept)."""
    last_seen: Mapped[float] = mapped_column(Float)


OWNER_ADDRESSES = 64
"""The addresses an account's owner is known by, the most recent (a log-in from one of them is
not counted against the name's shared budget of tries: ``Budgets.charge_name``)."""


class AccountSeatRow(Base):
    __tablename__ = "account_seats"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), index=True)
    created: Mapped[float] = mapped_column(Float)


class LadderProgressRow(Base):
    __tablename__ = "ladder_progress"

    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    progress: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``{"levels": {level: {"used", "shortest"}}, "daily": {date: {...}}}``: the best of each."""


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    person_id: str | None
    created: float


@dataclass(frozen=True)
class OwnedSeat:
    game_id: str
    seat: int
    game: str
    token: str
    finished: bool
    created: float
    others: tuple[str | None, ...] = ()
    """The other seats: a person's name, "computer", or None for a person who gave none."""
    returns: tuple[float, ...] | None = None
    """Each seat's result once the game is over."""
    stood_in: bool = False
    """The computer played this seat for its person, who was away: the result is not theirs."""


def _seat_word(seat: dict[str, Any]) -> str | None:
    if seat.get("kind") == "computer":
        return "computer"
    name = seat.get("name")
    return str(name) if name else None


def name_key(name: str) -> str:
    """The form of a name that decides whether it is taken: case folded."""
    return name.casefold()


def _address_hash(secret: bytes, key: str, address: str) -> str:
    """An owner's address as kept: keyed with the server's secret (``keys.py``) and the
    account's folded name, never the address, nor a hash anyone could compute for every
    address."""
    return keyed_hash(secret, "owner address", f"{key}\n{address}")


def fast_hash(secret: str) -> str:
    return hashlib.sha256(f"boneyard account:{secret}".encode()).hexdigest()


SEEN_EVERY = 60.0
"""A session's last use is written at most once a minute (not on every request)."""


class AccountStore:
    """Synchronous reads and writes of the account tables (called on the store's thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.create_tables(
            [
                AccountRow.__table__,
                RecoveryCodeRow.__table__,
                SignInRow.__table__,
                OwnerAddressRow.__table__,
                AccountSeatRow.__table__,
                LadderProgressRow.__table__,
            ]
        )
        add_look_column(store)

    # ----- accounts ------------------------------------------------------------------------------

    def add_account(
        self, account_id: str, name: str, password_hash: str, recovery_codes: list[str]
    ) -> bool:
        """Store a new account with its recovery codes; False when the name is taken, or
        looks like one that is (``name_look``)."""
        try:
            with self.store.engine.begin() as connection:
                taken = connection.execute(
                    select(AccountRow.id).where(AccountRow.look == name_look(name))
                ).first()
                if taken is not None:
                    return False
                connection.execute(
                    insert(AccountRow).values(
                        id=account_id,
                        name=name,
                        key=name_key(name),
                        look=name_look(name),
                        password_hash=password_hash,
                        person_id=None,
                        created=time.time(),
                    )
                )
                if recovery_codes:
                    connection.execute(
                        insert(RecoveryCodeRow),
                        [
                            {"code_hash": fast_hash(c), "account_id": account_id}
                            for c in recovery_codes
                        ],
                    )
        except IntegrityError:
            return False
        return True

    def password_hash(self, name: str) -> tuple[str, str] | None:
        """``(account id, password hash)`` of the account called ``name``, if there is one."""
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(AccountRow.id, AccountRow.password_hash).where(
                    AccountRow.key == name_key(name)
                )
            ).first()
        return None if row is None else (row[0], row[1])

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(password_hash=password_hash)
            )

    def account(self, account_id: str) -> Account | None:
        with self.store.reads.connect() as connection:
            row = connection.execute(select(AccountRow).where(AccountRow.id == account_id)).first()
        return None if row is None else Account(row.id, row.name, row.person_id, row.created)

    def account_named(self, name: str) -> Account | None:
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(AccountRow).where(AccountRow.key == name_key(name))
            ).first()
        return None if row is None else Account(row.id, row.name, row.person_id, row.created)

    def account_like(self, name: str) -> Account | None:
        """The account whose name looks like ``name`` (``name_look``), if any."""
        look = name_look(name)
        if not look:
            return None
        with self.store.reads.connect() as connection:
            row = connection.execute(select(AccountRow).where(AccountRow.look == look)).first()
        return None if row is None else Account(row.id, row.name, row.person_id, row.created)

    def names(self, account_ids: list[str]) -> dict[str, str]:
        if not account_ids:
            return {}
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(account_ids))
            ).all()
        return {r[0]: r[1] for r in rows}

    def use_recovery_code(self, account_id: str, code: str) -> bool:
        """Spend one recovery code of the account: True once, False ever after (or if wrong)."""
        with self.store.engine.begin() as connection:
            done = connection.execute(
                delete(RecoveryCodeRow).where(
                    RecoveryCodeRow.code_hash == fast_hash(code),
                    RecoveryCodeRow.account_id == account_id,
                )
            )
        return done.rowcount == 1

    def replace_recovery_codes(self, account_id: str, codes: list[str]) -> None:
        """The account's recovery codes are ``codes`` from now on: the old ones open nothing."""
        with self.store.engine.begin() as connection:
            connection.execute(
                delete(RecoveryCodeRow).where(RecoveryCodeRow.account_id == account_id)
            )
            connection.execute(
                insert(RecoveryCodeRow),
                [{"code_hash": fast_hash(c), "account_id": account_id} for c in codes],
            )

    def recovery_codes_left(self, account_id: str) -> int:
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(RecoveryCodeRow.code_hash).where(RecoveryCodeRow.account_id == account_id)
            ).all()
        return len(rows)

    # ----- sign-in sessions ----------------------------------------------------------------------

    def open_session(self, session_id: str, account_id: str) -> None:
        now = time.time()
        with self.store.engine.begin() as connection:
            connection.execute(
                insert(SignInRow).values(
                    id_hash=fast_hash(session_id), account_id=account_id, created=now, last_seen=now
                )
            )

    def owner_address(self, name: str, address: str) -> bool:
        """Whether ``address`` signed in to account ``name`` before (on any server process).
        One look-up whether or not the name exists, so its time tells nothing."""
        key = _address_hash(self.store.secret, name_key(name), address)
        with self.store.reads.connect() as connection:
            found = connection.execute(
                select(OwnerAddressRow.last_seen).where(OwnerAddressRow.address_hash == key)
            ).first()
        return found is not None

    def note_owner_address(self, account_id: str, name: str, address: str) -> None:
        """``address`` signed in to account ``name``: remembered (the most recent
        ``OWNER_ADDRESSES``)."""
        key = _address_hash(self.store.secret, name_key(name), address)
        now = time.time()
        with self.store.engine.begin() as connection:
            seen = connection.execute(
                update(OwnerAddressRow)
                .where(
                    OwnerAddressRow.account_id == account_id, OwnerAddressRow.address_hash == key
                )
                .values(last_seen=now)
            )
            if seen.rowcount == 0:
                connection.execute(
                    insert(OwnerAddressRow).values(
                        account_id=account_id, address_hash=key, last_seen=now
                    )
                )
            kept = (
                select(OwnerAddressRow.address_hash)
                .where(OwnerAddressRow.account_id == account_id)
                .order_by(OwnerAddressRow.last_seen.desc())
                .limit(OWNER_ADDRESSES)
            )
            connection.execute(
                delete(OwnerAddressRow).where(
                    OwnerAddressRow.account_id == account_id,
                    OwnerAddressRow.address_hash.not_in(kept.scalar_subquery()),
                )
            )

    def close_session(self, session_id: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(delete(SignInRow).where(SignInRow.id_hash == fast_hash(session_id)))

    def close_sessions_of(self, account_id: str) -> None:
        """End every session of an account (its password was reset)."""
        with self.store.engine.begin() as connection:
            connection.execute(delete(SignInRow).where(SignInRow.account_id == account_id))

    def session_account(self, session_id: str, idle_seconds: float) -> Account | None:
        """The account of a session used within ``idle_seconds``; an idle one is ended."""
        key = fast_hash(session_id)
        now = time.time()
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(SignInRow.account_id, SignInRow.last_seen).where(SignInRow.id_hash == key)
            ).first()
        if row is None:
            return None
        if now - row[1] > idle_seconds:
            self.close_session(session_id)
            return None
        if now - row[1] > SEEN_EVERY:
            with self.store.alone() as connection:
                connection.execute(
                    update(SignInRow).where(SignInRow.id_hash == key).values(last_seen=now)
                )
        return self.account(row[0])

    # ----- seats ---------------------------------------------------------------------------------

    def own_seat(self, game_id: str, seat: int, account_id: str) -> bool:
        """The seat belongs to the account from now on, and shows its name; False when it
        already has an owner."""
        try:
            with self.store.engine.begin() as connection:
                connection.execute(
                    insert(AccountSeatRow).values(
                        game_id=game_id, seat=seat, account_id=account_id, created=time.time()
                    )
                )
                self._name_seats(connection, account_id, [(game_id, seat)])
        except IntegrityError:
            return False
        return True

    def _name_seats(self, connection: Any, account_id: str, seats: list[tuple[str, int]]) -> None:
        """The seats an account now owns show its name, as it wrote it (a seat's own name, typed
        as a guest, gives way: nobody reads another name beside an account's seat)."""
        name = connection.execute(
            select(AccountRow.name).where(AccountRow.id == account_id)
        ).scalar_one()
        by_game: dict[str, list[int]] = {}
        for game_id, seat in seats:
            by_game.setdefault(game_id, []).append(seat)
        for game_id, numbers in by_game.items():
            row = connection.execute(
                select(GameRow.seats).where(GameRow.id == game_id).with_for_update()
            ).first()
            if row is None:
                continue
            rows = [dict(info) for info in row[0]]
            for seat in numbers:
                rows[seat].update(name=name, account=True)
            connection.execute(update(GameRow).where(GameRow.id == game_id).values(seats=rows))
            self.store.changed(connection, game_id)  # other processes show the name too

    def seat_owners(self, game_id: str) -> dict[int, str]:
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.game_id == game_id
                )
            ).all()
        return {int(r[0]): r[1] for r in rows}

    def owners_of(self, game_ids: list[str]) -> dict[tuple[str, int], str]:
        """The account of each seat of ``game_ids`` that is an account's: ``(game, seat)``."""
        if not game_ids:
            return {}
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(
                    AccountSeatRow.game_id, AccountSeatRow.seat, AccountSeatRow.account_id
                ).where(AccountSeatRow.game_id.in_(game_ids))
            ).all()
        return {(r[0], int(r[1])): r[2] for r in rows}

    def seat_owner(self, game_id: str, seat: int) -> Account | None:
        """The account a seat of a game belongs to, if any (one look-up by the table's key)."""
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(AccountRow)
                .join(AccountSeatRow, AccountSeatRow.account_id == AccountRow.id)
                .where(AccountSeatRow.game_id == game_id, AccountSeatRow.seat == seat)
            ).first()
        return None if row is None else Account(row.id, row.name, row.person_id, row.created)

    def owned_seats(self, account_id: str, limit: int = 100) -> list[OwnedSeat]:
        """The account's seats, the newest game first."""
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(
                    AccountSeatRow.game_id,
                    AccountSeatRow.seat,
                    GameRow.name,
                    GameRow.seats,
                    GameRow.finished,
                    GameRow.created,
                    GameRow.returns,
                )
                .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                .where(AccountSeatRow.account_id == account_id)
                .order_by(GameRow.created.desc(), AccountSeatRow.seat)
                .limit(limit)
            ).all()
        return [
            OwnedSeat(
                r[0],
                int(r[1]),
                r[2],
                str(r[3][int(r[1])]["token"]),
                bool(r[4]),
                r[5],
                tuple(_seat_word(other) for at, other in enumerate(r[3]) if at != int(r[1])),
                tuple(json.loads(r[6])) if r[6] else None,
                bool(r[3][int(r[1])].get("away")),
            )
            for r in rows
        ]

    def ladder_progress(self, account_id: str) -> dict[str, Any]:
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(LadderProgressRow.progress).where(LadderProgressRow.account_id == account_id)
            ).first()
        return best_of(dict(row[0]) if row else {}, {})

    def keep_ladder_progress(self, account_id: str, given: dict[str, Any]) -> dict[str, Any]:
        """Merge ``given`` into the account's progress (the best result of each puzzle)."""
        with self.store.engine.begin() as connection:
            row = connection.execute(
                select(LadderProgressRow.progress)
                .where(LadderProgressRow.account_id == account_id)
                .with_for_update()
            ).first()
            merged = best_of(dict(row[0]) if row else {}, given)
            if row is None:
                connection.execute(
                    insert(LadderProgressRow).values(account_id=account_id, progress=merged)
                )
            else:
                connection.execute(
                    update(LadderProgressRow)
                    .where(LadderProgressRow.account_id == account_id)
                    .values(progress=merged)
                )
        return merged

    def claim(
        self,
        account_id: str,
        games: list[tuple[str, list[str]]],
        person: tuple[str, str] | None,
    ) -> list[tuple[str, int]]:
        """Claim for the account what a browser held: the seats of ``games`` whose tokens it
        gives, and the light identity ``person`` (id, secret) with the seats it sat in. Wrong
        tokens and secrets claim nothing, nor does a seat or identity of another account.
        Answers the seats claimed (``(game id, seat)``), which show the account's name."""
        wanted = {game_id: set(tokens) for game_id, tokens in games}
        seats: set[tuple[str, int]] = set()
        with self.store.engine.begin() as connection:
            if wanted:
                rows = connection.execute(
                    select(GameRow.id, GameRow.seats).where(GameRow.id.in_(list(wanted)))
                ).all()
                for game_id, seat_rows in rows:
                    for seat, info in enumerate(seat_rows):
                        if info.get("kind") == "human" and info.get("token") in wanted[game_id]:
                            seats.add((game_id, seat))
            if person is not None:
                found = connection.execute(
                    select(PersonRow.secret_hash).where(PersonRow.id == person[0])
                ).first()
                claimed = connection.execute(
                    select(AccountRow.id).where(AccountRow.person_id == person[0])
                ).first()
                # An identity another account claimed is that account's, like its seats: a
                # browser that still holds its secret after a log-out claims nothing with it.
                if (
                    found is not None
                    and claimed is None
                    and hmac.compare_digest(found[0], secret_hash(person[1]))
                ):
                    connection.execute(
                        update(AccountRow)
                        .where(AccountRow.id == account_id, AccountRow.person_id.is_(None))
                        .values(person_id=person[0])
                    )
                    for game_id, people in connection.execute(
                        select(SeriesGameRow.game_id, SeriesGameRow.people).where(
                            cast(SeriesGameRow.people, String).contains(person[0])
                        )
                    ).all():
                        seats.update((game_id, s) for s, p in enumerate(people) if p == person[0])
            taken = {
                (r[0], int(r[1]))
                for r in connection.execute(
                    select(AccountSeatRow.game_id, AccountSeatRow.seat).where(
                        AccountSeatRow.game_id.in_([g for g, _ in seats])
                    )
                ).all()
            }
            fresh = sorted(seats - taken)
            now = time.time()
            if fresh:
                connection.execute(
                    insert(AccountSeatRow),
                    [
                        {"game_id": g, "seat": s, "account_id": account_id, "created": now}
                        for g, s in fresh
                    ],
                )
                self._name_seats(connection, account_id, fresh)
        return fresh


def best_of(stored: dict[str, Any], given: dict[str, Any]) -> dict[str, dict[str, dict[str, int]]]:
    """Two ladder progresses as one: each level's (and date's) fewest moves."""
    merged: dict[str, dict[str, dict[str, int]]] = {"levels": {}, "daily": {}}
    for table in merged:
        for source in (stored.get(table) or {}, given.get(table) or {}):
            for key, result in source.items():
                before = merged[table].get(key)
                if before is None or result["used"] < before["used"]:
                    merged[table][key] = dict(result)
    return merged


def owned_json(seat: OwnedSeat) -> dict[str, Any]:
    """One of ``GET /api/me/games`` (its ``tournament`` is filled in by the route)."""
    return {
        "id": seat.game_id,
        "game": seat.game,
        "seat": seat.seat,
        "token": seat.token,
        "terminal": seat.finished,
        "tournament": None,
        "url": f"/game/{seat.game_id}?t={seat.token}",
        "replay_url": f"/game/{seat.game_id}/replay",
    }
