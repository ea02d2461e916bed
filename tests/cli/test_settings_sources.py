"""Where the long-running commands take their settings from: flags, then the environment
(``BONEYARD_DB``), then the TOML file (``--config`` or ``BONEYARD_CONFIG``), then the defaults;
and a database password is never printed."""

from __future__ import annotations

import json
import logging
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from click.testing import CliRunner
from sqlalchemy.engine import make_url
from tests.web.conftest import postgres_url  # noqa: F401  (a fixture)

from boneyard.cli import main
from boneyard.web.compute.worker import Worker


@pytest.fixture(autouse=True)
def logging_kept() -> Iterator[None]:
    """``serve`` and ``bots`` set up this process's logging (``ops.setup_logging``: the root's
    handler, the hooks of uncaught exceptions, warnings) and ``bots`` its signals: put back as
    they were for the next tests."""
    names = ["", "boneyard", "uvicorn", "uvicorn.error", "uvicorn.access", "boneyard.access"]
    loggers = [logging.getLogger(name or None) for name in names]
    kept = [(lg.handlers[:], lg.level, lg.propagate, lg.filters[:]) for lg in loggers]
    hooks = threading.excepthook, sys.excepthook
    handlers_of = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    yield
    for number, handler in handlers_of.items():  # (``bots`` takes SIGINT and SIGTERM)
        signal.signal(number, handler)
    for logger, (handlers, level, propagate, filters) in zip(loggers, kept, strict=True):
        logger.handlers[:], logger.filters[:] = handlers, filters
        logger.setLevel(level)
        logger.propagate = propagate
    threading.excepthook, sys.excepthook = hooks
    logging.captureWarnings(False)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``boneyard serve`` runs up to uvicorn, which only notes what it was given."""
    runs: list[dict[str, Any]] = []

    def run(app: Any, **options: Any) -> None:
        runs.append({"app": app, **options})

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.delenv("BONEYARD_DB", raising=False)
    monkeypatch.delenv("BONEYARD_CONFIG", raising=False)
    return runs


def serve(*args: str, env: dict[str, str] | None = None) -> Any:
    options = ("--bot-processes", "0", "--work-processes", "0")
    """``boneyard ARGS`` (ending in ``serve``) with no worker processes."""
    return CliRunner().invoke(main, [*args, *options], env=env)


def database_of(run: dict[str, Any]) -> str:
    return str(run["app"].state.manager.store.url)


def test_serve_opens_the_database_of_boneyard_db_and_a_flag_wins(
    served: list[dict[str, Any]], tmp_path: Path
) -> None:
    from_env = f"sqlite:///{tmp_path / 'env.db'}"
    answer = serve("serve", env={"BONEYARD_DB": from_env})
    assert answer.exit_code == 0, answer.output
    assert database_of(served[-1]) == from_env
    assert (tmp_path / "env.db").exists()
    flagged = f"sqlite:///{tmp_path / 'flag.db'}"
    answer = serve("serve", "--db", flagged, env={"BONEYARD_DB": from_env})
    assert answer.exit_code == 0, answer.output
    assert database_of(served[-1]) == flagged


def test_a_config_file_sets_every_command_and_flags_and_the_environment_win(
    served: list[dict[str, Any]], tmp_path: Path
) -> None:
    config = tmp_path / "boneyard.toml"
    config.write_text(
        f'db = "sqlite:///{tmp_path / "file.db"}"\n[serve]\nport = 8123\nbot-delay = 0.25\n'
    )
    answer = serve("--config", str(config), "serve")
    assert answer.exit_code == 0, answer.output
    run = served[-1]
    assert database_of(run) == f"sqlite:///{tmp_path / 'file.db'}"
    assert run["port"] == 8123
    assert run["app"].state.manager.settings.bot_delay == 0.25
    answer = serve("serve", "--port", "8124", env={"BONEYARD_CONFIG": str(config)})
    assert answer.exit_code == 0, answer.output
    assert served[-1]["port"] == 8124 and database_of(served[-1]).endswith("file.db")
    env_db = f"sqlite:///{tmp_path / 'env.db'}"
    answer = serve("--config", str(config), "serve", env={"BONEYARD_DB": env_db})
    assert answer.exit_code == 0, answer.output
    assert database_of(served[-1]) == env_db


def test_a_setting_no_command_knows_is_refused_by_name(
    served: list[dict[str, Any]], tmp_path: Path
) -> None:
    config = tmp_path / "boneyard.toml"
    for text, words in (
        ("[serve]\nprot = 8000\n", "unknown setting 'prot' in [serve]; its settings: "),
        ("porrt = 1\n", "unknown setting 'porrt'"),
        ("[serv]\nport = 1\n", "unknown command [serv]"),
        ("port = \n", "is not TOML"),
    ):
        config.write_text(text)
        answer = serve("--config", str(config), "serve")
        assert answer.exit_code == 2, text
        assert words in answer.output, answer.output
        assert "--config" in answer.output
    assert served == []  # nothing started
    answer = serve("--config", str(tmp_path / "missing.toml"), "serve")
    assert answer.exit_code == 2 and "cannot read" in answer.output


def with_password(url: str, password: str) -> str:
    return make_url(url).set(password=password).render_as_string(hide_password=False)


def test_no_banner_and_no_error_prints_the_database_password(
    served: list[dict[str, Any]],
    postgres_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "hunter2-not-for-logs"
    url = with_password(postgres_url, secret)  # the throwaway server trusts: any password
    answer = serve("serve", "--db", url)
    assert answer.exit_code == 0, answer.output
    assert "database: postgresql+psycopg://boneyard:***@" in answer.output
    assert secret not in answer.output
    monkeypatch.setattr(Worker, "run", lambda self: None)
    monkeypatch.setattr(Worker, "warm_up", lambda self: None)
    answer = CliRunner().invoke(main, ["bots", "--processes", "1"], env={"BONEYARD_DB": url})
    assert answer.exit_code == 0, answer.output
    assert "answering jobs from postgresql+psycopg://boneyard:***@" in answer.output
    assert secret not in answer.output
    unreachable = f"postgresql+psycopg://boneyard:{secret}@127.0.0.1:1/boneyard"
    for command in (["serve", "--db", unreachable], ["bots", "--db", unreachable]):
        answer = CliRunner().invoke(main, command)
        assert answer.exit_code == 1 and "cannot open the database" in answer.output
        assert secret not in answer.output, answer.output


def test_under_json_logs_every_line_the_worker_writes_is_json(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(Worker, "run", lambda self: None)
    monkeypatch.setattr(Worker, "warm_up", lambda self: None)
    url = f"sqlite:///{tmp_path / 'jobs.db'}"
    answer = CliRunner().invoke(main, ["bots", "--db", url, "--log-format", "json"])
    assert answer.exit_code == 0, answer.output
    lines = [json.loads(line) for line in answer.stderr.splitlines()]
    assert any("answering jobs from sqlite:///" in line["message"] for line in lines)
