"""A throwaway PostgreSQL server for tests and benchmarks, from the machine's own programs.

``throwaway_postgres()`` runs ``initdb`` and ``pg_ctl`` (found on PATH or under Debian's
``/usr/lib/postgresql/*/bin``) on a temporary folder, listening on a Unix socket only (no TCP),
as the ``postgres`` user when run as root (PostgreSQL refuses root), and removes it all at the
end. Where that cannot be done it raises ``PostgresUnavailable`` with the reason.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from glob import glob
from pathlib import Path
from typing import Any


class PostgresUnavailable(Exception):
    """No PostgreSQL server can be started here (the message says why)."""


def program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _as_server_user() -> list[str]:
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable(
            "running as root and there is no 'postgres' user to run the server"
        ) from None
    if shutil.which("runuser") is None:
        raise PostgresUnavailable("running as root and there is no runuser to start the server")
    return ["runuser", "-u", "postgres", "--"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def throwaway_postgres(*settings: str) -> Iterator[str]:
    """A fresh server's SQLAlchemy URL (psycopg); ``settings`` are ``name=value`` server
    settings (e.g. ``max_connections=300``)."""
    initdb, pg_ctl = program("initdb"), program("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise PostgresUnavailable("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
    prefix = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="boneyard-pg-"))
    if prefix:
        shutil.chown(folder, user="postgres")
    data = folder / "data"
    port = _free_port()  # names the socket file; nothing listens on TCP
    run: dict[str, Any] = {"check": True, "capture_output": True}
    try:
        subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "boneyard"], **run)
        options = " ".join(
            [f"-k {folder} -p {port} -c listen_addresses=''", *(f"-c {s}" for s in settings)]
        )
        log = folder / "server.log"
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-o", options, "-l", str(log), "-w", "start"], **run
        )
    except subprocess.CalledProcessError as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise PostgresUnavailable(
            f"could not start a PostgreSQL server: {error.stderr.decode()[-300:]}"
        ) from None
    try:
        yield f"postgresql+psycopg://boneyard@/postgres?host={folder}&port={port}"
    finally:
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)
