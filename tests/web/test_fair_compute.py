"""A fair share of the computer (issue 33, item 1): thinking charged by its cost, clients served in
turn, games nobody watches left still.

Nothing here asserts a time: the fairness is checked by queue positions (how many jobs started
ahead of a client's job while it waited) and the budget by a clock the test moves itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.core.registry import list_games
from boneyard.core.spec import HARD_SECONDS
from boneyard.web.compute.bots import COMPUTER_MOVE, HINT, SOLVER_SHARE, BotWorkers
from boneyard.web.compute.fairness import FairGate, ThinkingBudget
from boneyard.web.compute.jobs import JobQueue
from boneyard.web.compute.runners import thinking_budget
from boneyard.web.errors import WebError
from boneyard.web.play.catalog import Catalog
from boneyard.web.play.drawing import Lines
from boneyard.web.play.live import LiveGame
from boneyard.web.play.manager import GameManager
from boneyard.web.settings import Settings
from boneyard.web.store.games import Store
from tests.web.conftest import all_games, create, make_app

PATIENCE = 3000
"""Looks (each after a short sleep) before a test gives up waiting for a state: generous, as a
loaded machine is slow; a test never asserts how long it took."""


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(PATIENCE):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def until_async(condition: Callable[[], bool], what: str) -> None:
    for _ in range(PATIENCE):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def more_than(items: list[Any], count: int) -> Callable[[], bool]:
    return lambda: len(items) > count


def replied(live: LiveGame, seq: int) -> Callable[[], bool]:
    """Whether the computer (seat 1) moved since move ``seq``."""
    return lambda: any(entry.player == 1 for entry in live.log[seq:])


# ----- the thinking budget -----------------------------------------------------------------------


def test_a_budget_is_charged_what_a_job_took_and_refills() -> None:
    clock = FakeClock()
    budget = ThinkingBudget(rate=1.0, burst=10.0, clock=clock)
    assert budget.wait("ann") == 0.0
    budget.charge("ann", 12.0)  # a job may take the budget into debt
    assert budget.balance("ann") == pytest.approx(-2.0)
    assert budget.wait("ann") == pytest.approx(2.0)
    assert budget.wait("bob") == 0.0, "one client's debt is its own"
    clock.now += 1.5
    assert budget.wait("ann") == pytest.approx(0.5)
    clock.now += 1.0
    assert budget.wait("ann") == 0.0
    clock.now += 100.0
    assert budget.balance("ann") == 10.0, "never more than the burst"
    unlimited = ThinkingBudget(None, 0.0)
    unlimited.charge("ann", 1e9)
    assert unlimited.wait("ann") == 0.0


def worst_move_seconds() -> float:
    """The most CPU a computer move at the top level may take: the exact solver's share of the
    budget, then the bot's whole budget."""
    return HARD_SECONDS * (1 + SOLVER_SHARE)


def test_a_person_at_a_human_pace_never_meets_the_default_budget() -> None:
    """An hour against the top level, every computer move taking the most it may, the person
    answering in three seconds: the computer never waits for the budget."""
    settings = Settings()
    clock = FakeClock()
    budget = thinking_budget(settings)
    budget.clock = clock
    for _ in range(3600 // 5):
        clock.now += 3.0  # the person thinks
        assert budget.wait("person") == 0.0, "the computer would make a person wait"
        clock.now += settings.bot_delay
        cost = worst_move_seconds()
        clock.now += cost
        budget.charge("person", cost)


def test_twenty_games_moving_instantly_spend_the_default_budget_within_minutes() -> None:
    """Twenty games at the top level, each answered at once: as much thinking as two workers
    give (two CPU seconds a second) is charged, and the client soon waits."""
    clock = FakeClock()
    budget = thinking_budget(Settings())
    budget.clock = clock
    seconds = 0
    while budget.wait("attacker") == 0:
        clock.now += 1.0
        budget.charge("attacker", 2 * HARD_SECONDS)
        seconds += 1
        assert seconds < 180, "the budget outlasts three minutes of the attack"


# ----- clients in turn ---------------------------------------------------------------------------


def test_one_clients_many_jobs_delay_anothers_by_at_most_one() -> None:
    """Both workers busy with an attacker's jobs and ten more of its jobs waiting: the honest
    client's one job starts next (the fairness allows one attacker job ahead of it)."""
    gates: dict[tuple[str, int], threading.Event] = {}
    started: list[tuple[str, int]] = []

    def job(client: str, number: int) -> int:
        started.append((client, number))
        gates[(client, number)].wait(60)
        return number

    async def scenario() -> None:
        workers = BotWorkers(0)
        try:
            tasks = []
            for number in range(12):
                gates[("attacker", number)] = threading.Event()
                tasks.append(
                    asyncio.create_task(
                        workers.run(COMPUTER_MOVE, 1.0, job, "attacker", number, client="attacker")
                    )
                )
            await until_async(lambda: len(started) == 2 and workers.depth() == 10, "queued")
            gates[("honest", 0)] = threading.Event()
            honest = asyncio.create_task(
                workers.run(COMPUTER_MOVE, 1.0, job, "honest", 0, client="honest")
            )
            await until_async(lambda: workers.depth() == 11, "the honest job queued")
            while ("honest", 0) not in started:
                running = [held for held in started if not gates[held].is_set()]
                gates[running[0]].set()  # the older running job ends
                await until_async(more_than(started, len(started)), "the next job started")
            gates[("honest", 0)].set()
            assert await honest == 0
            after_queueing = started[2:]
            ahead = after_queueing.index(("honest", 0))
            assert ahead <= 1, f"{ahead} attacker jobs went ahead: {after_queueing}"
            assert workers.jobs_ahead("honest") == ahead
            for gate in gates.values():
                gate.set()
            assert sorted(await asyncio.gather(*tasks)) == list(range(12)), "no job is lost"
        finally:
            workers.shutdown()

    asyncio.run(scenario())


def test_the_job_table_takes_the_clients_in_turn(tmp_path: Path) -> None:
    """``boneyard bots`` workers claim a job of the client with the fewest jobs running first."""
    store = Store(f"sqlite:///{tmp_path / 'jobs.db'}")
    queue = JobQueue(store)
    attacker = [
        queue.submit("move", 0, ["hard", 1, n, None, []], 1.0, "127.0.1.1") for n in range(10)
    ]
    honest = queue.submit("move", 0, ["hard", 1, 99, None, []], 1.0, "127.0.0.2")
    claimed = [queue.claim(f"worker-{n}") for n in range(3)]
    assert [job.id for job in claimed if job is not None] == [attacker[0], honest, attacker[1]]


def test_a_job_table_made_before_clients_gets_their_column(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'old.db'}")
    with store.engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE IF EXISTS bot_jobs")
        connection.exec_driver_sql(
            "CREATE TABLE bot_jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, key VARCHAR(80) UNIQUE,"
            " kind VARCHAR(16), priority INTEGER, args JSON, budget FLOAT, status VARCHAR(16),"
            " attempts INTEGER, worker VARCHAR(128), lease_until FLOAT, result INTEGER,"
            " error TEXT, created FLOAT, finished FLOAT)"
        )
        connection.exec_driver_sql("DROP TABLE alembic_version")  # and before migrations
    store.close()
    store = Store(f"sqlite:///{tmp_path / 'old.db'}")  # the next start upgrades it
    queue = JobQueue(store)
    job_id = queue.submit("move", 0, ["easy", 0, 1, None, []], 1.0, "127.0.0.2")
    claimed = queue.claim("worker")
    assert claimed is not None and claimed.id == job_id


@pytest.mark.parametrize("slots", [1, 2])
def test_a_fair_gate_hands_over_jobs_in_turn_and_forgets_who_gave_up(slots: int) -> None:
    """The turns in front of a Ray cluster (``RayBots.gate``): an attacker's twelve jobs and an
    honest client's one after them; at most ``slots`` run at once, the honest job starts after
    at most one more of the attacker's, and a job cancelled while it waits never starts."""

    async def scenario() -> None:
        gate = FairGate(slots)
        started: list[tuple[str, int]] = []
        running = [0, 0]  # now, most at once

        async def job(client: str, number: int) -> None:
            async with gate.turn(client, COMPUTER_MOVE):
                started.append((client, number))
                running[0] += 1
                running[1] = max(running)
                for _ in range(3):  # holds its slot a while
                    await asyncio.sleep(0)
                running[0] -= 1

        attack = [asyncio.create_task(job("attacker", n)) for n in range(12)]
        await asyncio.sleep(0)  # the attacker's jobs hold the slots or wait
        honest = asyncio.create_task(job("honest", 0))
        await asyncio.sleep(0)
        attack[6].cancel()  # gave up while it waited (its game left)
        await asyncio.gather(honest, *attack, return_exceptions=True)
        assert running[1] == slots, "never more at once than the slots"
        assert ("attacker", 6) not in started and len(started) == 12
        assert started.index(("honest", 0)) <= slots, started
        assert gate.turns.ahead["honest"] <= 1
        assert gate.running == 0 and len(gate.turns) == 0

    asyncio.run(scenario())


# ----- the budget in the app ---------------------------------------------------------------------


def person_move(client: TestClient, created: dict[str, Any]) -> int:
    """Play the person's first legal move (seat 0); the sequence number after it."""
    token = created["seats"][0]["token"]
    view = client.get(f"/api/games/{created['id']}", params={"token": token}).json()
    moved = client.post(
        f"/api/games/{created['id']}/actions",
        json={"token": token, "seq": view["seq"], "action": view["legal"][0]["id"]},
    )
    assert moved.status_code == 200, moved.text
    seq: int = moved.json()["seq"]
    return seq


def metric(client: TestClient, name: str) -> float:
    """One sample of ``/metrics`` by its name and labels (0 when absent)."""
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(f"{name} "):
            return float(line.split()[-1])
    return 0.0


def test_a_spent_budget_makes_the_computer_wait_and_loses_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path / "web.db", thinking_seconds_per_minute=60.0, hint_interval=60.0)
    with TestClient(app) as client:
        manager: GameManager = app.state.manager
        clock = FakeClock()
        manager.bots.thinking.clock = clock
        seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
        created = create(client, "toy_walk", seats=seats, hints=True)
        live = manager.games[created["id"]]
        burst = manager.settings.thinking_seconds_burst
        manager.bots.thinking.charge("testclient", burst + 80.0)  # 80 s of debt at 1 s a second
        hint = client.post(
            f"/api/games/{created['id']}/hint", json={"token": created["seats"][0]["token"]}
        )
        assert hint.status_code == 429 and hint.json()["error"] == "too_much_thinking"
        assert "ask for a hint again in 80 seconds" in hint.json()["detail"]
        assert metric(client, 'boneyard_refusals_total{reason="too_much_thinking"}') == 1
        seq = person_move(client, created)
        until(lambda: live.resting, "the computer waits for the budget")
        assert live.seq == seq and manager.bots.depth() == 0, "no job is queued meanwhile"
        # the wait is counted in /metrics (not logged): one game waits now, one wait so far
        assert metric(client, "boneyard_thinking_waiting") == 1
        assert metric(client, "boneyard_thinking_waits_total") == 1
        view = client.get(f"/api/games/{created['id']}").json()
        assert "pauses a moment" in view["prompt"], "the page says why the computer waits"
        clock.now += 81.0  # the budget refills
        until(lambda: live.seq > seq, "the computer answers once the budget refills")
        assert not live.resting and metric(client, "boneyard_thinking_waiting") == 0
        stored = client.get(f"/api/games/{created['id']}").json()
        assert stored["seq"] == live.seq and stored["log"][seq - 1]["player"] == 0, "kept"
        # hints asked faster than the hint interval: refused and counted
        until(lambda: live.to_move() == 0 or live.over, "the person's turn")
        if not live.over:
            asked = [
                client.post(
                    f"/api/games/{created['id']}/hint",
                    json={"token": created["seats"][0]["token"]},
                ).status_code
                for _ in range(2)
            ]
            assert asked[1] == 429, asked
            assert metric(client, 'boneyard_refusals_total{reason="hint_interval"}') == 1


def test_the_computer_thinks_during_its_pause_and_answers_after_it(tmp_path: Path) -> None:
    """A person waits the longer of the pace's pause and the computer's thinking, not their
    sum (issue 44, row 5: a reply that waits for a bot worker behind a crowd's searches waits
    inside the pause): the computer's job is done while its pause of 30 s still runs, and its
    move is played only once the pause is over."""
    app = make_app(tmp_path / "web.db", bot_delay=30.0)
    with TestClient(app) as client:
        manager: GameManager = app.state.manager
        seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
        created = create(client, "obonto", seats=seats)
        live = manager.games[created["id"]]
        seq = person_move(client, created)
        count = 'boneyard_bot_seconds_count{kind="move"}'
        until(lambda: metric(client, count) == 1, "the computer thinks during its pause")
        assert live.seq == seq and not replied(live, seq)(), "its move waits for the pause"
        assert live.bot_task is not None and not live.bot_task.done(), "the turn goes on"


# ----- games nobody watches ----------------------------------------------------------------------


def test_a_game_of_computers_alone_pauses_with_only_a_silent_socket(tmp_path: Path) -> None:
    # Seven moves at least make a game of Toy Walk; at 0.2 s a move no more than four fit in
    # the watches of its creation and of the socket's opening.
    app = make_app(tmp_path / "web.db", bot_delay=0.2, bot_step_delay=0.2, watch_seconds=0.3)
    with TestClient(app) as client:
        manager: GameManager = app.state.manager
        seats = [{"kind": "computer", "level": "easy"}, {"kind": "computer", "level": "easy"}]
        created = create(client, "toy_walk", seats=seats, params={"max_moves": 100})
        live = manager.games[created["id"]]

        def still() -> int | None:
            """The move number the game stands still at (None: it may move on), looked at
            on the app's own loop, where no move is half made."""
            idle = live.bot_task is None or live.bot_task.done()
            if idle and not live.lock.locked() and not manager.computer.watched(live):
                return live.seq
            return None

        assert client.portal is not None
        with client.websocket_connect(f"/ws/games/{created['id']}?draw=false") as socket:
            assert json.loads(socket.receive_text())["type"] == "view"
            until(lambda: client.portal.call(still) is not None, "it pauses, the socket silent")
            paused_at = client.portal.call(still)
            assert paused_at is not None and not live.over, "it paused before the end"
            assert manager.bots.depth() == 0, "it queues no job"

            def seen() -> bool:
                socket.send_text(json.dumps({"type": "watching"}))
                return live.seq > paused_at

            until(seen, "a page that is seen sets it going again")


# ----- the attack of issue 33 --------------------------------------------------------------------


class Watcher:
    """A subscriber that wakes its player on every new view (as a socket would)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.draw = False
        self.drawing: Lines | None = None
        self.news = asyncio.Event()

    def offer(self, text: str) -> bool:
        self.news.set()
        return True


async def play_instantly(
    manager: GameManager, live: LiveGame, client: str, stop: asyncio.Event
) -> None:
    """Move the instant it is the person's (seat 0) turn, until ``stop``."""
    watcher = Watcher(0)
    manager.subscribe(live, watcher, client)
    while not stop.is_set() and not live.over:
        if live.to_move() == 0:
            with contextlib.suppress(WebError):  # the game moved meanwhile: look again
                await manager.act_as_person(
                    live, 0, live.seq, live.state.legal_actions()[0], client=client
                )
        watcher.news.clear()
        if live.to_move() != 0:
            await watcher.news.wait()


@pytest.mark.skipif("obonto" not in list_games(), reason="obonto is needed")
def test_twenty_games_against_the_top_level_delay_an_honest_move_by_at_most_one_job(
    tmp_path: Path,
) -> None:
    """The attack of issue 33: twenty games against Obonto's hard level, each moving the
    instant it is the attacker's turn, and an honest person playing one game at a person's
    pace. The honest person's replies are measured in the same run, with and without the
    attack; what is asserted is the queue: jobs started ahead of each honest reply."""
    settings = Settings(
        bot_delay=0.0,
        bot_step_delay=0.0,
        bot_time_limit=0.05,
        thinking_seconds_per_minute=None,  # the turns alone are under test here
        games_per_minute=10_000,
        moves_per_minute=10_000,
    )
    hard = [{"kind": "human"}, {"kind": "computer", "level": "hard"}]

    async def honest_reply(manager: GameManager, live: LiveGame) -> tuple[float, int | None]:
        """The person's move (their whole turn) and the seconds until it is theirs again;
        the jobs that started ahead of the computer's reply. (-1, None): the game ended."""
        first = live.seq
        began = time.monotonic()
        while True:
            await until_async(lambda: live.to_move() == 0 or live.over, "the person's turn")
            if live.over:
                return -1.0, None
            if any(entry.player == 1 for entry in live.log[first:]):
                assert isinstance(manager.bots, BotWorkers)
                return time.monotonic() - began, manager.bots.jobs_ahead("honest")
            action = live.state.legal_actions()[0]
            await manager.act_as_person(live, 0, live.seq, action, client="honest")

    async def scenario() -> None:
        manager = GameManager(
            Store(f"sqlite:///{tmp_path / 'web.db'}"), Catalog(all_games()), settings
        )
        manager.warm_up()
        try:
            honest = await manager.create("obonto", {}, hard, client="honest")
            calm = [await honest_reply(manager, honest) for _ in range(2)]
            stop = asyncio.Event()
            games = [await manager.create("obonto", {}, hard, client="attacker") for _ in range(20)]
            attack = [
                asyncio.create_task(play_instantly(manager, live, "attacker", stop))
                for live in games
            ]
            await until_async(lambda: manager.bots.depth() >= 10, "the attacker's queue builds")
            under_attack: list[tuple[float, int, int]] = []
            while len(under_attack) < 3:
                queued = manager.bots.depth()
                reply, ahead = await honest_reply(manager, honest)
                if ahead is None:  # the honest game ended: another one
                    honest = await manager.create("obonto", {}, hard, client="honest")
                    continue
                under_attack.append((reply, ahead, queued))
            stop.set()
            for task in attack:
                task.cancel()
            await asyncio.gather(*attack, return_exceptions=True)
            print(f"honest replies without the attack {calm}, under it {under_attack}")
            for _reply, ahead, queued in under_attack:
                assert queued >= 5, "the attack had jobs waiting when the honest person moved"
                assert ahead is not None and ahead <= 1, f"{ahead} jobs went ahead of the reply"
        finally:
            manager.shutdown()

    asyncio.run(scenario())


def test_a_hint_waits_behind_at_most_one_of_another_clients_computer_moves() -> None:
    """A hint leaves the last free worker to computer moves, but not for ever: once a job
    went ahead of it, it is the hint's turn."""
    gates: dict[tuple[str, int], threading.Event] = {}
    started: list[tuple[str, int]] = []

    def job(client: str, number: int) -> int:
        started.append((client, number))
        gates[(client, number)].wait(60)
        return number

    async def scenario() -> None:
        workers = BotWorkers(0)
        try:
            tasks = []
            for number in range(8):
                gates[("attacker", number)] = threading.Event()
                tasks.append(
                    asyncio.create_task(
                        workers.run(COMPUTER_MOVE, 1.0, job, "attacker", number, client="attacker")
                    )
                )
            await until_async(lambda: len(started) == 2 and workers.depth() == 6, "queued")
            gates[("honest", 0)] = threading.Event()
            hint = asyncio.create_task(workers.run(HINT, 1.0, job, "honest", 0, client="honest"))
            await until_async(lambda: workers.depth() == 7, "the hint queued")
            while ("honest", 0) not in started:
                assert len(started) < 10, "the hint is starved"
                running = [held for held in started if not gates[held].is_set()]
                gates[running[0]].set()
                await until_async(more_than(started, len(started)), "the next job started")
            assert started[2:].index(("honest", 0)) <= 1
            for gate in gates.values():
                gate.set()
            assert await hint == 0
            await asyncio.gather(*tasks)
        finally:
            workers.shutdown()

    asyncio.run(scenario())


@pytest.mark.skipif("obonto" not in list_games(), reason="obonto is needed")
def test_twenty_games_of_computers_alone_with_silent_sockets_spend_nothing(tmp_path: Path) -> None:
    """Issue 33's second attack: twenty games of two computers at the top level, each with one
    socket that never says a word. Once a watch has passed without a word they all pause,
    queuing nothing, and an honest person's reply has no job ahead of it."""
    settings = Settings(bot_delay=0.0, bot_step_delay=0.0, bot_time_limit=0.05, watch_seconds=0.5)
    computers = [{"kind": "computer", "level": "hard"}, {"kind": "computer", "level": "hard"}]
    person = [{"kind": "human"}, {"kind": "computer", "level": "hard"}]

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'web.db'}")
        manager = GameManager(store, Catalog(all_games()), settings)
        manager.warm_up()
        try:
            games = [
                await manager.create("obonto", {}, computers, client="attacker") for _ in range(20)
            ]
            for live in games:
                manager.subscribe(live, Watcher(None), "attacker")  # silent from here on

            def paused(live: LiveGame) -> bool:
                # (a move being stored holds the lock: the game is not still yet)
                idle = live.bot_task is None or live.bot_task.done()
                return idle and not live.lock.locked() and not manager.computer.watched(live)

            await until_async(lambda: all(paused(live) for live in games), "every game pauses")
            moved = [live.seq for live in games]
            assert manager.bots.depth() == 0, "nothing is queued for them"
            honest = await manager.create("obonto", {}, person, client="honest")
            for _ in range(2):
                await until_async(lambda: honest.to_move() == 0, "the person's turn")
                seq = honest.seq
                action = honest.state.legal_actions()[0]
                await manager.act_as_person(honest, 0, seq, action, client="honest")
                await until_async(replied(honest, seq), "the computer's reply")
                assert isinstance(manager.bots, BotWorkers)
                assert manager.bots.jobs_ahead("honest") == 0
            assert [live.seq for live in games] == moved, "the unwatched games stayed still"
            assert not any(live.over for live in games)
        finally:
            manager.shutdown()

    asyncio.run(scenario())
