"""An honest player's reply time with and without issue 33's attack on the computer, in one run.

    .venv/bin/python benchmarks/web_fair_compute.py [--games 20] [--moves 8] [--level hard]

It starts ``boneyard serve`` on 127.0.0.1 (a fresh SQLite file, two bot worker processes, the
default budgets). An honest player at 127.0.0.2 plays Obonto against the computer at ``--level``
over a socket, thinking ``--think`` seconds before each move, and times each reply: from its
move to its turn again. It does so first alone, then while an attacker at 127.0.1.1 plays
``--games`` games against the same level, moving the instant it is its turn. It reports both
series (median and worst), the attacker's moves and the bot queue the server reported
(``/metrics``) while the honest player waited. Loopback only; bounded by ``--moves`` and
``--timeout``.

Before issue 33 the computer's time was first come, first served (0.81 s -> 9.8 s with twenty
games); with the clients served in turn the honest reply waits for at most one attacker job.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
import websockets

HOST = "127.0.0.1"
HONEST = "127.0.0.2"
ATTACKER = "127.0.1.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    command = [
        *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
        *("--host", HOST, "--port", str(port), "--db", f"sqlite:///{db}"),
        *("--bot-processes", "2"),
    ]
    return subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


def http(base: str, address: str) -> httpx2.Client:
    return httpx2.Client(
        base_url=base, transport=httpx2.HTTPTransport(local_address=address), timeout=30
    )


def wait_until_up(base: str, timeout: float = 60.0) -> None:
    """Up once a game against the computer can be made (the worker processes started)."""
    deadline = time.monotonic() + timeout
    with http(base, HOST) as client:
        while True:
            with contextlib.suppress(httpx2.TransportError):
                if client.post("/api/games", json={"game": "obonto"}).status_code == 201:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.2)


def new_game(base: str, address: str, level: str) -> tuple[str, str]:
    """A game of Obonto, a person (seat 0) against the computer: its id and the seat's token."""
    seats = [{"kind": "human"}, {"kind": "computer", "level": level}]
    with http(base, address) as client:
        answer = client.post("/api/games", json={"game": "obonto", "seats": seats})
        answer.raise_for_status()
        created = answer.json()
    return created["id"], created["seats"][0]["token"]


async def open_socket(port: int, address: str, game_id: str, token: str) -> Any:
    raw = socket.socket()
    raw.bind((address, 0))
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, (HOST, port))
    url = f"ws://{HOST}:{port}/ws/games/{game_id}?token={token}&draw=false"
    return await websockets.connect(url, sock=raw, max_size=None)


def my_turn(view: dict[str, Any]) -> bool:
    return view.get("current_player") == 0 and bool(view.get("legal")) and not view["terminal"]


async def next_view(ws: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "view":
            return message


async def attack_one(
    port: int, base: str, level: str, stop: asyncio.Event, moves: list[int]
) -> None:
    """One attacker game: move the instant it is the attacker's turn, until ``stop``."""
    game_id, token = await asyncio.to_thread(new_game, base, ATTACKER, level)
    ws = await open_socket(port, ATTACKER, game_id, token)
    try:
        view = await next_view(ws)
        while not stop.is_set() and not view["terminal"]:
            if my_turn(view):
                act = {"type": "act", "seq": view["seq"], "action": view["legal"][0]["id"]}
                await ws.send(json.dumps(act))
                moves[0] += 1
            view = await next_view(ws)
    except websockets.ConnectionClosed:
        pass
    finally:
        await ws.close()


async def queue_depth(base: str) -> float:
    async with httpx2.AsyncClient(base_url=base) as client:
        text = (await client.get("/metrics")).text
    for line in text.splitlines():
        if line.startswith("boneyard_bot_queue "):
            return float(line.split()[1])
    return float("nan")


async def honest_replies(
    port: int, base: str, level: str, moves: int, think: float
) -> tuple[list[float], list[float]]:
    """Seconds from each honest move to the honest player's turn again, and the bot queue
    the server reported as each reply was awaited."""
    replies: list[float] = []
    depths: list[float] = []
    while len(replies) < moves:
        game_id, token = await asyncio.to_thread(new_game, base, HONEST, level)
        ws = await open_socket(port, HONEST, game_id, token)
        try:
            view = await next_view(ws)
            while len(replies) < moves and not view["terminal"]:
                while not my_turn(view) and not view["terminal"]:
                    view = await next_view(ws)
                if view["terminal"]:
                    break
                await asyncio.sleep(think)  # a person looks at the board
                if view["seq"] != (view := await latest(ws, view))["seq"] or not my_turn(view):
                    continue
                began = time.monotonic()
                act = {"type": "act", "seq": view["seq"], "action": view["legal"][0]["id"]}
                await ws.send(json.dumps(act))
                depth = asyncio.create_task(queue_depth(base))
                seen_computer = False
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] != "view":
                        continue
                    view = message
                    seen_computer |= any(line["player"] == 1 for line in view["log"])
                    if view["terminal"] or (seen_computer and my_turn(view)):
                        break
                if seen_computer:
                    replies.append(time.monotonic() - began)
                    depths.append(await depth)
        finally:
            await ws.close()
    return replies, depths


async def latest(ws: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The newest view already sent (none waiting: ``view``)."""
    while True:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.01))
        except TimeoutError:
            return view
        if message["type"] == "view":
            view = message


def summary(name: str, replies: list[float], depths: list[float]) -> str:
    return (
        f"{name:>16}: median {statistics.median(replies):6.2f} s, worst {max(replies):6.2f} s "
        f"over {len(replies)} replies; bot queue while waiting: median "
        f"{statistics.median(depths):.0f}, most {max(depths):.0f}"
    )


async def run(args: argparse.Namespace, port: int) -> None:
    base = f"http://{HOST}:{port}"
    calm, calm_depths = await honest_replies(port, base, args.level, args.moves, args.think)
    print(summary("without attack", calm, calm_depths))
    stop = asyncio.Event()
    attacker_moves = [0]
    attackers = [
        asyncio.create_task(attack_one(port, base, args.level, stop, attacker_moves))
        for _ in range(args.games)
    ]
    await asyncio.sleep(args.warm)  # the attacker's queue builds
    try:
        attacked, attacked_depths = await honest_replies(
            port, base, args.level, args.moves, args.think
        )
    finally:
        stop.set()
        for task in attackers:
            task.cancel()
        await asyncio.gather(*attackers, return_exceptions=True)
    print(summary("under the attack", attacked, attacked_depths))
    print(f"{'attacker':>16}: {args.games} games, {attacker_moves[0]} moves sent")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="the attacker's games")
    parser.add_argument("--moves", type=int, default=8, help="honest replies timed per phase")
    parser.add_argument("--level", default="hard", help="the computer's level in every game")
    parser.add_argument("--think", type=float, default=1.0, help="the honest player's pause")
    parser.add_argument("--warm", type=float, default=5.0, help="seconds the attack runs first")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds for the whole run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder) / "web.db", port)
        try:
            wait_until_up(f"http://{HOST}:{port}")
            asyncio.run(asyncio.wait_for(run(args, port), timeout=args.timeout))
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)
            server.wait()


if __name__ == "__main__":
    main()
