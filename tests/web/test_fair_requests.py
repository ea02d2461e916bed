"""Costly requests take turns by client, interactive work first (issue 44 item 1, row 6):
``web/guard/turns.py``. Proven by who is served in which order and by counts, never by time."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.requests import Request

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import charges_of
from boneyard.web.guard.turns import WORK_OF, RequestTurns, Work
from tests.web.conftest import another_person, create, make_app, wait_for


def request_of(
    client: str, receive: Callable[[], Awaitable[dict[str, Any]]] | None = None
) -> Request:
    """A request from ``client`` (its client stays unless ``receive`` says it left)."""
    scope = {"type": "http", "state": {}, "client_name": client, "headers": []}

    async def connected() -> dict[str, Any]:
        await asyncio.Event().wait()  # the client stays
        return {"type": "http.disconnect"}

    return Request(scope, receive or connected)


def turns_of(**settings: Any) -> RequestTurns:
    options: dict[str, Any] = {"slots": 1, "queue": 100, "wait_seconds": 600.0, **settings}
    return RequestTurns(**options)


async def asked(turns: RequestTurns, client: str, work: Work, **kw: Any) -> asyncio.Task[None]:
    """``client``'s request for a turn, waiting (or started) once this returns."""
    task = asyncio.create_task(turns.take(request_of(client, **kw), client, work))
    await asyncio.sleep(0)  # it has taken its place
    return task


def test_a_move_starts_at_once_and_a_light_clients_read_next() -> None:
    """One slot, held by A; A asks three reads more, then B one read and H a move. H's move
    starts at once (its class has its own slots); B's read (B had nothing) is served next,
    then A's in order: not B behind all of A's, as in one line by arrival."""

    async def scenario() -> list[str]:
        turns = turns_of()
        first = await asked(turns, "A", Work.COSTLY)
        assert first.done() and turns.running == 1
        waiting = [await asked(turns, "A", Work.COSTLY) for _ in range(3)]
        waiting.append(await asked(turns, "B", Work.COSTLY))
        move = await asked(turns, "H", Work.INTERACTIVE)
        assert move.done() and turns.waiting == 4 and turns.running == 2
        for work in [Work.INTERACTIVE, Work.COSTLY, Work.COSTLY, Work.COSTLY, Work.COSTLY]:
            turns.end(work)
            await asyncio.sleep(0)
        await asyncio.gather(*waiting)
        assert turns.running == 1 and turns.most_running == 2
        return turns.served

    assert asyncio.run(scenario()) == ["A", "H", "B", "A", "A", "A"]


def test_a_move_starts_at_once_whatever_the_costly_requests_hold() -> None:
    """Costly requests fill the slots and more wait; moves still start at once (their class
    has as many slots of its own), and a move that waits for one goes before the reads that
    waited longer."""

    async def scenario() -> None:
        turns = turns_of(slots=2)
        crowd = [await asked(turns, f"C{n}", Work.COSTLY) for n in range(4)]
        assert [task.done() for task in crowd] == [True, True, False, False]
        moves = [await asked(turns, f"H{n}", Work.INTERACTIVE) for n in range(3)]
        assert [task.done() for task in moves] == [True, True, False]
        assert turns.running == 4
        turns.end(Work.COSTLY)
        assert turns.served == ["C0", "C1", "H0", "H1"]  # still three and two running
        turns.end(Work.INTERACTIVE)
        assert turns.served == ["C0", "C1", "H0", "H1", "H2"]  # the move, not C2
        await moves[2]
        for task in crowd[2:]:
            task.cancel()
        await asyncio.gather(*crowd[2:], return_exceptions=True)
        assert turns.waiting == 0

    asyncio.run(scenario())


def test_a_client_back_from_a_rest_starts_level_with_no_credit() -> None:
    """B was served long ago while A kept asking: B's two new reads do not both jump A's."""

    async def scenario() -> list[str]:
        turns = turns_of()
        await asked(turns, "B", Work.COSTLY)
        turns.end(Work.COSTLY)
        for _ in range(5):  # A alone for a while
            await asked(turns, "A", Work.COSTLY)
            turns.end(Work.COSTLY)
        await asked(turns, "A", Work.COSTLY)  # holds the slot
        waiting = [await asked(turns, who, Work.COSTLY) for who in ("A", "A", "B", "B")]
        for _ in waiting:
            turns.end(Work.COSTLY)
            await asyncio.sleep(0)
        return turns.served[-4:]

    assert asyncio.run(scenario()) == ["B", "A", "B", "A"]


def test_a_full_queue_drops_the_newest_of_the_client_with_the_most_waiting() -> None:
    async def scenario() -> None:
        turns = turns_of(queue=3)
        await asked(turns, "held", Work.COSTLY)
        crowd = [await asked(turns, "crowd", Work.COSTLY) for _ in range(2)]
        other = await asked(turns, "other", Work.COSTLY)
        newcomer = await asked(turns, "newcomer", Work.COSTLY)
        with pytest.raises(WebError) as refused:
            await crowd[1]
        assert refused.value.status == 503 and refused.value.code == "busy"
        assert refused.value.retry_after is not None and refused.value.retry_after >= 1
        assert turns.refused["full"] == 1 and turns.waiting == 3
        # lines of one each keep their places: the next newcomer is refused
        late = await asked(turns, "late", Work.COSTLY)
        with pytest.raises(WebError):
            await late
        assert turns.refused["full"] == 2
        for _ in range(3):
            turns.end(Work.COSTLY)
            await asyncio.sleep(0)
        await asyncio.gather(crowd[0], other, newcomer)
        assert turns.served == ["held", "crowd", "other", "newcomer"]

    asyncio.run(scenario())


def test_a_request_that_cannot_start_in_time_is_refused_never_served_late() -> None:
    async def scenario() -> None:
        turns = turns_of(wait_seconds=0.05)
        await asked(turns, "held", Work.COSTLY)
        late = await asked(turns, "late", Work.COSTLY)
        with pytest.raises(WebError) as refused:
            await late
        assert refused.value.status == 503 and turns.refused["late"] == 1
        turns.end(Work.COSTLY)
        assert turns.served == ["held"] and turns.running == 0

    asyncio.run(scenario())


def test_a_request_whose_client_left_is_dropped_before_its_turn() -> None:
    async def scenario() -> None:
        turns = turns_of()
        await asked(turns, "held", Work.COSTLY)
        left = asyncio.Event()

        async def leaves() -> dict[str, Any]:
            await left.wait()
            return {"type": "http.disconnect"}

        gone = await asked(turns, "gone", Work.COSTLY, receive=leaves)
        stays = await asked(turns, "stays", Work.COSTLY)
        left.set()
        with pytest.raises(WebError) as dropped:
            await gone
        assert dropped.value.status == 499 and turns.refused["gone"] == 1
        turns.end(Work.COSTLY)
        await stays
        assert turns.served == ["held", "stays"]

    asyncio.run(scenario())


# ----- in the app ------------------------------------------------------------------------------


def turns_in(client: TestClient) -> RequestTurns:
    app: FastAPI = client.app  # type: ignore[assignment]
    turns: RequestTurns = app.state.turns
    return turns


def hold_a_slot(main: TestClient) -> Request:
    """Take the one slot in the server's loop, as a request of client ``held`` would."""
    turns, held = turns_in(main), request_of("held")

    async def take() -> None:
        await turns.take(held, "held", Work.COSTLY)

    main.portal.call(take)  # type: ignore[union-attr]
    return held


def test_routes_take_turns_by_their_charge_and_give_them_back(db_path: Path) -> None:
    with TestClient(make_app(db_path)) as main:
        turns = turns_in(main)
        game = create(main, "obonto", seats=[{"kind": "human"}, {"kind": "human"}])
        token = game["seats"][0]["token"]
        assert main.get("/api/kinds").status_code == 200  # a page: no turn
        assert sum(turns.started.values()) == 0
        assert main.get(f"/api/games/{game['id']}").status_code == 200  # a spectator: costly
        assert main.get("/api/lobby").status_code == 200
        assert turns.started == {Work.COSTLY: 2}
        view = main.get(f"/api/games/{game['id']}", params={"token": token}).json()
        move = {"token": token, "seq": view["seq"], "action": view["legal"][0]["id"]}
        assert main.post(f"/api/games/{game['id']}/actions", json=move).status_code == 200
        assert turns.started == {Work.COSTLY: 2, Work.INTERACTIVE: 2}  # its own view, a move
        wrong = main.get(f"/api/games/{game['id']}", params={"token": "not-a-seat"})
        assert wrong.status_code == 403 and turns.started[Work.COSTLY] == 3
        assert turns.running == 0 and turns.waiting == 0  # every turn given back


def test_an_honest_move_never_waits_for_a_crowds_reads_and_its_read_goes_next(
    db_path: Path,
) -> None:
    """The one slot held; a crowd's network sends four reads, then the honest player a read
    of its game: all wait. The honest player's move is answered meanwhile; once the slot is
    free, the honest read is served second, not fifth."""
    with (
        TestClient(make_app(db_path, request_slots=1)) as main,
        ThreadPoolExecutor(8) as workers,
    ):
        turns = turns_in(main)
        honest = another_person(main, "192.0.2.1")
        game = create(honest, "obonto", seats=[{"kind": "human"}, {"kind": "human"}])
        token = game["seats"][0]["token"]
        view = honest.get(f"/api/games/{game['id']}", params={"token": token}).json()
        crowd_game = create(main, "obonto")
        hold_a_slot(main)
        sent: list[Future[Any]] = []
        for n in range(4):
            reader = another_person(main, f"198.51.100.{n + 1}")
            sent.append(workers.submit(reader.get, f"/api/games/{crowd_game['id']}"))
            wait_for(f"{n + 1} crowd reads waiting", lambda n=n: turns.waiting == n + 1)
        sent.append(workers.submit(honest.get, f"/api/games/{game['id']}"))
        wait_for("the honest read waiting", lambda: turns.waiting == 5)
        move = {"token": token, "seq": view["seq"], "action": view["legal"][0]["id"]}
        moved = honest.post(f"/api/games/{game['id']}/actions", json=move)
        assert moved.status_code == 200, moved.text
        assert turns.waiting == 5 and not any(answer.done() for answer in sent)
        served_before = len(turns.served)
        main.portal.call(turns.end, Work.COSTLY)  # type: ignore[union-attr]
        assert [answer.result(60).status_code for answer in sent] == [200] * 5
        crowd, player = "net:198.51.100.0/24", "net:192.0.2.0/24"
        assert turns.served[served_before:] == [crowd, player, crowd, crowd, crowd]
        assert turns.running == 0


def test_a_read_whose_client_left_is_not_done(db_path: Path) -> None:
    with TestClient(make_app(db_path, request_slots=1)) as main:
        turns = turns_in(main)
        game = create(main, "obonto")
        hold_a_slot(main)
        left = main.portal.call(anyio.Event)  # type: ignore[union-attr]
        answered: list[int] = []
        first = [True]

        async def receive() -> dict[str, Any]:
            if first.pop() if first else False:
                return {"type": "http.request", "body": b"", "more_body": False}
            await left.wait()  # the client is there until it leaves
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answered.append(message["status"])

        path = f"/api/games/{game['id']}"
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": b"",
            "headers": [(b"host", b"testserver")],
            "client": ("203.0.9.1", 50000),
            "server": ("testserver", 80),
        }
        abandoned = main.portal.start_task_soon(main.app, scope, receive, send)  # type: ignore[union-attr, arg-type]
        wait_for("the read waiting", lambda: turns.waiting == 1)
        main.portal.call(left.set)  # type: ignore[union-attr]
        wait_for("the read dropped", lambda: turns.refused["gone"] == 1)
        abandoned.result(timeout=30)
        assert turns.waiting == 0 and turns.served[-1] == "held"
        main.portal.call(turns.end, Work.COSTLY)  # type: ignore[union-attr]
        assert turns.running == 0
        assert 'boneyard_refusals_total{reason="request_gone"} 1.0' in main.get("/metrics").text


def test_work_that_waits_in_a_queue_of_its_own_holds_no_turn(db_path: Path) -> None:
    """A hint waits for the bot workers and the daily puzzle for its solver: holding a turn
    meanwhile would keep everyone's reads waiting as long. Every other read and move takes
    one."""

    def walked(routes: list[Any]) -> list[Any]:
        found = []
        for route in routes:
            inner = getattr(route, "original_router", None)  # an included router
            found += walked(list(inner.routes)) if inner is not None else [route]
        return found

    app = make_app(db_path)
    takes: dict[str, bool] = {}
    for route in walked(list(app.routes)):
        dependant = getattr(route, "dependant", None)
        if dependant is None:
            continue
        for sub in dependant.dependencies:
            for charge in charges_of([sub]):
                if charge.spend in WORK_OF:
                    takes[route.path] = charge.takes_turn  # type: ignore[attr-defined]
    waiving = {path for path, takes_turn in takes.items() if not takes_turn}
    assert waiving == {"/api/games/{game_id}/hint", "/api/ladder/daily/{date}"}
    assert takes["/api/games/{game_id}/actions"] and takes["/api/games/{game_id}"]
    assert takes["/@/{name}"] and takes["/api/tournaments/{tournament_id}"]
