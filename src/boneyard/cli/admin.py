"""``boneyard admin``: the operator's tools on the web app's database, SQLite or PostgreSQL,
while the servers run: ban and unban an account, rename it, delete it with all its data, give
it a new password, see who is online, post or clear a maintenance notice, read the log of these
actions. Each action is kept in the database's ``admin_actions`` and logged (docs/web.md, The
operator's tools).

Each subcommand is one function in ``COMMANDS``; a new one is written below and added there.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from boneyard.cli.common import DB
from boneyard.cli.db import require_existing

NEW_PASSWORD_BYTES = 12
"""A new password's randomness (16 characters of URL-safe base64)."""


@contextmanager
def admin_store(db: str) -> Iterator[Any]:
    """The operator's store on ``db``: never migrates (a database not at this version's schema
    is refused, with what to run), and any refusal is a one-line error."""
    try:
        from boneyard.web.store.admin import AdminStore
        from boneyard.web.store.games import Store
        from boneyard.web.store.schema import SchemaError
    except ImportError as error:
        raise click.ClickException(
            f"the operator's tools need the 'web' extra ({error.name} is missing): "
            "pip install 'boneyard[web]'"
        ) from None
    require_existing(db)
    try:
        store = Store(db, upgrade=False)
    except SchemaError as error:
        raise click.ClickException(str(error)) from None
    try:
        yield AdminStore(store)
    finally:
        store.close()


def refused(error: Exception) -> click.ClickException:
    return click.ClickException(str(error))


def end_open_seats(db: str, seats: list[tuple[str, int]]) -> list[str]:
    """Leave each of ``seats`` as its player would: a game under way is resigned (in a game of
    three or more the computer takes the seat), one not yet played is called off. Done by a
    server of this process on the same database (the others hear of it: PostgreSQL's notices,
    or on SQLite by the stored result at their next move). Answers what happened to each."""
    if not seats:
        return []
    from boneyard.web.app import create_app
    from boneyard.web.errors import WebError

    app = create_app(db, upgrade=False)

    async def leave() -> list[str]:
        done = []
        async with app.router.lifespan_context(app):
            manager, sessions = app.state.manager, app.state.sessions
            for game_id, seat in seats:
                try:
                    live = await manager.get(game_id)
                    if live.over:
                        continue
                    try:
                        await sessions.resign(live, seat)
                        done.append(f"{game_id}: resigned")
                    except WebError:  # a game that cannot be resigned yet is called off
                        await sessions.abort(live, seat)
                        done.append(f"{game_id}: called off")
                except WebError as error:
                    done.append(f"{game_id}: left as it is ({error.detail})")
        return done

    return asyncio.run(leave())


@click.command()
@click.argument("name")
@click.option("--reason", default="", help="Why, kept in the log of actions.")
@DB
def ban(name: str, reason: str, db: str) -> None:
    """Ban the account NAME: its sessions end, its open games are resigned or called off, it
    cannot sign in again, and its name stays its own."""
    from boneyard.web.store.admin import AdminError

    with admin_store(db) as admin:
        try:
            ended = admin.ban(name, reason)
            seats = admin.open_seats(name)
        except AdminError as error:
            raise refused(error) from None
    left = end_open_seats(db, seats)
    click.echo(f"banned {name}: {ended} session(s) ended, {len(left)} open game(s) left")
    for line in left:
        click.echo(f"  {line}")


@click.command()
@click.argument("name")
@DB
def unban(name: str, db: str) -> None:
    """Lift the ban of the account NAME: it may sign in again."""
    from boneyard.web.store.admin import AdminError

    with admin_store(db) as admin:
        try:
            admin.unban(name)
        except AdminError as error:
            raise refused(error) from None
    click.echo(f"{name} may sign in again")


@click.command()
@click.argument("name")
@click.argument("new_name")
@DB
def rename(name: str, new_name: str, db: str) -> None:
    """Rename the account NAME to NEW_NAME (the rules of names apply; its games show the new
    name)."""
    from boneyard.web.errors import WebError
    from boneyard.web.people.accounts import checked_name
    from boneyard.web.store.admin import AdminError

    try:
        checked_name(new_name)
    except WebError as error:
        raise click.ClickException(error.detail) from None
    with admin_store(db) as admin:
        try:
            admin.rename(name, new_name)
        except AdminError as error:
            raise refused(error) from None
    click.echo(f"{name} is now called {new_name}")


@click.command()
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask (for scripts).")
@DB
def delete(name: str, yes: bool, db: str) -> None:
    """Delete the account NAME and all its data, for good. Its games stay (they are the other
    players' too), its name in them becomes "a former player"."""
    from boneyard.web.store.admin import AdminError

    if not yes:
        click.confirm(f"delete the account {name} and all its data, for good?", abort=True)
    with admin_store(db) as admin:
        try:
            seats = admin.open_seats(name)
        except AdminError as error:
            raise refused(error) from None
    left = end_open_seats(db, seats)  # first, while the seats are still the account's
    with admin_store(db) as admin:
        try:
            deleted = admin.delete(name)
        except AdminError as error:
            raise refused(error) from None
    counts = ", ".join(f"{table} {count}" for table, count in deleted.counts.items() if count)
    click.echo(f"deleted {name} ({counts}); {len(left)} open game(s) left first")


@click.command(name="reset-password")
@click.argument("name")
@DB
def reset_password(name: str, db: str) -> None:
    """Give the account NAME a new random password, printed once: every session of it ends.
    Hand it to its owner, who changes it in Settings."""
    from boneyard.web.people.accounts import password_hash_of
    from boneyard.web.store.admin import AdminError

    password = secrets.token_urlsafe(NEW_PASSWORD_BYTES)
    with admin_store(db) as admin:
        try:
            ended = admin.set_password(name, password_hash_of(password))
        except AdminError as error:
            raise refused(error) from None
    click.echo(f"{name}'s new password (shown once): {password}")
    click.echo(f"{ended} session(s) ended; ask its owner to change it in Settings")


@click.command()
@click.option(
    "--minutes", default=5.0, show_default=True, type=click.FloatRange(0.1), help="How recent."
)
@DB
def online(minutes: float, db: str) -> None:
    """List the accounts signed in and seen within the last minutes, the latest first."""
    with admin_store(db) as admin:
        seen = admin.online(minutes * 60)
    now = time.time()
    for who in seen:
        ago = max(0, round((now - who.last_seen) / 60))
        click.echo(f"{who.name}  seen {ago} min ago  ({who.sessions} session(s))")
    click.echo(f"{len(seen)} account(s) online in the last {minutes:g} minutes")


@click.command()
@click.argument("words", nargs=-1)
@click.option("--clear", is_flag=True, help="Take the notice down.")
@DB
def notice(words: tuple[str, ...], clear: bool, db: str) -> None:
    """Post WORDS as the notice every page shows (e.g. a maintenance window), or --clear it;
    without either, show the notice up now. Every server shows a change within seconds."""
    from boneyard.web.store.admin import AdminError

    if clear and words:
        raise click.UsageError("give the notice's words, or --clear, not both")
    with admin_store(db) as admin:
        if not clear and not words:
            posted = admin.posted_notice()
            if posted is None:
                click.echo("no notice is up")
            else:
                when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(posted[1]))
                click.echo(f"up since {when}: {posted[0]}")
            return
        if clear:
            click.echo("notice taken down" if admin.clear_notice() else "there was no notice")
            return
        try:
            admin.post_notice(" ".join(words))
        except AdminError as error:
            raise refused(error) from None
    click.echo("notice posted: every page shows it within seconds")


@click.command()
@click.option("--last", default=50, show_default=True, type=click.IntRange(1, 10_000))
@DB
def log(last: int, db: str) -> None:
    """The latest operator's actions, the newest first."""
    with admin_store(db) as admin:
        actions = admin.actions(last)
    for at, action, account, detail in actions:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(at))
        click.echo("  ".join(part for part in (when, action, account or "", detail) if part))


COMMANDS: list[click.Command] = [ban, unban, rename, delete, reset_password, online, notice, log]
"""The subcommands of ``boneyard admin``, in the order ``--help`` lists them."""


@click.group()
def admin() -> None:
    """The operator's tools: accounts, who is online, the maintenance notice (docs/web.md)."""


for command in COMMANDS:
    admin.add_command(command)
