"""The web app on PostgreSQL: the same store through SQLAlchemy, on a throwaway local server.

Skipped, with the reason, where the PostgreSQL server programs or psycopg are missing. The
server runs from a temporary folder on a Unix socket only (no TCP), and is stopped at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from boneyard.web.app import create_app
from boneyard.web.compute.jobs import JobQueue
from boneyard.web.play.catalog import Catalog
from boneyard.web.store.games import Store
from boneyard.web.store.jobs import JobRow
from tests.web.conftest import (
    Server,
    all_games,
    app_settings,
    create,
    lasting,
    play_random,
    token,
    wait_for,
)

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")


def make_app(url: str) -> FastAPI:
    return create_app(url, catalog=Catalog(all_games()), settings=app_settings())


def test_games_survive_a_restart_on_postgresql(postgres_url: str) -> None:
    with TestClient(make_app(postgres_url)) as first:
        games = [create(first, name) for name in ("obonto", "bondo_cones", "toy_secret")]
        for number, created in enumerate(games):
            play_random(first, created, 6, seed=number)
        views = [
            [
                lasting(first.get(f"/api/games/{g['id']}", params={"token": s["token"]}).json())
                for s in g["seats"]
            ]
            for g in games
        ]
    with TestClient(make_app(postgres_url)) as second:
        for created, before in zip(games, views, strict=True):
            after = [
                lasting(
                    second.get(f"/api/games/{created['id']}", params={"token": s["token"]}).json()
                )
                for s in created["seats"]
            ]
            assert after == before
        play_random(second, games[0], 3, seed=9)


def test_a_taken_sequence_number_stores_nothing_on_postgresql(postgres_url: str) -> None:
    with TestClient(make_app(postgres_url)) as client:
        created = create(client, "toy_walk")
        game_id = created["id"]
        mine = client.get(f"/api/games/{game_id}", params={"token": token(created, 0)}).json()
        first = mine["legal"][0]["id"]
        body = {"token": token(created, 0), "seq": mine["seq"], "action": first}
        assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 200
        assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 409
    store = Store(postgres_url)
    try:
        stored = store.load(game_id)
        assert stored is not None and len(stored.actions) == mine["seq"] + 1
        # The primary key refuses a second writer of the same sequence number, whole batch.
        with pytest.raises(IntegrityError):
            store.append_actions(game_id, mine["seq"], [(first, 0), (first, 1)])
        again = store.load(game_id)
        assert again is not None and again.actions == stored.actions
    finally:
        store.close()


def _move(client: httpx2.Client, path: str, tokens: list[str]) -> str:
    """Play the first legal move of the seat to move through ``client``; its action string."""
    mover = client.get(path).json()["current_player"]
    view = client.get(path, params={"token": tokens[mover]}).json()
    action = view["legal"][0]
    answer = client.post(
        path + "/actions",
        json={"token": tokens[mover], "seq": view["seq"], "action": action["id"]},
    )
    assert answer.status_code == 200, answer.text
    return str(action["string"])


def _replayed(url: str, game_id: str) -> Any:
    """The stored game replayed from its actions alone (a fresh state, not the server's)."""
    store = Store(url)
    try:
        stored = store.load(game_id)
    finally:
        store.close()
    assert stored is not None
    state = all_games()[stored.name](**stored.params).new_initial_state()
    for action, _player in stored.actions:
        state.apply_action(action)
    return state


def test_two_server_processes_share_a_game_on_postgresql(postgres_url: str) -> None:
    """A move made through one process reaches another's socket (LISTEN/NOTIFY); moves go
    through either in turn; after ``kill -9`` of the first the second plays on, nothing lost,
    and the stored game replays to the state the survivor shows."""
    light = ("--bot-processes", "0", "--work-processes", "0")
    first, second = Server(postgres_url, *light), Server(postgres_url, *light)
    try:
        with first.client() as a, second.client() as b:
            created = a.post("/api/games", json={"game": "obonto"}).json()
            tokens = [seat["token"] for seat in created["seats"]]
            path = f"/api/games/{created['id']}"
            played: list[str] = []
            with second.socket(f"/ws/games/{created['id']}?draw=false") as watcher:
                assert json.loads(watcher.recv(timeout=10))["seq"] == 0
                for turn in range(6):  # A, B, A, ...: each heard on B's socket
                    played.append(_move((a, b)[turn % 2], path, tokens))
                    heard = json.loads(watcher.recv(timeout=5))
                    assert heard["type"] == "view" and heard["seq"] == turn + 1
            first.process.kill()  # kill -9 in the middle of the game
            first.process.wait()
            for _ in range(3):
                played.append(_move(b, path, tokens))
            survivor = b.get(path, params={"token": tokens[0]}).json()
            log = [line["string"] for line in survivor["log"]]
            assert log == played
            state = _replayed(postgres_url, created["id"])
            assert survivor["seq"] == len(played)
            assert state.current_player() == survivor["current_player"]
            legal = sorted(state.action_to_string(a) for a in state.legal_actions())
            if state.current_player() == 0:
                assert legal == sorted(item["string"] for item in survivor["legal"])
    finally:
        first.stop()
        second.stop()


def _bot_answers(app: FastAPI) -> float:
    """How many computer moves this app's process asked its bots for."""
    registry = app.state.manager.metrics.registry
    return registry.get_sample_value("boneyard_bot_seconds_count", {"kind": "move"}) or 0.0


def _view_at(socket: Any, seq: int) -> dict[str, Any]:
    """The socket's views until the one at sequence number ``seq`` (or past it)."""
    while True:
        view = socket.receive_json()
        if view["type"] == "view" and view["seq"] >= seq:
            return dict(view)


def test_only_the_process_that_moved_asks_for_the_computer_and_another_stands_by(
    postgres_url: str,
) -> None:
    """The process a person moved through asks for the computer's reply; another process
    holding the game hears the move and only stands by. When the reply does not come (the
    first process is gone, or here: slow), the other plays it after its stand-by time."""
    first, second = make_app(postgres_url), make_app(postgres_url)
    with TestClient(first) as a, TestClient(second) as b:
        seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
        created = a.post("/api/games", json={"game": "obonto", "seats": seats}).json()
        path = f"/api/games/{created['id']}"
        person = {"token": created["seats"][0]["token"]}
        with b.websocket_connect(f"/ws/games/{created['id']}?draw=false") as watcher:
            view = _view_at(watcher, 0)
            asked_by_a = _bot_answers(first)
            for _ in range(2):
                if view["current_player"] == 1:  # the computer: moved by the process it is on
                    view = _view_at(watcher, view["seq"] + 1)
                mine = a.get(path, params=person).json()
                assert mine["current_player"] == 0
                body = {**person, "seq": mine["seq"], "action": mine["legal"][0]["id"]}
                assert a.post(path + "/actions", json=body).status_code == 200
                view = _view_at(watcher, mine["seq"] + 1)
            view = _view_at(watcher, view["seq"] + 1) if view["current_player"] == 1 else view
            assert _bot_answers(first) > asked_by_a
            assert _bot_answers(second) == 0, "the process that only heard of the moves waits"
            # The first process answers no more (as if gone): the second takes the turn over.
            first.state.manager.settings.bot_delay = 600.0
            second.state.manager.settings.bot_standby_seconds = 0.5
            mine = a.get(path, params=person).json()
            body = {**person, "seq": mine["seq"], "action": mine["legal"][0]["id"]}
            assert a.post(path + "/actions", json=body).status_code == 200
            began = time.monotonic()
            view = _view_at(watcher, mine["seq"] + 2)
            assert view["log"][-1]["player"] == 1 and view["current_player"] != 1
            assert _bot_answers(second) == 1
            assert time.monotonic() - began < 30
        state = _replayed(postgres_url, created["id"])
        assert state.observation(0) == b.get(path, params=person).json()["observation"]


class UvicornServer(Server):
    """``uvicorn --factory boneyard.web.app:app_from_environment --workers 2``, as documented."""

    def command(self, url: str, options: tuple[str, ...]) -> list[str]:
        return [
            *(sys.executable, "-m", "uvicorn", "--factory"),
            "boneyard.web.app:app_from_environment",
            *("--workers", "2", "--host", "127.0.0.1", "--port", str(self.port)),
            *("--log-level", "warning"),
        ]

    def environment(self, url: str) -> dict[str, str]:
        settings = json.dumps({"bot_delay": 0.0, "games_per_minute": 1000})
        return {**os.environ, "BONEYARD_DB": url, "BONEYARD_SETTINGS": settings}


def test_uvicorn_worker_processes_share_games_on_postgresql(postgres_url: str) -> None:
    """Each new connection lands on either worker: every move is heard on every socket."""
    server = UvicornServer(postgres_url)
    try:
        with server.client() as client:
            created = client.post("/api/games", json={"game": "obonto"}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        path = f"/api/games/{created['id']}"
        with contextlib.ExitStack() as stack:
            watchers = [
                stack.enter_context(server.socket(f"/ws/games/{created['id']}?draw=false"))
                for _ in range(3)
            ]
            for watcher in watchers:
                assert json.loads(watcher.recv(timeout=10))["seq"] == 0
            for turn in range(6):
                with server.client() as client:  # a new connection: any worker
                    _move(client, path, tokens)
                for watcher in watchers:
                    heard = json.loads(watcher.recv(timeout=5))
                    assert heard["seq"] == turn + 1
        store = Store(postgres_url)
        try:
            stored = store.load(created["id"])
            assert stored is not None and len(stored.actions) == 6
        finally:
            store.close()
    finally:
        server.stop()


# ----- bots off the web processes: the job table and ``boneyard bots`` ----------------------------


def test_each_job_is_claimed_once_and_a_dead_workers_job_is_taken_up(postgres_url: str) -> None:
    store = Store(postgres_url)
    queue = JobQueue(store)
    try:
        ids = {queue.submit("move", 0, ["easy", 0, n, None, []], 1.0) for n in range(40)}
        assert len(ids) == 40
        assert queue.submit("move", 0, ["easy", 0, 7, None, []], 1.0) in ids, "asked twice: one job"
        claimed: list[int] = []
        lock = threading.Lock()

        def claim_all(name: str) -> None:
            while (job := queue.claim(name)) is not None:
                with lock:
                    claimed.append(job.id)

        threads = [threading.Thread(target=claim_all, args=(f"w{n}",)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(claimed) == sorted(ids), "every job claimed exactly once (SKIP LOCKED)"
        # A worker that dies holding a job: once its lease runs out another takes it.
        job_id = queue.submit("move", 0, ["easy", 0, 100, None, []], 1.0)
        held = queue.claim("dead")
        assert held is not None and held.id == job_id and held.attempts == 1
        assert queue.claim("alive") is None, "a job under lease is not taken"
        with store.engine.begin() as connection:
            connection.execute(
                update(JobRow).where(JobRow.id == job_id).values(lease_until=time.time() - 1)
            )
        again = queue.claim("alive")
        assert again is not None and again.id == job_id and again.attempts == 2
        assert not queue.finish(held, "dead", 7, None), "the dead worker's answer is ignored"
        assert queue.finish(again, "alive", 8, None)
        assert queue.collect([job_id]) == {job_id: (8, None)}
        assert queue.collect([job_id]) == {job_id: (8, None)}, "every asker gets the answer"
        assert queue.clean(older=-1.0) >= 1 and queue.collect([job_id]) == {}
    finally:
        with store.engine.begin() as connection:  # the next test counts on an empty table
            connection.execute(delete(JobRow))
        store.close()


def test_an_older_job_table_gains_clients_and_workers_take_them_in_turn(postgres_url: str) -> None:
    before = Store(postgres_url)
    with before.engine.begin() as connection:  # the table as it was before jobs named clients
        connection.exec_driver_sql("ALTER TABLE bot_jobs DROP COLUMN client")
        connection.exec_driver_sql("DROP TABLE alembic_version")  # and before migrations
    before.close()
    store = Store(postgres_url)
    try:
        Store(postgres_url).close()  # a second process starting: the column is there already
        queue = JobQueue(store)
        attacker = [
            queue.submit("move", 0, ["hard", 1, n, None, []], 1.0, "127.0.1.1") for n in range(10)
        ]
        honest = queue.submit("move", 0, ["hard", 1, 99, None, []], 1.0, "127.0.0.2")
        claimed = [queue.claim(f"worker-{n}") for n in range(3)]
        assert [job.id for job in claimed if job is not None] == [attacker[0], honest, attacker[1]]
    finally:
        with store.engine.begin() as connection:
            connection.execute(delete(JobRow))
        store.close()


class BotWorkerProcess:
    """``boneyard bots`` in its own process group (killed whole, like a machine going away)."""

    def __init__(self, url: str, name: str) -> None:
        self.name = name
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-c", "from boneyard.cli import main; main()", "bots"),
                *("--db", url, "--processes", "1", "--name", name),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def test_a_bot_worker_answers_and_a_killed_workers_move_is_still_made(postgres_url: str) -> None:
    """A server started with ``--bots queue`` thinks nowhere itself: its computer move waits
    in the job table until a ``boneyard bots`` worker answers it. The first worker is killed
    (its whole process group, SIGKILL) mid-job; a second takes the job up and the move is made
    through the server's accept path."""
    server = Server(postgres_url, "--bots", "queue", "--bot-time", "3", "--bot-delay", "0")
    store = Store(postgres_url)
    workers: list[BotWorkerProcess] = []
    try:
        with server.client() as client:
            seats = [{"kind": "computer", "level": "hard"}, {"kind": "human"}]
            created = client.post("/api/games", json={"game": "obonto", "seats": seats}).json()
            path = f"/api/games/{created['id']}"
            tokens = [seat["token"] or "" for seat in created["seats"]]
            if client.get(path).json()["current_player"] == 1:
                _move(client, path, tokens)
            before = client.get(path).json()["seq"]

            def job(status: str) -> Any:
                with store.engine.connect() as connection:
                    return connection.execute(select(JobRow).where(JobRow.status == status)).first()

            wait_for("the computer move queued", lambda: job("waiting"), 30)
            time.sleep(1.0)
            assert client.get(path).json()["seq"] == before, "no worker: nobody moved"
            workers.append(BotWorkerProcess(postgres_url, "first"))
            running = wait_for("the first worker to take the job", lambda: job("running"), 60)
            assert running.worker == "first"
            workers[0].kill()
            workers.append(BotWorkerProcess(postgres_url, "second"))
            after = wait_for(
                "the computer move",
                lambda: (view := client.get(path).json())["seq"] > before and view,
                90,
            )
            assert after["log"][before]["player"] == 0
            # The move was accepted like a person's: the game goes on from it.
            _move(client, path, tokens)
    finally:
        for worker in workers:
            worker.kill()
        server.stop()
        store.close()
