"""``boneyard serve``: the web app on a local address (the database is a SQLite file by default)."""

from __future__ import annotations

import contextlib
import logging
import os
from typing import Any

import click

from boneyard.cli.common import LOG_FORMAT


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


def _set_limit(settings: Any, given: str) -> None:
    name, _, value = given.partition("=")
    game, _, param = name.partition(".")
    if not game or not param or not value.strip().isdigit():
        raise click.BadParameter(
            f"{given!r}: write GAME.PARAM=N, e.g. oyno.size=15", param_hint="--limit"
        )
    settings.param_limits.setdefault(game, {})[param] = int(value)


def _check_bots(_context: click.Context, _param: click.Parameter, value: str) -> str:
    from boneyard.web.settings import is_ray_address

    if value in ("local", "queue") or is_ray_address(value):
        return value
    raise click.BadParameter(
        f"{value!r}: write local, queue, or ray://HOST:PORT (a Ray cluster's client address, "
        "e.g. ray://10.0.0.5:10001)"
    )


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def allowed_hosts_for(host: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """The names the server answers to: the loopback names, then ``--host-name`` values or,
    without any, the address it listens on (on every address: this machine's names)."""
    if "*" in names:
        return ("*",)
    chosen = list(names)
    if not chosen:
        if host in WILDCARDS:
            import socket

            chosen = [socket.gethostname(), socket.getfqdn()]
            with contextlib.suppress(OSError):  # a machine without a resolvable name
                addresses = socket.getaddrinfo(socket.gethostname(), None)
                chosen += [str(info[4][0]) for info in addresses]
        else:
            chosen = [host]
    return tuple(dict.fromkeys([*LOOPBACK_NAMES, *chosen]))


def uvicorn_options(settings: Any) -> dict[str, Any]:
    """What every way of starting uvicorn passes: the bounded HTTP protocol, the trusted
    proxies (none by default: no client names its own address), the socket frame limit."""
    from boneyard.web.guard.connections import BoundedHttp

    trusted = ",".join(settings.trusted_proxies)
    return {
        "http": BoundedHttp,
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or None,
        # Frames past 64 KiB are refused by the protocol itself; the app's own limit is smaller.
        "ws_max_size": 64 * 1024,
        "log_level": "warning",
        # The logging is set up already (``ops.setup_logging``: JSON lines, secrets hidden);
        # uvicorn's own configuration would put its text handlers back.
        "log_config": None,
    }


def _serve_workers(
    host: str,
    port: int,
    db: str,
    settings: Any,
    workers: int,
    log_format: str,
    access_log: bool,
) -> None:
    """Several uvicorn worker processes on one address, each its own app (the app factory)."""
    import uvicorn

    from boneyard.web.app import settings_to_environment, several_processes_warning
    from boneyard.web.store.games import shown_url

    _check_free(host, port)
    warning = several_processes_warning(db, workers)
    if warning and log_format == "json":
        logging.getLogger("boneyard.web").warning("%s", warning)  # every line of stderr JSON
    elif warning:
        click.echo(f"Warning: {warning}", err=True)
    os.environ["BONEYARD_DB"] = db
    os.environ["BONEYARD_SETTINGS"] = settings_to_environment(settings)
    os.environ["BONEYARD_LOG_FORMAT"] = log_format
    os.environ["BONEYARD_ACCESS_LOG"] = "1" if access_log else "0"
    os.environ["BONEYARD_WARNED"] = "1"  # said once here, not again by every worker
    shown = f"[{host}]" if ":" in host else host
    click.echo(
        f"boneyard is serving at http://{shown}:{port}/ with {workers} processes  "
        f"(database: {shown_url(db)}; Ctrl+C stops)"
    )
    uvicorn.run(
        "boneyard.web.app:app_from_environment",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        **uvicorn_options(settings),
    )


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    default="sqlite:///boneyard.db",
    show_default=True,
    envvar="BONEYARD_DB",
    show_envvar=True,
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
@click.option(
    "--bots",
    "bots",
    default="local",
    show_default=True,
    metavar="local|queue|ray://HOST:PORT",
    callback=_check_bots,
    help="Where computer moves and hints run: 'local' (this server's --bot-processes), "
    "'queue' (jobs in the database for 'boneyard bots' workers on any machine) or "
    "'ray://HOST:PORT' (tasks on the Ray cluster whose Ray Client server is there; its "
    "nodes need boneyard installed; docs/web.md).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this address (PostgreSQL: each serves every game; SQLite is "
    "for one process and a warning says so).",
)
@click.option(
    "--trusted-proxy",
    multiple=True,
    metavar="ADDRESS",
    help="A reverse proxy trusted to name the client's address (X-Forwarded-For): an address "
    "or network, e.g. 10.0.0.2 or 172.28.0.0/16 (repeatable). Default: none, every client is "
    "its connection's address.",
)
@click.option(
    "--host-name",
    multiple=True,
    metavar="NAME",
    help="A name this server answers to (the Host header), e.g. games.example.org "
    "(repeatable; '*' for any). Default: the --host address and localhost.",
)
@click.option(
    "--max-connections",
    default=1000,
    show_default=True,
    type=click.IntRange(1),
    help="Open connections (sockets included) at most; past it: 503 with Retry-After.",
)
@click.option(
    "--connection-share",
    default=0.1,
    show_default=True,
    type=click.FloatRange(0, 1, min_open=True),
    help="The share of --max-connections one client address may hold open (sockets "
    "included; trusted proxies aside); past it: 429 with Retry-After.",
)
@LOG_FORMAT
@click.option(
    "--access-log",
    is_flag=True,
    help="Log one line a request: method, route (no ids, no query), status, milliseconds.",
)
@click.option(
    "--hint-interval",
    default=3.0,
    show_default=True,
    type=click.FloatRange(0, 3600),
    help="Seconds between two hints of one seat.",
)
@click.option(
    "--memory-mb",
    default=512.0,
    show_default=True,
    type=click.FloatRange(1),
    help="Estimated memory for the games held live; past it idle games leave memory, then "
    "new games are refused (503).",
)
@click.option(
    "--idle-minutes",
    default=3.0,
    show_default=True,
    type=click.FloatRange(0),
    help="A game nobody uses for this long leaves memory (it comes back from the database).",
)
@click.option(
    "--games-per-minute",
    default=20,
    show_default=True,
    type=click.IntRange(1),
    help="New games one client address may create a minute (more: 429).",
)
@click.option(
    "--moves-per-minute",
    default=600,
    show_default=True,
    type=click.IntRange(1),
    help="Moves and hints one client address may send a minute, over HTTP and sockets "
    "together (more: 429).",
)
@click.option(
    "--thinking-per-minute",
    default=40.0,
    show_default=True,
    type=click.FloatRange(0),
    help="CPU seconds of the computer's thinking (its moves in a client's games, its hints) one "
    "client address gets a minute; past it its computer moves wait and hints get 429 (0: no "
    "budget).",
)
@click.option(
    "--reads-per-minute",
    default=600,
    show_default=True,
    type=click.IntRange(1),
    help="Reads of games one client address may make a minute: views, replay frames (one "
    "that walks a long game first costs more), the lobby, game pages (more: 429).",
)
@click.option(
    "--sockets-per-minute",
    default=120,
    show_default=True,
    type=click.IntRange(1),
    help="WebSockets one client address may open a minute (more: refused).",
)
@click.option(
    "--sockets-per-game",
    default=64,
    show_default=True,
    type=click.IntRange(1),
    help="WebSockets one game accepts.",
)
@click.option(
    "--sockets-per-client",
    default=64,
    show_default=True,
    type=click.IntRange(1),
    help="WebSockets one client address may hold open.",
)
@click.option(
    "--max-body-kb",
    default=64,
    show_default=True,
    type=click.IntRange(1),
    help="The largest request body in KiB (more: 413).",
)
@click.option(
    "--work-processes",
    default=2,
    show_default=True,
    type=click.IntRange(0, 16),
    help="Worker processes for setting up and loading games (0: threads in the server).",
)
@click.option(
    "--work-seconds",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Time limit for setting up a game (puzzle generation) or loading one (more: 503).",
)
@click.option(
    "--limit",
    "limits",
    multiple=True,
    metavar="GAME.PARAM=N",
    help="The largest value the web offers for an integer parameter, e.g. oyno.size=15 "
    "(repeatable; defaults in docs/web.md).",
)
@click.option(
    "--allow-origin",
    "origins",
    multiple=True,
    metavar="URL",
    help="Another origin whose pages may post and open sockets (repeatable).",
)
def serve(
    host: str,
    port: int,
    db: str,
    bot_delay: float,
    bot_time: float | None,
    bot_processes: int,
    bots: str,
    workers: int,
    trusted_proxy: tuple[str, ...],
    host_name: tuple[str, ...],
    max_connections: int,
    connection_share: float,
    log_format: str,
    access_log: bool,
    hint_interval: float,
    memory_mb: float,
    idle_minutes: float,
    games_per_minute: int,
    moves_per_minute: int,
    thinking_per_minute: float,
    reads_per_minute: int,
    sockets_per_minute: int,
    sockets_per_game: int,
    sockets_per_client: int,
    max_body_kb: int,
    work_processes: int,
    work_seconds: float,
    limits: tuple[str, ...],
    origins: tuple[str, ...],
) -> None:
    """Serve the web app: play every game in the browser.

    The budgets (hints, memory, games and sockets per client, body size, set-up time, the
    largest boards offered) are the server's policy, separate from the games' own parameter
    ranges; docs/web.md describes each.
    """
    try:
        import uvicorn

        from boneyard.web.app import configure_connections, create_app
        from boneyard.web.compute.ray_bots import require_ray_client
        from boneyard.web.ops import keep_access_log, setup_logging
        from boneyard.web.settings import Settings, is_ray_address
        from boneyard.web.store.games import shown_url
    except ImportError as error:
        raise click.ClickException(
            f"the web app needs the 'web' extra ({error.name} is missing): "
            "pip install 'boneyard[web]'"
        ) from None
    try:
        settings = Settings(
            bot_delay=bot_delay,
            bot_time_limit=bot_time,
            bot_processes=bot_processes,
            bots=bots,
            hint_interval=hint_interval,
            live_memory_mb=memory_mb,
            live_idle_seconds=idle_minutes * 60,
            sweep_seconds=min(30.0, max(1.0, idle_minutes * 60 / 4)),
            games_per_minute=games_per_minute,
            moves_per_minute=moves_per_minute,
            thinking_seconds_per_minute=thinking_per_minute or None,
            reads_per_minute=reads_per_minute,
            sockets_per_minute=sockets_per_minute,
            sockets_per_game=sockets_per_game,
            sockets_per_client=sockets_per_client,
            max_body_bytes=max_body_kb * 1024,
            work_processes=work_processes,
            work_seconds=work_seconds,
            allowed_origins=origins,
            allowed_hosts=allowed_hosts_for(host, host_name),
            trusted_proxies=trusted_proxy,
            max_connections=max_connections,
            connection_share=connection_share,
        )
        for given in limits:
            _set_limit(settings, given)
        if is_ray_address(bots):
            try:
                require_ray_client(bots)
            except RuntimeError as error:
                raise click.ClickException(str(error)) from None
        setup_logging(log_format, logging.WARNING)
        keep_access_log(access_log)
        if workers > 1:
            _serve_workers(host, port, db, settings, workers, log_format, access_log)
            return
        app = create_app(db, settings=settings)
        settings.max_connections = configure_connections(settings)
    except click.ClickException:
        raise
    except Exception as error:  # a bad URL or an unreachable database
        words = str(error).replace(db, shown_url(db))
        raise click.ClickException(f"cannot open the database {shown_url(db)!r}: {words}") from None
    try:
        _check_free(host, port)
    except click.ClickException:
        app.state.manager.shutdown()
        raise
    shown = f"[{host}]" if ":" in host else host
    click.echo(
        f"boneyard is serving at http://{shown}:{port}/  (database: {shown_url(db)}; Ctrl+C stops)"
    )
    try:
        uvicorn.run(app, host=host, port=port, **uvicorn_options(settings))
    finally:
        # Also when uvicorn gives up after the app started: the worker processes must end.
        app.state.manager.shutdown()
