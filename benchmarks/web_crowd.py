"""Issue 44's attacks from a crowd of loopback addresses, beside an honest player and an owner.

    nice -n 10 .venv/bin/python benchmarks/web_crowd.py [--rows 1,3,4,5,6] [--seconds 20]
    nice -n 10 .venv/bin/python benchmarks/web_crowd.py --postgres   # two processes, one DB
    nice -n 10 .venv/bin/python benchmarks/web_crowd.py --postgres --bots-queue  # one bot queue

It starts ``boneyard serve`` on 127.0.0.1 (a fresh SQLite file, two bot worker processes and the
default budgets; ``--postgres``: a throwaway PostgreSQL server and ``--workers 2``;
``--bots-queue``: the computer moves of every server process queued in the database for one
``boneyard bots`` group of two processes), makes the
owner's account, then for each row: the honest player (127.0.0.2) times its moves alone, the
attack starts from its addresses (127.0.x.y, one network or many), the honest player times its
moves again, the owner logs in from an address it never used, and the attack stops. Each row
prints the honest player's p50 and p90 under the attack against alone (the ratio; bar: <= 2),
the owner's log-in (bar: in within 5 s) and what the attack got. Bounded: each row runs for
``--seconds`` (under a minute), at most a few thousand connections.

Each row's attack runs in a process of its own (``--attack-nice``: at a lower CPU priority), so the
honest player's times do not include its own process running the crowd's clients; each row
prints the CPU seconds the server and the crowd's clients took, and the load average.

Rows (issue 44): 1 log-in flood on names that do not exist, from 30 networks; 2 one try a
second on the owner's name from fresh addresses; 3 standings sockets (100, from 10 networks) on
an arena whose players toggle join/withdraw; 4 16 networks x 64 idle spectator sockets, then an
honest newcomer's fresh connections; 5 five networks of 20 games each against the top level
(the honest player's reply from an easy computer); 6 reads from 10 networks at their full
budget; 7 (``--postgres``) the same address's log-in tries on one name through two processes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx2
import websockets

HOST = "127.0.0.1"
HONEST = "127.0.0.2"
PASSWORD = "correct horse battery"
OWNER = "Owner"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


BOT_PROCESSES = 2
"""The bot workers: each server process's own (``--bot-processes``), or, with ``--bots-queue``,
one ``boneyard bots`` group that every server process's jobs queue for."""


def start_server(db: str, port: int, workers: int, queue: bool) -> subprocess.Popen[bytes]:
    bots = ("--bots", "queue") if queue else ("--bot-processes", str(BOT_PROCESSES))
    command = [
        *(sys.executable, "-c", "from boneyard.cli import main; main()", "serve"),
        *("--host", HOST, "--port", str(port), "--db", db, *bots),
        *(("--workers", str(workers)) if workers > 1 else ()),
    ]
    return subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


def start_bot_workers(db: str) -> subprocess.Popen[bytes]:
    """``boneyard bots``: the one queue over every server process's computer moves."""
    command = [
        *(sys.executable, "-c", "from boneyard.cli import main; main()", "bots"),
        *("--db", db, "--processes", str(BOT_PROCESSES)),
    ]
    return subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


def client(base: str, address: str, timeout: float = 30.0) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        base_url=base,
        transport=httpx2.AsyncHTTPTransport(local_address=address),
        timeout=timeout,
    )


async def wait_until_up(base: str) -> None:
    deadline = time.monotonic() + 240  # two processes and their bot workers start slowly
    async with client(base, HOST) as c:
        while True:
            with contextlib.suppress(httpx2.TransportError):
                if (await c.get("/api/kinds")).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            await asyncio.sleep(0.3)


async def open_socket(port: int, address: str, path: str) -> Any:
    raw = socket.socket()
    raw.bind((address, 0))
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, (HOST, port))
    return await websockets.connect(f"ws://{HOST}:{port}{path}", sock=raw, max_size=None)


# ----- the honest player and the owner ---------------------------------------------------------


class Honest:
    """The honest player: a game between two people (it holds both seats) over HTTP, a move
    every ``pace`` seconds; each move timed from asking the view to the move stored."""

    def __init__(self, base: str, pace: float = 0.25) -> None:
        self.base, self.pace = base, pace
        self.game: dict[str, Any] | None = None

    async def _new_game(self, c: httpx2.AsyncClient) -> dict[str, Any]:
        seats = [{"kind": "human"}, {"kind": "human"}]
        answer = await c.post("/api/games", json={"game": "obonto", "seats": seats})
        answer.raise_for_status()
        created: dict[str, Any] = answer.json()
        return created

    async def moves(self, seconds: float) -> list[float]:
        timed: list[float] = []
        deadline = time.monotonic() + seconds
        async with client(self.base, HONEST) as c:
            while time.monotonic() < deadline:
                if self.game is None:
                    self.game = await self._new_game(c)
                game = self.game
                began = time.monotonic()
                try:
                    view = (await c.get(f"/api/games/{game['id']}")).json()
                    if view.get("terminal") or view.get("current_player", -1) < 0:
                        self.game = None
                        continue
                    seat = view["current_player"]
                    token = game["seats"][seat]["token"]
                    mine = await c.get(f"/api/games/{game['id']}", params={"token": token})
                    view = mine.json()
                    if not view.get("legal"):
                        await asyncio.sleep(self.pace)
                        continue
                    moved = await c.post(
                        f"/api/games/{game['id']}/actions",
                        json={"token": token, "seq": view["seq"], "action": view["legal"][0]["id"]},
                    )
                    if moved.status_code == 200:
                        timed.append(time.monotonic() - began)
                    elif moved.status_code != 409:
                        timed.append(time.monotonic() - began + 30)  # refused: counted as lost
                except httpx2.HTTPError:
                    timed.append(30.0)
                await asyncio.sleep(self.pace)
        return timed


async def computer_replies(port: int, base: str, seconds: float) -> list[float]:
    """The honest player against the easy computer over a socket: each reply timed from its
    move to its turn again."""
    replies: list[float] = []
    deadline = time.monotonic() + seconds
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    async with client(base, HONEST) as c:
        while time.monotonic() < deadline:
            created = (await c.post("/api/games", json={"game": "obonto", "seats": seats})).json()
            token = created["seats"][0]["token"]
            ws = await open_socket(
                port, HONEST, f"/ws/games/{created['id']}?token={token}&draw=false"
            )
            try:
                view = await _view(ws)
                while time.monotonic() < deadline and not view["terminal"]:
                    if not _mine(view):
                        view = await _view(ws)
                        continue
                    await asyncio.sleep(0.3)  # a person looks at the board
                    began = time.monotonic()
                    act = {"type": "act", "seq": view["seq"], "action": view["legal"][0]["id"]}
                    await ws.send(json.dumps(act))
                    seen_computer = False
                    while True:
                        view = await _view(ws)
                        seen_computer |= any(line["player"] == 1 for line in view["log"])
                        if view["terminal"] or (seen_computer and _mine(view)):
                            break
                    if seen_computer:
                        replies.append(time.monotonic() - began)
            finally:
                await ws.close()
    return replies


def _mine(view: dict[str, Any]) -> bool:
    return view.get("current_player") == 0 and bool(view.get("legal")) and not view["terminal"]


async def _view(ws: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
        if message.get("type") == "view":
            return message


async def owner_logs_in(base: str, address: str) -> tuple[float | None, int]:
    """Seconds until the owner is signed in from ``address`` (None: refused or over 60 s),
    and its tries: a try the server is too busy to check now (429 ``login_busy``, never
    checked late) is tried again after its ``Retry-After``, as the person would."""
    began, tries = time.monotonic(), 0
    async with client(base, address, timeout=60) as c:
        while time.monotonic() - began < 60:
            tries += 1
            try:
                answer = await c.post("/api/login", json={"name": OWNER, "password": PASSWORD})
            except httpx2.HTTPError:
                return None, tries
            if answer.status_code == 200:
                return time.monotonic() - began, tries
            if answer.status_code != 429 or answer.json().get("error") != "login_busy":
                return None, tries
            await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
    return None, tries


# ----- the attacks -------------------------------------------------------------------------------


async def forever(work: Callable[[], Awaitable[None]], stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            await work()
        except (httpx2.HTTPError, OSError, websockets.WebSocketException, TimeoutError):
            await asyncio.sleep(0.2)


async def login_flood(base: str, stop: asyncio.Event, got: dict[str, int]) -> list[Any]:
    """Row 1: 30 networks, each at its full 10 tries a minute on names that do not exist."""

    async def one(address: str) -> None:
        async with client(base, address) as c:
            n = 0
            while not stop.is_set():
                n += 1
                answer = await c.post("/api/login", json={"name": f"nobody{n}", "password": "x"})
                got[str(answer.status_code)] = got.get(str(answer.status_code), 0) + 1
                await asyncio.sleep(6.0)

    return [forever(lambda a=f"127.0.{40 + n}.1": one(a), stop) for n in range(30)]


async def owner_name_tries(base: str, stop: asyncio.Event, got: dict[str, int]) -> list[Any]:
    """Row 2: one try a second on the owner's name, each from a fresh address."""

    async def tries() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            async with client(base, f"127.1.{n // 250}.{n % 250 + 1}") as c:
                answer = await c.post("/api/login", json={"name": OWNER, "password": f"guess{n}"})
                got[str(answer.status_code)] = got.get(str(answer.status_code), 0) + 1
            await asyncio.sleep(1.0)

    return [forever(tries, stop)]


async def standings_sockets(
    port: int, base: str, arena: str, toggler_cookies: list[dict[str, str]],
    stop: asyncio.Event, got: dict[str, int],
) -> list[Any]:  # fmt: skip
    """Row 3: 100 standings sockets from 10 networks; three accounts toggle join/withdraw
    (their sessions' cookies, from ``setup``)."""
    togglers = []
    for n, cookies in enumerate(toggler_cookies):
        toggler = client(base, f"127.0.251.{n + 1}")
        toggler.cookies.update(cookies)
        togglers.append(toggler)

    async def watch(address: str) -> None:
        ws = await open_socket(port, address, f"/ws/tournaments/{arena}")
        try:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(ws.recv(), timeout=1.0)
                    got["bytes"] = got.get("bytes", 0) + len(message)
                    got["messages"] = got.get("messages", 0) + 1
        finally:
            await ws.close()

    async def toggle(c: httpx2.AsyncClient) -> None:
        while not stop.is_set():
            for what in ("join", "withdraw"):
                answer = await c.post(f"/api/tournaments/{arena}/{what}")
                got[f"toggle {answer.status_code}"] = got.get(f"toggle {answer.status_code}", 0) + 1
            await asyncio.sleep(0.05)

    watchers = [
        forever(lambda a=f"127.0.{80 + n % 10}.{n // 10 + 1}": watch(a), stop) for n in range(100)
    ]
    return watchers + [forever(lambda c=c: toggle(c), stop) for c in togglers]


async def idle_spectators(
    port: int, base: str, stop: asyncio.Event, got: dict[str, int]
) -> list[Any]:
    """Row 4: 16 networks x 64 idle spectator sockets (each network on a game of its own)."""

    async def network(number: int) -> None:
        address = f"127.0.{100 + number}.1"
        async with client(base, address) as c:
            game = (await c.post("/api/games", json={"game": "obonto"})).json()
        held = []
        try:
            for _ in range(64):
                if stop.is_set():
                    break
                try:
                    held.append(
                        await open_socket(port, address, f"/ws/games/{game['id']}?draw=false")
                    )
                    got["held"] = got.get("held", 0) + 1
                except (OSError, websockets.WebSocketException):
                    got["refused"] = got.get("refused", 0) + 1
                    await asyncio.sleep(0.1)
            await stop.wait()
        finally:
            for ws in held:
                with contextlib.suppress(Exception):
                    await ws.close()

    return [network(n) for n in range(16)]


async def computer_games(
    port: int, base: str, stop: asyncio.Event, got: dict[str, int]
) -> list[Any]:
    """Row 5: five networks of 20 games each against the top level, moving at once."""

    async def game(address: str) -> None:
        seats = [{"kind": "human"}, {"kind": "computer", "level": "hard"}]
        async with client(base, address) as c:
            created = (await c.post("/api/games", json={"game": "obonto", "seats": seats})).json()
        token = created["seats"][0]["token"]
        ws = await open_socket(port, address, f"/ws/games/{created['id']}?token={token}&draw=false")
        try:
            view = await _view(ws)
            while not stop.is_set() and not view["terminal"]:
                if _mine(view):
                    act = {"type": "act", "seq": view["seq"], "action": view["legal"][0]["id"]}
                    await ws.send(json.dumps(act))
                    got["moves"] = got.get("moves", 0) + 1
                view = await _view(ws)
        finally:
            await ws.close()

    return [
        forever(lambda a=f"127.0.{120 + n // 20}.{n % 20 + 1}": game(a), stop) for n in range(100)
    ]


async def full_reads(base: str, stop: asyncio.Event, got: dict[str, int]) -> list[Any]:
    """Row 6: ten networks, each reading games' views at its full budget (600 a minute)."""

    async def reader(address: str) -> None:
        async with client(base, address) as c:
            game = (await c.post("/api/games", json={"game": "obonto"})).json()
            while not stop.is_set():
                answer = await c.get(f"/api/games/{game['id']}")
                got[str(answer.status_code)] = got.get(str(answer.status_code), 0) + 1
                await asyncio.sleep(0.1)

    return [forever(lambda a=f"127.0.{140 + n}.1": reader(a), stop) for n in range(10)]


ATTACKS: dict[int, Callable[..., Awaitable[list[Any]]]] = {
    1: lambda c, stop, got: login_flood(c["base"], stop, got),
    2: lambda c, stop, got: owner_name_tries(c["base"], stop, got),
    3: lambda c, stop, got: standings_sockets(
        c["port"], c["base"], c["arena"], c["togglers"], stop, got
    ),
    4: lambda c, stop, got: idle_spectators(c["port"], c["base"], stop, got),
    5: lambda c, stop, got: computer_games(c["port"], c["base"], stop, got),
    6: lambda c, stop, got: full_reads(c["base"], stop, got),
}
"""Each row's attack: ``(context, stop, got)`` to the coroutines that make it."""


def attack_process(
    number: int, context: dict[str, Any], stop: Any, results: Any, nice: int
) -> None:
    """Row ``number``'s attack in a process of its own (its own event loop), until ``stop`` is
    set; puts what it got, and the CPU seconds its clients took, on ``results``. The honest
    player's times must not include its own process running the crowd's clients."""
    if nice:
        os.nice(nice)

    async def attack() -> dict[str, int]:
        done, got = asyncio.Event(), {}
        tasks = [asyncio.ensure_future(work) for work in await ATTACKS[number](context, done, got)]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        done.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return got

    got = asyncio.run(attack())
    used = resource.getrusage(resource.RUSAGE_SELF)
    results.put((got, used.ru_utime + used.ru_stime))


def cpu_seconds(pid: int) -> float:
    """The CPU seconds process ``pid`` and the processes under it (``--workers``' server
    processes, the bot workers) use now (their threads; Linux's /proc)."""
    stats = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            stats[int(stat.parent.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    tree, ticks = {pid}, 0
    for _ in range(4):  # the server, its workers, their bot processes
        tree |= {child for child, (parent, _) in stats.items() if parent in tree}
    for member in tree:
        ticks += stats.get(member, (0, 0))[1]
    return ticks / os.sysconf("SC_CLK_TCK")


# ----- rows ------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def metric(base: str, name: str) -> float:
    async with client(base, HOST) as c:
        text = (await c.get("/metrics")).text
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


async def newcomer(base: str, port: int) -> str:
    """Row 4's newcomer: 20 fresh connections, a new game and its socket."""
    ok = 0
    for _ in range(20):
        async with client(base, "127.0.0.3", timeout=10) as c:
            with contextlib.suppress(httpx2.HTTPError):
                ok += (
                    await c.get("/api/kinds", headers={"connection": "close"})
                ).status_code == 200
    async with client(base, "127.0.0.3", timeout=10) as c:
        try:
            game = (await c.post("/api/games", json={"game": "obonto"})).json()
            ws = await open_socket(port, "127.0.0.3", f"/ws/games/{game['id']}?draw=false")
            await ws.close()
            socket_ok = "its game and socket opened"
        except Exception as error:
            socket_ok = f"its game or socket refused ({type(error).__name__})"
    return f"newcomer: {ok}/20 fresh connections answered 200, {socket_ok}"


async def row(
    number: int, name: str, context: dict[str, Any], seconds: float,
    replies: bool = False, after: Callable[[], Awaitable[str]] | None = None,
) -> None:  # fmt: skip
    base, port = context["base"], context["port"]
    honest = Honest(base)

    async def probe() -> list[float]:
        if replies:
            return await computer_replies(port, base, seconds)
        return await honest.moves(seconds)

    calm = await probe()
    waits_before = await metric(base, "boneyard_thinking_waits_total")
    spawn = multiprocessing.get_context("spawn")
    stop, results = spawn.Event(), spawn.Queue()
    crowd = spawn.Process(
        target=attack_process, args=(number, context, stop, results, context["attack_nice"])
    )
    server_cpu = cpu_seconds(context["server"])
    began = time.monotonic()
    crowd.start()
    try:
        await asyncio.sleep(min(5.0, seconds / 3))  # the attack builds up
        attacked = await probe()
        owner, owner_tries = await owner_logs_in(base, f"127.0.{200 + number}.9")
        extra = await after() if after is not None else ""
    finally:
        stop.set()
        got, attack_cpu = await asyncio.to_thread(results.get, True, 120)
        crowd.join(30)
    elapsed = time.monotonic() - began
    server_cpu = cpu_seconds(context["server"]) - server_cpu
    waits = await metric(base, "boneyard_thinking_waits_total") - waits_before
    p50 = percentile(attacked, 0.5) / percentile(calm, 0.5)
    p90 = percentile(attacked, 0.9) / percentile(calm, 0.9)
    what = "reply" if replies else "move"
    owner_words = "refused or > 60 s" if owner is None else f"{owner:.2f} s"
    owner_words += f" ({owner_tries} {'try' if owner_tries == 1 else 'tries'})"
    print(
        f"row {number} {name}: honest {what} p50 {percentile(calm, 0.5) * 1000:.1f} -> "
        f"{percentile(attacked, 0.5) * 1000:.1f} ms (x{p50:.1f}), p90 x{p90:.1f} "
        f"({len(calm)}/{len(attacked)} timed); owner's log-in {owner_words}; attack got {got}"
        + (f"; thinking waits {waits:.0f}" if replies else "")
        + (f"; {extra}" if extra else "")
        + f"; CPU over {elapsed:.0f} s: the server's processes {server_cpu:.1f} s, the crowd's "
        f"clients {attack_cpu:.1f} s; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )


async def setup(base: str) -> tuple[str, list[dict[str, str]]]:
    """The owner's account and arena, and three toggling accounts (from addresses of their own:
    three sign-ups a minute per address): their session cookies."""
    async with client(base, "127.0.250.1") as c:
        made = await c.post("/api/accounts", json={"name": OWNER, "password": PASSWORD})
        assert made.status_code == 201, made.text
        arena = await c.post(
            "/api/tournaments",
            json={"game": "obonto", "kind": "arena", "minutes": 30, "starts_in": 3600},
        )
        assert arena.status_code == 201, arena.text
        arena_id = arena.json()["id"]
    togglers = []
    for n in range(3):
        async with client(base, f"127.0.251.{n + 1}") as t:
            made = await t.post("/api/accounts", json={"name": f"Toggler{n}", "password": PASSWORD})
            assert made.status_code == 201, made.text
            togglers.append(dict(t.cookies.items()))
    for n in range(30):  # players sitting in the arena's table
        async with client(base, f"127.0.{252 + n // 3 // 3}.{n + 10}") as p:
            made = await p.post("/api/accounts", json={"name": f"Sitter{n}", "password": PASSWORD})
            if made.status_code == 201:
                await p.post(f"/api/tournaments/{arena_id}/join")
    return arena_id, togglers


ROWS = {
    1: "log-in flood (30 networks)",
    2: "owner's name tried from fresh addresses",
    3: "100 standings sockets, 3 togglers",
    4: "16 networks x 64 idle sockets",
    5: "5 networks x 20 games at the top level",
    6: "reads from 10 networks at full budget",
}


async def run(
    args: argparse.Namespace, port: int, server: int, when_up: Callable[[], None]
) -> None:
    base = f"http://{HOST}:{port}"
    await wait_until_up(base)
    when_up()  # (the bot workers start once the server has made the database's tables)
    arena, togglers = await setup(base)
    context = {
        "base": base, "port": port, "arena": arena, "togglers": togglers, "server": server,
        "attack_nice": args.attack_nice,
    }  # fmt: skip
    rows = {int(n) for n in args.rows.split(",")}
    for number, name in ROWS.items():
        if number in rows:
            await row(
                number,
                name,
                context,
                args.seconds,
                replies=number == 5,
                after=(lambda: newcomer(base, port)) if number == 4 else None,
            )
    if 7 in rows and args.postgres:
        await two_processes(base)


async def two_processes(base: str) -> None:
    """Row 7: one address's wrong passwords on one name, through whichever process answers
    (``--workers 2``: the kernel spreads the connections): refused after one budget."""
    statuses = []
    for n in range(12):
        async with client(base, "127.0.160.1") as c:  # a new connection: either process
            answer = await c.post("/api/login", json={"name": OWNER, "password": f"wrong{n}"})
            statuses.append(answer.status_code)
    print(f"row 7 two processes, one name: {statuses.count(401)} password checks of 12 "
          f"(one process's budget: 5); answers {statuses}", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="1,2,3,4,5,6,7", help="the rows to run")
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase of a row")
    parser.add_argument("--postgres", action="store_true", help="two processes, PostgreSQL")
    parser.add_argument(
        "--bots-queue",
        action="store_true",
        help="the servers queue computer moves in the database for one `boneyard bots` group "
        "of two processes (one queue over every server process), instead of two bot workers "
        "each",
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds for the whole run")
    parser.add_argument(
        "--attack-nice",
        type=int,
        default=0,
        help="how much lower the crowd's clients' CPU priority is than the honest player's and "
        "the server's (0: the same; on a machine of few cores, the crowd's own clients take "
        "CPU the server would have, which a real attacker's machines would not)",
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        if args.postgres:
            from boneyard.testing.postgres import throwaway_postgres

            db, workers = stack.enter_context(throwaway_postgres()), 2
        else:
            db, workers = f"sqlite:///{Path(folder) / 'web.db'}", 1
        port = free_port()
        server = start_server(db, port, workers, args.bots_queue)
        started = [server]

        def when_up() -> None:
            if args.bots_queue:
                started.append(start_bot_workers(db))

        try:
            run_all = run(args, port, server.pid, when_up)
            asyncio.run(asyncio.wait_for(run_all, timeout=args.timeout))
        finally:
            for process in started:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()


if __name__ == "__main__":
    main()
