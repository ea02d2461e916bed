"""Reads that cost are charged and run off the event loop (issue 33, item 2).

How "a read whose cost grows with a game's length" is told honestly: a game of this file,
``toy_long``, counts the engine work done for it (actions applied, observations, moves put in
words) and where: on a thread that runs an event loop (the server's) or elsewhere (the work
pool). Each GET route the app has is asked about a game of 600 actions, first loaded cold from
the store, then warm; the work done on the loop for it must stay within a small bound that does
not grow with the game, and every route must declare a ``Charge``. The attack on a real server
(loopback, two addresses) floods replay frames of a 1,000-move OYNO game and measures an honest
player's moves in the same run.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import statistics
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

import boneyard
from boneyard.core.game import CHANCE, Game
from boneyard.core.parameters import Parameter
from boneyard.web.compute.chance import seed_hash
from boneyard.web.guard.budgets import charges_of
from boneyard.web.play.catalog import Catalog
from boneyard.web.play.live import LOG_IN_VIEW
from boneyard.web.store.games import Store
from tests.web.conftest import Server, all_games, app_settings
from tests.web.toygames import WalkGame, WalkState

LENGTH = 600
"""Actions in the long game."""
ON_LOOP_MOST = 40
"""The most engine work one read may do on the event loop (a frame's observation, a view's
prompt and recent moves): far below the long game's length, and the same for a short game."""

WORK: Counter[tuple[str, bool]] = Counter()
"""(what, on the event loop?) -> how often ``toy_long`` did it."""


def _count(what: str) -> None:
    try:
        asyncio.get_running_loop()
        on_loop = True
    except RuntimeError:
        on_loop = False
    WORK[(what, on_loop)] += 1


class LongWalkState(WalkState):
    def _apply_action(self, action: int) -> None:
        _count("apply")
        super()._apply_action(action)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        _count("observe")
        return super()._observation(seat)


class LongWalk(WalkGame):
    """``toy_walk`` for as long as asked, counting its work."""

    name = "toy_long"
    parameters = (Parameter("max_moves", int, 20, "Moves before a draw.", minimum=2, maximum=5000),)

    def new_initial_state(self) -> LongWalkState:
        return LongWalkState(self)

    def describe_action(self, observation: Any, actor: int | None, action: str) -> str:
        _count("describe")
        return f"moved {action}"


def on_loop() -> int:
    return sum(count for (_what, loop), count in WORK.items() if loop)


def off_loop() -> int:
    return sum(count for (_what, loop), count in WORK.items() if not loop)


# The two pieces step out and back: a game that lasts until its ``max_moves`` (a draw).
SHUTTLE = [0 * 9 + 1, 8 * 9 + 7, 1 * 9 + 0, 7 * 9 + 8]


def store_long_game(store: Store, length: int, finished: bool) -> dict[str, Any]:
    """A game of ``toy_long`` stored with ``length`` actions (over when ``finished``), as if
    played elsewhere: only the store has it."""
    game_id = secrets.token_urlsafe(8)
    seats = [
        {"token": secrets.token_urlsafe(12), "kind": "human", "level": None, "name": None}
        for _ in range(2)
    ]
    actions = [(SHUTTLE[n % 4], n % 2) for n in range(length)]
    seed = "seed"
    max_moves = length if finished else length + 1000
    store.create_game(
        game_id, "toy_long", {"max_moves": max_moves}, seed, seed_hash(seed), seats, actions
    )
    return {"id": game_id, "tokens": [seat["token"] for seat in seats]}


@pytest.fixture
def reads(tmp_path: Path) -> Iterator[TestClient]:
    from boneyard.web.app import create_app

    games: dict[str, type[Game]] = {**all_games(), "toy_long": LongWalk}
    app = create_app(
        f"sqlite:///{tmp_path / 'web.db'}", catalog=Catalog(games), settings=app_settings()
    )
    with TestClient(app) as client:
        yield client


def forget_in_memory(client: TestClient, game_id: str) -> None:
    """Make the game leave the server's memory (as an idle one does): the next read loads it."""
    manager = client.app.state.manager  # type: ignore[attr-defined]
    live = manager.games.get(game_id)
    if live is not None:
        client.portal.call(_leave, manager.cache, live)  # type: ignore[union-attr]


async def _leave(cache: Any, live: Any) -> None:
    cache.drop(live)  # on the server's loop, as the sweeper does


def walk_routes(routes: list[Any]) -> Iterator[Any]:
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from walk_routes(list(inner.routes))
        else:
            yield route


FRAMEWORK_DOCUMENTS = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}
"""FastAPI's own: the API's description and its pages (made once, the same for everyone)."""


def test_every_route_the_app_has_declares_a_charge(reads: TestClient) -> None:
    unpaid = []
    for route in walk_routes(list(reads.app.routes)):  # type: ignore[attr-defined]
        dependant = getattr(route, "dependant", None)
        if dependant is None or route.path in FRAMEWORK_DOCUMENTS:
            continue
        if not charges_of(list(dependant.dependencies)):
            unpaid.append(route.path)
    assert unpaid == []


def get_paths(client: TestClient, game: dict[str, Any], step: int) -> list[str]:
    """Every GET route of the app, its address filled in for ``game``."""
    filled = {
        "{game_id}": game["id"],
        "{step}": str(step),
        "{name}": "toy_long",
        "{filename}": "none.png",
        "{date}": "2026-01-01",
        "{game}": "toy_long",
        "{tournament_id}": "none",
    }
    paths = []
    for route in walk_routes(list(client.app.routes)):  # type: ignore[attr-defined]
        methods = getattr(route, "methods", None) or set()
        if "GET" not in methods or route.path in FRAMEWORK_DOCUMENTS:
            continue
        path = route.path
        for hole, value in filled.items():
            path = path.replace(hole, value)
        assert "{" not in path, f"fill {route.path}'s address in this test"
        if "{game_id}" in route.path:  # a seat's token (the API), every seat's (the pages)
            path += f"?token={game['tokens'][0]}&t={','.join(game['tokens'])}"
        paths.append(path)
    return paths


@pytest.mark.parametrize("cold", [True, False], ids=["loaded from the store", "in memory"])
def test_no_read_does_work_on_the_loop_that_grows_with_the_game(
    reads: TestClient, cold: bool
) -> None:
    store = reads.app.state.manager.store  # type: ignore[attr-defined]
    long = store_long_game(store, LENGTH, finished=True)
    paths = get_paths(reads, long, LENGTH)
    assert any("/replay/" in path for path in paths) and any("/lobby" in path for path in paths)
    if not cold:
        assert reads.get(f"/api/games/{long['id']}").status_code == 200
    for path in paths:
        if cold:
            forget_in_memory(reads, long["id"])
        WORK.clear()
        answer = reads.get(path)
        if long["id"] in path:
            assert answer.status_code == 200, (path, answer.text[:300])
        assert on_loop() <= ON_LOOP_MOST, (path, dict(WORK))
        loaded = long["id"] in reads.app.state.manager.games  # type: ignore[attr-defined]
        if cold and loaded:  # a read of the store alone (a game's rating) loads no game
            assert off_loop() >= LENGTH, (path, "the game was replayed in the work pool")
    # a frame asks for a state at most 32 actions past a snapshot, in the work pool
    assert reads.get(f"/api/games/{long['id']}").status_code == 200  # in memory again
    for step in (LENGTH - 1, 1, 333, LENGTH // 2):
        WORK.clear()
        frame = reads.get(f"/api/games/{long['id']}/replay/{step}").json()
        assert frame["step"] == step and frame["log_from"] == max(0, step - LOG_IN_VIEW)
        assert [line["seq"] for line in frame["log"]] == list(range(frame["log_from"], step))
        assert WORK[("apply", True)] == 0 and WORK[("apply", False)] < 32, dict(WORK)
        assert frame["log"][-1]["words"].startswith("moved ") if step else True


def test_no_read_answers_more_the_longer_the_game(reads: TestClient) -> None:
    """What a read builds and encodes on the loop (a view's JSON, a page) is the size of its
    answer: the same game twice as long must not answer more (a whole move log would add
    ~50 bytes a move, 30 KB here)."""
    store = reads.app.state.manager.store  # type: ignore[attr-defined]
    sizes: dict[str, list[int]] = {}
    for length in (LENGTH, 2 * LENGTH):
        for finished in (True, False):
            game = store_long_game(store, length, finished=finished)
            # the last replay frame of a finished game; the first of one still played
            for path in get_paths(reads, game, length if finished else 0):
                if game["id"] not in path:
                    continue
                answer = reads.get(path)
                assert answer.status_code in (200, 409), (path, answer.text[:300])
                key = f"{'finished' if finished else 'playing'} {path}"
                key = key.replace(game["id"], "GAME").replace(f"/{length}", "/LENGTH")
                for token in game["tokens"]:
                    key = key.replace(token, "TOKEN")
                sizes.setdefault(key, []).append(len(answer.content))
    assert len(sizes) >= 8 and all(len(both) == 2 for both in sizes.values()), sizes
    grown = {path: (short, long) for path, (short, long) in sizes.items() if long - short > 1000}
    assert grown == {}, "these answers grow with the game's length"


def test_the_log_is_paged_and_each_page_is_a_read(tmp_path: Path) -> None:
    from boneyard.web.app import create_app

    games: dict[str, type[Game]] = {**all_games(), "toy_long": LongWalk}
    app = create_app(
        f"sqlite:///{tmp_path / 'web.db'}",
        catalog=Catalog(games),
        settings=app_settings(reads_per_minute=60),
    )
    with TestClient(app) as client:
        long = store_long_game(app.state.manager.store, LENGTH, finished=False)
        game_id, token = long["id"], long["tokens"][0]
        view = client.get(f"/api/games/{game_id}", params={"token": token}).json()
        assert view["log_from"] == LENGTH - LOG_IN_VIEW and not view["log_update"]
        lines = view["log"]
        pages = 0
        while lines[0]["seq"] > 0:
            page = client.get(
                f"/api/games/{game_id}/log", params={"token": token, "before": lines[0]["seq"]}
            )
            assert page.status_code == 200, page.text
            assert page.json()["log_from"] == max(0, lines[0]["seq"] - LOG_IN_VIEW)
            lines = page.json()["log"] + lines
            pages += 1
        assert pages == -(-(LENGTH - LOG_IN_VIEW) // LOG_IN_VIEW)
        assert [line["seq"] for line in lines] == list(range(LENGTH))
        assert all(line["words"] == f"moved {line['string']}" for line in lines)
        # each page is a read: the budget of 60 runs out however the pages are asked
        answers = [
            client.get(f"/api/games/{game_id}/log", params={"before": 50}).status_code
            for _ in range(60)
        ]
        assert 200 in answers and 429 in answers
        refused = client.get(f"/api/games/{game_id}/log", params={"before": "5x"})
        assert refused.status_code in (422, 429)


def test_a_frame_is_the_position_the_log_reaches(reads: TestClient) -> None:
    """Snapshots change nothing: each frame is the state after its step, walked from the start."""
    store = reads.app.state.manager.store  # type: ignore[attr-defined]
    long = store_long_game(store, 150, finished=True)
    game = LongWalk(max_moves=150)
    state = game.new_initial_state()
    for step in range(151):
        if step:
            state.apply_action(SHUTTLE[(step - 1) % 4])
        if step % 7 == 0 or step in (31, 32, 33, 64, 150):
            frame = reads.get(f"/api/games/{long['id']}/replay/{step}").json()
            assert frame["observation"]["pieces"] == state.observation(None)["pieces"], step


def test_a_takeback_in_a_long_game_replays_off_the_loop(reads: TestClient) -> None:
    store = reads.app.state.manager.store  # type: ignore[attr-defined]
    long = store_long_game(store, LENGTH, finished=False)
    game_id, (north, south) = long["id"], long["tokens"]
    view = reads.get(f"/api/games/{game_id}", params={"token": north}).json()
    assert view["seq"] == LENGTH and view["current_player"] == 0
    asked = reads.post(f"/api/games/{game_id}/session", json={"token": south, "do": "takeback"})
    assert asked.status_code == 200, asked.text
    WORK.clear()
    accepted = reads.post(
        f"/api/games/{game_id}/session", json={"token": north, "do": "accept_takeback"}
    )
    assert accepted.status_code == 200, accepted.text
    assert on_loop() <= ON_LOOP_MOST and off_loop() >= LENGTH - 1, dict(WORK)
    after = reads.get(f"/api/games/{game_id}", params={"token": north}).json()
    assert after["seq"] == LENGTH - 1 and after["current_player"] == 1
    assert after["log"][-1]["words"] == f"moved {after['log'][-1]['string']}"


def test_reads_of_a_long_game_cost_by_its_work(tmp_path: Path) -> None:
    from boneyard.web.app import create_app

    games: dict[str, type[Game]] = {**all_games(), "toy_long": LongWalk}
    app = create_app(
        f"sqlite:///{tmp_path / 'web.db'}",
        catalog=Catalog(games),
        settings=app_settings(reads_per_minute=60),
    )
    with TestClient(app) as client:
        long = store_long_game(app.state.manager.store, LENGTH, finished=True)
        first = client.get(f"/api/games/{long['id']}/replay/5")
        # loaded (1 + 600 / 32 reads) and its snapshots made (600 / 32 more): 37 of 60
        assert first.status_code == 200
        answers = [client.get(f"/api/games/{long['id']}/replay/{s}") for s in range(40)]
        served = sum(a.status_code == 200 for a in answers)
        assert 20 <= served < 40, "a frame from the snapshots costs one read"
        refused = next(a for a in answers if a.status_code == 429)
        assert "reads of games" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) >= 1


def test_the_lobby_reads_beside_the_commits_and_is_charged(tmp_path: Path) -> None:
    """The lobby read on the store's one writer thread, where every move's commit waits."""
    from boneyard.web.app import create_app

    app = create_app(
        f"sqlite:///{tmp_path / 'web.db'}",
        catalog=Catalog(all_games()),
        settings=app_settings(reads_per_minute=5),
    )
    with TestClient(app) as client:
        store = app.state.sessions.store
        threads: list[str] = []
        listed = store.listed_games

        def watched(*args: Any) -> Any:
            threads.append(threading.current_thread().name)
            return listed(*args)

        store.listed_games = watched
        answers = [client.get("/api/lobby").status_code for _ in range(8)]
        assert answers[:5] == [200] * 5 and set(answers[5:]) == {429}
        assert threads and all(name.startswith("store-read") for name in threads), threads


# ----- the attack, on a real server --------------------------------------------------------------

HONEST = "127.0.0.2"
ATTACKER = "127.0.3.7"


def stored_oyno_game(db: Path) -> str:
    """A finished 1,000-move OYNO game on 15x15 (random play), stored for the server to load."""
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
    store = Store(f"sqlite:///{db}")
    store.create_game("longoyno", "oyno", params, "seed", seed_hash("seed"), seats, actions)
    return "longoyno"


def honest_moves(client: httpx2.Client, count: int) -> list[float]:
    """Seconds for each of ``count`` moves of Obonto between two people (this client holds
    both seats): from sending a move to its answer."""
    made = client.post(
        "/api/games", json={"game": "obonto", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    assert made.status_code == 201, made.text
    created = made.json()
    tokens = [seat["token"] for seat in created["seats"]]
    seconds = []
    chooser = random.Random(3)
    seat = 0
    for _ in range(count):
        mine = client.get(
            f"/api/games/{created['id']}", params={"token": tokens[seat], "draw": "false"}
        ).json()
        if mine["terminal"] or mine["current_player"] is None:
            break
        seat = mine["current_player"]
        if seat != mine["seat"]:
            continue
        action = chooser.choice(mine["legal"])["id"]
        start = time.monotonic()
        moved = client.post(
            f"/api/games/{created['id']}/actions",
            json={"token": tokens[seat], "seq": mine["seq"], "action": action},
        )
        seconds.append(time.monotonic() - start)
        assert moved.status_code == 200, moved.text
        seat = moved.json()["current_player"] or 0
    return seconds


@pytest.mark.slow
def test_a_flood_of_replay_frames_is_charged_and_the_honest_player_moves_on(
    tmp_path: Path,
) -> None:
    db = tmp_path / "web.db"
    game_id = stored_oyno_game(db)
    server = Server(db, "--reads-per-minute", "120", "--bot-processes", "0")
    try:
        with server.client(HONEST) as honest:
            before = honest_moves(honest, 15)
            answers: Counter[int] = Counter()
            answered = threading.Event()

            def flood() -> None:
                chooser = random.Random()
                with server.client(ATTACKER) as attacker:
                    for _ in range(60):  # bounded: 8 connections, 480 requests in all
                        step = chooser.randrange(1001)
                        answer = attacker.get(f"/api/games/{game_id}/replay/{step}")
                        answers[answer.status_code] += 1
                        answered.set()

            flooders = [threading.Thread(target=flood) for _ in range(8)]
            for thread in flooders:
                thread.start()
            assert answered.wait(60), "the flood is answered"
            during = honest_moves(honest, 20)
            for thread in flooders:
                thread.join(timeout=300)
            print(
                f"honest move: median {statistics.median(before) * 1000:.0f} ms before, "
                f"{statistics.median(during) * 1000:.0f} ms (max {max(during) * 1000:.0f}) "
                f"during the flood; the flood's answers {dict(answers)}"
            )
            assert answers[200] >= 1, "the attacker's first frames are answered"
            assert answers[429] >= 1, "and the rest refused past its budget of reads"
            assert set(answers) <= {200, 429}, answers
            frame = honest.get(f"/api/games/{game_id}/replay/1000")
            assert frame.status_code == 200, "another address still replays"
    finally:
        server.stop()
