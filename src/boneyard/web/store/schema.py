"""The store's schema and its versions: Alembic's revisions (``store/migrations/versions``),
run when a process opens the database, or by hand with ``boneyard db upgrade``.

A database is at one revision, kept in Alembic's ``alembic_version`` table:

- an empty database is made whole at once (the models' ``create_all``) and marked at the
  newest revision, as Alembic's cookbook does (a test holds the models equal to the revisions);
- a database of a boneyard from before migrations (tables and no ``alembic_version``) is
  brought up from the first revision, which makes what is missing of the schema it had then;
- an older revision is upgraded, unless the operator migrates by hand (``prepare(...,
  upgrade=False)``, ``boneyard serve --migrate manual``): then the process refuses to start;
- a revision this code does not know (a database a newer boneyard upgraded) is refused, by
  both names, whatever the choice: an older build would read and write it wrongly.

All of it runs under the start-up lock (on PostgreSQL an advisory lock in the transaction of
the change), so processes starting together upgrade once.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from boneyard.core.version import __version__
from boneyard.web.store.base import SCHEMA_LOCK, Base

log = logging.getLogger("boneyard.web")

MIGRATIONS = "boneyard.web.store:migrations"
"""Alembic's script location: the package folder that holds env.py and versions/."""


class SchemaError(RuntimeError):
    """The database's schema is not the one this code needs, and it was not (or cannot be)
    brought to it: the message says what it is, what is needed, and what to do."""


@dataclass(frozen=True)
class Revision:
    id: str
    title: str
    down: str | None


def target_metadata() -> MetaData:
    """Every table of the store: the models of each of its modules, all imported by the
    package (``store/__init__.py``) before any of them is used."""
    return Base.metadata


def config(connection: Any = None) -> Config:
    """Alembic's configuration, without an ini file: the migrations in the package, run on
    ``connection``."""
    alembic_config = Config()
    alembic_config.set_main_option("script_location", MIGRATIONS)
    alembic_config.attributes["connection"] = connection
    return alembic_config


@functools.cache
def scripts() -> ScriptDirectory:
    """The revisions (read once per process)."""
    return ScriptDirectory.from_config(config())


def head() -> str:
    """The newest revision: the schema this code reads and writes."""
    newest = scripts().get_current_head()
    assert newest is not None, "the migrations have no revision"
    return newest


def history() -> list[Revision]:
    """Every revision, oldest first."""
    return [
        Revision(script.revision, (script.doc or "").strip(), _down(script.down_revision))
        for script in reversed(list(scripts().walk_revisions()))
    ]


def _down(down: Any) -> str | None:
    if down is None or isinstance(down, str):
        return down
    return ",".join(down)


def known(revision: str) -> bool:
    return any(script.revision == revision for script in scripts().walk_revisions())


def current(connection: Any) -> str | None:
    """The database's revision (None: none recorded: empty, or made before migrations)."""
    return MigrationContext.configure(connection).get_current_revision()


def _has_tables(connection: Any) -> bool:
    """Whether the database holds any table of the store (one of a boneyard before migrations)."""
    names = set(inspect(connection).get_table_names())
    return bool(names & set(target_metadata().tables))


def _is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def _lock(connection: Any) -> None:
    """The start-up lock, held to the end of the connection's transaction (PostgreSQL; SQLite
    takes one writer at a time, and a second process's failed creation is read again)."""
    if connection.dialect.name != "sqlite":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})


def newer_message(found: str) -> str:
    return (
        f"the database's schema is at revision {found}, which this boneyard {__version__} does "
        f"not know (its newest is {head()}): a newer boneyard upgraded it. Run that version, "
        "or restore a backup made before the upgrade (docs/web.md, Upgrades)"
    )


def by_hand_message(found: str | None) -> str:
    revision = found or "none (empty, or made before migrations)"
    return (
        f"the database's schema is at revision {revision}, "
        f"this boneyard {__version__} needs {head()}, and migrations are run by hand "
        "(--migrate manual): run `boneyard db upgrade --db URL` first"
    )


def prepare(engine: Engine, *, upgrade: bool = True) -> None:
    """Bring the store's database to the newest revision, or refuse (``SchemaError``): see the
    module. ``upgrade=False``: change nothing, refuse unless it is already there."""
    try:
        _prepare(engine, upgrade)
    except OperationalError:
        if not _is_sqlite(engine):
            raise
        # Another process starting on the same SQLite file made or upgraded it meanwhile
        # (SQLite has no advisory lock): what it did is read again, once.
        _prepare(engine, upgrade)


def _prepare(engine: Engine, upgrade: bool) -> None:
    with engine.connect() as connection:
        found = current(connection)
    newest = head()
    if found == newest:
        return
    if found is not None and not known(found):
        raise SchemaError(newer_message(found))
    with engine.begin() as connection:
        _lock(connection)
        found = current(connection)  # again, under the lock: another process may have done it
        if found == newest:
            return
        if found is not None and not known(found):
            raise SchemaError(newer_message(found))
        if not upgrade:
            raise SchemaError(by_hand_message(found))
        if found is None and not _has_tables(connection):
            target_metadata().create_all(connection)
            command.stamp(config(connection), newest)
            return
        log.warning("upgrading the database's schema from %s to %s", found or "before", newest)
        command.upgrade(config(connection), newest)


def migrate(engine: Engine, to: str = "head") -> None:
    """Run the revisions up to ``to`` (never ``create_all``): ``boneyard db upgrade``'s work on
    a database that is not empty, and the tests' way to build a schema by its revisions."""
    with engine.begin() as connection:
        _lock(connection)
        found = current(connection)
        if found is not None and not known(found):
            raise SchemaError(newer_message(found))
        command.upgrade(config(connection), to)


def differences(engine: Engine) -> list[Any]:
    """What the models have that the database lacks, or the other way round (``alembic
    check``): empty when the revisions made exactly the models' schema."""
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, target_metadata()))
