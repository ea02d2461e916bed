"""Arena tournaments on PostgreSQL, as two server processes share it: each player is paired
once, and the end comes once, whichever process gets there first (issue 34 item 4)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from boneyard.testing.postgres import PostgresUnavailable, throwaway_postgres
from boneyard.web.store.games import Store
from boneyard.web.store.tournaments import TournamentStore
from tests.web.test_tournaments import arena_in

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    try:
        with throwaway_postgres() as url:
            yield url
    except PostgresUnavailable as reason:
        pytest.skip(str(reason))


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
