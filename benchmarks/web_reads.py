"""What replay frames of a long game cost, and what a flood of them does to an honest player
(issue 33, item 2).

Stores a finished 1,000-move OYNO game on 15x15 (random play), starts ``boneyard serve`` on
127.0.0.1 with its default budgets (and again with ``--reads-per-minute`` so large that the
flood is never refused: the frames' own cost), and reports:

- a frame's time: the first (the game loaded and its snapshots made) and the median of 50
  random steps after it;
- an honest player's moves (Obonto between two people, from 127.0.0.2): the median and the
  longest, alone and while 8 connections from 127.0.3.7 ask for random frames as fast as they
  are answered.

    .venv/bin/python benchmarks/web_reads.py [--flood 400]
"""

from __future__ import annotations

import argparse
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2

import boneyard
from boneyard.core.game import CHANCE
from boneyard.web.compute.chance import seed_hash
from boneyard.web.store.games import Store

HONEST, ATTACKER = "127.0.0.2", "127.0.3.7"


def stored_game(db: Path) -> str:
    params = {"size": 15, "bones_per_player": 60, "max_moves": 1000}
    state = boneyard.load_game("oyno", **params).new_initial_state()
    chooser = random.Random(7)
    actions = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action, player = chooser.choice(state.chance_outcomes())[0], CHANCE
        else:
            action, player = chooser.choice(state.legal_actions()), state.current_player()
        state.apply_action(action)
        actions.append((action, player))
    seats = [
        {"token": secrets.token_urlsafe(12), "kind": "human", "level": None, "name": None}
        for _ in range(2)
    ]
    Store(f"sqlite:///{db}").create_game(
        "long", "oyno", params, "seed", seed_hash("seed"), seats, actions
    )
    return "long"


def serve(db: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
            *("--port", str(port), "--db", f"sqlite:///{db}", "--bot-processes", "0", *options),
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


def client(base: str, address: str) -> httpx2.Client:
    transport = httpx2.HTTPTransport(local_address=address)
    return httpx2.Client(base_url=base, transport=transport, timeout=60)


def honest_moves(http: httpx2.Client, count: int) -> list[float]:
    made = http.post("/api/games", json={"game": "obonto", "seats": [{}, {}]}).json()
    tokens = [seat["token"] for seat in made["seats"]]
    chooser, seat, seconds = random.Random(3), 0, []
    while len(seconds) < count:
        mine = http.get(
            f"/api/games/{made['id']}", params={"token": tokens[seat], "draw": "false"}
        ).json()
        if mine["terminal"]:
            break
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


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.0f} ms, longest {max(values) * 1000:.0f} ms"


def run(db: Path, game_id: str, flood: int, *options: str) -> None:
    server, base = serve(db, *options)
    try:
        with client(base, HONEST) as honest:
            start = time.monotonic()
            honest.get(f"/api/games/{game_id}/replay/500").raise_for_status()
            first = time.monotonic() - start
            warm = []
            for step in random.Random(1).sample(range(1001), 50):
                start = time.monotonic()
                honest.get(f"/api/games/{game_id}/replay/{step}").raise_for_status()
                warm.append(time.monotonic() - start)
            print(f"  a frame: the first {first * 1000:.0f} ms; then {ms(warm)}")
            print(f"  honest moves alone: {ms(honest_moves(honest, 30))}")
            answers: dict[int, int] = {}

            def ask() -> None:
                chooser = random.Random()
                with client(base, ATTACKER) as attacker:
                    for _ in range(flood // 8):
                        code = attacker.get(
                            f"/api/games/{game_id}/replay/{chooser.randrange(1001)}"
                        ).status_code
                        answers[code] = answers.get(code, 0) + 1

            threads = [threading.Thread(target=ask) for _ in range(8)]
            for thread in threads:
                thread.start()
            during = honest_moves(honest, 30)
            for thread in threads:
                thread.join()
            print(f"  honest moves during the flood: {ms(during)}; the flood's answers {answers}")
    finally:
        server.kill()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood", type=int, default=400, help="frames the flood asks for")
    flood = parser.parse_args().flood
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "web.db"
        game_id = stored_game(db)
        print("default budgets:")
        run(db, game_id, flood)
        print("reads unlimited (the frames' own cost):")
        run(db, game_id, flood, "--reads-per-minute", "1000000")


if __name__ == "__main__":
    main()
