"""Clocks kept by the server: time controls, Fischer increments, flags, aborts, restarts.

Time is a ``ManualTimers`` the manager is given: a test moves it on by hand and the clocks
fall due at once, so nothing here sleeps or depends on the machine's speed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest

from boneyard.core.game import TERMINAL, Game, Observation, State
from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from boneyard.web.play.manager import GameManager
from boneyard.web.play.timers import ManualTimers
from boneyard.web.store.clocks import ClockStore
from boneyard.web.store.games import Store
from tests.web.conftest import all_games, app_settings


class RoundGame(Game):
    """Three seats take turns saying 0 or 1, twelve times in all: a game of three to time."""

    name = "toy_round"
    title = "Toy Round"
    seat_names = ("East", "South", "West")

    def num_players(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 12

    def utility_range(self) -> tuple[float, float]:
        return (0.0, 1.0)

    def num_distinct_actions(self) -> int:
        return 2

    def new_initial_state(self) -> RoundState:
        return RoundState(self)


class RoundState(State):
    game: RoundGame

    def __init__(self, game: RoundGame) -> None:
        super().__init__(game)
        self.said: list[int] = []

    def current_player(self) -> int:
        return TERMINAL if len(self.said) >= 12 else len(self.said) % 3

    def _legal_actions(self) -> list[int]:
        return [0, 1]

    def _apply_action(self, action: int) -> None:
        self.said.append(action)

    def returns(self) -> list[float]:
        return [float(sum(self.said[s::3])) for s in range(3)]

    def _action_to_string(self, action: int) -> str:
        return f"say {action}"

    def _string_to_action(self, text: str) -> int:
        return int(text.removeprefix("say "))

    def _observation(self, seat: int | None) -> Observation:
        return {"current_player": self.current_player(), "said": list(self.said)}

    def __str__(self) -> str:
        return str(self.said)


class Table:
    """An app on a SQLite file whose time moves by hand, spoken to over ASGI."""

    def __init__(self, db: Path | str, timers: ManualTimers, **settings: Any) -> None:
        """``db``: a SQLite file, or a database's URL."""
        self.timers = timers
        url = db if isinstance(db, str) else f"sqlite:///{db}"
        games: dict[str, type[Game]] = {**all_games(), "toy_round": RoundGame}
        manager = GameManager(Store(url), Catalog(games), app_settings(**settings), timers=timers)
        self.app = create_app(url, manager=manager)
        self.client = httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=self.app), base_url="http://testserver"
        )

    async def tick(self, seconds: float) -> None:
        """Move time on and let every clock that fell due be dealt with."""
        self.timers.advance(seconds)
        for _ in range(3):
            await self.app.state.clocks.settled()
            await asyncio.sleep(0)

    async def create(self, game: str = "toy_walk", **body: Any) -> dict[str, Any]:
        response = await self.client.post("/api/games", json={"game": game, **body})
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        await self.tick(0)
        return created

    async def view(self, created: dict[str, Any], seat: int = 0) -> dict[str, Any]:
        token = created["seats"][seat]["token"]
        response = await self.client.get(
            f"/api/games/{created['id']}", params={"token": token, "draw": "false"}
        )
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    async def move(self, created: dict[str, Any], seat: int, index: int = 0) -> httpx2.Response:
        """Play the ``index``-th legal action of ``seat`` (it must be its turn)."""
        view = await self.view(created, seat)
        body = {
            "token": created["seats"][seat]["token"],
            "seq": view["seq"],
            "action": view["legal"][index]["id"],
        }
        response = await self.client.post(f"/api/games/{created['id']}/actions", json=body)
        await self.tick(0)
        return response


def run(
    tmp_path: Path, test: Callable[[Table], Coroutine[Any, Any, None]], **settings: Any
) -> None:
    timers = ManualTimers()

    async def main() -> None:
        async with table_at(tmp_path / "clocks.db", timers, **settings) as table:
            await test(table)

    asyncio.run(main())


@asynccontextmanager
async def table_at(db: Path | str, timers: ManualTimers, **settings: Any) -> AsyncIterator[Table]:
    table = Table(db, timers, **settings)
    async with table.app.router.lifespan_context(table.app):
        await table.tick(0)
        yield table
    await table.client.aclose()


REAL_TIME = {"initial": 60, "increment": 2}


async def both_moved(table: Table, clock: dict[str, Any] = REAL_TIME) -> dict[str, Any]:
    """A toy walk on ``clock`` where each side made its first move: North's clock runs."""
    created = await table.create(clock=clock)
    assert (await table.move(created, 0)).status_code == 200
    assert (await table.move(created, 1)).status_code == 200
    return created


# ----- time controls -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"initial": -1, "increment": 0}, "greater than or equal to 0"),
        ({"initial": 100_000, "increment": 0}, "less than or equal to 10800"),
        ({"initial": 60, "increment": 999}, "less than or equal to 180"),
        ({"days": 0}, "greater than or equal to 1"),
        ({"days": 30}, "less than or equal to 14"),
        ({"initial": 60, "days": 1}, "not both"),
        ({"initial": 0, "increment": 0}, "needs time"),
        ({}, "needs time"),
        ({"minutes": 5}, "Extra inputs are not permitted"),
        ({"initial": "5"}, "valid"),
    ],
)
def test_a_bad_time_control_is_refused_naming_what_is_allowed(
    tmp_path: Path, clock: dict[str, Any], words: str
) -> None:
    async def test(table: Table) -> None:
        before = table.app.state.manager.store.game_ids()
        for path, body in (
            ("/api/games", {"game": "toy_walk", "clock": clock}),
            ("/api/open", {"game": "toy_walk", "clock": clock}),
        ):
            response = await table.client.post(path, json=body)
            assert response.status_code == 422, response.text
            assert response.json()["error"] == "bad_request"
            assert "clock" in response.json()["detail"]
            assert words in response.json()["detail"]
        assert table.app.state.manager.store.game_ids() == before  # nothing stored

    run(tmp_path, test)


def test_an_untimed_game_has_no_clock(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await table.create(
            seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]
        )
        assert (await table.view(created))["clock"] is None
        assert table.app.state.clocks.timed == 0

    run(tmp_path, test)


def test_the_view_shows_each_seats_time_and_whose_clock_runs(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await table.create(clock=REAL_TIME)
        clock = (await table.view(created, 1))["clock"]
        assert clock["control"] == {"initial": 60, "increment": 2}
        assert clock["words"] == "1+2"
        assert clock["remaining"] == [60, 60]
        assert clock["running"] == 0
        assert clock["ticking"] is False  # the first move is not on the clock
        assert clock["first_move_left"] == 30
        await table.tick(10)
        clock = (await table.view(created, 1))["clock"]
        assert clock["remaining"] == [60, 60]
        assert clock["first_move_left"] == 20

    run(tmp_path, test)


def test_fischer_the_mover_pays_the_time_used_and_gets_the_increment(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await both_moved(table)
        clock = (await table.view(created))["clock"]
        assert clock["running"] == 0 and clock["ticking"] is True
        assert clock["remaining"] == [60, 60]
        await table.tick(10)
        assert (await table.view(created, 1))["clock"]["remaining"] == [50, 60]
        assert (await table.move(created, 0)).status_code == 200
        clock = (await table.view(created, 1))["clock"]
        assert clock["remaining"] == [52, 60]  # 60 - 10 + 2
        assert clock["running"] == 1
        await table.tick(25)
        assert (await table.move(created, 1)).status_code == 200
        assert (await table.view(created))["clock"]["remaining"] == [52, 37]

    run(tmp_path, test)


def test_correspondence_gives_each_move_its_days(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await both_moved(table, {"days": 2})
        clock = (await table.view(created))["clock"]
        assert clock["words"] == "2 days a move"
        assert clock["remaining"] == [2 * 86400, 2 * 86400]
        await table.tick(86400)
        assert (await table.move(created, 0)).status_code == 200
        assert (await table.view(created))["clock"]["remaining"] == [2 * 86400, 2 * 86400]
        await table.tick(2 * 86400 + 1)
        view = await table.view(created)
        assert view["terminal"] and view["session"]["ending"]["kind"] == "flag"
        assert view["returns"] == [1.0, -1.0]

    run(tmp_path, test)


# ----- running out ---------------------------------------------------------------------------


def test_the_seat_out_of_time_loses_with_nobody_asking(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await both_moved(table)
        await table.tick(59)
        assert not (await table.view(created))["terminal"]
        await table.tick(2)  # past 60 s and the grace: nobody asks, the server ends it
        assert table.app.state.clocks.flags == 1
        view = await table.view(created, 1)
        assert view["terminal"]
        assert view["returns"] == [-1.0, 1.0]
        assert view["status"] == "Game over: North ran out of time, South wins"
        assert view["session"]["ending"]["kind"] == "flag"
        assert view["clock"]["remaining"][0] == 0 and view["clock"]["running"] is None
        assert view["clock"]["ran_out"] == [0]
        stored = table.app.state.manager.store.load(created["id"])
        assert stored.finished
        record = ClockStore(table.app.state.manager.store).read(created["id"])
        assert record is not None and record.deadline is None
        assert table.app.state.clocks.timed == 0

    run(tmp_path, test)


def test_a_move_is_judged_by_when_the_server_received_it(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await both_moved(table)
        await table.tick(59.9)
        assert (await table.move(created, 0)).status_code == 200  # 0.1 s to spare: in time
        assert (await table.view(created))["clock"]["remaining"] == [2.1, 60]
        await table.tick(60.5)  # South's 60 s ran out; its move comes after
        view = await table.view(created, 1)
        late = await table.client.post(
            f"/api/games/{created['id']}/actions",
            json={"token": created["seats"][1]["token"], "seq": view["seq"], "action": 0},
        )
        assert late.status_code == 409
        assert late.json()["error"] in ("time_over", "game_over")
        await table.tick(1)
        view = await table.view(created)
        assert view["terminal"] and view["returns"] == [1.0, -1.0]

    run(tmp_path, test)


def test_a_move_received_before_the_flag_is_stored_though_the_flag_is_due(
    tmp_path: Path,
) -> None:
    async def test(table: Table) -> None:
        created = await both_moved(table)
        view = await table.view(created)
        table.timers.time += 59.99  # received just in time: the flag's timer has not fallen
        response = await table.client.post(
            f"/api/games/{created['id']}/actions",
            json={
                "token": created["seats"][0]["token"],
                "seq": view["seq"],
                "action": view["legal"][0]["id"],
            },
        )
        assert response.status_code == 200
        await table.tick(0.6)  # the old deadline's timer falls: the clock moved on, no flag
        view = await table.view(created)
        assert not view["terminal"] and table.app.state.clocks.flags == 0

    run(tmp_path, test)


def test_a_game_abandoned_before_the_first_move_is_called_off(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await table.create(clock=REAL_TIME)
        await table.tick(31)
        view = await table.view(created)
        assert view["terminal"]
        assert view["returns"] == [0.0, 0.0]  # no result for either side
        assert view["session"]["ending"]["kind"] == "abort"
        assert view["status"] == "Game called off: North did not make a first move in time"

    run(tmp_path, test)


def test_a_game_abandoned_before_the_second_side_moved_is_called_off(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await table.create(clock=REAL_TIME)
        await table.tick(20)
        assert (await table.move(created, 0)).status_code == 200
        await table.tick(29)
        assert not (await table.view(created))["terminal"]  # South's 30 s began with its turn
        await table.tick(2)
        view = await table.view(created)
        assert view["session"]["ending"]["kind"] == "abort" and view["returns"] == [0.0, 0.0]
        assert "South did not make a first move" in view["status"]

    run(tmp_path, test)


def test_in_a_game_of_three_the_computer_takes_the_seat_out_of_time(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await table.create("toy_round", clock={"initial": 20, "increment": 0})
        for seat in range(3):
            assert (await table.move(created, seat)).status_code == 200
        await table.tick(21)
        view = await table.view(created, 1)
        assert not view["terminal"]  # the others play on
        assert view["seats"][0]["kind"] == "computer"
        assert any(
            e["kind"] == "flag_left" and "ran out of time" in e["words"]
            for e in view["session"]["events"]
        )
        for _ in range(100):  # the computer plays East's move (bot_delay 0)
            view = await table.view(created, 1)
            if view["current_player"] == 1:
                break
            await asyncio.sleep(0.05)
        assert view["current_player"] == 1
        assert view["clock"]["running"] == 1 and view["clock"]["ticking"]

    run(tmp_path, test)


def test_an_open_game_starts_its_clock_when_the_seat_is_taken(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        opened = await table.client.post(
            "/api/open", json={"game": "toy_walk", "seat": 0, "clock": REAL_TIME}
        )
        assert opened.status_code == 201, opened.text
        game_id = opened.json()["id"]
        await table.tick(600)  # waiting in the lobby is not on anyone's clock
        creator = await table.client.get(
            f"/api/games/{game_id}", params={"token": opened.json()["token"], "draw": "false"}
        )
        assert not creator.json()["terminal"] and creator.json()["clock"]["running"] is None
        joined = await table.client.post(f"/api/open/{game_id}/join", json={})
        assert joined.status_code == 200, joined.text
        await table.tick(0)
        await table.tick(29)
        view = await table.client.get(f"/api/games/{game_id}", params={"draw": "false"})
        assert not view.json()["terminal"]
        assert view.json()["clock"]["running"] == 0
        await table.tick(2)
        view = await table.client.get(f"/api/games/{game_id}", params={"draw": "false"})
        assert view.json()["session"]["ending"]["kind"] == "abort"

    run(tmp_path, test)


def test_a_restarted_server_ends_the_games_whose_time_ran_out_meanwhile(tmp_path: Path) -> None:
    timers = ManualTimers()
    db = tmp_path / "clocks.db"

    async def before() -> dict[str, Any]:
        async with table_at(db, timers) as table:
            created = await both_moved(table)
            await table.tick(30)
            return created

    async def after(created: dict[str, Any]) -> None:
        async with table_at(db, timers) as table:
            view = await table.view(created)
            assert view["terminal"] and view["session"]["ending"]["kind"] == "flag"
            assert view["returns"] == [-1.0, 1.0]
            assert table.app.state.clocks.flags == 1

    created = asyncio.run(before())
    timers.advance(3600)  # no server runs for an hour
    asyncio.run(after(created))


def test_a_rematch_keeps_the_time_control(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await both_moved(table, {"initial": 180, "increment": 2})
        token = created["seats"][0]["token"]
        await table.client.post(
            f"/api/games/{created['id']}/session", json={"token": token, "do": "resign"}
        )
        response = await table.client.post(
            f"/api/games/{created['id']}/session", json={"token": token, "do": "rematch"}
        )
        assert response.status_code == 200, response.text
        view = await table.view(created)
        next_id = view["session"]["next_game"]
        nxt = await table.client.get(f"/api/games/{next_id}", params={"draw": "false"})
        assert nxt.json()["clock"]["words"] == "3+2"

    run(tmp_path, test)


def test_after_a_takeback_the_clock_runs_for_the_seat_to_move(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        created = await both_moved(table)
        await table.tick(5)
        assert (await table.move(created, 0)).status_code == 200  # North: 60 - 5 + 2
        await table.tick(3)
        token = created["seats"][0]["token"]
        asked = await table.client.post(
            f"/api/games/{created['id']}/session", json={"token": token, "do": "takeback"}
        )
        assert asked.status_code == 200, asked.text
        answer = await table.client.post(
            f"/api/games/{created['id']}/session",
            json={"token": created["seats"][1]["token"], "do": "accept_takeback"},
        )
        assert answer.status_code == 200, answer.text
        await table.tick(0)
        clock = (await table.view(created))["clock"]
        assert clock["running"] == 0  # North moves again; South's 3 s stay spent
        assert clock["remaining"] == [57, 57]
        await table.tick(58)
        view = await table.view(created)
        assert view["terminal"] and view["returns"] == [-1.0, 1.0]

    run(tmp_path, test)


def test_only_a_timed_games_page_carries_the_clocks(tmp_path: Path) -> None:
    async def test(table: Table) -> None:
        timed = await table.create(clock=REAL_TIME)
        untimed = await table.create()
        for created, shown in ((timed, True), (untimed, False)):
            page = await table.client.get(created["seats"][0]["url"])
            assert page.status_code == 200
            assert ('id="clocks"' in page.text) is shown
            assert ("/static/clocks.js" in page.text) is shown

    run(tmp_path, test)


def test_a_copy_that_catches_up_judges_by_the_stored_clock(tmp_path: Path) -> None:
    """Two apps on one database (two server processes): a move made through the second on
    top of the first's is judged by the clock the first stored, and stored with it."""
    timers = ManualTimers()
    db = tmp_path / "shared.db"

    async def main() -> None:
        async with table_at(db, timers) as first, table_at(db, timers) as second:
            created = await both_moved(first)
            await second.view(created)  # the second holds the game (and its clock) now
            await first.tick(4)
            assert (await first.move(created, 0)).status_code == 200  # North: 60 - 4 + 2
            await first.tick(6)
            view = await first.view(created, 1)  # South answers through the second
            body = {
                "token": created["seats"][1]["token"],
                "seq": view["seq"],
                "action": view["legal"][0]["id"],
            }
            answer = await second.client.post(f"/api/games/{created['id']}/actions", json=body)
            assert answer.status_code == 200, answer.text
            assert answer.json()["clock"]["remaining"] == [58, 56]  # South: 60 - 6 + 2
            assert (await first.view(created))["clock"]["remaining"] == [58, 56]

    asyncio.run(main())


def test_two_processes_seeing_a_clock_run_out_end_it_once(tmp_path: Path) -> None:
    """Two apps on one database whose timers fall at the same moment: both check, one ends
    the game (the clock's conditional write), the other reads the game again."""
    timers = ManualTimers()
    db = tmp_path / "shared.db"

    async def main() -> None:
        async with table_at(db, timers) as first, table_at(db, timers) as second:
            created = await both_moved(first)
            await second.view(created)  # both hold the game and a timer for its clock
            assert first.app.state.clocks.timed == second.app.state.clocks.timed == 1
            timers.advance(61)
            for _ in range(3):
                for table in (first, second):
                    await table.app.state.clocks.settled()
                await asyncio.sleep(0)
            flags = [table.app.state.clocks.flags for table in (first, second)]
            assert sorted(flags) == [0, 1]
            for table in (first, second):
                view = await table.view(created)
                assert view["session"]["ending"]["kind"] == "flag"
                assert [e["kind"] for e in view["session"]["events"]].count("flag") == 1

    asyncio.run(main())
