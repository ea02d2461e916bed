"""The store's schema and its migrations (Alembic, ``web/store/schema.py``): older databases
upgrade with every row intact, a newer one is refused by both versions, migrating by hand is
honoured, and the revisions make exactly the models (``alembic check``). On SQLite here; the
same checks on PostgreSQL in test_schema_postgres.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import JSON, MetaData, Table, create_engine, inspect, select, text
from sqlalchemy.engine import Engine

from boneyard.cli import main
from boneyard.core.version import __version__
from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from boneyard.web.store import schema
from boneyard.web.store.games import Store, make_engine
from boneyard.web.store.schema import SchemaError
from tests.web.conftest import (
    all_games,
    app_settings,
    create,
    lasting,
    make_app,
    play_random,
    token,
)

OLD_SCHEMAS = Path(__file__).resolve().parent / "old_schemas"
OLDER_BONEYARDS = ["boneyard_890c5a2", "boneyard_0.1.0_main"]
"""The schemas (tables made by ``create_all``, before migrations) of the commit before accounts
(890c5a2) and of main as migrations came (0.1.0), made by old_schemas/make_old_schemas.py."""


def old_database(url: str, boneyard: str) -> None:
    """The tables an older ``boneyard`` made at ``url`` (empty)."""
    dialect = "sqlite" if url.startswith("sqlite") else "postgresql"
    statements = (OLD_SCHEMAS / f"{boneyard}.{dialect}.sql").read_text().split(";\n")
    engine = create_engine(url)
    with engine.begin() as connection:
        for statement in statements:
            if statement.strip():
                connection.exec_driver_sql(statement)
    engine.dispose()


def a_value(column: dict[str, Any], n: int) -> Any:
    """Row ``n``'s value of a reflected ``column``: equal ids across tables (``v0``, ``v1``),
    so that foreign keys hold."""
    kind = dict if isinstance(column["type"], JSON) else column["type"].python_type
    values: dict[type, Any] = {
        str: f"v{n}",
        int: n,
        float: n + 0.5,
        bool: n % 2 == 1,
        bytes: bytes([n, 7]),
        dict: {"n": n, "names": ["Ann", "Bob"]},
        list: [n, "Ann"],
    }
    return values[kind]


def tables_of(engine: Engine) -> dict[str, Table]:
    metadata = MetaData()
    metadata.reflect(engine)
    return dict(metadata.tables)


def fill(url: str, rows: int = 3) -> dict[str, list[tuple[Any, ...]]]:
    """Put ``rows`` rows in every table at ``url``; what each table holds, by its columns."""
    engine = create_engine(url)
    tables = tables_of(engine)
    with engine.begin() as connection:
        for table in tables.values():  # reflected in the order of their foreign keys
            columns = inspect(engine).get_columns(table.name)
            connection.execute(
                table.insert(),
                [{c["name"]: a_value(c, n) for c in columns} for n in range(rows)],
            )
    held = read_rows(engine, {name: [c.name for c in t.columns] for name, t in tables.items()})
    engine.dispose()
    return held


def columns_of(url: str) -> dict[str, list[str]]:
    engine = create_engine(url)
    columns = {name: [c.name for c in table.columns] for name, table in tables_of(engine).items()}
    engine.dispose()
    return columns


def read_rows(engine: Engine, columns: dict[str, list[str]]) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of each table, only ``columns`` of it, in a fixed order."""
    tables = tables_of(engine)
    held = {}
    with engine.connect() as connection:
        for name, names in columns.items():
            table = tables[name]
            chosen = [table.c[column] for column in names]
            held[name] = [
                tuple(row)
                for row in connection.execute(select(*chosen).order_by(*table.primary_key.columns))
            ]
    return held


def upgrades_with_every_row(url: str, boneyard: str) -> None:
    """An older ``boneyard``'s database, with rows in every table, opened by this one: upgraded
    to the newest revision, the tables now exactly the models, every row as it was."""
    old_database(url, boneyard)
    held = fill(url)
    old_columns = columns_of(url)
    assert set(held) >= {"games", "actions", "session_events"}
    store = Store(url)
    try:
        with store.engine.connect() as connection:
            assert schema.current(connection) == schema.head()
        assert schema.differences(store.engine) == []
        kept = read_rows(store.engine, {name: list(old_columns[name]) for name in held})
        assert kept == held, "every row of every table is kept"
        with store.engine.connect() as connection:
            versions = connection.execute(text("SELECT DISTINCT rules_version FROM games"))
            assert versions.scalars().all() == [1], "an old game counts as version 1"
    finally:
        store.close()


@pytest.mark.parametrize("boneyard", OLDER_BONEYARDS)
def test_an_older_database_upgrades_with_every_row(tmp_path: Path, boneyard: str) -> None:
    upgrades_with_every_row(f"sqlite:///{tmp_path / 'old.db'}", boneyard)


def copy_game(source: str, target: str, game_id: str) -> None:
    """Copy a game's rows (``games`` and ``actions``, the columns ``target`` has) from one
    database to another: a game played today, stored in an older boneyard's tables."""
    source_engine, target_engine = create_engine(source), create_engine(target)
    source_tables, target_tables = tables_of(source_engine), tables_of(target_engine)
    with source_engine.connect() as reading, target_engine.begin() as writing:
        for name in ("games", "actions"):
            kept = [c.name for c in target_tables[name].columns]
            key = source_tables[name].c["id" if name == "games" else "game_id"]
            rows = reading.execute(select(source_tables[name]).where(key == game_id)).mappings()
            writing.execute(
                target_tables[name].insert(), [{c: row[c] for c in kept} for row in rows]
            )
    source_engine.dispose()
    target_engine.dispose()


def app_on(url: str) -> TestClient:
    return TestClient(create_app(url, catalog=Catalog(all_games()), settings=app_settings()))


def plays_on_after_the_upgrade(url: str, boneyard: str, scratch: Path) -> None:
    """A game stored by an older ``boneyard`` reads the same and plays on after the upgrade."""
    with TestClient(make_app(scratch)) as today:
        made = create(today, "toy_walk")
        play_random(today, made, 5, seed=1)
        seat = {"token": token(made, 0)}
        view = lasting(today.get(f"/api/games/{made['id']}", params=seat).json())
    old_database(url, boneyard)
    copy_game(f"sqlite:///{scratch}", url, made["id"])
    with app_on(url) as after:
        assert lasting(after.get(f"/api/games/{made['id']}", params=seat).json()) == view
        play_random(after, made, 3, seed=2)
        assert after.get(f"/api/games/{made['id']}").json()["seq"] > view["seq"]


@pytest.mark.parametrize("boneyard", OLDER_BONEYARDS)
def test_a_game_of_an_older_database_plays_on(tmp_path: Path, boneyard: str) -> None:
    plays_on_after_the_upgrade(f"sqlite:///{tmp_path / 'old.db'}", boneyard, tmp_path / "today.db")


# ----- a database newer than the code, and migrations by hand -------------------------------------


def made_newer(url: str) -> None:
    """The database as a later boneyard would leave it: at a revision this code does not know."""
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0999'"))
    engine.dispose()


def refuses_a_newer_database(url: str) -> None:
    made_newer(url)
    with pytest.raises(SchemaError) as refused:
        Store(url)
    words = str(refused.value)
    assert "0999" in words and schema.head() in words and __version__ in words, words
    with pytest.raises(SchemaError):
        Store(url, upgrade=False)
    for command in (["serve", "--port", "0"], ["bots"]):
        answer = CliRunner().invoke(main, [*command, "--db", url])
        assert answer.exit_code == 1 and "0999" in answer.output, answer.output
        assert schema.head() in answer.output and __version__ in answer.output
    engine = create_engine(url)
    with engine.connect() as connection:
        assert schema.current(connection) == "0999", "nothing was changed"
    engine.dispose()


def test_a_database_newer_than_the_code_is_refused_by_both_versions(tmp_path: Path) -> None:
    refuses_a_newer_database(f"sqlite:///{tmp_path / 'newer.db'}")


def migrates_by_hand(url: str) -> None:
    """With ``--migrate manual`` an older database is refused until ``boneyard db upgrade``."""
    old_database(url, "boneyard_0.1.0_main")
    with pytest.raises(SchemaError) as refused:
        Store(url, upgrade=False)
    assert "boneyard db upgrade" in str(refused.value) and schema.head() in str(refused.value)
    answer = CliRunner().invoke(main, ["bots", "--db", url, "--migrate", "manual"])
    assert answer.exit_code == 1 and "boneyard db upgrade" in answer.output, answer.output
    answer = CliRunner().invoke(main, ["db", "current", "--db", url])
    assert answer.exit_code == 0 and answer.output.startswith("none"), answer.output
    assert CliRunner().invoke(main, ["db", "check", "--db", url]).exit_code == 1
    answer = CliRunner().invoke(main, ["db", "upgrade", "--db", url])
    assert answer.exit_code == 0 and f"to revision {schema.head()}" in answer.output
    answer = CliRunner().invoke(main, ["db", "check", "--db", url])
    assert answer.exit_code == 0 and "are this version's" in answer.output, answer.output
    Store(url, upgrade=False).close()  # now it starts
    answer = CliRunner().invoke(main, ["db", "current", "--db", url])
    assert answer.output.startswith(schema.head()), answer.output
    answer = CliRunner().invoke(main, ["db", "upgrade", "--db", url])
    assert answer.exit_code == 0 and "already at revision" in answer.output


def test_migrating_by_hand_refuses_to_start_until_upgraded(tmp_path: Path) -> None:
    migrates_by_hand(f"sqlite:///{tmp_path / 'old.db'}")


def test_the_database_commands_print_no_password() -> None:
    url = "postgresql+psycopg://boneyard:hunter2secret@127.0.0.1:9/boneyard"
    answer = CliRunner().invoke(main, ["db", "current", "--db", url])
    assert answer.exit_code != 0 and "hunter2secret" not in answer.output


def test_the_history_lists_every_revision_oldest_first() -> None:
    answer = CliRunner().invoke(main, ["db", "history"])
    assert answer.exit_code == 0
    listed = [line.split()[0] for line in answer.output.splitlines()]
    assert listed == [revision.id for revision in schema.history()]
    assert listed[0] == "0001" and listed[-1] == schema.head()


# ----- the models are the migrations (alembic check) ---------------------------------------------


def revisions_make_the_models(url: str) -> None:
    """An empty database built by the revisions alone (no ``create_all``) has exactly the
    tables, columns, types and indexes of the models: ``alembic check`` finds nothing."""
    engine = make_engine(url)
    try:
        schema.migrate(engine)
        assert schema.differences(engine) == []
    finally:
        engine.dispose()


def test_the_revisions_make_exactly_the_models(tmp_path: Path) -> None:
    revisions_make_the_models(f"sqlite:///{tmp_path / 'migrated.db'}")


def test_a_new_database_is_made_at_the_newest_revision(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    Store(url).close()
    answer = CliRunner().invoke(main, ["db", "check", "--db", url])
    assert answer.exit_code == 0, answer.output


def test_an_upgrade_stopped_halfway_is_finished_by_the_next_start(tmp_path: Path) -> None:
    """SQLite commits each DDL statement: an upgrade killed after its columns were added but
    before its revision was recorded runs again at the next start, and changes nothing twice."""
    url = f"sqlite:///{tmp_path / 'halfway.db'}"
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:  # every change made, the revision still the first one
        connection.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    engine.dispose()
    store = Store(url)
    try:
        with store.engine.connect() as connection:
            assert schema.current(connection) == schema.head()
        assert schema.differences(store.engine) == []
    finally:
        store.close()


def test_bon_bons_expert_seats_keep_the_expert_across_the_new_level(tmp_path: Path) -> None:
    """Revision 0005: Bon-Bon's expert moved from level 5 to 6 (the native ISMCTS came in below
    it), so a Bon-Bon computer seat stored as "5" becomes "6"; other levels, people's seats and
    other games' level 5 stay as they were, and going back down undoes it."""
    from alembic import command

    url = f"sqlite:///{tmp_path / 'levels.db'}"
    engine = create_engine(url)
    schema.migrate(engine, "0004")
    games = tables_of(engine)["games"]
    computer = {"token": "t1", "kind": "computer", "name": None}
    person = {"token": "t0", "kind": "human", "level": None, "name": "Ann"}
    stored = {
        "expert": ("bonbon", [person, {**computer, "level": "5"}]),
        "hard": ("bonbon", [{**computer, "level": "hard"}, {**computer, "level": "4"}]),
        "other": ("obonto", [person, {**computer, "level": "5"}]),
    }
    common = {"params": {}, "seed": "s", "seed_hash": "h", "created": 1.0, "finished": False}
    with engine.begin() as connection:
        connection.execute(
            games.insert(),
            [
                {"id": i, "name": name, "seats": seats, **common}
                for i, (name, seats) in stored.items()
            ],
        )
    engine.dispose()

    def levels() -> dict[str, list[Any]]:
        reading = create_engine(url)
        with reading.connect() as connection:
            rows = connection.execute(select(games.c.id, games.c.seats)).all()
        reading.dispose()
        return {game_id: [seat["level"] for seat in seats] for game_id, seats in rows}

    Store(url).close()  # opening it upgrades to the newest revision
    assert levels() == {"expert": [None, "6"], "hard": ["hard", "4"], "other": [None, "5"]}
    engine = create_engine(url)
    with engine.begin() as connection:
        command.downgrade(schema.config(connection), "0004")
    engine.dispose()
    assert levels() == {"expert": [None, "5"], "hard": ["hard", "4"], "other": [None, "5"]}
