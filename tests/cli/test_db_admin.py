"""The command groups ``boneyard db`` and ``boneyard admin``: their subcommands (one list each,
``COMMANDS``, that later commands join), ``--db`` or ``BONEYARD_DB``, and ``--migrate`` on the
commands that open the database at start."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from boneyard.cli import admin, db, main
from boneyard.web.store import schema


def test_each_group_lists_its_subcommands() -> None:
    assert [c.name for c in db.COMMANDS] == ["upgrade", "current", "history", "check"]
    listed = CliRunner().invoke(main, ["db", "--help"]).output
    assert all(f"  {c.name} " in listed for c in db.COMMANDS), listed
    names = [c.name for c in admin.COMMANDS]
    assert names == [
        *("ban", "unban", "rename", "delete", "reset-password", "online", "notice", "log")
    ]
    listed = CliRunner().invoke(main, ["admin", "--help"]).output
    assert all(f"  {name} " in listed for name in names), listed


def test_the_database_comes_from_boneyard_db_unless_given(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'from_env.db'}"
    runner = CliRunner(env={"BONEYARD_DB": url})
    answer = runner.invoke(main, ["db", "upgrade"])
    assert answer.exit_code == 0 and "from_env.db" in answer.output, answer.output
    answer = runner.invoke(main, ["db", "current"])
    assert answer.output.startswith(schema.head()), answer.output
    other = f"sqlite:///{tmp_path / 'given.db'}"
    answer = runner.invoke(main, ["db", "current", "--db", other])
    assert answer.exit_code == 1, "the flag wins over the environment"
    assert f"there is no database file at {tmp_path / 'given.db'}" in answer.output
    for words in (["db", "check"], ["admin", "online"]):
        assert runner.invoke(main, [*words, "--db", other]).exit_code == 1
    assert not (tmp_path / "given.db").exists(), "looking made no empty database"


def test_serve_and_bots_take_the_choice_of_migrating_by_hand() -> None:
    for command in ("serve", "bots"):
        shown = CliRunner().invoke(main, [command, "--help"]).output
        assert "--migrate [auto|manual]" in shown, shown
    refused = CliRunner().invoke(main, ["bots", "--db", "sqlite://", "--migrate", "sometimes"])
    assert refused.exit_code == 2 and "'sometimes' is not one of 'auto', 'manual'" in refused.output
