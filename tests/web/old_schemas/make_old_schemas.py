"""Writes the schemas of older boneyards (before migrations) as SQL, for test_schema*.py:
``python tests/web/old_schemas/make_old_schemas.py COMMIT NAME`` reads the store's models at
COMMIT (git archive), makes their tables as that boneyard's ``create_all`` did and writes
``NAME.sqlite.sql`` and ``NAME.postgresql.sql`` here. Kept so that anyone can see how the
files were made; the tests read the files (no git, no old code at test time)."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

HERE = Path(__file__).resolve().parent

DUMP = """
import importlib, pkgutil, sys
from sqlalchemy import create_engine
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex, CreateTable
import boneyard.web.store as store
for module in pkgutil.iter_modules(store.__path__):
    importlib.import_module(f"boneyard.web.store.{module.name}")
from boneyard.web.store.games import Base
engine = create_engine("sqlite://")
Base.metadata.create_all(engine)
with engine.connect() as connection:
    rows = connection.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type DESC, name"
    ).all()
open(sys.argv[1], "w").write("".join(row[0].strip() + ";\\n" for row in rows))
dialect = postgresql.dialect()
statements = []
for table in Base.metadata.sorted_tables:
    statements.append(str(CreateTable(table).compile(dialect=dialect)).strip())
    statements += [str(CreateIndex(i).compile(dialect=dialect)) for i in table.indexes]
open(sys.argv[2], "w").write("".join(s + ";\\n" for s in statements))
"""


def main(commit: str, name: str) -> None:
    archive = subprocess.run(
        ["git", "archive", commit, "src/boneyard"], check=True, capture_output=True
    ).stdout
    with tempfile.TemporaryDirectory() as folder, tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
        subprocess.run(
            [
                *(sys.executable, "-c", DUMP),
                *(str(HERE / f"{name}.sqlite.sql"), str(HERE / f"{name}.postgresql.sql")),
            ],
            check=True,
            env={"PYTHONPATH": f"{folder}/src", "PATH": "/usr/bin:/bin"},
        )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
