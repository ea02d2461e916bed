"""The server's secret key, for what is kept of people's addresses: a keyed hash (HMAC-SHA256),
never the address, nor a plain hash of it (every IPv4 address hashes in minutes: a plain hash
is the address, for whoever holds a copy of the database).

The key is ``BONEYARD_SECRET`` when set (every process on one database, on any machine, must
be given the same one), or else a random key made once and kept in a file readable only by the
server's user, outside the database (so a copy of the database, or a backup, does not carry
it): beside a SQLite file (``boneyard.db.secret``), or in the user's state folder
(``~/.local/state/boneyard/secret``) for PostgreSQL, where processes on several machines must
then be given ``BONEYARD_SECRET``. A database in memory gets a key of its own.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from sqlalchemy.engine import make_url

SECRET_ENV = "BONEYARD_SECRET"


def key_file(url: str) -> Path | None:
    """Where the key of the database at ``url`` is kept (None: a database in memory)."""
    parsed = make_url(url)
    if parsed.drivername.startswith("sqlite"):
        database = parsed.database or ""
        if database in ("", ":memory:"):
            return None
        return Path(database).with_name(Path(database).name + ".secret")
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "boneyard" / "secret"


def server_secret(url: str) -> bytes:
    """The key of the server on the database at ``url`` (made and kept on first use)."""
    given = os.environ.get(SECRET_ENV)
    if given:
        return given.encode()
    path = key_file(url)
    if path is None:
        return secrets.token_bytes(32)
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    made = secrets.token_hex(32)
    try:
        # O_EXCL: two processes starting together keep one key, whichever wrote it first
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return bytes.fromhex(path.read_text().strip())
    with os.fdopen(handle, "w") as written:
        written.write(made + "\n")
    return bytes.fromhex(made)


def keyed_hash(key: bytes, purpose: str, value: str) -> str:
    """HMAC-SHA256 of ``value`` under ``key``, for one ``purpose`` (hex): the same value keyed
    for two purposes gives two unrelated hashes."""
    return hmac.new(key, f"{purpose}\n{value}".encode(), hashlib.sha256).hexdigest()
