"""Results settled once, by any process: a result stored by a process that does not settle it
(an older build in a rolling upgrade, one killed between two steps) is caught up by the sweep
of any other, once, however many sweep at the same moment; on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, create_engine

from boneyard.web.people.ratings import rate
from boneyard.web.store.accounts import AccountStore
from boneyard.web.store.games import Store
from boneyard.web.store.ratings import RatingStore
from boneyard.web.store.sessions import SessionStore
from boneyard.web.store.settling import settle_unsettled
from boneyard.web.store.tournaments import TournamentStore
from tests.web.conftest import make_app, wait_for
from tests.web.test_ratings import move_each, rated_game, ratings, resign, signed_up
from tests.web.test_tournaments import arena_in, played


def empty(url: str) -> None:
    engine = create_engine(url)
    tables = MetaData()
    tables.reflect(engine)
    tables.drop_all(engine)
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'settle.db'}"
        return
    found: str = request.getfixturevalue("postgres_url")
    empty(found)
    yield found
    empty(found)


@dataclass
class NewProcess:
    """A process of today's build: its store settles results (ratings, arena scores)."""

    store: Store
    ratings: RatingStore
    tournaments: TournamentStore
    accounts: AccountStore


def new_process(url: str) -> NewProcess:
    store = Store(url)
    return NewProcess(store, RatingStore(store, rate), TournamentStore(store), AccountStore(store))


def old_process(url: str) -> SessionStore:
    """A process of an older build: it stores results and settles nothing."""
    store = Store(url)
    assert store.on_finish == []
    return SessionStore(store)


def ended_unsettled(url: str) -> tuple[NewProcess, str, str]:
    """A rated game and an arena game, each played by both sides, ended through an old
    process: ``(the new process, the rated game, the arena game)``."""
    new = new_process(url)
    old = old_process(url)
    for account in ("ann", "bob"):
        assert new.accounts.add_account(account, account.title(), "hash", [])
    seats = [{"token": f"rated-{seat}", "kind": "human"} for seat in range(2)]
    new.store.create_game("rated", "toy_walk", {}, "seed", "hash", seats)
    new.ratings.note_rated("rated", "toy_walk")
    for seat, account in enumerate(("ann", "bob")):
        assert new.accounts.own_seat("rated", seat, account)
    # each side moves, then the rules end it (through the old process: no hook)
    old.store.append_actions("rated", 0, [(0, 0), (0, 1)], returns=[1.0, -1.0])
    tournament = arena_in(new.tournaments, 2)
    [pairing] = new.tournaments.claim_pairs(tournament.id, time.time())
    played(new.tournaments, pairing, "arena", [0, 1])
    returns = [1.0, -1.0]
    old.add_event("arena", 0, 2, "resign", 1, {"returns": returns}, returns=returns)
    return new, "rated", tournament.id


def assert_settled_once(new: NewProcess, rated: str, tournament_id: str) -> None:
    found = new.ratings.rated_game(rated)
    assert found is not None and found.settled and found.unrated is None
    assert found.changes is not None
    assert [change["account"] for change in found.changes] == ["ann", "bob"]
    assert found.changes[0]["after"] > 1500 > found.changes[1]["after"]
    assert new.ratings.ratings_of("ann")["toy_walk"].games == 1
    assert new.ratings.ratings_of("bob")["toy_walk"].games == 1
    standings = {p["account"]: p for p in new.tournaments.standings(tournament_id)}
    winner, loser = (standings[account] for account in ("acc0", "acc1"))
    assert (winner["score"], winner["sheet"]) == (2, [2])  # a win: two points, counted once
    assert (loser["score"], loser["sheet"]) == (0, [0])
    assert winner["game"] is None and loser["game"] is None  # free to be paired again


def test_a_result_an_old_process_stored_is_settled_by_the_sweep_once(url: str) -> None:
    new, rated, tournament_id = ended_unsettled(url)
    before = new.ratings.rated_game(rated)
    assert before is not None and not before.settled
    assert new.ratings.ratings_of("ann") == {}
    assert {p["account"]: p["game"] for p in new.tournaments.standings(tournament_id)} == {
        "acc0": "arena",
        "acc1": "arena",
    }
    assert settle_unsettled(new.store) == 2
    assert_settled_once(new, rated, tournament_id)
    assert settle_unsettled(new.store) == 0  # nothing left
    # the hooks run again on a settled game (a sweep that read it before another settled it)
    with new.store.engine.begin() as connection:
        new.store.finished(connection, "arena", [1.0, -1.0], "resign")
        new.store.finished(connection, rated, [1.0, -1.0], "rules")
    assert_settled_once(new, rated, tournament_id)


def test_two_processes_sweeping_at_once_settle_each_result_once(url: str) -> None:
    new, rated, tournament_id = ended_unsettled(url)
    others = [new_process(url) for _ in range(2)]
    gate = threading.Barrier(len(others))
    failed: list[BaseException] = []
    for other in others:
        other.store.finished = strict_hooks(other.store)  # type: ignore[method-assign, assignment]

    def sweep(process: NewProcess) -> None:
        gate.wait()
        try:
            settle_unsettled(process.store)
        except BaseException as error:
            failed.append(error)

    threads = [threading.Thread(target=sweep, args=(other,)) for other in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    assert_settled_once(new, rated, tournament_id)


def strict_hooks(store: Store) -> Callable[[Any, str, list[float], str], None]:
    """``store.finished`` that lets a hook's error through (it is otherwise logged, and the
    result stands): a sweep that failed beside another must fail the test, not pass unseen."""

    def finished(connection: Any, game_id: str, returns: list[float], how: str) -> None:
        for hook in store.on_finish:
            hook(connection, game_id, returns, how)

    return finished


def test_a_served_game_left_unrated_is_rated_when_a_process_starts(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "web.db")) as client:
        ann, bob = signed_up(client, "127.0.0.2", "Ann"), signed_up(client, "127.0.0.3", "Bob")
        game = rated_game(ann, bob)
        move_each([ann, bob], game)
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        store.on_finish.clear()  # as an older process: it ends the game, settles nothing
        resign(bob, game["id"], game["tokens"][1])
        assert client.get(f"/api/games/{game['id']}/rating").json()["settled"] is False
    # the next process on the database sweeps as it starts
    with TestClient(make_app(tmp_path / "web.db")) as client:
        sweep = client.app.state.settle_sweep  # type: ignore[attr-defined]
        wait_for("the first sweep", lambda: sweep.sweeps >= 1)
        assert client.get(f"/api/games/{game['id']}/rating").json()["settled"] is True
        assert ratings(client, "Ann")["toy_walk"]["games"] == 1
        assert ratings(client, "Bob")["toy_walk"]["games"] == 1
        assert client.portal.call(sweep.sweep) == 0  # type: ignore[union-attr]
        assert ratings(client, "Ann")["toy_walk"]["games"] == 1
