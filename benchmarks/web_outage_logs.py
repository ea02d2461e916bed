"""What a server logs and answers while its PostgreSQL database is gone (issue 45): one
``boneyard serve --log-format json`` on a throwaway PostgreSQL server, a game made, then the
database stopped (``pg_ctl stop -m immediate``) and ``--seconds`` of requests at ``--rate`` a
second (a game's view, a new game, a page). Reports the log's bytes a second, its lines that
are not JSON, and the answers' statuses and content types.

    PYTHONPATH=src:. python benchmarks/web_outage_logs.py --seconds 20 --rate 20
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx2
from tests.web.conftest import free_port

from boneyard.testing.postgres import program, throwaway_postgres


def stop_database(url: str) -> None:
    """Stop the throwaway server of ``url`` at once (its data folder is beside its socket)."""
    folder = parse_qs(urlparse(url).query)["host"][0]
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    pg_ctl = program("pg_ctl")
    assert pg_ctl is not None
    command = [*prefix, pg_ctl, "-D", f"{folder}/data", "-m", "immediate", "stop"]
    subprocess.run(command, check=True, capture_output=True)


def run(seconds: float, rate: float) -> None:
    with throwaway_postgres() as url, tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "serve.log"
        port = free_port()
        command = [
            *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
            *("--port", str(port), "--db", url, "--log-format", "json"),
            *("--bot-processes", "0", "--work-processes", "0"),
        ]
        with open(log, "w") as sink:
            server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sink)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx2.get(base + "/healthz", timeout=2)
                    break
                except httpx2.TransportError:
                    assert time.monotonic() < deadline, "the server did not start"
                    time.sleep(0.1)
            with httpx2.Client(base_url=base, timeout=10) as client:
                made = client.post("/api/games", json={"game": "obonto"}).json()
                before = log.stat().st_size
                stop_database(url)
                answers: collections.Counter[tuple[int, str]] = collections.Counter()
                began = time.monotonic()
                for n in range(int(seconds * rate)):
                    time.sleep(max(0.0, began + n / rate - time.monotonic()))
                    path, body = [
                        (f"/api/games/{made['id']}", None),
                        ("/api/games", {"game": "obonto"}),
                        (f"/game/{made['id']}", None),
                    ][n % 3]
                    answer = client.post(path, json=body) if body is not None else client.get(path)
                    kind = answer.headers.get("content-type", "").split(";")[0]
                    answers[(answer.status_code, kind)] += 1
                took = time.monotonic() - began
        finally:
            server.terminate()
            server.wait(timeout=30)
        text = log.read_text()[before:]
        lines = text.splitlines()
        not_json = 0
        for line in lines:
            try:
                json.loads(line)
            except ValueError:
                not_json += 1
        print(f"{sum(answers.values())} requests in {took:.1f} s with the database gone")
        for (status, kind), count in sorted(answers.items()):
            print(f"  {count} x {status} {kind}")
        kinds = collections.Counter()
        for line in lines:
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                kinds[(entry["logger"], entry["message"][:70])] += 1
        for (logger, message), count in kinds.most_common(8):
            print(f"  {count} x {logger}: {message}")
        print(
            f"log: {len(text.encode())} bytes ({len(text.encode()) / took:.0f} bytes/s), "
            f"{len(lines)} lines, {not_json} not JSON"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=20.0)
    arguments = parser.parse_args()
    run(arguments.seconds, arguments.rate)
