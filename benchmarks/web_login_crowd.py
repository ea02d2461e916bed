"""A log-in crowd beside an honest player and the owner (issue 44, row 1): what the password
hashing costs everyone else.

Starts ``boneyard serve`` on 127.0.0.1 (SQLite, default budgets), signs the owner up from
127.0.0.2 and logs out (the browser keeps its cookies), lets an honest player (127.0.0.3) make
moves of Obonto between two people alone, then starts the crowd: ``--addresses`` loopback
addresses in 20 /24 networks (127.0.10.x to 127.0.29.x), each trying a name that does not
exist every 6 s (its full 10 tries a minute) whatever the answers (open loop; a try unanswered
in 30 s is given up, its connection closed; each address keeps its connections open between
tries). During the crowd the honest player moves again,
and the owner logs in from its own browser. Reports the honest moves' p50 alone and during,
their ratio, the owner's log-in time and the crowd's answers.

Run it with the checkout to measure on the path (the server is started with the same one):

    PYTHONPATH=src nice -n 10 .venv/bin/python benchmarks/web_login_crowd.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import itertools
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2

OWNER, HONEST = "127.0.0.2", "127.0.0.3"
PASSWORD = "correct horse battery"


def serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
            *("--port", str(port), "--db", f"sqlite:///{db}", "--bot-processes", "0"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx2.get(base + "/healthz", timeout=2)
            return server, base
        except httpx2.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def client(base: str, address: str, timeout: float = 120) -> httpx2.Client:
    transport = httpx2.HTTPTransport(local_address=address)
    return httpx2.Client(base_url=base, transport=transport, timeout=timeout)


def honest_moves(http: httpx2.Client, count: int) -> list[float]:
    made = http.post("/api/games", json={"game": "obonto", "seats": [{}, {}]}).json()
    tokens = [seat["token"] for seat in made["seats"]]
    chooser, seat, seconds = random.Random(3), 0, []
    while len(seconds) < count:
        mine = http.get(
            f"/api/games/{made['id']}", params={"token": tokens[seat], "draw": "false"}
        ).json()
        if mine["terminal"]:
            made = http.post("/api/games", json={"game": "obonto", "seats": [{}, {}]}).json()
            tokens, seat = [s["token"] for s in made["seats"]], 0
            continue
        if mine["current_player"] != seat:
            seat = mine["current_player"]
            continue
        start = time.monotonic()
        moved = http.post(
            f"/api/games/{made['id']}/actions",
            json={
                "token": tokens[seat],
                "seq": mine["seq"],
                "action": chooser.choice(mine["legal"])["id"],
            },
        )
        seconds.append(time.monotonic() - start)
        seat = moved.json()["current_player"] or 0
    return seconds


def crowd_addresses(count: int) -> list[str]:
    return [f"127.0.{10 + n % 20}.{1 + n // 20}" for n in range(count)]


def attack(base: str, addresses: list[str], seconds: float, answers: Counter[str]) -> None:
    """Each address tries an unknown name every 6 s for ``seconds``, whatever the answers
    (each address's connections kept open between its tries, as a browser's or a script's)."""
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    clients = {address: client(base, address, timeout=30) for address in addresses}

    def one(address: str, n: int) -> None:
        try:
            answer = clients[address].post(
                "/api/login", json={"name": f"ghost{n}x{address}", "password": "guess"}
            )
            code = str(answer.status_code)
            if answer.status_code == 429:
                code += f" {answer.json()['error']}"
        except httpx2.TimeoutException:
            code = "gave up after 30 s"
        except httpx2.TransportError as error:
            code = type(error).__name__
        with lock:
            answers[code] += 1

    with ThreadPoolExecutor(600) as workers:
        offsets = {address: random.Random(address).uniform(0, 6) for address in addresses}
        tries = itertools.count()
        while time.monotonic() < stop:
            # one round: every address once, each at its own moment of the 6 s
            round_start = time.monotonic()
            for address in sorted(addresses, key=offsets.__getitem__):
                time.sleep(max(0.0, round_start + offsets[address] - time.monotonic()))
                if time.monotonic() < stop:
                    workers.submit(one, address, next(tries))
            time.sleep(max(0.0, round_start + 6 - time.monotonic()))
    for http in clients.values():
        http.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the crowd lasts")
    parser.add_argument("--moves", type=int, default=40, help="honest moves alone and during")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server, base = serve(Path(folder) / "web.db")
        try:
            with client(base, OWNER) as owner, client(base, HONEST) as honest:
                signed = owner.post("/api/accounts", json={"name": "Owner", "password": PASSWORD})
                signed.raise_for_status()
                owner.post("/api/logout").raise_for_status()
                print(f"owner's cookies kept after log-out: {sorted(owner.cookies.keys())}")
                alone = honest_moves(honest, args.moves)
                answers: Counter[str] = Counter()
                crowd = threading.Thread(
                    target=attack,
                    args=(base, crowd_addresses(args.addresses), args.seconds, answers),
                )
                crowd.start()
                time.sleep(min(15.0, args.seconds / 4))  # the crowd's queue built up
                during = honest_moves(honest, args.moves)
                start = time.monotonic()
                try:
                    answer = owner.post("/api/login", json={"name": "Owner", "password": PASSWORD})
                    code = f"{answer.status_code} {answer.text[:120]}"
                except httpx2.TimeoutException:
                    code = "timed out"
                owner_seconds = time.monotonic() - start
                crowd.join()
            quiet, loud = statistics.median(alone), statistics.median(during)
            print(
                f"{args.addresses} addresses in 20 /24s, 10 tries a minute each, "
                f"{args.seconds:g} s: honest move p50 {quiet * 1000:.1f} ms alone, "
                f"{loud * 1000:.1f} ms during (x{loud / quiet:.1f}); "
                f"owner's log-in {owner_seconds:.2f} s ({code}); "
                f"crowd's answers {dict(answers)}"
            )
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
