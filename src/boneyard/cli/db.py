"""``boneyard db``: the web app's database, by hand: its schema's revision (``current``,
``history``), bringing it up to this version (``upgrade``), and whether the tables are exactly
this version's (``check``).

Each subcommand is one function in ``COMMANDS``; a new one is written below and added there.
"""

from __future__ import annotations

import click

from boneyard.cli.common import DB

WEB_EXTRA = "the database commands need the 'web' extra ({}): pip install 'boneyard[web]'"


def require_existing(url: str) -> None:
    """Refuse a SQLite file that is not there (opening it would make an empty one)."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    if url.startswith("sqlite"):
        database = make_url(url).database or ""
        if database and database != ":memory:" and not Path(database).exists():
            raise click.ClickException(f"there is no database file at {database}")


def shown(url: str) -> str:
    """``url`` as it may be printed: without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


@click.command()
@DB
def upgrade(db: str) -> None:
    """Bring the database's schema up to this version's (made whole if empty)."""
    from boneyard.web.store.games import make_engine
    from boneyard.web.store.schema import SchemaError, current, head, prepare

    engine = make_engine(db)
    try:
        with engine.connect() as connection:
            before = current(connection)
        prepare(engine, upgrade=True)
    except SchemaError as error:
        raise click.ClickException(str(error)) from None
    finally:
        engine.dispose()
    if before == head():
        click.echo(f"{shown(db)}: already at revision {head()}, the newest")
    else:
        click.echo(f"{shown(db)}: upgraded from {before or 'none'} to revision {head()}")


@click.command(name="current")
@DB
def current_revision(db: str) -> None:
    """Say which revision the database's schema is at, and whether it is this version's."""
    from boneyard.core.version import __version__
    from boneyard.web.store.games import make_engine
    from boneyard.web.store.schema import current, head, known

    require_existing(db)
    engine = make_engine(db)
    try:
        with engine.connect() as connection:
            found = current(connection)
    finally:
        engine.dispose()
    if found == head():
        click.echo(f"{found} (the newest this boneyard {__version__} knows)")
    elif found is None:
        click.echo(
            f"none: an empty database or one made before migrations (this boneyard needs "
            f"{head()}: boneyard db upgrade)"
        )
    elif known(found):
        click.echo(f"{found}: older than this boneyard's {head()} (boneyard db upgrade)")
    else:
        click.echo(f"{found}: newer than this boneyard {__version__} knows (its newest: {head()})")


@click.command()
def history() -> None:
    """List the schema's revisions, oldest first."""
    from boneyard.web.store.schema import history as revisions

    for revision in revisions():
        click.echo(f"{revision.id}  {revision.title}")


@click.command()
@DB
def check(db: str) -> None:
    """Exit 1 unless the database's tables are exactly this version's models (alembic check)."""
    from boneyard.web.store.games import make_engine
    from boneyard.web.store.schema import current, differences, head

    require_existing(db)
    engine = make_engine(db)
    try:
        with engine.connect() as connection:
            found = current(connection)
        found_differences = differences(engine)
    finally:
        engine.dispose()
    if found != head():
        raise click.ClickException(
            f"the database is at revision {found or 'none'}, this boneyard needs {head()}: "
            "boneyard db upgrade"
        )
    if found_differences:
        listed = "\n".join(f"  {difference}" for difference in found_differences)
        raise click.ClickException(f"the tables differ from this version's models:\n{listed}")
    click.echo(f"{shown(db)}: at revision {found}, the tables are this version's")


COMMANDS: list[click.Command] = [upgrade, current_revision, history, check]
"""The subcommands of ``boneyard db``, in the order ``--help`` lists them."""


@click.group()
def db() -> None:
    """The web app's database: its schema's revision, upgrades (docs/web.md, Upgrades)."""
    try:
        import alembic  # noqa: F401
        import sqlalchemy  # noqa: F401
    except ImportError as error:
        raise click.ClickException(WEB_EXTRA.format(f"{error.name} is missing")) from None


for command in COMMANDS:
    db.add_command(command)
