"""The views of a game's sockets, sent after each change its owner stored (``manager.py``)."""

from __future__ import annotations

import json
from typing import Any

from boneyard.web.play import drawing
from boneyard.web.play.drawing import Lines
from boneyard.web.play.live import LiveGame
from boneyard.web.play.views import seat_view


def send_views(live: LiveGame, log_from: int) -> None:
    """Queue every socket of ``live`` its new view, with the log entries from ``log_from`` on.

    Encoded once per (seat, drawing) and queued in order under the game's lock; the sending
    happens outside it, so a socket that stops reading holds up nobody (its queue fills and it
    is dropped). Only what changed in its drawing goes to a socket that has the last one.
    """
    views: dict[tuple[int | None, bool], tuple[dict[str, Any], Lines | None]] = {}
    encoded: dict[tuple[int | None, bool, Lines | None], str] = {}
    for subscriber in list(live.subscribers):
        key = (subscriber.seat, subscriber.draw)
        if key not in views:
            view = {"type": "view", **seat_view(live, *key, log_from=log_from)}
            views[key] = view, drawing.lines_of(view["svg"])
        view, lines = views[key]
        held = subscriber.drawing
        if (*key, held) not in encoded:
            if held is not None and lines is not None:  # only what changed since then
                view = {**view, "svg": None, "drawing": drawing.changes(held, lines)}
            encoded[(*key, held)] = json.dumps(view, separators=(",", ":"))
        subscriber.drawing = lines
        if not subscriber.offer(encoded[(*key, held)]):
            # It fell behind: no more views for it. Its socket closes and ``unsubscribe``
            # takes it out of the counts (a socket is counted out in one place only).
            live.subscribers.discard(subscriber)
