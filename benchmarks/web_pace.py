"""How long a person waits for the computer's set-up in Bond O Cones (issue 13's pace, server side).

Starts ``boneyard serve`` on 127.0.0.1 with a fresh SQLite file and its default pacing, creates
Bond O Cones against the computer at each level (the computer as each seat), plays the person's
set-up at once, and reports the seconds spent waiting for the computer from the creation to
the person's first move of play. The bar: under 10 s.

    .venv/bin/python benchmarks/web_pace.py [--levels easy,medium,hard]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
            *("--port", str(port), "--db", f"sqlite:///{db}"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/kinds", timeout=2)
            return server
        except httpx2.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def waiting(base: str, level: str, computer_seat: int) -> float:
    seats = [{"kind": "human"}, {"kind": "human"}]
    seats[computer_seat] = {"kind": "computer", "level": level}
    created = httpx2.post(f"{base}/api/games", json={"game": "bondo_cones", "seats": seats}).json()
    person = 1 - computer_seat
    token = created["seats"][person]["token"]
    path = f"{base}/api/games/{created['id']}"
    waited = 0.0
    since = time.monotonic()
    while True:
        view = httpx2.get(path, params={"token": token, "draw": "false"}).json()
        now = time.monotonic()
        if view["current_player"] == person:
            waited += now - since
            if view["observation"].get("phase") == "act":
                return waited
            action = view["legal"][0]["id"]
            httpx2.post(
                path + "/actions", json={"token": token, "seq": view["seq"], "action": action}
            )
            since = time.monotonic()
        else:
            time.sleep(0.02)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--port", type=int, default=8771)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = start(Path(folder) / "pace.db", args.port)
        base = f"http://127.0.0.1:{args.port}"
        try:
            print(
                "level   computer seat   waiting for the computer (s), from creation to the "
                "first move of play"
            )
            for level in args.levels.split(","):
                for seat in (0, 1):
                    print(f"{level:7} {seat:13}   {waiting(base, level, seat):.1f}")
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
