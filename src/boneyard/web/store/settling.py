"""What must happen once when a game ends, caught up by any process: the settle sweep.

A game's result is settled (its ratings moved, its arena score counted) in the transaction
that stores it, by the store's ``on_finish`` hooks (``ratings.py``, ``tournaments.py``). A
result stored by a process that had no such hook (an older build during a rolling upgrade), or
by one killed between two steps, would stay unsettled for good. So every serving process
sweeps (``web/people/settling.py``: at start and every minute): it asks each hook's owner for
the finished games it has not settled (``Store.unsettled``) and runs the hooks again on the
stored result, each game in a transaction of its own. The hooks are idempotent (each marks its
work done by a conditional update, which on PostgreSQL waits for the row of a concurrent
sweep), so any number of processes may sweep at once: each result is settled once.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from sqlalchemy import select

from boneyard.web.store.games import GameRow, Store
from boneyard.web.store.sessions import SessionEventRow

log = logging.getLogger("boneyard.web")

SWEEP_BATCH = 200
"""The most games one sweep settles (the next sweep takes the rest)."""


def ending_of(connection: Any, game_id: str) -> str:
    """How ``game_id`` ended, as its ``on_finish`` hooks were told: the kind of the web-layer
    action that stored its result (a resignation, an abort, a flag: the one whose detail
    holds non-empty returns), or "rules" when the rules ended it."""
    rows = connection.execute(
        select(SessionEventRow.kind, SessionEventRow.detail)
        .where(SessionEventRow.game_id == game_id)
        .order_by(SessionEventRow.number.desc())
    ).all()
    for kind, detail in rows:
        if (detail or {}).get("returns"):
            return str(kind)
    return "rules"


def find_unsettled(store: Store, batch: int = SWEEP_BATCH) -> list[str]:
    """The finished games some hook of ``store.on_finish`` has not settled yet (at most
    ``batch``): a read, for a reader thread (20,000 settled rated games: 27 ms on SQLite)."""
    with store.reads.connect() as connection:
        found: set[str] = set()
        for unsettled in store.unsettled:
            found.update(unsettled(connection, batch))
    return sorted(found)[:batch]


def settle_games(store: Store, game_ids: list[str]) -> int:
    """Run ``store.on_finish`` on the stored result of each of ``game_ids`` that is over, each
    in a transaction of its own (the hooks skip what is settled already); answers how many."""
    settled = 0
    for game_id in game_ids:
        with store.engine.begin() as connection:
            row = connection.execute(
                select(GameRow.finished, GameRow.returns).where(GameRow.id == game_id)
            ).first()
            if row is None or not row.finished or row.returns is None:
                continue
            returns = [float(value) for value in json.loads(row.returns)]
            store.finished(connection, game_id, returns, ending_of(connection, game_id))
            settled += 1
    if settled:
        log.info("caught up %d finished game(s) left unsettled", settled)
    return settled


def settle_unsettled(store: Store, batch: int = SWEEP_BATCH) -> int:
    """One whole sweep: find what is unsettled and settle it; answers how many games. Safe
    on any number of processes at once."""
    return settle_games(store, find_unsettled(store, batch))
