"""Soak: every attack of tests/web/test_abuse.py at once, for minutes, against one real server.

Starts ``boneyard serve`` on 127.0.0.1 (its defaults: two bot processes, the default budgets)
with a fresh SQLite file. First the memory bar: 60 creations of the largest OYNO game the web
offers, the server's resident memory before and after. Then, for ``--minutes``, attackers on
127.0.0.3 to 127.0.0.9 run together: a creation flood, slow puzzle set-ups, hint floods on big
puzzles, sync floods, sockets that never read, deep and oversized messages, 10 MB bodies.
Meanwhile a player on 127.0.0.2 reads a game (every request timed) and plays against the
``easy`` computer (each answer timed). Reported: the player's request times and the computer's
answer times (the bars: requests under 1 s, the computer within 3 s), what the attackers got
back, and the server's memory.

    nice .venv/bin/python benchmarks/web_soak.py --minutes 3
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

PLAYER = "127.0.0.2"


class Run:
    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.stop = threading.Event()
        self.answers: Counter[str] = Counter()
        self.lock = threading.Lock()

    def client(self, address: str) -> httpx2.Client:
        transport = httpx2.HTTPTransport(local_address=address)
        return httpx2.Client(base_url=self.base, transport=transport, timeout=60)

    def count(self, what: str) -> None:
        with self.lock:
            self.answers[what] += 1

    def socket(self, path: str, address: str) -> Any:
        raw = socket.create_connection(("127.0.0.1", self.port), source_address=(address, 0))
        return connect(f"ws://127.0.0.1:{self.port}{path}", sock=raw, open_timeout=30)


def resident(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def vs_computer(client: httpx2.Client, game: str = "obonto", **params: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    answer = client.post("/api/games", json={"game": game, "params": params, "seats": seats})
    answer.raise_for_status()
    result: dict[str, Any] = answer.json()
    return result


# ----- attackers ------------------------------------------------------------------------------


def creation_flood(run: Run) -> None:
    with run.client("127.0.0.3") as client:
        while not run.stop.is_set():
            answer = client.post("/api/games", json={"game": "oyno", "params": {"size": 15}})
            run.count(f"creation flood {answer.status_code}")
            if answer.status_code == 429:
                time.sleep(0.5)


def slow_puzzles(run: Run) -> None:
    with run.client("127.0.0.4") as client:
        difficulty = 4
        while not run.stop.is_set():
            params = {"size": 7, "bones": 8, "difficulty": difficulty}
            answer = client.post("/api/games", json={"game": "oyno_puzzle", "params": params})
            run.count(f"slow puzzle {answer.status_code}")
            difficulty = 4 + (difficulty - 3) % 4
            if answer.status_code == 429:
                time.sleep(1.0)


def hint_flood(run: Run) -> None:
    with run.client("127.0.0.5") as client:
        games: list[dict[str, Any]] = []
        while len(games) < 4 and not run.stop.is_set():
            body = {"game": "oyno_puzzle", "params": {"size": 15, "bones": 60}}
            created = client.post("/api/games", json=body)
            if created.status_code == 201:
                games.append(created.json())
            else:
                time.sleep(1.0)
        while not run.stop.is_set():
            for game in games:
                answer = client.post(
                    f"/api/games/{game['id']}/hint", json={"token": game["seats"][0]["token"]}
                )
                run.count(f"hint {answer.status_code}")


def sync_flood(run: Run) -> None:
    with run.client("127.0.0.6") as client:
        game_id = vs_computer(client)["id"]
    while not run.stop.is_set():
        try:
            with run.socket(f"/ws/games/{game_id}", "127.0.0.6") as ws:
                while not run.stop.is_set():
                    ws.send('{"type": "sync"}')
                    run.count("sync sent")
        except (ConnectionClosed, OSError):
            run.count("sync socket closed by the server")
            time.sleep(0.2)


def deaf_sockets(run: Run) -> None:
    """Spectators that never read, on a game two bots play."""
    with run.client("127.0.0.7") as client:
        seats = [{"kind": "computer", "level": "easy"}] * 2
        game_id = client.post("/api/games", json={"game": "obonto", "seats": seats}).json()["id"]
    held = []
    for _ in range(20):
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        raw.bind(("127.0.0.7", 0))
        raw.connect(("127.0.0.1", run.port))
        raw.sendall(
            f"GET /ws/games/{game_id} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        held.append(raw)
    run.stop.wait()
    for raw in held:
        raw.close()


def bad_messages(run: Run) -> None:
    with run.client("127.0.0.8") as client:
        game_id = vs_computer(client)["id"]
        while not run.stop.is_set():
            try:
                with run.socket(f"/ws/games/{game_id}", "127.0.0.8") as ws:
                    ws.recv(timeout=10)
                    for message in ("[" * 3000 + "]" * 3000, "x" * 60_000, '{"a":' * 50):
                        ws.send(message)
                        run.count("bad message sent")
                        time.sleep(0.1)
            except (ConnectionClosed, OSError, TimeoutError):
                run.count("bad-message socket closed")
            body = b"x" * (10 * 1024 * 1024)
            try:
                answer = client.post(
                    "/api/games", content=body, headers={"content-type": "application/json"}
                )
                run.count(f"10 MB body {answer.status_code}")
            except httpx2.TransportError:
                run.count("10 MB body: connection closed")
            time.sleep(0.5)


# ----- the player ---------------------------------------------------------------------------------


def player(run: Run, requests: list[float], computer: list[float], errors: list[str]) -> None:
    with run.client(PLAYER) as client:
        while not run.stop.is_set():
            created = vs_computer(client)
            token = created["seats"][0]["token"]
            path = f"/api/games/{created['id']}"
            for _ in range(15):
                if run.stop.is_set():
                    return
                start = time.monotonic()
                answer = client.get(path, params={"token": token})
                requests.append(time.monotonic() - start)
                view = answer.json()
                if answer.status_code != 200 or view["terminal"]:
                    break
                if view["current_player"] != 0:
                    time.sleep(0.05)
                    continue
                moved = client.post(
                    path + "/actions",
                    json={"token": token, "seq": view["seq"], "action": view["legal"][0]["id"]},
                )
                if moved.status_code != 200:
                    errors.append(moved.text)
                    break
                start = time.monotonic()
                while True:
                    spectator = client.get(path).json()
                    if spectator["seq"] > moved.json()["seq"] or spectator["terminal"]:
                        break
                    if time.monotonic() - start > 60:
                        errors.append("the computer did not answer in 60 s")
                        break
                    time.sleep(0.05)
                computer.append(time.monotonic() - start)


ATTACKS = {
    "creation_flood": creation_flood,
    "slow_puzzles": slow_puzzles,
    "hint_flood": hint_flood,
    "sync_flood": sync_flood,
    "deaf_sockets": deaf_sockets,
    "bad_messages": bad_messages,
}


def keep_going(work: Any, run: Run, *args: Any, errors: list[str] | None = None) -> None:
    """Run ``work`` until the soak ends, again after a broken connection (counted)."""
    while not run.stop.is_set():
        try:
            work(run, *args)
        except (httpx2.TransportError, OSError) as error:
            run.count(f"{work.__name__}: {type(error).__name__}")
            if errors is not None:
                errors.append(f"{type(error).__name__}: {error}")
            time.sleep(0.5)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def memory_bar(run: Run, pid: int) -> None:
    """60 creations of the largest OYNO game offered, from three addresses (20 a minute each)."""
    start_memory = resident(pid)
    statuses: Counter[int] = Counter()
    for address in ("127.0.0.9", "127.0.0.10", "127.0.0.11"):
        with run.client(address) as client:
            for _ in range(20):
                body = {"game": "oyno", "params": {"size": 15}}
                statuses[client.post("/api/games", json=body).status_code] += 1
    after = resident(pid)
    print(
        f"memory: 60 creations of OYNO 15x15 (the largest offered): {dict(statuses)}; "
        f"{start_memory / 1e6:.0f} MB -> {after / 1e6:.0f} MB "
        f"(+{(after - start_memory) / 1e6:.0f} MB; bar: under 600 MB)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--port", type=int, default=8772)
    parser.add_argument("--attacks", default=",".join(ATTACKS), help="which attacks run")
    parser.add_argument("--skip-memory", action="store_true", help="no memory phase")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="boneyard-soak-")
    server = subprocess.Popen(
        [
            *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
            *("--port", str(args.port), "--db", f"sqlite:///{Path(folder) / 'soak.db'}"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    run = Run(args.port)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx2.get(run.base + "/api/kinds", timeout=2)
                break
            except httpx2.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        time.sleep(3)  # the bot processes start
        with run.client(PLAYER) as client:  # the first computer move warms a worker up
            game = vs_computer(client)
            token = game["seats"][0]["token"]
            view = client.get(f"/api/games/{game['id']}", params={"token": token}).json()
            client.post(
                f"/api/games/{game['id']}/actions",
                json={"token": token, "seq": view["seq"], "action": view["legal"][0]["id"]},
            )
            while client.get(f"/api/games/{game['id']}").json()["seq"] <= view["seq"] + 1:
                time.sleep(0.1)
        if not args.skip_memory:
            memory_bar(run, server.pid)
        requests: list[float] = []
        computer: list[float] = []
        errors: list[str] = []
        attackers = [ATTACKS[name] for name in args.attacks.split(",") if name]
        threads = [
            threading.Thread(target=keep_going, args=(a, run), daemon=True) for a in attackers
        ]
        threads.append(
            threading.Thread(
                target=keep_going,
                args=(player, run, requests, computer, errors),
                kwargs={"errors": errors},
                daemon=True,
            )
        )
        for thread in threads:
            thread.start()
        peak = 0
        end = time.monotonic() + args.minutes * 60
        while time.monotonic() < end:
            peak = max(peak, resident(server.pid))
            time.sleep(1)
        run.stop.set()
        for thread in threads:
            thread.join(timeout=60)
        print(f"soak: {args.minutes:g} minutes, all attacks at once")
        print(
            f"  player requests: {len(requests)}, "
            f"median {statistics.median(requests) * 1000:.0f} ms, "
            f"p99 {percentile(requests, 0.99) * 1000:.0f} ms, max {max(requests) * 1000:.0f} ms "
            f"(bar: under 1 s)"
        )
        print(
            f"  computer answers: {len(computer)}, median {statistics.median(computer):.2f} s, "
            f"p99 {percentile(computer, 0.99):.2f} s, max {max(computer):.2f} s (bar: within 3 s)"
        )
        slowest = sorted(range(len(computer)), key=computer.__getitem__)[-3:]
        shown = [(i, round(computer[i], 2)) for i in slowest]
        print(f"  slowest computer answers (number: seconds): {shown}")
        print(f"  player errors: {len(errors)} {errors[:3]}")
        print(f"  server memory: peak {peak / 1e6:.0f} MB")
        print("  attackers got: " + json.dumps(dict(sorted(run.answers.items()))))
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
