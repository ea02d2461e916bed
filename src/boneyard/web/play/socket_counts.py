"""Sockets counted once in and once out: per game, per client address, server-wide and in the
live games' memory budget. ``announce`` may stop sending to a socket that fell behind, but only
``count_out`` takes it out of the counts, so no path leaks a place (issue 33). Sockets that
watch no game (a tournament's standings) are counted the same, with no game."""

from __future__ import annotations

from collections import Counter
from typing import cast

from boneyard.web.errors import WebError
from boneyard.web.play.cache import LiveCache
from boneyard.web.play.live import LiveGame, Subscriber
from boneyard.web.settings import Settings


class SocketCounts:
    """The sockets open on this app, each with its game (if it watches one) and client address."""

    def __init__(self, settings: Settings, cache: LiveCache) -> None:
        self.settings = settings
        self.cache = cache
        self.by_client: Counter[str] = Counter()
        """Sockets subscribed per client address."""
        self._counted: dict[object, tuple[LiveGame | None, str]] = {}
        """Every subscribed socket, with its game and client: the one record it is counted
        out by, whether or not its game still sends to it."""

    def __len__(self) -> int:
        return len(self._counted)

    def count_in(self, live: LiveGame | None, subscriber: object, client: str) -> None:
        """Count ``subscriber`` in (``live``: the game it watches, if any), or refuse it past
        ``sockets_per_game``, ``sockets_per_client`` or ``max_sockets`` with nothing counted."""
        if live is not None and len(live.subscribers) >= self.settings.sockets_per_game:
            raise WebError(
                503, "too_many_sockets", "this game has as many watchers as it allows",
                retry_after=30,
            )  # fmt: skip
        if self.by_client[client] >= self.settings.sockets_per_client:
            raise WebError(
                429, "too_many_sockets", "this address has as many sockets open as it may",
                retry_after=30,
            )  # fmt: skip
        if len(self._counted) >= self.settings.max_sockets:
            raise WebError(
                503, "too_many_sockets", "this server has as many sockets open as it allows",
                retry_after=30,
            )  # fmt: skip
        if subscriber in self._counted:
            raise ValueError("a subscriber is subscribed once")
        self.cache.hold(self.settings.socket_bytes)  # a socket's buffers count as memory
        self._counted[subscriber] = (live, client)
        self.by_client[client] += 1

    def count_out(self, subscriber: object) -> None:
        """Take ``subscriber`` out of every count, once: a second call, or one for a socket
        never counted in, changes nothing."""
        counted = self._counted.pop(subscriber, None)
        if counted is None:
            return
        live, client = counted
        if live is not None:
            live.subscribers.discard(cast(Subscriber, subscriber))
        self.cache.release(self.settings.socket_bytes)
        self.by_client[client] -= 1
        if self.by_client[client] <= 0:
            del self.by_client[client]
