"""Storage of passkeys (WebAuthn): each account's credentials and the one-time challenges.

A credential is kept by its id with its public key and signature counter (what the
``webauthn`` package checks a log-in against); nothing secret is stored. A challenge is
random, answered once within ``CHALLENGE_SECONDS``, and spent when taken.
"""

from __future__ import annotations

import time

from sqlalchemy import Float, Integer, LargeBinary, String, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.games import Base, Store

CHALLENGE_SECONDS = 300.0


class PasskeyRow(Base):
    __tablename__ = "passkeys"

    credential_id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    """The credential's id, base64url (as the browser names it)."""
    account_id: Mapped[str] = mapped_column(String(32), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(Integer)
    created: Mapped[float] = mapped_column(Float)


class PasskeyChallengeRow(Base):
    __tablename__ = "passkey_challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The account adding a passkey; None for a log-in."""
    created: Mapped[float] = mapped_column(Float)


class PasskeyStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add_challenge(self, challenge_id: str, challenge: bytes, account_id: str | None) -> None:
        now = time.time()
        with self.store.engine.begin() as connection:
            connection.execute(
                delete(PasskeyChallengeRow).where(
                    PasskeyChallengeRow.created < now - CHALLENGE_SECONDS
                )
            )
            connection.execute(
                insert(PasskeyChallengeRow).values(
                    id=challenge_id, challenge=challenge, account_id=account_id, created=now
                )
            )

    def take_challenge(self, challenge_id: str) -> tuple[bytes, str | None] | None:
        """``(challenge, account id)`` once, while fresh; None after (or if unknown)."""
        with self.store.engine.begin() as connection:
            row = connection.execute(
                select(
                    PasskeyChallengeRow.challenge,
                    PasskeyChallengeRow.account_id,
                    PasskeyChallengeRow.created,
                ).where(PasskeyChallengeRow.id == challenge_id)
            ).first()
            done = connection.execute(
                delete(PasskeyChallengeRow).where(PasskeyChallengeRow.id == challenge_id)
            )
        if row is None or done.rowcount != 1 or row[2] < time.time() - CHALLENGE_SECONDS:
            return None
        return bytes(row[0]), row[1]

    def add_passkey(
        self, credential_id: str, account_id: str, public_key: bytes, sign_count: int
    ) -> bool:
        try:
            with self.store.engine.begin() as connection:
                connection.execute(
                    insert(PasskeyRow).values(
                        credential_id=credential_id,
                        account_id=account_id,
                        public_key=public_key,
                        sign_count=sign_count,
                        created=time.time(),
                    )
                )
        except IntegrityError:
            return False
        return True

    def passkey(self, credential_id: str) -> tuple[str, bytes, int] | None:
        """``(account id, public key, signature count)`` of a credential."""
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(PasskeyRow.account_id, PasskeyRow.public_key, PasskeyRow.sign_count).where(
                    PasskeyRow.credential_id == credential_id
                )
            ).first()
        return None if row is None else (row[0], bytes(row[1]), int(row[2]))

    def used(self, credential_id: str, sign_count: int) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(
                update(PasskeyRow)
                .where(PasskeyRow.credential_id == credential_id)
                .values(sign_count=sign_count)
            )

    def passkey_list(self, account_id: str) -> list[tuple[str, float]]:
        """``(credential id, when it was added)`` of each of the account's passkeys, the oldest
        first."""
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(PasskeyRow.credential_id, PasskeyRow.created)
                .where(PasskeyRow.account_id == account_id)
                .order_by(PasskeyRow.created)
            ).all()
        return [(r[0], float(r[1])) for r in rows]

    def remove_passkey(self, account_id: str, credential_id: str) -> bool:
        """Remove one of the account's passkeys (never another account's): False if none."""
        with self.store.engine.begin() as connection:
            done = connection.execute(
                delete(PasskeyRow).where(
                    PasskeyRow.account_id == account_id,
                    PasskeyRow.credential_id == credential_id,
                )
            )
        return done.rowcount == 1

    def passkeys_of(self, account_id: str) -> list[str]:
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(PasskeyRow.credential_id).where(PasskeyRow.account_id == account_id)
            ).all()
        return [r[0] for r in rows]
