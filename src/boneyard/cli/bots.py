"""``boneyard bots``: a bot worker answering computer moves and hints for web servers started
with ``--bots queue``, from any machine that reaches their database."""

from __future__ import annotations

import logging
import signal
from typing import Any

import click

from boneyard.cli.common import LOG_FORMAT


@click.command()
@click.option(
    "--db",
    required=True,
    envvar="BONEYARD_DB",
    show_envvar=True,
    help="The web servers' database (SQLAlchemy URL), e.g. postgresql+psycopg://user:pass@host/db.",
)
@click.option(
    "--processes",
    default=2,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Jobs run at once, each in its own worker process.",
)
@click.option(
    "--name",
    default=None,
    help="This worker's name in the job table (default: host name and process id).",
)
@LOG_FORMAT
def bots(db: str, processes: int, name: str | None, log_format: str) -> None:
    """Run computer moves and hints queued by web servers (boneyard serve --bots queue).

    Jobs are claimed from the database one at a time per process (never twice); a job whose
    worker dies is taken up by another worker once its lease runs out. SIGTERM or Ctrl+C hand
    back the jobs in hand and stop.
    """
    try:
        from boneyard.web.compute.worker import Worker
        from boneyard.web.ops import setup_logging
        from boneyard.web.store.games import Store, shown_url
    except ImportError as error:
        raise click.ClickException(
            f"the bot worker needs the 'web' extra ({error.name} is missing): "
            "pip install 'boneyard[web]'"
        ) from None
    setup_logging(log_format)
    try:
        store = Store(db)
        worker = Worker(store, processes, name)
    except Exception as error:  # a bad URL or an unreachable database
        words = str(error).replace(db, shown_url(db))
        raise click.ClickException(f"cannot open the database {shown_url(db)!r}: {words}") from None

    def stop(_signum: int, _frame: Any) -> None:
        worker.stop.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    worker.warm_up()
    if log_format == "json":  # every line of standard error JSON
        logging.getLogger("boneyard.bots").info(
            "worker %s answering jobs from %s", worker.name, shown_url(db)
        )
    else:
        click.echo(
            f"boneyard bots: worker {worker.name} answering jobs from {shown_url(db)}", err=True
        )
    try:
        worker.run()
    finally:
        store.close()
