"""Connections, before any request: how many, from whom, and how long one may take to say what
it wants.

uvicorn keeps a connection that sends nothing open for ever, and accepts connections until the
process runs out of file descriptors; then nobody new gets in. ``boneyard serve`` runs uvicorn
with ``BoundedHttp`` as its HTTP protocol (uvicorn's own, with these limits from ``Settings``):

- ``max_connections`` open at once (WebSockets included): past it a new connection is answered
  503 with ``Retry-After`` as soon as it sends its request head, and closed within a second if
  it sends nothing;
- a share of them per client network (``connection_share``, sockets included; an IPv4 /24, an
  IPv6 /64, ``networks.py``: the many addresses of one attacker count as one; the addresses of
  trusted proxies aside): past it a new connection from that network is answered 429 the same
  way, and past it by ``REFUSALS_WAITING`` more it is closed at once, so one network cannot
  hold the cap (nor the descriptors) that the others need;
- a reserve (``connection_reserve`` of the cap) for known clients: networks a signed-in
  account or a person's move came from (``note_known``, in this process). Anonymous
  connections (a crowd of spectators) take at most the rest; when that is full, a newcomer's
  connection takes the place of the oldest of the network holding the most of it (that one
  is closed: its network holds more than the newcomer's), so however many networks an
  attacker brings, each holds at most an even part of it and an honest newcomer gets in. A
  newcomer that would hold as many as the most is answered 503;
- ``header_seconds`` to send a whole request head, ``body_seconds`` for the body after it: a
  connection past either is closed (a slow sender holds a descriptor no longer);
- the process's descriptor limit is raised to what the system allows, and ``max_connections``
  kept below it (``fit_to_descriptors``), so an answer can always be given.

A refused connection is not read further (no 400, no "Invalid HTTP request" line, no upgrade to
a socket). Refusals come by the thousand under attack: they are counted in ``REFUSED`` (shown in
``/metrics``), never logged one by one; uvicorn's own "Invalid HTTP request" lines (junk sent
by a client) are counted there too (``quiet_invalid_requests``).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from boneyard.web.networks import network_of

log = logging.getLogger("boneyard.web")

SPARE_DESCRIPTORS = 124
"""Descriptors kept for everything but client connections: the database, worker pipes, logs."""
REFUSED_GRACE_SECONDS = 1.0
"""How long a connection over the cap may take to send its request head (to read the 503)."""
REFUSALS_WAITING = 4
"""Connections one address may have waiting for their refusal, past its share: more are closed
at once, unanswered (an attacker reopening them as they close holds no more than this)."""


@dataclass
class ConnectionLimits:
    max_connections: int = 1000
    header_seconds: float = 10.0
    body_seconds: float = 30.0
    retry_after: int = 5
    per_address: int = 100
    """Connections one network may hold open (``connection_share`` of the cap)."""
    anonymous: int = 800
    """Connections anonymous clients may hold together (the cap less ``connection_reserve``)."""
    unshared: tuple[str, ...] = ()
    """Addresses and networks not held to a share: the trusted proxies (``"*"``: every
    address)."""

    def holds_to_share(self, address: str) -> bool:
        """Whether connections from ``address`` count in its share (a proxy's do not)."""
        if not self.unshared:
            return True
        if "*" in self.unshared:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return address not in self.unshared
        return not any(ip in _network(entry) for entry in self.unshared)


@functools.cache
def _network(entry: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | tuple[()]:
    """A trusted proxy's network (an address: a network of one); () when it is neither."""
    try:
        return ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return ()


LIMITS = ConnectionLimits()
"""This process's limits (connections belong to the process; ``configure`` sets them)."""
OPEN: Counter[str] = Counter()
"""Connections open now per client network (sockets included), in this process."""
ANONYMOUS: dict[str, OrderedDict[BoundedHttp, None]] = {}
"""The anonymous connections admitted per network, oldest first (what a newcomer may take the
place of)."""
KNOWN: OrderedDict[str, None] = OrderedDict()
"""Networks a signed-in account or a person's move came from, most recent last: their
connections may use the reserve."""
KNOWN_REMEMBERED = 100_000
"""Known networks kept at most (the least recently seen forgotten first)."""


def note_known(address: str) -> None:
    """A signed-in request or a person's move came from ``address``: its network's next
    connections may use the reserve."""
    network = network_of(address)
    KNOWN[network] = None
    KNOWN.move_to_end(network)
    if len(KNOWN) > KNOWN_REMEMBERED:
        KNOWN.popitem(last=False)


def anonymous_open() -> int:
    """Anonymous connections admitted and open now."""
    return sum(len(held) for held in ANONYMOUS.values())


REFUSED: Counter[str] = Counter()
"""Connections refused or closed by this process, by reason (``/metrics``)."""


def configure(
    max_connections: int,
    header_seconds: float,
    body_seconds: float,
    connection_share: float = 0.1,
    trusted_proxies: Iterable[str] = (),
    connection_reserve: float = 0.2,
) -> int:
    """Set this process's limits; answers the connection cap after ``fit_to_descriptors``."""
    LIMITS.max_connections = fit_to_descriptors(max_connections)
    LIMITS.anonymous = max(
        1, LIMITS.max_connections - int(LIMITS.max_connections * connection_reserve)
    )
    LIMITS.header_seconds = header_seconds
    LIMITS.body_seconds = body_seconds
    LIMITS.per_address = max(1, int(LIMITS.max_connections * connection_share))
    LIMITS.unshared = tuple(trusted_proxies)
    quiet_invalid_requests()
    return LIMITS.max_connections


UVICORN_COUNTED = {
    "Invalid HTTP request": "invalid_request",
    "Unsupported upgrade request": "unsupported_upgrade",
}
"""uvicorn's warnings of one line per connection, by how they start: counted under these
reasons in ``REFUSED`` instead (a client sending junk on many connections floods the log)."""


class _CountClientWarnings(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        for start, reason in UVICORN_COUNTED.items():
            if text.startswith(start):
                REFUSED[reason] += 1
                return False
        return True


def quiet_invalid_requests() -> None:
    """Count uvicorn's warnings about what a client sent (``UVICORN_COUNTED``) in
    ``REFUSED`` rather than log them."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _CountClientWarnings) for f in logger.filters):
        logger.addFilter(_CountClientWarnings())


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
    return _refusal(
        503,
        "Service Unavailable",
        retry_after,
        '{"error":"busy","detail":"this server has as many connections open as it allows; '
        'try again in a few seconds"}',
    )


def share_response(per_address: int, retry_after: int) -> bytes:
    return _refusal(
        429,
        "Too Many Requests",
        retry_after,
        f'{{"error":"too_many_connections","detail":"this address has {per_address} '
        "connections open, the most one address may hold; close some or try again in a few "
        'seconds"}',
    )


def _refusal(status: int, words: str, retry_after: int, body_text: str) -> bytes:
    body = body_text.encode("ascii")
    head = (
        f"HTTP/1.1 {status} {words}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        f"retry-after: {retry_after}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class BoundedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a connection cap, a share of it per address and time limits
    on the request head and body (``LIMITS``)."""

    _deadline: asyncio.TimerHandle | None = None
    _refusal: bytes | None = None
    """The answer a connection over the cap or its address's share gets once its head is read."""
    _refused = False
    """Answered and closing: nothing more it sends is read."""
    _reason: str | None = "slow_head"
    """What the connection is waiting for, should its time run out (``REFUSED``' reason; None:
    refused already, and counted then)."""
    _address: str | None = None
    """The network this connection is counted under in ``OPEN`` (None: not counted)."""
    _placed = False
    """Its place was settled at its first request head: known, or one of the anonymous."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        held = 0
        if address is not None and LIMITS.holds_to_share(address):
            network = network_of(address)
            held = OPEN[network]
            OPEN[network] += 1
            self._address = network
        if len(self.connections) > LIMITS.max_connections:
            self._refuse_after_head("busy", busy_response(LIMITS.retry_after))
        elif held >= LIMITS.per_address + REFUSALS_WAITING:
            REFUSED["address_share"] += 1
            self._refused = True
            transport.close()  # its place in the queue of refusals is taken: no answer
        elif held >= LIMITS.per_address:
            self._refuse_after_head(
                "address_share", share_response(LIMITS.per_address, LIMITS.retry_after)
            )
        else:
            self._arm(LIMITS.header_seconds)

    def _refuse_after_head(self, reason: str, answer: bytes) -> None:
        REFUSED[reason] += 1
        self._refusal = answer
        self._reason = None
        self._arm(REFUSED_GRACE_SECONDS)

    def _count_out(self) -> None:
        if self._address is not None:
            OPEN[self._address] -= 1
            if OPEN[self._address] <= 0:
                del OPEN[self._address]
            held = ANONYMOUS.get(self._address)
            if held is not None:
                held.pop(self, None)
                if not held:
                    del ANONYMOUS[self._address]
            self._address = None

    def _place(self) -> bytes | None:
        """Settle this connection's place at its first request head: a known network's is
        admitted (within the cap and its share, checked already); an anonymous one within the
        anonymous part, taking the place of the oldest connection of the network holding the
        most of it when that is full; the refusal to answer, when none is to be had."""
        self._placed = True
        network = self._address
        if network is None or network in KNOWN:
            return None
        mine = ANONYMOUS.get(network, OrderedDict())
        if anonymous_open() >= LIMITS.anonymous:
            largest = max(ANONYMOUS, key=lambda other: len(ANONYMOUS[other]), default=None)
            if largest is None or len(ANONYMOUS[largest]) <= len(mine) + 1:
                REFUSED["anonymous_full"] += 1
                return busy_response(LIMITS.retry_after)
            oldest = next(iter(ANONYMOUS[largest]))
            REFUSED["made_room"] += 1
            oldest._count_out()  # counted out now: the place is this one's at once
            oldest.transport.close()
        ANONYMOUS.setdefault(network, mine)[self] = None
        return None

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
            if self._reason is not None:
                REFUSED[self._reason] += 1
            self._refused = True
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # answered (or timed out): the rest is not read, nor logged as invalid
        super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # a new request on a kept-alive connection
            self._reason = "slow_head"
            self._arm(LIMITS.header_seconds)

    def on_headers_complete(self) -> None:
        if self._refusal is None and not self._placed:
            self._refusal = self._place()
        if self._refusal is not None:
            self._disarm()
            self._refused = True
            self.transport.write(self._refusal)
            self.transport.close()
            return
        self._reason = "slow_body"
        self._arm(LIMITS.body_seconds)
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:  # the rest of a refused request's first packet: dropped
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        if not self._refused:
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        if self._refused:
            return  # answered 503 or 429: not upgraded
        self._disarm()  # the socket's own limits take over (``web/play/sockets.py``)
        super().handle_websocket_upgrade()
        # The connection is the socket's protocol's now: it stays counted in ``OPEN`` (sockets
        # take a place in the address's share) until that protocol loses the connection.
        socket_protocol: Any = self.transport.get_protocol()
        lost = socket_protocol.connection_lost

        def counted_out_when_lost(exc: Exception | None) -> None:
            self._count_out()
            lost(exc)

        socket_protocol.connection_lost = counted_out_when_lost

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._count_out()
        super().connection_lost(exc)
