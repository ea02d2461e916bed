"""The web layer as a one-way graph: no SQL on the event loop while a move is played, and
(below) no import or call circle among its modules along the path of one move."""

from __future__ import annotations

import gc
import threading
import weakref
from pathlib import Path
from typing import Any

from sqlalchemy import event

from tests.web.graphs import circles, import_graph, traced_calls
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


def test_the_lobby_runs_no_sql_on_the_event_loop(tmp_path: Path) -> None:
    """Two people open, join and list their continuing game: the lobby reads and writes on the
    store's threads too."""

    async def test(table: Table) -> None:
        loop_thread = threading.current_thread().name
        ran = record_sql_threads(table)
        ann, ben = [
            (await table.client.post("/api/people", json={"name": name})).json()
            for name in ("Ann", "Ben")
        ]
        proof = {who["name"]: {"id": who["id"], "secret": who["secret"]} for who in (ann, ben)}
        opened = await table.client.post(
            "/api/open", json={"game": "obonto", "person": proof["Ann"]}
        )
        assert opened.status_code == 201, opened.text
        joined = await table.client.post(
            f"/api/open/{opened.json()['id']}/join", json={"person": proof["Ben"]}
        )
        assert joined.status_code == 200, joined.text
        listed = await table.client.post(f"/api/people/{ann['id']}/games", json=proof["Ann"])
        assert [game["opponents"] for game in listed.json()] == [["Ben"]]
        assert ran, "nothing was stored"
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


CHANNEL = "boneyard.web.play.events"
"""The one door up: the games' owner publishes here, and the channel calls the services that
subscribed (``web/app.py`` wires them). Calls out of it are the design, not a circle."""


def test_one_move_makes_no_circle_of_imports_and_calls(tmp_path: Path) -> None:
    """The modules of ``boneyard.web`` with their imports and the calls one move makes over the
    API (a person's move in a timed game between two people): no circle among them. A circle
    is a module that calls back up into one that leads to it (a hook, a pointer back, a helper
    that reads back the object that called it): such a call is fixed, never listed here."""

    async def test(table: Table) -> None:
        created = await table.create(clock=REAL_TIME)
        assert (await table.move(created, 0)).status_code == 200
        view = await table.view(created, 1)
        body = {
            "token": created["seats"][1]["token"],
            "seq": view["seq"],
            "action": view["legal"][0]["id"],
        }
        with traced_calls() as calls:
            moved = await table.client.post(f"/api/games/{created['id']}/actions", json=body)
            await table.tick(0)
        assert moved.status_code == 200, moved.text
        # the move went all the way: stored, published (the clock switched), told to the
        # sockets, and answered with the mover's view (its words, its session, its clock)
        assert ("boneyard.web.play.routes", "boneyard.web.play.manager") in calls
        assert (CHANNEL, "boneyard.web.table.clocks") in calls
        assert ("boneyard.web.play.manager", "boneyard.web.play.broadcast") in calls
        viewed = {callee for caller, callee in calls if caller == "boneyard.web.play.views"}
        assert {
            f"boneyard.web.{m}" for m in ("play.words", "table.session", "play.clocks")
        } <= viewed
        graph = import_graph()
        for caller, callee in calls:
            if caller != CHANNEL:
                graph.setdefault(caller, set()).add(callee)
        found = circles(graph)
        inside = sorted(
            f"{a} -> {b} ({'calls' if (a, b) in calls else 'imports'})"
            for part in found
            for a in part
            for b in graph.get(a, ())
            if b in part
        )
        assert found == [], "\n".join(inside)

    run(tmp_path, test)
