"""Load benchmark of the web app: many concurrent games of random moves over WebSockets.

    .venv/bin/python benchmarks/web_load.py [--games 200] [--moves 15] [--game obonto] [--draw]

It starts ``boneyard serve`` in its own process on 127.0.0.1 (a fresh SQLite file), creates the
games by HTTP, opens one WebSocket per seat, and lets every game play random legal moves with a
person-like pause between moves (``--think-min`` to ``--think-max`` seconds). For each move it
measures the round trip from sending ``act`` to receiving ``ack`` (the server has validated,
stored and broadcast the move by then). At the end it kills the server with SIGKILL and replays
every stored game from the database file: each must hold exactly the acknowledged moves and
reach the position every seat was last shown (and, with ``--draw``, the drawing rebuilt from
what changed must be the one drawn from that position). Bars: every move answered, median
< 20 ms, p99 < 100 ms, server CPU at most ``--max-cpu-ms`` (3 ms) a move, nothing lost; exit
status 1 when one is missed. Loopback only; bounded by ``--moves`` and ``--timeout``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import websockets

import boneyard
from boneyard.web.play.drawing import Lines, lines_of, rebuilt
from boneyard.web.play.live import render
from boneyard.web.store.games import Store

HOST = "127.0.0.1"


@dataclass
class Result:
    round_trips: list[float] = field(default_factory=list)
    sent: int = 0
    answered: int = 0
    errors: list[str] = field(default_factory=list)
    last_views: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    acked: dict[str, int] = field(default_factory=dict)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), or NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(db_url: str, port: int) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-c",
        "from boneyard.cli import main; main()",
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--db",
        db_url,
        # One address here stands for hundreds of players: lift the per-client budgets.
        "--games-per-minute",
        "100000",
        "--sockets-per-client",
        "100000",
        "--sockets-per-minute",
        "100000",
        "--moves-per-minute",
        "1000000",
        "--connection-share",
        "1",
        "--bot-processes",
        "0",
    ]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


async def wait_until_up(base: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    async with httpx2.AsyncClient() as client:
        while True:
            try:
                if (await client.get(f"{base}/api/kinds")).status_code == 200:
                    return
            except httpx2.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            await asyncio.sleep(0.1)


def whole_drawing(view: dict[str, Any], held: Lines | None) -> Lines | None:
    """Put the whole drawing back in a view that carries what changed (as the page does)."""
    if "drawing" in view:
        view["svg"] = rebuilt(held, view["drawing"]) if held is not None else None
    return lines_of(view["svg"])


async def play_seat(
    base: str,
    game_id: str,
    seat: int,
    token: str,
    moves: int,
    think: tuple[float, float],
    rng: random.Random,
    result: Result,
    stop_at: float,
    draw: bool,
) -> None:
    url = f"ws://{base.removeprefix('http://')}/ws/games/{game_id}?token={token}"
    if not draw:
        url += "&draw=false"
    async with websockets.connect(url, max_size=None) as ws:
        made = 0
        held: Lines | None = None
        while made < moves and time.monotonic() < stop_at:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=5))
            except TimeoutError:
                break  # the other seat has played its share
            if message["type"] != "view":
                continue
            held = whole_drawing(message, held)
            result.last_views[(game_id, seat)] = message
            if message["terminal"]:
                break
            if message["current_player"] != seat:
                continue
            await asyncio.sleep(rng.uniform(*think))
            action = rng.choice(message["legal"])["id"]
            started = time.perf_counter()
            result.sent += 1
            await ws.send(json.dumps({"type": "act", "seq": message["seq"], "action": action}))
            while True:
                reply = json.loads(await ws.recv())
                if reply["type"] != "view":
                    break
                held = whole_drawing(reply, held)
                result.last_views[(game_id, seat)] = reply
            result.answered += 1
            if reply["type"] != "ack":
                result.errors.append(f"{game_id}: {reply}")
                break
            result.round_trips.append(time.perf_counter() - started)
            result.acked[game_id] = result.acked.get(game_id, 0) + 1
            made += 1


async def run(args: argparse.Namespace) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="boneyard-load-"))
    db_url = f"sqlite:///{workdir / 'load.db'}"
    port = free_port()
    base = f"http://{HOST}:{port}"
    server = start_server(db_url, port)
    result = Result()
    try:
        await wait_until_up(base)
        limits = httpx2.Limits(max_connections=50)
        async with httpx2.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
            created = []
            for _ in range(args.games):
                response = await client.post("/api/games", json={"game": args.game})
                response.raise_for_status()
                created.append(response.json())
        rng = random.Random(args.seed)
        stop_at = time.monotonic() + args.timeout
        tasks = []
        for game in created:
            for seat in game["seats"]:
                tasks.append(
                    play_seat(
                        base,
                        game["id"],
                        seat["seat"],
                        seat["token"],
                        args.moves,
                        (args.think_min, args.think_max),
                        random.Random(rng.random()),
                        result,
                        stop_at,
                        args.draw,
                    )
                )
        started = time.monotonic()
        cpu_before = cpu_seconds(server.pid)
        client_before = time.process_time()
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.timeout + 60)
        elapsed = time.monotonic() - started
        server_cpu = cpu_seconds(server.pid) - cpu_before
        client_cpu = time.process_time() - client_before
    finally:
        # SIGKILL: nothing acknowledged may depend on a clean shutdown.
        os.kill(server.pid, signal.SIGKILL)
        server.wait()

    lost = check_replay(db_url, created, result)
    trips = sorted(result.round_trips)
    median = statistics.median(trips) * 1000 if trips else float("nan")
    p99 = trips[min(len(trips) - 1, int(0.99 * len(trips)))] * 1000 if trips else float("nan")
    drawn = "with" if args.draw else "without"
    print(
        f"games: {len(created)} of {args.game}, concurrent; seats: {len(tasks)} WebSockets; "
        f"views {drawn} SVG boards; think {args.think_min}-{args.think_max} s"
    )
    print(f"moves sent: {result.sent}, answered: {result.answered}, refused: {len(result.errors)}")
    print(f"duration: {elapsed:.1f} s, throughput: {result.answered / elapsed:.0f} moves/s")
    per_move = server_cpu / max(1, result.answered) * 1000
    print(
        f"server CPU: {server_cpu:.1f} s ({per_move:.2f} ms a move), client CPU: "
        f"{client_cpu:.1f} s; "
        f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"round trip: median {median:.2f} ms, p90 {trips[int(0.9 * len(trips))] * 1000:.2f} ms, "
        f"p99 {p99:.2f} ms, max {trips[-1] * 1000:.2f} ms"
    )
    print(f"replayed after SIGKILL: {len(created)} games, mismatches: {len(lost)}")
    for problem in (result.errors + lost)[:10]:
        print("  ", problem)
    ok = (
        result.sent == result.answered
        and not result.errors
        and not lost
        and median < 20
        and p99 < 100
        and per_move <= args.max_cpu_ms
    )
    print("bars:", "met" if ok else "MISSED")
    return 0 if ok else 1


def check_replay(db_url: str, created: list[dict[str, Any]], result: Result) -> list[str]:
    """Every stored game replays to the position its seats were last shown, with every ack."""
    store = Store(db_url)
    problems = []
    try:
        for game_info in created:
            stored = store.load(game_info["id"])
            if stored is None:
                problems.append(f"{game_info['id']}: not stored")
                continue
            game = boneyard.load_game(stored.name, **stored.params)
            played = sum(1 for _a, player in stored.actions if player >= 0)
            if played != result.acked.get(game_info["id"], 0):
                problems.append(
                    f"{game_info['id']}: {result.acked.get(game_info['id'], 0)} moves "
                    f"acknowledged, {played} stored"
                )
            states = [game.new_initial_state()]
            for action, _player in stored.actions:
                states.append(states[-1].clone())
                states[-1].apply_action(action)
            shown = [
                result.last_views[(game_info["id"], seat)]
                for seat in range(game.info.num_players)
                if (game_info["id"], seat) in result.last_views
            ]
            if max((view["seq"] for view in shown), default=-1) != len(stored.actions):
                problems.append(f"{game_info['id']}: the last position shown is not the stored one")
            for view in shown:
                if view["seq"] >= len(states):
                    problems.append(f"{game_info['id']}: move {view['seq']} shown, not stored")
                elif view["observation"] != states[view["seq"]].observation(view["seat"]):
                    problems.append(f"{game_info['id']} seat {view['seat']}: position differs")
                elif view["svg"] not in (None, render(game, view["observation"])[0]):
                    problems.append(f"{game_info['id']} seat {view['seat']}: drawing differs")
    finally:
        store.close()
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", default="obonto")
    parser.add_argument("--moves", type=int, default=15, help="moves per seat at most")
    parser.add_argument("--think-min", type=float, default=1.0)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds of play at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--max-cpu-ms",
        type=float,
        default=3.0,
        help="the bar on the server's CPU time a move (issue 26: at most 3 ms with the drawings)",
    )
    parser.add_argument(
        "--draw",
        action="store_true",
        help="sockets ask for views with the SVG board drawings, as a browser does "
        "(random-move programs do not need them, so by default they ask for draw=false)",
    )
    sys.exit(asyncio.run(run(parser.parse_args())))


if __name__ == "__main__":
    main()
