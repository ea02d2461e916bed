"""A tournament's live standings, for all of its sockets at once: read once per change,
changes coalesced, each socket sent what changed since its last message.

Before (issue 44 row 3) every socket read the whole table and sent it whole on every change:
360 sockets on a 150-player arena with three accounts toggling join/withdraw took 150 MB in
34 s and slowed every honest move twelvefold. Now:

- one ``StandingsFeed`` per watched tournament reads the tournament and its table once per
  change, whatever the number of sockets;
- after a read it waits ``Settings.standings_send_seconds`` (by default 0.5 s: at most two
  sends a second, whatever the join/withdraw rate): every change meanwhile is taken up by the
  next read, one send for them all;
- a socket's first message is the whole view (``{"type": "view", ...}``, the fields of
  ``GET /api/tournaments/{id}``); each later one (``{"type": "update", ...}``) carries only the
  fields that changed, and of the standings only the rows that changed (``"rows": [[index,
  row], ...]``) and their count (``"count"``: the rows past it are gone). Nothing changed for
  a socket (its own ``me`` included): nothing is sent to it;
- each socket's messages go through its own queue of ``Settings.send_queue`` messages, as a
  game socket's do: a socket that does not read falls behind, is closed (code 1013) and reads
  the whole view again when its page reconnects; it takes a place of its client's share of
  sockets and is charged a socket when it opens (``tournaments.tournament_socket``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket

from boneyard.web.play.sockets import CLOSE_TOO_SLOW, CLOSED

Table = list[dict[str, Any]]
"""A tournament's standings as the store reads them (``TournamentStore.standings``)."""
Reading = tuple[dict[str, Any], Table]
"""What one read gives: the view every socket shares (without ``me``) and the table."""

UNCHANGING = frozenset({"now"})
"""Fields that change on every read without anything having changed: sent along with a real
change, never alone."""


class StandingsSocket:
    """One socket's side of a tournament's standings: what it was sent last and its queue."""

    def __init__(
        self,
        websocket: WebSocket,
        me_of: Callable[[dict[str, Any], Table], dict[str, Any] | None],
        queue_size: int,
    ) -> None:
        self.websocket = websocket
        self.me_of = me_of
        """This socket's own part of a view (its account's place), from the shared view."""
        self.last: dict[str, Any] | None = None
        """The view as this socket's page has it now (None: nothing sent yet)."""
        self.sent = 0
        """Messages put in its queue (tests and benchmarks read it)."""
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=queue_size)
        self.gone = asyncio.Event()
        """Set when it fell behind (its queue was full) or its sender failed."""
        self.sender = asyncio.get_running_loop().create_task(self._send_forever())

    def tell(
        self, shared: dict[str, Any], table: Table, made: dict[Any, Any] | None = None
    ) -> None:
        """Put what changed since its last message in its queue (the whole view the first
        time; nothing when nothing changed). ``made``: the views and messages made for the
        other sockets of this read, by what they were made from: sockets with the same place
        (every spectator's is none) that had the same last view share one view and one
        encoded message, so a hundred spectators cost one diff, not a hundred."""
        made = {} if made is None else made
        me = self.me_of(shared, table)
        place = None if me is None else json.dumps(me, sort_keys=True)
        view = made.setdefault(("view", place), {**shared, "me": me})
        key = ("text", id(self.last), place)
        if key not in made:
            message = _whole(view) if self.last is None else _changes(self.last, view)
            made[key] = None if message is None else json.dumps(message, separators=(",", ":"))
        text = made[key]
        if text is None or self.gone.is_set():
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.gone.set()  # fell behind: closed, and its page reads the whole view again
            return
        self.last = view
        self.sent += 1

    async def _send_forever(self) -> None:
        try:
            while True:
                await self.websocket.send_text(await self.queue.get())
        except asyncio.CancelledError:
            raise
        except Exception:
            self.gone.set()

    async def close_behind(self) -> None:
        """Close a socket that fell behind (1013: try again later)."""
        with contextlib.suppress(*CLOSED, RuntimeError, OSError):
            await self.websocket.close(code=CLOSE_TOO_SLOW)

    def stop(self) -> None:
        self.sender.cancel()


def _whole(view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "view", **view}


def _changes(last: dict[str, Any], view: dict[str, Any]) -> dict[str, Any] | None:
    """The message that turns ``last`` into ``view``; None when only ``UNCHANGING`` differs."""
    message: dict[str, Any] = {}
    for key, value in view.items():
        if key != "standings" and last.get(key) != value:
            message[key] = value
    before, after = last.get("standings", []), view.get("standings", [])
    rows = [
        [index, row]
        for index, row in enumerate(after)
        if index >= len(before) or before[index] != row
    ]
    if rows or len(after) != len(before):
        message["rows"] = rows
        message["count"] = len(after)
    if not set(message) - UNCHANGING:
        return None
    return {"type": "update", **message}


def apply_update(view: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """The view a page holds after ``message`` (what ``tournament.js`` does; tests use it)."""
    if message.get("type") == "view":
        return {key: value for key, value in message.items() if key != "type"}
    updated = {key: value for key, value in view.items()}
    for key, value in message.items():
        if key not in ("type", "rows", "count"):
            updated[key] = value
    if "count" in message:
        standings = list(updated.get("standings", []))[: message["count"]]
        for index, row in message["rows"]:
            if index < len(standings):
                standings[index] = row
            else:
                standings.append(row)
        updated["standings"] = standings
    return updated


class StandingsFeed:
    """One tournament's reads and sends for all of its sockets."""

    def __init__(
        self,
        read: Callable[[], Awaitable[Reading]],
        changed: asyncio.Event,
        interval: float,
        pause: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.read = read
        self.changed = changed
        """Set by the tournament's director whenever the tournament changes."""
        self.interval = interval
        self.pause = pause
        self.sockets: set[StandingsSocket] = set()
        self.reads = 0
        """Reads of the table so far (one per coalesced change, whatever the sockets)."""
        self._latest: Reading | None = None
        self._task: asyncio.Task[None] | None = None

    def join(self, socket: StandingsSocket) -> None:
        """``socket`` is told the whole view at once (the last one read, if it is recent:
        nothing is read for it alone), then what changes."""
        self.sockets.add(socket)
        if self._latest is not None and not self.changed.is_set():
            socket.tell(*self._latest)
        else:
            self.changed.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def leave(self, socket: StandingsSocket) -> None:
        self.sockets.discard(socket)
        socket.stop()

    def cancel(self) -> None:
        """Stop reading (its last socket left)."""
        if self._task is not None:
            self._task.cancel()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while self.sockets:
            await self.changed.wait()
            self.changed.clear()
            try:
                self._latest = await self.read()
            except asyncio.CancelledError:
                raise
            except Exception:  # the tournament is gone, or the store away a moment
                self._latest = None
                await self.pause(self.interval)
                continue
            self.reads += 1
            made: dict[Any, Any] = {}
            for socket in list(self.sockets):
                socket.tell(*self._latest, made)
            # Changes while it waits are taken up by one read after it.
            await self.pause(self.interval)


class StandingsFeeds:
    """The feeds of the tournaments watched on this process, made with their first socket and
    dropped with their last."""

    def __init__(
        self,
        watch: Callable[[str], asyncio.Event],
        unwatch: Callable[[str, asyncio.Event], None],
        interval: float,
    ) -> None:
        self.watch, self.unwatch, self.interval = watch, unwatch, interval
        self.feeds: dict[str, StandingsFeed] = {}

    def join(
        self, tournament_id: str, read: Callable[[], Awaitable[Reading]], socket: StandingsSocket
    ) -> StandingsFeed:
        feed = self.feeds.get(tournament_id)
        if feed is None:
            feed = StandingsFeed(read, self.watch(tournament_id), self.interval)
            self.feeds[tournament_id] = feed
        feed.join(socket)
        return feed

    def leave(self, tournament_id: str, socket: StandingsSocket) -> None:
        feed = self.feeds.get(tournament_id)
        if feed is None:
            return
        feed.leave(socket)
        if not feed.sockets:
            del self.feeds[tournament_id]
            self.unwatch(tournament_id, feed.changed)
            feed.cancel()
