"""The web layer as a one-way graph: no SQL on the event loop while a move is played, and
(below) no import or call circle among its modules along the path of one move."""

from __future__ import annotations

import gc
import threading
import weakref
from pathlib import Path
from typing import Any

from sqlalchemy import event

from tests.web.test_clocks import REAL_TIME, Table, run


def record_sql_threads(table: Table) -> list[tuple[str, str]]:
    """Every statement the app's store runs from here on, with the thread that ran it."""
    ran: list[tuple[str, str]] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        ran.append((threading.current_thread().name, statement.split(None, 1)[0]))

    event.listen(table.app.state.manager.store.engine, "before_cursor_execute", before)
    return ran


def test_a_move_runs_no_sql_on_the_event_loop(tmp_path: Path) -> None:
    """A timed game between two people, read back from the store (its session and its clock
    attached) and moved over the API: every statement runs on the store's threads."""

    async def test(table: Table) -> None:
        manager = table.app.state.manager
        created = await table.create(clock=REAL_TIME)
        assert (await table.move(created, 0)).status_code == 200
        token = created["seats"][1]["token"]
        offered = await table.client.post(
            f"/api/games/{created['id']}/session", json={"token": token, "do": "offer_draw"}
        )
        assert offered.status_code == 200, offered.text
        manager.cache.drop(manager.games[created["id"]])  # the next request reads it back
        loop_thread = threading.current_thread().name
        ran = record_sql_threads(table)
        assert (await table.move(created, 1)).status_code == 200
        view = await table.view(created, 0)
        assert view["seq"] == 2
        assert view["clock"]["running"] == 0  # read back from the store, and running
        assert [e["kind"] for e in view["session"]["events"]] == ["draw_offer"]
        kinds = {kind for _thread, kind in ran}
        assert {"SELECT", "INSERT"} <= kinds, ran  # it was read back and the move stored
        on_loop = [kind for thread, kind in ran if thread == loop_thread]
        assert on_loop == [], f"statements run on the event loop: {on_loop}"

    run(tmp_path, test)


def test_a_game_dropped_from_memory_is_freed_at_once(tmp_path: Path) -> None:
    """Nothing around a live game points back at it (its session asks for it as an argument):
    once the cache drops it, it is freed by its count of references, with no wait for a full
    garbage collection (the largest boards are megabytes)."""

    async def test(table: Table) -> None:
        manager = table.app.state.manager
        created = await table.create(clock=REAL_TIME)
        assert (await table.move(created, 0)).status_code == 200
        live = manager.games[created["id"]]
        assert live.session is not None and live.clock is not None
        gone = weakref.ref(live)
        gc.disable()  # (a collection on the way would hide a circle)
        try:
            manager.cache.drop(live)
            del live
            assert gone() is None
        finally:
            gc.enable()

    run(tmp_path, test)
