"""For operators: health, readiness, metrics and structured logs.

``/healthz`` answers 200 while the process serves at all (a liveness probe); ``/readyz`` answers
200 only when the database answers too and the computer can move (503 otherwise, saying which:
a proxy or orchestrator sends no players to it; a Ray cluster lost while this process's own
workers think instead is ready, ``degraded`` saying why); ``/metrics`` is the
Prometheus text of ``metrics.Metrics``. ``setup_logging`` writes one JSON object a line when
asked (``--log-format json``), for a log collector.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
import time
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST

from boneyard.core.version import __version__
from boneyard.web.guard.budgets import PAGE, GuardedRouter
from boneyard.web.play.manager import GameManager

router = GuardedRouter(include_in_schema=False)

READY_SECONDS = 2.0
"""How long the readiness check waits for the database."""


@router.get("/healthz", dependencies=[PAGE])
async def healthz() -> dict[str, str]:
    """Alive, and which boneyard answers (during an upgrade, which processes run which)."""
    return {"status": "ok", "version": __version__}


@router.get("/readyz", dependencies=[PAGE])
async def readyz(request: Request) -> Response:
    manager: GameManager = request.app.state.manager
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(
            loop.run_in_executor(manager.reader, manager.store.ping), timeout=READY_SECONDS
        )
    except Exception as error:
        reason = "no answer" if isinstance(error, TimeoutError) else type(error).__name__
        return _unavailable(f"the database does not answer ({reason})")
    bots = await manager.bots.unready(READY_SECONDS)
    if bots is not None:
        return _unavailable(f"the computer players cannot move: {bots}")
    if manager.bots.degraded is not None:
        # The computer still moves, on this process's own workers: players may come, and the
        # operator reads why it is not thinking where it was set to.
        detail = f"the computer thinks on this process's own workers: {manager.bots.degraded}"
        return JSONResponse({"status": "ready", "degraded": detail})
    return JSONResponse({"status": "ready"})


def _unavailable(detail: str) -> JSONResponse:
    return JSONResponse({"status": "unavailable", "detail": detail}, status_code=503)


@router.get("/metrics", dependencies=[PAGE])
async def metrics(request: Request) -> Response:
    manager: GameManager = request.app.state.manager
    return Response(manager.metrics.text(), media_type=CONTENT_TYPE_LATEST)


ACCESS = logging.getLogger("boneyard.access")
"""One line a request (``AccessLog``): off unless asked for (``--access-log``)."""
ACCESS_FIELDS = ("method", "route", "status", "ms")
"""The access line's fields, also given to the JSON lines as their own keys."""


class JsonLines(logging.Formatter):
    """One JSON object a line: time, level, logger, message (and the exception, if any; the
    access line's fields as keys of their own)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in ACCESS_FIELDS:
            if field in record.__dict__:
                entry[field] = record.__dict__[field]
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


SECRET_VALUES = re.compile(r"(?i)\b(token|tokens|secret|password|seed|code)=[^&\s\"']+")
"""A query's secret values (a seat's token in ``/ws/games/ID?token=...``): what uvicorn's own
lines would quote, shown as ``token=***``."""


def _scrubbed(value: Any) -> Any:
    return SECRET_VALUES.sub(r"\1=***", value) if isinstance(value, str) else value


class SecretsHidden(logging.Filter):
    """Replace the secret values of query strings in a line (and its arguments)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _scrubbed(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_scrubbed(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _scrubbed(arg) for key, arg in record.args.items()}
        return True


class RepeatLimit(logging.Filter):
    """At most ``most`` lines of one kind (logger, level, message template, exception type)
    per ``window`` seconds, from warnings up: an outage is told, not flooded (each request's
    traceback). The first line after a window says how many were left out."""

    def __init__(self, most: int = 5, window: float = 60.0) -> None:
        super().__init__()
        self.most = most
        self.window = window
        self._seen: dict[tuple[str, int, str, str], tuple[float, int]] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        error = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        key = (record.name, record.levelno, str(record.msg), error)
        now = time.monotonic()
        with self._lock:
            began, count = self._seen.get(key, (now, 0))
            if now - began >= self.window:
                if count > self.most:
                    record.msg = (
                        f"{record.msg} [{count - self.most} more like this in the last "
                        f"{self.window:g} s were not logged]"
                    )
                began, count = now, 0
            count += 1
            if len(self._seen) > 10_000:  # many kinds (messages that vary): start over
                self._seen.clear()
            self._seen[key] = (began, count)
        if count == self.most:
            record.msg = f"{record.msg} [more like this in the next {self.window:g} s: not logged]"
        return count <= self.most


def hide_secrets_in_uvicorn_lines() -> None:
    """uvicorn's own lines (its access log, its WebSocket lines) quote the path with its
    query: a seat's token. Hidden on its loggers, however uvicorn was started."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, SecretsHidden) for f in logger.filters):
            logger.addFilter(SecretsHidden())


def setup_logging(style: str, level: int = logging.INFO) -> None:
    """Send every log line (the app's, uvicorn's, the libraries', warnings, an uncaught
    exception of a thread) to standard error, as text or JSON lines, secrets hidden and
    repeats limited. uvicorn is then started with ``log_config=None`` (``uvicorn_options``):
    its own configuration would put its text handlers back."""
    handler = logging.StreamHandler()
    if style == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(SecretsHidden())
    handler.addFilter(RepeatLimit())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    for name in ("boneyard", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
        logger.setLevel(level if name == "boneyard" else max(level, logging.WARNING))
    if ACCESS.level == logging.NOTSET:
        ACCESS.setLevel(logging.WARNING)  # off until ``--access-log`` turns it on
    logging.captureWarnings(True)
    hide_secrets_in_uvicorn_lines()

    def thread_failed(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit or args.exc_value is None:
            return
        name = args.thread.name if args.thread is not None else "?"
        logging.getLogger("boneyard").error(
            "thread %s failed",
            name,
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        )

    threading.excepthook = thread_failed

    def uncaught(kind: type[BaseException], error: BaseException, trace: Any) -> None:
        logging.getLogger("boneyard").critical("uncaught", exc_info=(kind, error, trace))

    sys.excepthook = uncaught


def keep_access_log(on: bool) -> None:
    """Log one line a request (``AccessLog``) or none."""
    ACCESS.setLevel(logging.INFO if on else logging.WARNING)


class AccessLog:
    """One line a request: method, route template (``/api/games/{game_id}/actions``: no id,
    no query, so no token), status and milliseconds. Pure ASGI: it wraps the whole app."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not ACCESS.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = [500]

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = getattr(scope.get("route"), "path", None)
            if route is None:
                path = str(scope.get("path", ""))
                route = "/static/{path}" if path.startswith("/static/") else "(no route)"
            fields = {
                "method": scope.get("method", ""),
                "route": route,
                "status": status[0],
                "ms": round((time.perf_counter() - began) * 1000, 1),
            }
            ACCESS.info("%(method)s %(route)s %(status)d %(ms).1f ms", fields, extra=fields)
