"""Arena tournaments on PostgreSQL, as two server processes share it: each player is paired
once, and the end comes once, whichever process gets there first (issue 34 item 4)."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx2
import pytest

from boneyard.web.store.games import Store
from boneyard.web.store.tournaments import TournamentStore
from tests.web.conftest import wait_for
from tests.web.test_clocks_processes import CLOCK_SETTINGS, ClockServer
from tests.web.test_ratings import move_each_side
from tests.web.test_tournaments import PASSWORD, arena_in

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` on threads released together; their answers in order."""
    gate = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        gate.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_two_processes_pair_each_player_once_and_end_once(postgres_url: str) -> None:
    first, second = TournamentStore(Store(postgres_url)), TournamentStore(Store(postgres_url))
    for _ in range(5):
        tournament = arena_in(first, 20, minutes=1.0)
        now = time.time()
        claimed = at_once([partial(s.claim_pairs, tournament.id, now) for s in (first, second)])
        everyone = sorted(a for found in claimed for p in found for a in p.accounts)
        assert everyone == sorted(f"acc{n}" for n in range(20))
        assert [] in claimed
        pairing = next(p for found in claimed for p in found)
        first.started(pairing, f"g{tournament.id}"[:32])
        after = tournament.ends + 1
        ended = at_once([partial(s.finish, tournament.id, after) for s in (first, second)])
        assert ended == [False, False]  # a game still runs: it finishes and counts
        with second.store.engine.begin() as connection:
            second.score(connection, f"g{tournament.id}"[:32], [0.0, 1.0], "resign")
        ended = at_once([partial(s.finish, tournament.id, after) for s in (first, second)])
        assert sorted(ended) == [False, True]
        winner = first.standings(tournament.id)[0]
        assert winner["account"] == pairing.accounts[1] and winner["score"] == 2


class ArenaServer(ClockServer):
    """A server process whose tournament games are fast to finish by hand."""

    def environment(self, url: str) -> dict[str, str]:
        settings = {**CLOCK_SETTINGS, "signups_per_minute": 100}
        return {**os.environ, "BONEYARD_DB": url, "BONEYARD_SETTINGS": json.dumps(settings)}


def signed_up(server: ClockServer, name: str) -> httpx2.Client:
    client = server.client()
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def standings(client: httpx2.Client, tid: str) -> list[dict[str, Any]]:
    table: list[dict[str, Any]] = client.get(f"/api/tournaments/{tid}").json()["standings"]
    return table


def resign_my_game(client: httpx2.Client, tid: str, everyone: list[httpx2.Client]) -> None:
    """``client`` resigns its game once each side has moved (before, it would not count)."""
    link = client.get(f"/api/tournaments/{tid}").json()["me"]["game_url"]
    game_id, token = link.removeprefix("/game/").split("?t=")
    links = [(c, c.get(f"/api/tournaments/{tid}").json()["me"]["game_url"]) for c in everyone]
    seats = [(c, other.split("?t=")[1]) for c, other in links if other and game_id in other]
    move_each_side(game_id, seats)
    body = {"token": token, "do": "resign"}
    answer = client.post(f"/api/games/{game_id}/session", json=body)
    assert answer.status_code == 200, answer.text


def test_kill_9_of_one_process_mid_tournament_loses_no_result(postgres_url: str) -> None:
    first, second = ArenaServer(postgres_url), ArenaServer(postgres_url)
    try:
        ann, bob = signed_up(first, "Ann"), signed_up(first, "Bob")
        cat, dan = signed_up(second, "Cat"), signed_up(second, "Dan")
        body = {"game": "obonto", "kind": "arena", "minutes": 30,
                "clock": {"initial": 600, "increment": 5}, "starts_in": 0}  # fmt: skip
        made = ann.post("/api/tournaments", json=body)
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        for someone in (ann, bob, cat, dan):
            assert someone.post(f"/api/tournaments/{tid}/join").status_code == 200
        # either process's director pairs them: two games, each player in one
        wait_for("two games", lambda: all(p["playing"] for p in standings(dan, tid)), 60)

        resign_my_game(ann, tid, [ann, bob, cat, dan])  # stored by the first process...
        first.stop()  # ...which is killed (-9) at once
        for client in (ann, bob):
            client.close()

        # the result is in the tournament, read through the process left
        table = {p["name"]: p for p in standings(dan, tid)}
        assert table["Ann"]["sheet"] == [0] and table["Ann"]["score"] == 0
        winner = next(name for name in ("Bob", "Cat", "Dan") if table[name]["sheet"] == [2])
        assert not table[winner]["playing"]
        # the arena goes on with one process: the other game ends there, all are paired again
        loser = next(c for c, n in ((cat, "Cat"), (dan, "Dan")) if table[n]["playing"])
        resign_my_game(loser, tid, [cat, dan])
        wait_for("four paired again", lambda: all(p["playing"] for p in standings(dan, tid)), 60)
        again = {p["name"]: p for p in standings(dan, tid)}
        assert sorted(len(p["sheet"]) for p in again.values()) == [1, 1, 1, 1]
        assert sum(p["score"] for p in again.values()) == 4  # two wins, nothing lost or doubled
    finally:
        first.stop()
        second.stop()
