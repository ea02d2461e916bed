"""What a server writes to its log: every line JSON under ``--log-format json`` (tracebacks
included), an access line per request with the route's template, no seat token, no game seed,
no password anywhere, and repeated errors told a few times, not flooded."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx2
import pytest

from boneyard.web.ops import JsonLines, RepeatLimit, SecretsHidden, setup_logging
from tests.web.conftest import Server
from tests.web.test_clocks_processes import ClockServer

PASSWORD = "correct horse battery"
WRONG = "not-my-password-9f3c"


def started_with_log(server_class: type[Server], log: Path, *args: Any) -> Server:
    """``server_class(*args)`` with its standard error going to ``log``."""
    real = subprocess.Popen

    def popen(*popen_args: Any, **options: Any) -> Any:
        options["stderr"] = open(log, "w")  # noqa: SIM115  (the child holds it)
        return real(*popen_args, **options)

    subprocess.Popen = popen  # type: ignore[misc]
    try:
        return server_class(*args)
    finally:
        subprocess.Popen = real  # type: ignore[misc]


def play_a_short_game(client: httpx2.Client, server: Server) -> tuple[list[str], str]:
    """An Obonto game between two seats: a few moves each (over HTTP and the seat's socket),
    a failed log-in, a resignation. Answers the seats' tokens and the seed it revealed."""
    created = client.post("/api/games", json={"game": "obonto"})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    tokens = [seat["token"] for seat in created.json()["seats"]]
    with server.socket(f"/ws/games/{game_id}?token={tokens[0]}") as socket:
        assert json.loads(socket.recv())["type"] == "view"
    for _ in range(6):
        seen = client.get(f"/api/games/{game_id}").json()
        mover = seen["current_player"]
        if mover < 0:
            break
        mine = client.get(f"/api/games/{game_id}", params={"token": tokens[mover]}).json()
        body = {"token": tokens[mover], "seq": mine["seq"], "action": mine["legal"][0]["id"]}
        assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 200
    # the token in a query, as a script might send it
    assert client.get(f"/api/games/{game_id}", params={"token": tokens[1]}).status_code == 200
    made = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
    assert made.status_code == 201, made.text
    failed = client.post("/api/login", json={"name": "Ann", "password": WRONG})
    assert failed.status_code == 401
    resigned = client.post(
        f"/api/games/{game_id}/session", json={"token": tokens[0], "do": "resign"}
    )
    assert resigned.status_code == 200, resigned.text
    seed = client.get(f"/api/games/{game_id}").json()["seed"]
    assert seed
    return tokens, seed


def assert_no_secret(text: str, tokens: list[str], seed: str) -> None:
    for token in tokens:
        assert token not in text and token[:12] not in text, "a seat token is in the log"
    assert seed not in text and seed[:12] not in text, "the game's seed is in the log"
    assert WRONG not in text and PASSWORD not in text, "a password is in the log"


def test_a_served_game_logs_json_lines_an_access_log_and_no_secret(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    server = started_with_log(
        Server, log, tmp_path / "web.db", "--log-format", "json", "--access-log",
        "--bot-processes", "0", "--work-processes", "0",
    )  # fmt: skip
    try:
        with server.client() as client:  # type: ignore[attr-defined]
            tokens, seed = play_a_short_game(client, server)
    finally:
        server.stop()
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # each JSON
    access = [line for line in lines if line["logger"] == "boneyard.access"]
    routes = {(line["method"], line["route"], line["status"]) for line in access}
    assert ("POST", "/api/games/{game_id}/actions", 200) in routes
    assert ("POST", "/api/login", 401) in routes
    assert all(isinstance(line["ms"], float) for line in access)
    failed = [line for line in lines if "failed log-in" in line["message"]]
    assert failed and "'Ann'" in failed[0]["message"] and "127.0.0.1" in failed[0]["message"]
    assert_no_secret(text, tokens, seed)


def test_uvicorns_own_lines_hide_the_token_of_a_query(tmp_path: Path) -> None:
    """Started by uvicorn itself (its access log on, at its default level): the token of a
    socket's or a request's query is shown as ``token=***``."""

    class UvicornServer(ClockServer):
        def command(self, url: str, options: tuple[str, ...]) -> list[str]:
            return [
                *(sys.executable, "-m", "uvicorn", "--factory"),
                "boneyard.web.app:app_from_environment",
                *("--host", "127.0.0.1", "--port", str(self.port), "--log-level", "info"),
            ]

        def environment(self, url: str) -> dict[str, str]:
            return {**os.environ, "BONEYARD_DB": url}

    log = tmp_path / "uvicorn.log"
    server = started_with_log(UvicornServer, log, tmp_path / "web.db")
    try:
        with server.client() as client:  # type: ignore[attr-defined]
            tokens, seed = play_a_short_game(client, server)
    finally:
        server.stop()
    text = log.read_text()
    assert "token=***" in text  # uvicorn's line is there, its secret not
    assert_no_secret(text, tokens, seed)


def test_json_lines_carry_tracebacks_warnings_and_thread_failures(
    capfd: pytest.CaptureFixture[str],
) -> None:
    saved = logging.getLogger().handlers[:], threading.excepthook, sys.excepthook
    try:
        setup_logging("json")
        try:
            raise ValueError("broken")
        except ValueError:
            logging.getLogger("uvicorn.error").exception("Exception in ASGI application")
        logging.getLogger("sqlalchemy.pool").warning("a library's warning")
        thread = threading.Thread(target=lambda: 1 / 0, name="failing")
        thread.start()
        thread.join()
        import warnings

        warnings.warn("a deprecation", DeprecationWarning, stacklevel=1)
    finally:
        logging.getLogger().handlers[:] = saved[0]
        threading.excepthook, sys.excepthook = saved[1], saved[2]
        logging.captureWarnings(False)
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines()]
    by_logger = {line["logger"]: line for line in lines}
    assert "ValueError: broken" in by_logger["uvicorn.error"]["exception"]
    assert by_logger["sqlalchemy.pool"]["message"] == "a library's warning"
    assert "ZeroDivisionError" in by_logger["boneyard"]["exception"]
    assert "failing" in by_logger["boneyard"]["message"]
    assert "a deprecation" in by_logger["py.warnings"]["message"]


def test_repeated_errors_are_told_a_few_times_then_counted() -> None:
    limit = RepeatLimit(most=3, window=60.0)
    records = [
        logging.LogRecord("boneyard.web", logging.WARNING, __file__, 1, "db gone: %s", (n,), None)
        for n in range(10)
    ]
    passed = [record for record in records if limit.filter(record)]
    assert len(passed) == 3
    assert "not logged" in passed[-1].getMessage()
    other = logging.LogRecord("boneyard.web", logging.WARNING, __file__, 1, "else", (), None)
    assert limit.filter(other)  # another kind of line is its own count
    limit.window = 0.0  # the window is over: the next line says how many were left out
    later = logging.LogRecord(
        "boneyard.web", logging.WARNING, __file__, 1, "db gone: %s", (11,), None
    )
    assert limit.filter(later) and "7 more like this" in later.getMessage()
    info = logging.LogRecord("boneyard.access", logging.INFO, __file__, 1, "GET /", (), None)
    assert all(limit.filter(info) for _ in range(10))  # access lines are never limited


def test_the_query_secrets_in_a_line_are_hidden() -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/api/games/x?token=abc123&draw=false", "1.1", 200), None,
    )  # fmt: skip
    assert SecretsHidden().filter(record)
    line = JsonLines().format(record)
    assert "abc123" not in line and "token=***&draw=false" in line
