"""What a plain copy of a running server's SQLite file loses, beside ``boneyard db backup``
(issue 45): plays Toy Walk games through the app until ``--moves`` moves are acknowledged,
then copies ``boneyard.db`` alone (as ``cp`` would, without its ``-wal``) and backs it up with
``boneyard db backup``, and counts the games and moves in each.

    PYTHONPATH=src:. python benchmarks/web_backup_copy.py --moves 400
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import tempfile
from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient
from tests.web.conftest import create, make_app

from boneyard.cli import main


def counts(path: Path) -> tuple[int, int]:
    connection = sqlite3.connect(path)
    try:
        games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
        moves = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
        return int(games), int(moves)
    finally:
        connection.close()


def run(moves: int) -> None:
    folder = Path(tempfile.mkdtemp())
    live = folder / "boneyard.db"
    rng = random.Random(1)
    played = games = 0
    with TestClient(make_app(live)) as client:
        while played < moves:
            created = create(client, "toy_walk")
            games += 1
            tokens = [seat["token"] for seat in created["seats"]]
            while True:
                seen = client.get(f"/api/games/{created['id']}").json()
                if seen["terminal"]:
                    break
                mover = seen["current_player"]
                mine = client.get(
                    f"/api/games/{created['id']}", params={"token": tokens[mover]}
                ).json()
                body = {"token": tokens[mover], "seq": mine["seq"]}
                body["action"] = rng.choice(mine["legal"])["id"]
                answer = client.post(f"/api/games/{created['id']}/actions", json=body)
                assert answer.status_code == 200, answer.text
                played += 1
        shutil.copy(live, folder / "copy.db")
        url = f"sqlite:///{live}"
        CliRunner().invoke(main, ["db", "backup", str(folder / "backup.db"), "--db", url])
    print(f"acknowledged: {games} games, {played} moves")
    print("plain copy of boneyard.db: {} games, {} moves".format(*counts(folder / "copy.db")))
    print("boneyard db backup:        {} games, {} moves".format(*counts(folder / "backup.db")))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=400)
    run(parser.parse_args().moves)
