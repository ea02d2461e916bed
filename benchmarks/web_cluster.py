"""Load across processes: many concurrent games over two web processes and one bot worker.

    .venv/bin/python benchmarks/web_cluster.py [--games 1000] [--moves 5] [--level easy]
        [--statements]   (PostgreSQL's statements a stored move, from pg_stat_statements)

It starts a throwaway PostgreSQL server (``boneyard.testing.postgres``: Unix socket only), two
``boneyard serve --bots queue`` processes and one ``boneyard bots`` worker on 127.0.0.1, then
creates the games (a person against the computer at ``--level``), each through one process, and
plays them: the person's WebSocket is on the *other* process, and a spectator socket on the
first. For each move of the person it measures

- the round trip from sending ``act`` to its ``ack`` (validated, stored, announced);
- the fan-out: from sending ``act`` to the new view arriving on the spectator socket of the
  other process (LISTEN/NOTIFY, then that process reads the store);
- the computer's reply: from the ``ack`` to the view where the person is to move again (a job
  in the table, claimed and answered by the worker, played through a web process).

At the end every process is killed with SIGKILL and each stored game is replayed: it must hold
every acknowledged move and reach the position its seats were last shown. CPU is counted for
the two web processes, the worker and its bot processes, and the PostgreSQL server, while the
games play. Bars (issue 17): every move answered, p99 round trip under 150 ms, nothing lost;
exit status 1 when one is missed. Loopback only, bounded by ``--moves`` and ``--timeout``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
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
from sqlalchemy import text

import boneyard
from boneyard.testing.postgres import throwaway_postgres
from boneyard.web.store.games import Store

HOST = "127.0.0.1"
BONEYARD = (sys.executable, "-c", "from boneyard.cli import main; main()")


@dataclass
class Result:
    round_trips: list[float] = field(default_factory=list)
    fan_out: list[float] = field(default_factory=list)
    computer: list[float] = field(default_factory=list)
    sent: int = 0
    answered: int = 0
    errors: list[str] = field(default_factory=list)
    gave_up: int = 0
    """Games whose person stopped after waiting 30 s for the computer's move."""
    acked: dict[str, int] = field(default_factory=dict)
    last_views: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def cpu_of(pids: set[int]) -> float:
    """User + system CPU seconds of these processes and their waited-for children."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            total += sum(int(value) for value in fields[11:15]) / tick
    return total


def family(roots: set[int]) -> set[int]:
    """``roots`` and every process below them."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = int(fields[1])
    found = set(roots)
    grew = True
    while grew:
        below = {pid for pid, parent in parents.items() if parent in found} - found
        grew = bool(below)
        found |= below
    return {pid for pid in found if pid in parents}


def start(log: Path, *arguments: str) -> subprocess.Popen[bytes]:
    with log.open("wb") as output:
        return subprocess.Popen(
            ["nice", "-n", "5", *BONEYARD, *arguments],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


async def wait_until_ready(base: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    async with httpx2.AsyncClient() as client:
        while True:
            try:
                if (await client.get(f"{base}/readyz")).status_code == 200:
                    return
            except httpx2.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server at {base} did not start")
            await asyncio.sleep(0.2)


async def watch(url: str, game_id: str, seen: dict[tuple[str, int], float], stop: Any) -> None:
    """A spectator socket: when each sequence number's view arrived."""
    async with websockets.connect(url, max_size=None) as ws:
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
            except TimeoutError:
                continue
            if message.get("type") == "view":
                # A view may bring several moves at once (a person's and the computer's).
                now = time.perf_counter()
                for seq in range(message.get("log_from", message["seq"]), message["seq"] + 1):
                    seen.setdefault((game_id, seq), now)


async def play(
    url: str,
    game_id: str,
    seat: int,
    moves: int,
    rng: random.Random,
    think: tuple[float, float],
    result: Result,
    seen: dict[tuple[str, int], float],
    sent_at: dict[tuple[str, int], float],
    stop_at: float,
) -> None:
    async with websockets.connect(url, max_size=None) as ws:
        made = 0
        acked_at: float | None = None
        while made < moves and time.monotonic() < stop_at:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            except TimeoutError:  # the computer's move is late: this person stops playing
                result.gave_up += 1
                return
            if message["type"] != "view":
                continue
            result.last_views[(game_id, seat)] = message
            if message["terminal"]:
                return
            if message["current_player"] != seat:
                continue
            if acked_at is not None:
                result.computer.append(time.perf_counter() - acked_at)
                acked_at = None
            await asyncio.sleep(rng.uniform(*think))
            action = rng.choice(message["legal"])["id"]
            started = time.perf_counter()
            sent_at[(game_id, message["seq"] + 1)] = started
            result.sent += 1
            await ws.send(json.dumps({"type": "act", "seq": message["seq"], "action": action}))
            while True:
                reply = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                if reply["type"] != "view":
                    break
                result.last_views[(game_id, seat)] = reply
            result.answered += 1
            if reply["type"] != "ack":
                result.errors.append(f"{game_id}: {reply}")
                return
            acked_at = time.perf_counter()
            result.round_trips.append(acked_at - started)
            result.acked[game_id] = result.acked.get(game_id, 0) + 1
            made += 1


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else 0.0


# Over the complexity limit on purpose: a benchmark's script: its steps read once, top to bottom.
async def run(args: argparse.Namespace, db_url: str) -> int:  # noqa: C901
    ports = [free_port(), free_port()]
    bases = [f"http://{HOST}:{port}" for port in ports]
    budgets = (
        "--games-per-minute", "1000000", "--sockets-per-client", "100000",
        "--sockets-per-minute", "100000", "--moves-per-minute", "1000000",
        "--connection-share", "1",
    )  # fmt: skip
    budgets += ("--sockets-per-game", "64", "--memory-mb", "4096")
    logs = Path(tempfile.mkdtemp(prefix="boneyard-cluster-"))
    print(f"logs in {logs}", file=sys.stderr)
    servers = [
        start(logs / f"web{port}.log", "serve", "--port", str(port), "--db", db_url,
              "--bots", "queue", "--bot-delay", str(args.bot_delay), *budgets)
        for port in ports
    ]  # fmt: skip
    worker = start(
        logs / "bots.log", "bots", "--db", db_url, "--processes", str(args.bot_processes)
    )
    result = Result()
    seen: dict[tuple[str, int], float] = {}
    sent_at: dict[tuple[str, int], float] = {}
    created: list[dict[str, Any]] = []
    postmaster = int(Path(db_url.split("host=")[1].split("&")[0], "data", "postmaster.pid")
                     .read_text().split()[0])  # fmt: skip
    try:
        for base in bases:
            await wait_until_ready(base)
        deadline = time.monotonic() + 120
        while b"answering jobs" not in (logs / "bots.log").read_bytes():  # imported, ready
            if time.monotonic() > deadline or worker.poll() is not None:
                raise RuntimeError("the bot worker did not start")
            await asyncio.sleep(0.2)
        seats = [{"kind": "human"}, {"kind": "computer", "level": args.level}]
        limits = httpx2.Limits(max_connections=16)
        clients = [httpx2.AsyncClient(base_url=b, limits=limits, timeout=60) for b in bases]
        semaphore = asyncio.Semaphore(16)

        async def create(number: int) -> None:
            async with semaphore:
                while True:
                    answer = await clients[number % 2].post(
                        "/api/games", json={"game": args.game, "seats": seats}
                    )
                    if answer.status_code != 429:  # one set-up per address at a time
                        break
                    await asyncio.sleep(0.02)
                answer.raise_for_status()
                created.append({**answer.json(), "via": number % 2})

        await asyncio.gather(*(create(n) for n in range(args.games)))
        for client in clients:
            await client.aclose()
        rng = random.Random(args.seed)
        stop = asyncio.Event()
        stop_at = time.monotonic() + args.timeout
        watchers, players = [], []
        for game in created:
            here, other = bases[game["via"]], bases[1 - game["via"]]
            token = game["seats"][0]["token"]
            socket_url = f"/ws/games/{game['id']}?draw=false"
            watchers.append(watch(f"ws{here[4:]}{socket_url}", game["id"], seen, stop))
            players.append(
                play(
                    f"ws{other[4:]}{socket_url}&token={token}", game["id"], 0, args.moves,
                    random.Random(rng.random()), (args.think_min, args.think_max), result,
                    seen, sent_at, stop_at,
                )
            )  # fmt: skip
        parts = {
            "web": {s.pid for s in servers},
            "bots": {worker.pid},
            "PostgreSQL": {postmaster},
        }
        members = {name: family(roots) for name, roots in parts.items()}
        cpu_before = {name: cpu_of(pids) for name, pids in members.items()}
        if args.statements:
            statements(db_url, reset=True)
        client_before = time.process_time()
        started = time.monotonic()
        watching = [asyncio.ensure_future(w) for w in watchers]
        await asyncio.wait_for(asyncio.gather(*players), timeout=args.timeout + 60)
        await asyncio.sleep(1.0)  # the last views reach the spectators
        elapsed = time.monotonic() - started
        cpu_used = {
            name: cpu_of(family(parts[name]) | pids) - cpu_before[name]
            for name, pids in members.items()
        }
        service_cpu = sum(cpu_used.values())
        counted = statements(db_url) if args.statements else []
        client_cpu = time.process_time() - client_before
        stop.set()
        await asyncio.gather(*watching, return_exceptions=True)
    finally:
        for process in [*servers, worker]:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    for key, sent in sent_at.items():
        if key in seen:
            result.fan_out.append(seen[key] - sent)
    lost, stored_moves = check_replay(db_url, created, result)
    load = os.getloadavg()
    print(
        f"games: {len(created)} concurrent {args.game} games, a person against the computer "
        f"({args.level}); 2 web processes, 1 bot worker ({args.bot_processes} processes), "
        f"PostgreSQL; {2 * len(created)} WebSockets"
    )
    print(
        f"person's moves sent: {result.sent}, answered: {result.answered}, refused: "
        f"{len(result.errors)}; moves stored (people and computers): {stored_moves}; games "
        f"left after waiting 30 s for the computer: {result.gave_up}"
    )
    print(f"duration: {elapsed:.1f} s; throughput: {stored_moves / elapsed:.0f} moves/s")
    per_move = service_cpu / max(1, stored_moves) * 1000
    shares = ", ".join(
        f"{name} {used / max(1, stored_moves) * 1000:.2f}" for name, used in cpu_used.items()
    )
    print(
        f"service CPU: {service_cpu:.1f} s ({per_move:.2f} ms a move: {shares}); "
        f"client CPU: {client_cpu:.1f} s; load average {load[0]:.1f} / {load[1]:.1f} on "
        f"{os.cpu_count()} CPUs"
    )
    for name, values in (
        ("round trip (act to ack)", result.round_trips),
        ("fan-out to the other process's socket", result.fan_out),
        ("computer's reply (job through the worker)", result.computer),
    ):
        median = statistics.median(values) * 1000 if values else float("nan")
        print(
            f"{name}: median {median:.1f} ms, p90 {percentile(values, 0.9):.1f} ms, "
            f"p99 {percentile(values, 0.99):.1f} ms, max {percentile(values, 1.0):.1f} ms "
            f"({len(values)})"
        )
    if counted:
        moves = max(1, stored_moves)
        calls = sum(row[1] for row in counted)
        print(f"PostgreSQL statements: {calls / moves:.1f} a stored move; the most called:")
        for query, count, mean_ms in counted[:16]:
            print(f"  {count / moves:6.2f} a move, {mean_ms:6.3f} ms each: {query[:110]}")
    print(f"replayed after SIGKILL: {len(created)} games, mismatches: {len(lost)}")
    for problem in (result.errors + lost)[:10]:
        print("  ", problem)
    ok = (
        result.sent == result.answered
        and not result.errors
        and not lost
        and percentile(result.round_trips, 0.99) < 150
    )
    print("bars:", "met" if ok else "MISSED")
    return 0 if ok else 1


def statements(db_url: str, reset: bool = False) -> list[tuple[str, int, float]]:
    """PostgreSQL's statements since the last reset: (text, calls, mean ms), most called first."""
    store = Store(db_url)
    try:
        with store.engine.begin() as connection:
            if reset:
                connection.execute(text("SELECT pg_stat_statements_reset()"))
                return []
            rows = connection.execute(
                text(
                    "SELECT regexp_replace(query, '\\s+', ' ', 'g'), calls, mean_exec_time "
                    "FROM pg_stat_statements ORDER BY calls DESC"
                )
            ).all()
    finally:
        store.close()
    return [(str(query), int(calls), float(mean)) for query, calls, mean in rows]


def check_replay(
    db_url: str, created: list[dict[str, Any]], result: Result
) -> tuple[list[str], int]:
    """Every acknowledged move is stored; the last position each seat saw replays the same."""
    store = Store(db_url)
    problems: list[str] = []
    total = 0
    try:
        for info in created:
            stored = store.load(info["id"])
            if stored is None:
                problems.append(f"{info['id']}: not stored")
                continue
            total += sum(1 for _a, player in stored.actions if player >= 0)
            mine = sum(1 for _a, player in stored.actions if player == 0)
            if mine != result.acked.get(info["id"], 0):
                problems.append(
                    f"{info['id']}: {result.acked.get(info['id'], 0)} acknowledged, {mine} stored"
                )
            view = result.last_views.get((info["id"], 0))
            if view is None:
                continue
            if view["seq"] > len(stored.actions):
                problems.append(f"{info['id']}: move {view['seq']} shown, not stored")
                continue
            state = boneyard.load_game(stored.name, **stored.params).new_initial_state()
            for action, _player in stored.actions[: view["seq"]]:
                state.apply_action(action)
            if view["observation"] != state.observation(0):
                problems.append(f"{info['id']}: the position shown differs from the stored one")
    finally:
        store.close()
    return problems, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--game", default="obonto")
    parser.add_argument("--level", default="easy", help="the computer's level")
    parser.add_argument("--moves", type=int, default=4, help="moves of the person per game")
    parser.add_argument("--think-min", type=float, default=5.0)
    parser.add_argument("--think-max", type=float, default=15.0)
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds of play at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--statements",
        action="store_true",
        help="count PostgreSQL's statements per stored move (pg_stat_statements)",
    )
    args = parser.parse_args()
    # Two sockets a game here and one a game in each server: lift the open-file limit.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    settings = ["max_connections=200"]
    if args.statements:
        settings.append("shared_preload_libraries=pg_stat_statements")
    with throwaway_postgres(*settings) as db_url:
        if args.statements:
            with Store(db_url).engine.begin() as connection:
                connection.execute(text("CREATE EXTENSION pg_stat_statements"))
        code = asyncio.run(run(args, db_url))
    sys.exit(code)


if __name__ == "__main__":
    main()
