"""The honest move's pace while one server process keeps many clocks and an arena running
(issue 34).

Starts one server process (``uvicorn --factory boneyard.web.app:app_from_environment``) on
127.0.0.1 with a fresh SQLite file, and measures an honest player's moves (one HTTP request
each, the time from sending to the answer) in a timed Obonto game:

1. on the idle server (the baseline);
2. with ``--clocks`` timed games running besides (each side made its first move, so every
   clock ticks), a fifth of them set to run out during the measurement (which goes on until
   they all did), so the server ends games on time while the honest player moves.

3. with those clocks and an arena tournament of ``--arena`` accounts besides (Obonto, 5+3),
   each player in a second process: it follows the tournament, and in each game it is paired
   into it answers its turn after ``--think`` seconds (at random from half to one and a half
   times), as a person playing blitz, and resigns after 5 to 20 moves of its own, so that games
   end and new pairings are made all through the measurement.

Reports p50, p99 and the largest move time of each, the clocks running, the games ended on
time and the arena's games. The bar (issue 34): the honest move's p99 under 100 ms with 1,000
clocks and a 200-player arena running.

    .venv/bin/python benchmarks/web_clocks.py [--clocks 1000] [--arena 200] [--moves 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2

SETTINGS = {
    "games_per_minute": 1_000_000,
    "moves_per_minute": 1_000_000,
    "reads_per_minute": 1_000_000,
    "session_requests_per_minute": 1_000_000,
    "signups_per_minute": 1_000_000,
    "max_live_games": 5000,
    "live_memory_mb": 2048,
    "max_connections": 5000,
    "connection_share": 1.0,  # every client of the benchmark comes from 127.0.0.1
}
ARENA_CLOCK = {"initial": 300, "increment": 3}
PASSWORD = "arena benchmark password"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    environment = {
        **os.environ,
        "BONEYARD_DB": f"sqlite:///{db}",
        "BONEYARD_SETTINGS": json.dumps(SETTINGS),
    }
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "uvicorn", "--factory"),
            "boneyard.web.app:app_from_environment",
            *("--workers", "1", "--host", "127.0.0.1", "--port", str(port)),
            *("--log-level", "warning"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/kinds", timeout=2)
            return server
        except httpx2.TransportError:
            if time.monotonic() > deadline:
                server.kill()
                raise
            time.sleep(0.1)


def move(client: httpx2.Client, game_id: str, tokens: list[str]) -> float | None:
    """Play the first legal move of the seat to move; the POST's seconds (None: game over)."""
    path = f"/api/games/{game_id}"
    spectator = client.get(path, params={"draw": "false"}).json()
    if spectator["terminal"]:
        return None
    mover = spectator["current_player"]
    view = client.get(path, params={"token": tokens[mover], "draw": "false"}).json()
    body = {"token": tokens[mover], "seq": view["seq"], "action": view["legal"][0]["id"]}
    began = time.perf_counter()
    answer = client.post(f"{path}/actions", json=body)
    took = time.perf_counter() - began
    if answer.status_code != 200:
        raise RuntimeError(f"a move was refused: {answer.text}")
    return took


def timed_game(client: httpx2.Client, initial: float) -> tuple[str, list[str]]:
    """A timed Obonto game where each side made its first move: its clock ticks."""
    body = {"game": "obonto", "clock": {"initial": initial, "increment": 2}}
    answer = client.post("/api/games", json=body)
    while answer.status_code in (429, 503):  # one set-up at a time per address: in turn
        time.sleep(0.05)
        answer = client.post("/api/games", json=body)
    if answer.status_code != 201:
        raise RuntimeError(f"a game was refused: {answer.text}")
    created = answer.json()
    tokens = [seat["token"] for seat in created["seats"]]
    for _ in range(10):
        clock = client.get(f"/api/games/{created['id']}", params={"draw": "false"}).json()
        if clock["clock"]["ticking"]:
            break
        move(client, created["id"], tokens)
    return created["id"], tokens


def honest_moves(client: httpx2.Client, count: int, seconds: float = 0.0) -> list[float]:
    """``count`` moves of an honest player (and more until ``seconds`` passed), game after
    game (each game timed, 10+2)."""
    times: list[float] = []
    game_id, tokens = timed_game(client, 600)
    until = time.monotonic() + seconds
    while len(times) < count or time.monotonic() < until:
        took = move(client, game_id, tokens)
        if took is None:
            game_id, tokens = timed_game(client, 600)
            continue
        times.append(took)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{len(times)} moves: p50 {statistics.median(ordered) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, largest {ordered[-1] * 1000:.1f} ms"
    )


# ----- the arena --------------------------------------------------------------------------------


def arena(base: str, players: int) -> tuple[str, list[str]]:
    """An arena of ``players`` accounts, started and joined: its id and the accounts' cookies."""
    cookies: list[str] = []
    tournament_id = ""
    for n in range(players):
        with httpx2.Client(base_url=base, timeout=60, headers={"Origin": base}) as player:
            answer = player.post(
                "/api/accounts", json={"name": f"Arena{n:03d}", "password": PASSWORD}
            )
            if answer.status_code != 201:
                raise RuntimeError(f"an account was refused: {answer.text}")
            if not tournament_id:
                body = {"game": "obonto", "kind": "arena", "minutes": 120,
                        "clock": ARENA_CLOCK, "starts_in": 0}  # fmt: skip
                made = player.post("/api/tournaments", json=body)
                if made.status_code != 201:
                    raise RuntimeError(f"the arena was refused: {made.text}")
                tournament_id = made.json()["id"]
            joined = player.post(f"/api/tournaments/{tournament_id}/join")
            if joined.status_code != 200:
                raise RuntimeError(f"joining was refused: {joined.text}")
            cookies.append("; ".join(f"{k}={v}" for k, v in player.cookies.items()))
    return tournament_id, cookies


async def play_arena(base: str, tournament_id: str, cookies: list[str], think: float) -> None:
    """Every player follows the arena and plays its games, until cancelled: each game, after
    a few moves of its own (5 to 20), it resigns, so games end and pairings follow all along."""

    async def game(client: httpx2.AsyncClient, game_id: str, token: str) -> None:
        path = f"/api/games/{game_id}"
        moves_left = random.randint(5, 20)
        while True:
            await asyncio.sleep(think * random.uniform(0.5, 1.5))
            seen = (await client.get(path, params={"token": token, "draw": "false"})).json()
            if seen["terminal"]:
                return
            if not seen["legal"]:
                continue
            if moves_left == 0:
                await client.post(f"{path}/session", json={"token": token, "do": "resign"})
                return
            body = {"token": token, "seq": seen["seq"], "action": seen["legal"][0]["id"]}
            await client.post(f"{path}/actions", json=body)
            moves_left -= 1

    async def player(cookie: str) -> None:
        headers = {"Origin": base, "Cookie": cookie}
        async with httpx2.AsyncClient(base_url=base, timeout=60, headers=headers) as client:
            while True:
                try:
                    view = (await client.get(f"/api/tournaments/{tournament_id}")).json()
                    url = (view.get("me") or {}).get("game_url")
                    if url:
                        await game(client, *url.removeprefix("/game/").split("?t="))
                    else:
                        await asyncio.sleep(think)
                except httpx2.TransportError:  # a kept-alive connection the server closed
                    await asyncio.sleep(think)

    await asyncio.gather(*(player(cookie) for cookie in cookies))


def arena_process(base: str, tournament_id: str, cookies: list[str], think: float) -> None:
    asyncio.run(play_arena(base, tournament_id, cookies, think))


def arena_state(client: httpx2.Client, tournament_id: str) -> tuple[int, int]:
    """(players in a game now, results recorded so far) of the arena."""
    standings = client.get(f"/api/tournaments/{tournament_id}").json()["standings"]
    playing = sum(1 for p in standings if p["playing"])
    results = sum(len(p["sheet"]) for p in standings) // 2
    return playing, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clocks", type=int, default=1000)
    parser.add_argument("--arena", type=int, default=200, help="players (0: no arena)")
    parser.add_argument("--think", type=float, default=3.0, help="an arena move's seconds")
    parser.add_argument("--moves", type=int, default=300)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start(Path(folder) / "clocks.db", port)
        base = f"http://127.0.0.1:{port}"
        try:
            with httpx2.Client(base_url=base, timeout=60) as client:
                idle = honest_moves(client, options.moves)
                print(f"idle server: {summary(idle)}", flush=True)
                began = time.monotonic()
                # A fifth run out during the measurement (the server ends them on time while
                # the honest player moves); the rest have an hour.
                short = 20.0 + options.clocks * 0.05
                limits = [short + (n % 30) if n % 5 == 0 else 3600.0 for n in range(options.clocks)]

                def one(limit: float) -> str:
                    with httpx2.Client(base_url=base, timeout=60) as own:
                        return timed_game(own, limit)[0]

                with ThreadPoolExecutor(4) as pool:
                    game_ids = list(pool.map(one, limits))
                made = time.monotonic() - began
                print(f"{len(game_ids)} timed games started in {made:.0f} s", flush=True)
                loaded = honest_moves(client, options.moves, seconds=short + 40)
                ended = 0
                for game_id in game_ids:
                    view = client.get(f"/api/games/{game_id}", params={"draw": "false"}).json()
                    ended += bool(view["terminal"])
                running = len(game_ids) - ended
                print(
                    f"{running} clocks running, {ended} games ended on time meanwhile: "
                    f"{summary(loaded)}",
                    flush=True,
                )
                if options.arena:
                    measure_with_arena(client, base, options, game_ids)
        finally:
            server.kill()
            server.wait()


def measure_with_arena(
    client: httpx2.Client, base: str, options: argparse.Namespace, game_ids: list[str]
) -> None:
    began = time.monotonic()
    tournament_id, cookies = arena(base, options.arena)
    print(
        f"{len(cookies)} accounts joined an arena in {time.monotonic() - began:.0f} s", flush=True
    )
    players = multiprocessing.get_context("spawn").Process(
        target=arena_process, args=(base, tournament_id, cookies, options.think), daemon=True
    )
    players.start()
    try:
        while arena_state(client, tournament_id)[0] < 0.9 * options.arena:  # all but a few paired
            time.sleep(1)
        _playing, results_before = arena_state(client, tournament_id)
        loaded = honest_moves(client, options.moves, seconds=60)
        playing, results = arena_state(client, tournament_id)
        running = sum(
            not client.get(f"/api/games/{game_id}", params={"draw": "false"}).json()["terminal"]
            for game_id in game_ids
        )
        print(
            f"arena of {options.arena} ({playing} in a game at the end, "
            f"{results - results_before} games ended meanwhile) and {running} other clocks "
            f"running: {summary(loaded)}",
            flush=True,
        )
    finally:
        players.terminate()
        players.join()


if __name__ == "__main__":
    main()
