"""Running the app as a service: health, readiness, metrics, logs, several processes, the bot
job queue on SQLite, and the deployment files in deploy/ (checked here: Docker is not run)."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from boneyard.cli import main
from boneyard.web.app import app_from_environment
from boneyard.web.compute.jobs import UNCLAIMED_SECONDS, JobQueue
from boneyard.web.compute.worker import Worker
from boneyard.web.ops import JsonLines
from boneyard.web.store.games import Store
from boneyard.web.store.jobs import JobRow
from tests.web.conftest import create, free_port, make_app, token

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.MULTILINE)
    assert found, f"{name} is not in the metrics"
    return float(found.group(1))


def test_health_readiness_and_metrics(db_path: Path) -> None:
    with TestClient(make_app(db_path)) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json() == {"status": "ready"}
        before = client.get("/metrics")
        assert before.headers["content-type"].startswith("text/plain")
        assert _metric(before.text, "boneyard_moves_total") == 0
        created = create(client, "toy_walk")
        view = client.get(f"/api/games/{created['id']}", params={"token": token(created, 0)})
        first = view.json()["legal"][0]["id"]
        body = {"token": token(created, 0), "seq": view.json()["seq"], "action": first}
        played = client.post(f"/api/games/{created['id']}/actions", json=body)
        assert played.status_code == 200, played.text
        after = client.get("/metrics").text
        assert _metric(after, "boneyard_moves_total") == 1
        assert _metric(after, "boneyard_move_seconds_count") == 1
        assert _metric(after, "boneyard_live_games") == 1
        assert _metric(after, "boneyard_bot_queue") == 0


def test_readiness_fails_while_the_database_does_not_answer(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(make_app(db_path)) as client:
        store = client.app.state.manager.store  # type: ignore[attr-defined]

        def gone() -> None:
            raise OperationalError("SELECT 1", {}, Exception("connection refused"))

        monkeypatch.setattr(store, "ping", gone)
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert "database" in answer.json()["detail"]
        assert client.get("/healthz").status_code == 200, "alive, only not ready"


def test_json_log_lines() -> None:
    try:
        raise ValueError("broken")
    except ValueError:
        record = logging.LogRecord(
            "boneyard.web", logging.WARNING, __file__, 1, "game %s: %s", ("abc", "x"),
            sys.exc_info(),
        )  # fmt: skip
    line = JsonLines().format(record)
    assert "\n" not in line.strip().split("\n")[0]
    entry = json.loads(line)
    assert entry["level"] == "warning" and entry["logger"] == "boneyard.web"
    assert entry["message"] == "game abc: x"
    assert "ValueError: broken" in entry["exception"]
    assert entry["time"].endswith("Z")


def test_several_workers_on_sqlite_are_warned_about(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [
            *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
            *("--workers", "2", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'w.db'}"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        assert first.startswith("Warning: several server processes share the SQLite database")
        assert "PostgreSQL" in first
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def test_the_app_factory_warns_when_it_is_one_of_several_workers_on_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """``uvicorn --workers N --factory boneyard.web.app:app_from_environment``: WEB_CONCURRENCY
    (uvicorn's --workers default) of 2 on SQLite is warned about; one worker is not."""
    monkeypatch.setenv("BONEYARD_DB", f"sqlite:///{tmp_path / 'w.db'}")
    monkeypatch.delenv("BONEYARD_WARNED", raising=False)
    monkeypatch.delenv("BONEYARD_LOG_FORMAT", raising=False)
    monkeypatch.setenv("WEB_CONCURRENCY", "1")
    with caplog.at_level(logging.WARNING, logger="boneyard.web"):
        app_from_environment().state.manager.shutdown()
    assert "SQLite is meant for one process" not in caplog.text
    monkeypatch.setenv("WEB_CONCURRENCY", "2")
    with caplog.at_level(logging.WARNING, logger="boneyard.web"):
        app_from_environment().state.manager.shutdown()
    assert "SQLite is meant for one process" in caplog.text


def test_the_bot_queue_on_sqlite_answers_computer_moves_and_hints(db_path: Path) -> None:
    """``--bots queue`` on one machine: a worker thread in this process answers the jobs."""
    with TestClient(make_app(db_path, bots="queue", hint_interval=0.0)) as client:
        worker = Worker(Store(f"sqlite:///{db_path}"), processes=1, name="test")
        thread = threading.Thread(target=worker.run, daemon=True)
        thread.start()
        try:
            seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
            created = create(client, "obonto", seats=seats)
            path = f"/api/games/{created['id']}"
            view = client.get(path, params={"token": token(created, 0)}).json()
            if view["current_player"] == 0:
                first = view["legal"][0]["id"]
                body = {"token": token(created, 0), "seq": view["seq"], "action": first}
                assert client.post(path + "/actions", json=body).status_code == 200
            deadline = time.monotonic() + 60
            while client.get(path).json()["current_player"] != 0:
                assert time.monotonic() < deadline, "the computer moved"
                time.sleep(0.1)
            hint = client.post(path + "/hint", json={"token": token(created, 0)})
            assert hint.status_code == 200, hint.text
            legal = client.get(path, params={"token": token(created, 0)}).json()["legal"]
            assert hint.json()["action"] in {item["id"] for item in legal}
            assert JobQueue(worker.store).depth() == 0
        finally:
            worker.stop.set()
            thread.join(timeout=30)


# ----- deploy/ ------------------------------------------------------------------------------------


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def _boneyard_commands() -> dict[str, list[str]]:
    return {
        name: service["command"]
        for name, service in _compose()["services"].items()
        if service.get("command", [""])[0] == "boneyard"
    }


def test_the_compose_file_has_the_database_two_web_processes_a_worker_and_a_proxy() -> None:
    services = _compose()["services"]
    commands = _boneyard_commands()
    web = [name for name, command in commands.items() if command[1] == "serve"]
    workers = [name for name, command in commands.items() if command[1] == "bots"]
    assert len(web) == 2 and len(workers) == 1
    assert services["db"]["image"].startswith("postgres:")
    urls = {arg.split("=", 1)[1] for c in commands.values() for arg in c if arg.startswith("--db=")}
    assert len(urls) == 1 and urls.pop().startswith("postgresql+psycopg://"), "one database"
    for name in web:
        assert "--bots=queue" in commands[name], f"{name} leaves the bots to the worker"
        assert "/readyz" in " ".join(services[name]["healthcheck"]["test"])
    caddyfile = (DEPLOY / services["proxy"]["volumes"][0].split(":")[0]).read_text()
    for name in web:
        assert f"{name}:8000" in caddyfile, f"the proxy sends players to {name}"
    assert (DEPLOY / "Dockerfile").is_file()


@pytest.mark.parametrize("service", ["web1", "web2", "bots"])
def test_the_compose_commands_are_real_options(service: str) -> None:
    """Every option the Compose file gives ``boneyard`` parses (nothing runs: --help exits)."""
    command = _boneyard_commands()[service]
    group_context = main.make_context("boneyard", command[1:], resilient_parsing=True)
    subcommand = main.get_command(group_context, command[1])
    assert subcommand is not None
    parsed = subcommand.make_context(command[1], list(command[2:]))
    given = {arg.split("=", 1)[0].lstrip("-").replace("-", "_") for arg in command[2:]}
    assert given <= set(parsed.params), "every option given is one the command has"
    assert CliRunner().invoke(main, [*command[1:], "--help"]).exit_code == 0


def test_readiness_fails_under_the_job_queue_while_no_worker_claims(db_path: Path) -> None:
    """``--bots queue`` with no ``boneyard bots`` running: the computer never moves, and
    ``/readyz`` says so once a job has waited past ``UNCLAIMED_SECONDS`` unclaimed."""
    with TestClient(make_app(db_path, bots="queue")) as client:
        assert client.get("/readyz").json() == {"status": "ready"}  # nothing waits yet
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        queue = JobQueue(store)
        job_id = queue.submit("move", 0, ["easy", 1, 1, None, []], 1.0, "127.0.0.9")
        assert client.get("/readyz").status_code == 200  # a job just asked for: not yet
        with store.engine.begin() as connection:  # as if asked for a minute ago
            connection.execute(
                update(JobRow)
                .where(JobRow.id == job_id)
                .values(created=time.time() - UNCLAIMED_SECONDS - 30)
            )
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert "no bot worker has claimed a job for" in answer.json()["detail"]
        assert "boneyard bots" in answer.json()["detail"]
        # a worker comes and takes it: ready again, while the job runs and after
        job = queue.claim("worker-1")
        assert job is not None and job.id == job_id
        assert client.get("/readyz").json() == {"status": "ready"}
        assert queue.finish(job, "worker-1", 0, None)
        assert client.get("/readyz").json() == {"status": "ready"}


def test_a_database_outage_answers_the_documented_json_not_a_text_500(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(make_app(db_path), raise_server_exceptions=False) as client:
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        game_id = "a0b1c2d3e4f5a6b7"  # not in memory: read from the store

        def gone(*_args: Any, **_kwargs: Any) -> None:
            raise OperationalError("SELECT ...", {}, Exception("server closed the connection"))

        monkeypatch.setattr(store, "load", gone)
        monkeypatch.setattr(store, "create_game", gone)
        answer = client.get(f"/api/games/{game_id}")
        assert answer.status_code == 503, answer.text
        assert answer.headers["content-type"] == "application/json"
        assert answer.json() == {
            "error": "database_unavailable",
            "detail": "the database does not answer this server now; try again in a moment",
        }
        assert answer.headers["Retry-After"] == "5"
        made = client.post("/api/games", json={"game": "toy_walk"})
        assert made.status_code == 503 and made.json()["error"] == "database_unavailable"
        page = client.get(f"/game/{game_id}")
        assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
        monkeypatch.setattr(store, "load", lambda *_args: 1 / 0)  # a bug, not an outage
        broken = client.get(f"/api/games/{game_id}")
        assert broken.status_code == 500
        assert broken.json() == {
            "error": "internal_error",
            "detail": "the server failed on this request (it is logged); try again later",
        }


CADDY_27_ONLY = ("stream_timeout", "stream_close_delay")
"""Caddy subdirectives newer than Debian 12's Caddy 2.6, which refuses a file that has them."""


def test_the_caddyfile_is_for_caddy_2_6_with_https_for_a_named_site() -> None:
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    lines = [line.split("#", 1)[0] for line in caddyfile.splitlines()]
    for directive in CADDY_27_ONLY:
        assert not any(directive in line for line in lines), f"{directive} needs Caddy 2.7"
    # the site is BONEYARD_SITE (a name: automatic HTTPS), plain :80 by default
    assert any(line.strip().startswith("{$BONEYARD_SITE::80} {") for line in lines)
    proxy = _compose()["services"]["proxy"]
    assert proxy["environment"]["BONEYARD_SITE"] == "${BONEYARD_SITE:-:80}"
    assert any(volume.endswith(":/data") for volume in proxy["volumes"]), "certificates kept"
    caddy = shutil.which("caddy")
    if caddy is not None:  # where Caddy is installed (Debian: apt install caddy), it agrees
        checked = subprocess.run(
            [caddy, "validate", "--adapter", "caddyfile", "--config", str(DEPLOY / "Caddyfile")],
            capture_output=True,
            text=True,
        )
        assert checked.returncode == 0, checked.stderr


def test_the_image_can_start_on_sqlite_in_a_volume_its_user_owns() -> None:
    """The image's SQLite file is in /data, a VOLUME made and owned by the server's user
    before it is declared (a volume starts with the image's contents and owner)."""
    steps = [
        line.split(None, 1)
        for line in (DEPLOY / "Dockerfile").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    words = [(step[0], step[1] if len(step) > 1 else "") for step in steps]
    user = next(value for name, value in words if name == "USER")
    volume = next(i for i, (name, _value) in enumerate(words) if name == "VOLUME")
    assert words[volume][1].strip() == "/data"
    owned = next(
        i
        for i, (name, value) in enumerate(words)
        if name == "RUN" and f"chown {user}:{user} /data" in value
    )
    assert owned < volume, "chowned before VOLUME: later changes to a volume are lost"
    assert ("ENV", "BONEYARD_DB=sqlite:////data/boneyard.db") in words
    assert [name for name, _value in words].index("USER") > owned


def test_every_process_of_the_compose_file_shares_one_server_secret() -> None:
    """Each container has its own home: without one ``BONEYARD_SECRET`` each would make a
    key of its own, and an owner's address known to one process would be unknown to another."""
    services = _compose()["services"]
    secrets = {
        name: services[name].get("environment", {}).get("BONEYARD_SECRET")
        for name in _boneyard_commands()
    }
    assert len(set(secrets.values())) == 1 and None not in secrets.values(), secrets
