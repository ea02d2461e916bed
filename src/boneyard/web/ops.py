"""For operators: health, readiness, metrics and structured logs.

``/healthz`` answers 200 while the process serves at all (a liveness probe); ``/readyz`` answers
200 only when the database answers too, and the Ray cluster when the bots run on one (503
otherwise, saying which: a proxy or orchestrator sends no players to it); ``/metrics`` is the
Prometheus text of ``metrics.Metrics``. ``setup_logging`` writes one JSON object a line when
asked (``--log-format json``), for a log collector.
"""

from __future__ import annotations

import asyncio
import json
import logging
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
    return JSONResponse({"status": "ready"})


def _unavailable(detail: str) -> JSONResponse:
    return JSONResponse({"status": "unavailable", "detail": detail}, status_code=503)


@router.get("/metrics", dependencies=[PAGE])
async def metrics(request: Request) -> Response:
    manager: GameManager = request.app.state.manager
    return Response(manager.metrics.text(), media_type=CONTENT_TYPE_LATEST)


class JsonLines(logging.Formatter):
    """One JSON object a line: time, level, logger, message (and the exception, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def setup_logging(style: str, level: int = logging.INFO) -> None:
    """Send the app's and uvicorn's logs to standard error, as text or JSON lines."""
    handler = logging.StreamHandler()
    if style == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("boneyard", "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False
