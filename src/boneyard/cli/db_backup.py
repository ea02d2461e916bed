"""``boneyard db backup PATH`` and ``boneyard db restore PATH``: a consistent copy of a running
server's database, and its way back.

SQLite: the online backup API (``sqlite3.Connection.backup``), which copies the pages as one
reader sees them, the write-ahead log's newest commits included, while the server writes on;
a plain copy of ``boneyard.db`` misses what still sits in ``boneyard.db-wal`` (docs/web.md).
PostgreSQL: ``pg_dump --format=custom`` (one snapshot of a running database) and
``pg_restore``; without them on the PATH, the command says the one to run instead.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import click

DB_OPTION = click.option(
    "--db",
    default="sqlite:///boneyard.db",
    show_default=True,
    envvar="BONEYARD_DB",
    show_envvar=True,
    help="The server's database (SQLAlchemy URL).",
)


def _url(db: str) -> Any:
    from sqlalchemy.engine import make_url

    try:
        return make_url(db)
    except Exception:
        raise click.BadParameter(
            "write sqlite:///path/to/boneyard.db or postgresql+psycopg://user@host/db",
            param_hint="--db",
        ) from None


def _sqlite_file(url: Any) -> Path:
    database = url.database or ""
    if database in ("", ":memory:"):
        raise click.BadParameter("a database in memory has nothing to back up", param_hint="--db")
    return Path(database)


def _libpq(url: Any) -> tuple[str, dict[str, str]]:
    """The libpq URL of a SQLAlchemy PostgreSQL URL, and the environment carrying its password
    (``PGPASSWORD``: never on a command line, which other users of the machine can read)."""
    environment = dict(os.environ)
    if url.password is not None:
        environment["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), environment


def _refuse_existing(path: Path) -> None:
    if path.exists():
        raise click.BadParameter(
            f"{str(path)!r} exists: give a new file (a backup never overwrites one)",
            param_hint="PATH",
        )


def _sqlite_backup(source: Path, target: Path) -> int:
    """Copy ``source`` to ``target`` through the online backup API; answers the games in it."""
    if not source.exists():
        raise click.ClickException(f"there is no database at {str(source)!r}")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    # read-only: the backup never writes to the server's file (nor creates one)
    with (
        sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30) as reading,
        sqlite3.connect(partial) as writing,
    ):
        reading.execute("PRAGMA busy_timeout=30000")
        reading.backup(writing)
        games = _games_in(writing)
    reading.close()
    writing.close()
    partial.replace(target)  # whole or not at all: a crash mid-copy leaves no half backup
    return games


def _games_in(connection: sqlite3.Connection) -> int:
    try:
        return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError:
        return -1


PG_DUMP_WORDS = (
    "pg_dump is not on the PATH: install PostgreSQL's client programs (Debian: apt install "
    "postgresql-client, the server's major version or newer), or run on a machine that has "
    "them: pg_dump --format=custom --file=PATH postgresql://USER@HOST/DB"
)
PG_RESTORE_WORDS = (
    "pg_restore is not on the PATH: install PostgreSQL's client programs (Debian: apt install "
    "postgresql-client), or run: pg_restore --no-owner --clean --if-exists "
    "--dbname=postgresql://USER@HOST/DB PATH"
)


def _run(command: list[str], environment: dict[str, str], words: str) -> None:
    try:
        done = subprocess.run(command, env=environment, capture_output=True, text=True)
    except FileNotFoundError:
        raise click.ClickException(words) from None
    if done.returncode != 0:
        raise click.ClickException(f"{command[0]} failed: {done.stderr.strip()}")


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@DB_OPTION
def backup(path: Path, db: str) -> None:
    """Copy the database to PATH while the server runs (SQLite: the online backup API;
    PostgreSQL: pg_dump's custom format). Every move acknowledged before it began is in it."""
    url = _url(db)
    _refuse_existing(path)
    if url.drivername.startswith("sqlite"):
        games = _sqlite_backup(_sqlite_file(url), path)
        click.echo(f"backed up {games} games to {path} (SQLite online backup)")
        return
    if not url.drivername.startswith("postgresql"):
        raise click.BadParameter("back up SQLite or PostgreSQL", param_hint="--db")
    target, environment = _libpq(url)
    if shutil.which("pg_dump") is None:
        raise click.ClickException(PG_DUMP_WORDS)
    partial = path.with_name(path.name + ".partial")
    _run(
        ["pg_dump", "--format=custom", f"--file={partial}", f"--dbname={target}"],
        environment,
        PG_DUMP_WORDS,
    )
    partial.replace(path)
    click.echo(f"backed up the database to {path} (pg_dump, custom format)")


def _has_games(url: Any) -> bool:
    from sqlalchemy import create_engine, inspect, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            if not inspect(connection).has_table("games"):
                return False
            return bool(connection.execute(text("SELECT count(*) FROM games")).scalar())
    finally:
        engine.dispose()


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@DB_OPTION
@click.option(
    "--replace",
    is_flag=True,
    help="Replace a database that already holds games (stop every server on it first).",
)
def restore(path: Path, db: str, replace: bool) -> None:
    """Put the backup at PATH back as the database (stop the servers on it first)."""
    url = _url(db)
    if url.drivername.startswith("sqlite"):
        target = _sqlite_file(url)
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as reading:
            if _games_in(reading) < 0:
                raise click.ClickException(f"{str(path)!r} is not a boneyard SQLite backup")
            if target.exists() and _has_games(url) and not replace:
                raise click.ClickException(
                    f"{str(target)!r} already holds games: stop its servers and give --replace"
                )
            with sqlite3.connect(target) as writing:
                reading.backup(writing)
                games = _games_in(writing)
            writing.close()
        reading.close()
        click.echo(f"restored {games} games into {target}")
        return
    if not url.drivername.startswith("postgresql"):
        raise click.BadParameter("restore into SQLite or PostgreSQL", param_hint="--db")
    if _has_games(url) and not replace:
        raise click.ClickException(
            "the database already holds games: stop its servers and give --replace"
        )
    target_url, environment = _libpq(url)
    if shutil.which("pg_restore") is None:
        raise click.ClickException(PG_RESTORE_WORDS)
    _run(
        ["pg_restore", "--no-owner", "--clean", "--if-exists", f"--dbname={target_url}", str(path)],
        environment,
        PG_RESTORE_WORDS,
    )
    click.echo("restored the backup into the database")


def register(main: click.Group) -> None:
    """Add ``backup`` and ``restore`` to the ``db`` group (made here when no other module
    made it yet: the schema commands, ``cli/db.py``, make it where they are)."""
    group = main.commands.get("db")
    if not isinstance(group, click.Group):
        group = click.Group("db", help="The server's database: backups and their restore.")
        main.add_command(group)
    group.add_command(backup)
    group.add_command(restore)
