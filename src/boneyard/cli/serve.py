"""``boneyard serve``: the web app on a local address (the database is a SQLite file by default)."""

from __future__ import annotations

import click


def _check_free(host: str, port: int) -> None:
    """Refuse early, in words, when the address is taken (before worker processes start)."""
    import socket

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {error.strerror or error}; "
            "is another server running there? Choose another --port."
        ) from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    default="sqlite:///boneyard.db",
    show_default=True,
    help="SQLAlchemy URL: sqlite:///path.db or postgresql+psycopg://user:pass@host/db.",
)
@click.option(
    "--bot-delay",
    default=0.8,
    show_default=True,
    type=click.FloatRange(0, 30),
    help="Seconds a computer seat waits before moving, so people can follow.",
)
@click.option(
    "--bot-time",
    default=None,
    type=click.FloatRange(0.01, 60),
    help="Thinking time limit of a computer move, in seconds (default: the level's own).",
)
@click.option(
    "--bot-processes",
    default=2,
    show_default=True,
    type=click.IntRange(0, 16),
    help="Worker processes for computer seats and hints (0: threads in the server).",
)
def serve(
    host: str, port: int, db: str, bot_delay: float, bot_time: float | None, bot_processes: int
) -> None:
    """Serve the web app: play every game in the browser."""
    try:
        import uvicorn

        from boneyard.web.app import create_app
        from boneyard.web.settings import Settings
    except ImportError as error:
        raise click.ClickException(
            f"the web app needs the 'web' extra ({error.name} is missing): "
            "pip install 'boneyard[web]'"
        ) from None
    try:
        app = create_app(
            db,
            settings=Settings(
                bot_delay=bot_delay, bot_time_limit=bot_time, bot_processes=bot_processes
            ),
        )
    except Exception as error:  # a bad URL or an unreachable database
        raise click.ClickException(f"cannot open the database {db!r}: {error}") from None
    try:
        _check_free(host, port)
    except click.ClickException:
        app.state.manager.shutdown()
        raise
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"boneyard is serving at http://{shown}:{port}/  (database: {db}; Ctrl+C stops)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        # Also when uvicorn gives up after the app started: the worker processes must end.
        app.state.manager.shutdown()
