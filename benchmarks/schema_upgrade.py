"""How long the schema's upgrade takes on a big older database, and what the check costs at
every start (issue 45).

Makes a SQLite file with the tables of boneyard 0.1.0 (before migrations:
tests/web/old_schemas), ``--games`` games of ``--moves`` actions each, then times the first
``Store(url)`` (the upgrade from before migrations to the newest revision) and the average of
twenty more (a database already at the newest revision: one read of ``alembic_version``).

    python benchmarks/schema_upgrade.py --games 10000 --moves 60 [--postgres]

``--postgres``: on a throwaway PostgreSQL server (``boneyard.testing.postgres``) instead.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, text
from tests.web.test_schema import old_database

from boneyard.web.store.games import Store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--postgres", action="store_true")
    arguments = parser.parse_args()
    if arguments.postgres:
        from boneyard.testing.postgres import throwaway_postgres

        with throwaway_postgres() as url:
            measure(url, arguments.games, arguments.moves)
        return
    folder = Path(tempfile.mkdtemp())
    measure(f"sqlite:///{folder / 'old.db'}", arguments.games, arguments.moves)


def measure(url: str, games: int, moves: int) -> None:
    old_database(url, "boneyard_0.1.0_main")
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO games VALUES (:id, 'obonto', '{}', 's', 'h', '[]', 0, false, NULL)"),
            [{"id": f"g{n}"} for n in range(games)],
        )
        connection.execute(
            text("INSERT INTO actions VALUES (:game, :seq, 1, 0)"),
            [{"game": f"g{n}", "seq": seq} for n in range(games) for seq in range(moves)],
        )
    engine.dispose()
    started = time.perf_counter()
    Store(url).close()
    upgrade = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(20):
        Store(url).close()
    at_head = (time.perf_counter() - started) / 20
    print(
        f"{url.split(':')[0]}: {games} games, {games * moves} actions: "
        f"upgrade {upgrade:.3f} s; a start at the newest revision {at_head * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
