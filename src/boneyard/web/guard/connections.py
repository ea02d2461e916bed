"""Connections, before any request: how many, and how long one may take to say what it wants.

uvicorn keeps a connection that sends nothing open for ever, and accepts connections until the
process runs out of file descriptors; then nobody new gets in. ``boneyard serve`` runs uvicorn
with ``BoundedHttp`` as its HTTP protocol (uvicorn's own, with three limits from ``Settings``):

- ``max_connections`` open at once (WebSockets included): past it a new connection is answered
  503 with ``Retry-After`` as soon as it sends its request head, and closed within a second if
  it sends nothing;
- ``header_seconds`` to send a whole request head, ``body_seconds`` for the body after it: a
  connection past either is closed (a slow sender holds a descriptor no longer);
- the process's descriptor limit is raised to what the system allows, and ``max_connections``
  kept below it (``fit_to_descriptors``), so an answer can always be given.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger("boneyard.web")

SPARE_DESCRIPTORS = 124
"""Descriptors kept for everything but client connections: the database, worker pipes, logs."""
REFUSED_GRACE_SECONDS = 1.0
"""How long a connection over the cap may take to send its request head (to read the 503)."""


@dataclass
class ConnectionLimits:
    max_connections: int = 1000
    header_seconds: float = 10.0
    body_seconds: float = 30.0
    retry_after: int = 5


LIMITS = ConnectionLimits()
"""This process's limits (connections belong to the process; ``configure`` sets them)."""


def configure(max_connections: int, header_seconds: float, body_seconds: float) -> int:
    """Set this process's limits; answers the connection cap after ``fit_to_descriptors``."""
    LIMITS.max_connections = fit_to_descriptors(max_connections)
    LIMITS.header_seconds = header_seconds
    LIMITS.body_seconds = body_seconds
    return LIMITS.max_connections


def fit_to_descriptors(wanted: int) -> int:
    """Raise the soft descriptor limit as far as allowed; answer ``wanted`` or what fits."""
    try:
        import resource
    except ImportError:  # not on Linux or macOS: the system's own limit stands
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, wanted + SPARE_DESCRIPTORS)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    fits = max(1, soft - SPARE_DESCRIPTORS)
    if fits < wanted:
        log.warning(
            "this process may open %d files: at most %d connections are taken, not %d",
            soft,
            fits,
            wanted,
        )
    return min(wanted, fits)


def busy_response(retry_after: int) -> bytes:
    body = (
        b'{"error":"busy","detail":"this server has as many connections open as it allows; '
        b'try again in a few seconds"}'
    )
    head = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        f"retry-after: {retry_after}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class BoundedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a connection cap and time limits on the request head and
    body (``LIMITS``)."""

    _deadline: asyncio.TimerHandle | None = None
    _over_cap = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._over_cap = len(self.connections) > LIMITS.max_connections
        wait = REFUSED_GRACE_SECONDS if self._over_cap else LIMITS.header_seconds
        self._arm(wait)

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # a new request on a kept-alive connection
            self._arm(LIMITS.header_seconds)

    def on_headers_complete(self) -> None:
        if self._over_cap:
            self._disarm()
            self.transport.write(busy_response(LIMITS.retry_after))
            self.transport.close()
            return
        self._arm(LIMITS.body_seconds)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()  # the socket's own limits take over (``web/play/sockets.py``)
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
