"""``boneyard db backup`` while games are played, and ``boneyard db restore``: every move
acknowledged before the backup began is in it, on SQLite (the online backup API) and on
PostgreSQL (pg_dump); a plain copy of a SQLite file in use is not a backup (docs/web.md)."""

from __future__ import annotations

import random
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from tests.web.conftest import create, make_app, postgres_url, wait_for  # noqa: F401
from tests.web.test_results import app_on, serve_in_thread

from boneyard.cli import main
from boneyard.web.store.games import Store


class Players:
    """A thread that plays games through the server, one move after another, and notes each
    acknowledged move: ``(game id, its sequence number after the move)``."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.acknowledged: list[tuple[str, int]] = []
        self.failed: list[BaseException] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._play, daemon=True)

    def _play(self) -> None:
        rng = random.Random(7)
        try:
            while not self.stop.is_set():
                created = create(self.client, "toy_walk")
                tokens = [seat["token"] for seat in created["seats"]]
                while not self.stop.is_set():
                    seen = self.client.get(f"/api/games/{created['id']}").json()
                    if seen["terminal"]:
                        break
                    mover = seen["current_player"]
                    mine = self.client.get(
                        f"/api/games/{created['id']}", params={"token": tokens[mover]}
                    ).json()
                    body = {
                        "token": tokens[mover],
                        "seq": mine["seq"],
                        "action": rng.choice(mine["legal"])["id"],
                    }
                    answer = self.client.post(f"/api/games/{created['id']}/actions", json=body)
                    assert answer.status_code == 200, answer.text
                    self.acknowledged.append((created["id"], int(answer.json()["seq"])))
        except BaseException as error:
            self.failed.append(error)

    def __enter__(self) -> Players:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def backed_up_while_playing(client: Any, url: str, backup: Path) -> dict[str, int]:
    """Back ``url`` up while ``client``'s server is played on: the acknowledged moves before
    the backup began, as the last sequence number of each game."""
    with Players(client) as players:
        wait_for("moves before the backup", lambda: len(players.acknowledged) >= 30, 60)
        before = list(players.acknowledged)
        answer = CliRunner().invoke(main, ["db", "backup", str(backup), "--db", url])
        assert answer.exit_code == 0, answer.output
        count = len(players.acknowledged)
        wait_for("moves after the backup", lambda: len(players.acknowledged) >= count + 5, 60)
    assert players.failed == []
    last: dict[str, int] = {}
    for game_id, seq in before:
        last[game_id] = max(seq, last.get(game_id, 0))
    return last


def assert_holds(url: str, last: dict[str, int]) -> None:
    store = Store(url)
    try:
        for game_id, seq in last.items():
            assert store.action_count(game_id) >= seq, game_id
            stored = store.load(game_id)
            assert stored is not None and len(stored.actions) >= seq
    finally:
        store.close()


def test_a_sqlite_backup_taken_mid_play_restores_every_acknowledged_move(
    tmp_path: Path,
) -> None:
    live_file = tmp_path / "live.db"
    url = f"sqlite:///{live_file}"
    backup = tmp_path / "backup.db"
    with TestClient(make_app(live_file)) as client:
        last = backed_up_while_playing(client, url, backup)
        # a second backup to the same file is refused: nothing is overwritten
        again = CliRunner().invoke(main, ["db", "backup", str(backup), "--db", url])
        assert again.exit_code == 2 and "exists" in again.output
    assert len(last) >= 2  # several games, one finished at least
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    answer = CliRunner().invoke(main, ["db", "restore", str(backup), "--db", restored])
    assert answer.exit_code == 0, answer.output
    assert_holds(restored, last)
    # the restored database serves its games on
    with TestClient(make_app(tmp_path / "restored.db")) as client:
        game_id, seq = next(iter(last.items()))
        assert client.get(f"/api/games/{game_id}").json()["seq"] >= seq
    # restoring over a database that holds games needs --replace
    answer = CliRunner().invoke(main, ["db", "restore", str(backup), "--db", restored])
    assert answer.exit_code == 1 and "--replace" in answer.output
    answer = CliRunner().invoke(main, ["db", "restore", str(backup), "--db", restored, "--replace"])
    assert answer.exit_code == 0, answer.output


def test_a_restore_refuses_a_file_that_is_no_backup(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    target = f"sqlite:///{tmp_path / 'target.db'}"
    answer = CliRunner().invoke(main, ["db", "restore", str(junk), "--db", target])
    assert answer.exit_code == 1 and "is not a boneyard SQLite backup" in answer.output
    assert not (tmp_path / "target.db").exists()


@contextmanager
def database(url: str, name: str) -> Iterator[str]:
    """A new empty database ``name`` on the server of ``url``: its URL."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        engine.dispose()


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed")
def test_a_postgresql_backup_taken_mid_play_restores_every_acknowledged_move(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    backup = tmp_path / "backup.dump"
    with database(postgres_url, "played") as played:
        for address in serve_in_thread(app_on(played)):
            with httpx2.Client(base_url=address, timeout=30) as http:
                last = backed_up_while_playing(http, played, backup)
        with database(postgres_url, "restored") as restored:
            answer = CliRunner().invoke(main, ["db", "restore", str(backup), "--db", restored])
            assert answer.exit_code == 0, answer.output
            assert_holds(restored, last)
            answer = CliRunner().invoke(main, ["db", "restore", str(backup), "--db", restored])
            assert answer.exit_code == 1 and "--replace" in answer.output


def test_without_pg_dump_the_backup_says_what_to_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    url = "postgresql+psycopg://boneyard:secret-word@db.example/boneyard"
    answer = CliRunner().invoke(main, ["db", "backup", str(tmp_path / "b.dump"), "--db", url])
    assert answer.exit_code == 1
    assert "pg_dump is not on the PATH" in answer.output
    assert "pg_dump --format=custom --file=PATH" in answer.output
    assert "secret-word" not in answer.output
