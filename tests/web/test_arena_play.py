"""An arena that plays itself (issue 41 item 4): a paired player's first move waits for their
page to open the game (or for the time to get there), and a player who lets it lapse is paused
until they come back.

The clocks run on a ``ManualTimers`` (``test_clocks.Table``): a test moves time on by hand; the
director's looks are run by the test (``Director.tick``), its own loop stopped.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx2
import pytest

from boneyard.web.play.timers import ManualTimers
from tests.web.test_clocks import Table, table_at
from tests.web.test_tournaments import PASSWORD

ARRIVAL = 15.0
FIRST_MOVE = 30.0


class Arena:
    """One arena of the table's app, with its players (each a client of their own)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.people: dict[str, httpx2.AsyncClient] = {}
        self.names: list[str] = []
        self.id = ""

    async def person(self, name: str) -> httpx2.AsyncClient:
        someone = httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=self.table.app), base_url="http://testserver"
        )
        answer = await someone.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.people[name] = someone
        return someone

    async def open(self, names: list[str]) -> None:
        await self.table.app.state.director.stop()  # the test runs its looks
        self.names = list(names)
        for name in names:
            await self.person(name)
        maker = self.people[names[0]]
        made = await maker.post(
            "/api/tournaments",
            json={"game": "toy_walk", "kind": "arena", "minutes": 30,
                  "clock": {"initial": 60, "increment": 0}, "starts_in": 0},
        )  # fmt: skip
        assert made.status_code == 201, made.text
        self.id = made.json()["id"]
        for someone in self.people.values():
            joined = await someone.post(f"/api/tournaments/{self.id}/join")
            assert joined.status_code == 200, joined.text

    async def tick(self) -> None:
        await self.table.app.state.director.tick()
        await self.table.tick(0)

    async def view(self, name: str) -> dict[str, Any]:
        answer = await self.people[name].get(f"/api/tournaments/{self.id}")
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view

    async def seat(self, name: str) -> tuple[str, str] | None:
        link = (await self.view(name))["me"]["game_url"]
        if link is None:
            return None
        game_id, token = link.removeprefix("/game/").split("?t=")
        return game_id, token

    async def clock(self, name: str) -> dict[str, Any]:
        seat = await self.seat(name)
        assert seat is not None
        game_id, token = seat
        answer = await self.people[name].get(
            f"/api/games/{game_id}", params={"token": token, "draw": "false"}
        )
        clock: dict[str, Any] = answer.json()["clock"]
        return clock

    async def first_mover(self, names: list[str]) -> str:
        for name in names:
            if (await self.clock(name))["first_move_left"] is not None:
                return name
        raise AssertionError("nobody's first move runs")

    async def in_order(self) -> tuple[str, str]:
        """The two players of a two-player arena: the one to move first, then the other."""
        first = await self.first_mover(self.names)
        return first, next(name for name in self.names if name != first)

    async def arrive(self, name: str) -> None:
        """``name``'s page opens their game: what its seat's socket does on connecting."""
        seat = await self.seat(name)
        assert seat is not None
        game_id, token = seat
        manager = self.table.app.state.manager
        live = await manager.get(game_id)
        await manager.seat_opened(live, live.seat_of(token))
        await self.table.tick(0)

    async def move(self, name: str) -> None:
        """``name`` plays their first legal move (it must be their turn)."""
        seat = await self.seat(name)
        assert seat is not None
        game_id, token = seat
        someone = self.people[name]
        view = (
            await someone.get(f"/api/games/{game_id}", params={"token": token, "draw": "false"})
        ).json()
        body = {"token": token, "seq": view["seq"], "action": view["legal"][0]["id"]}
        moved = await someone.post(f"/api/games/{game_id}/actions", json=body)
        assert moved.status_code == 200, moved.text
        await self.table.tick(0)

    async def resign(self, name: str) -> None:
        seat = await self.seat(name)
        assert seat is not None
        game_id, token = seat
        body = {"token": token, "do": "resign"}
        done = await self.people[name].post(f"/api/games/{game_id}/session", json=body)
        assert done.status_code == 200, done.text
        await self.table.tick(0)

    async def close(self) -> None:
        for someone in self.people.values():
            await someone.aclose()


def in_an_arena(where: Path | str, names: list[str], test: Any) -> None:
    """Run ``test(arena)`` on an app on ``where`` (a folder for a SQLite file, or a database's
    URL), in an arena its ``names`` joined."""

    async def main() -> None:
        db = where if isinstance(where, str) else where / "arena.db"
        settings = {"arena_arrival_seconds": ARRIVAL, "clock_first_move_seconds": FIRST_MOVE}
        async with table_at(db, ManualTimers(), **settings) as table:
            arena = Arena(table)
            await arena.open(names)
            try:
                await test(arena)
            finally:
                await arena.close()

    asyncio.run(main())


# ----- the rules, each a body run on SQLite here and on PostgreSQL in test_arena_postgres.py ----


async def first_move_waits_for_the_page(arena: Arena) -> None:
    """Before: the first move's 30 s ran from the pairing, and a page opened 24 s later had 6 s
    left. Now they run from the page's opening, or after the time to get there."""
    await arena.tick()
    first, second = await arena.in_order()
    assert (await arena.clock(first))["first_move_left"] == ARRIVAL + FIRST_MOVE
    await arena.arrive(second)  # not theirs to move: the first mover's wait stands
    assert (await arena.clock(first))["first_move_left"] == ARRIVAL + FIRST_MOVE
    await arena.table.tick(10)  # the page takes 10 s to open the game
    await arena.arrive(first)
    assert (await arena.clock(first))["first_move_left"] == FIRST_MOVE
    await arena.table.tick(5)
    await arena.arrive(first)  # opened again (a reload): no more time than that
    assert (await arena.clock(first))["first_move_left"] == FIRST_MOVE - 5


async def who_never_comes_holds_the_other_briefly(arena: Arena) -> None:
    """A player who never comes holds the other for the time to get there and the first
    move's: the game is called off (never a draw: "called off" on both profiles)."""
    await arena.tick()
    first, _second = await arena.in_order()
    seat = await arena.seat(first)
    assert seat is not None
    await arena.table.tick(ARRIVAL + FIRST_MOVE - 1)
    assert await arena.seat(first) == seat  # still theirs to start
    await arena.table.tick(2)
    assert await arena.seat(first) is None  # called off: both are free
    game = (await arena.people[first].get(f"/api/games/{seat[0]}")).json()
    assert "did not make a first move in time" in game["status"]
    assert game["session"]["ending"]["kind"] == "abort" and game["returns"] == [0.0, 0.0]
    for name in arena.names:  # before: "finished" on the profile, a draw in My games
        profile = (await arena.people[name].get(f"/api/players/{name}")).json()
        assert [g["result"] for g in profile["recent"]] == ["called off"]


async def a_lapse_pauses_until_resume(arena: Arena) -> None:
    """Before: an absent player was paired again and again, every game called off. Now they
    are paused (shown so on their page) and paired no more until they press Resume; their
    opponent, who did nothing wrong, plays on with the others."""
    await arena.tick()
    pairs: dict[str, list[str]] = {}
    for name in arena.names:
        seat = await arena.seat(name)
        assert seat is not None
        pairs.setdefault(seat[0], []).append(name)
    [one, other] = pairs.values()
    absent = await arena.first_mover(one)
    present = next(name for name in one if name != absent)
    first = await arena.first_mover(other)
    for name in (first, next(name for name in other if name != first)):
        await arena.arrive(name)
        await arena.move(name)  # the other pair plays
    await arena.table.tick(ARRIVAL + FIRST_MOVE + 1)  # the absent player never came
    mine = (await arena.view(absent))["me"]
    assert mine["paused"] and not mine["joined"]
    assert not (await arena.view(present))["me"]["paused"]
    shown = {p["name"]: p for p in (await arena.view(present))["standings"]}
    assert shown[absent]["paused"] and shown[absent]["sheet"] == []
    assert not shown[present]["paused"]
    # the other pair's game ends: three are free, and the absent one is not paired
    await arena.resign(first)
    for _ in range(3):
        await arena.tick()
    assert await arena.seat(absent) is None
    assert await arena.seat(present) is not None  # paired with one of the other pair
    # they come back to the arena's page and press Resume: paired again once someone is free
    resumed = await arena.people[absent].post(f"/api/tournaments/{arena.id}/join")
    assert resumed.status_code == 200
    mine = (await arena.view(absent))["me"]
    assert mine["joined"] and not mine["paused"]


async def the_second_first_move_waits_too(arena: Arena) -> None:
    """The first mover came and moved at once: the other's 30 s do not start before their page
    opened the game (or the time to get there ran out); a page already there starts them."""
    await arena.tick()
    first, second = await arena.in_order()
    await arena.table.tick(2)
    await arena.arrive(first)
    await arena.move(first)
    assert (await arena.clock(second))["first_move_left"] == ARRIVAL - 2 + FIRST_MOVE
    await arena.table.tick(3)
    await arena.arrive(second)
    assert (await arena.clock(second))["first_move_left"] == FIRST_MOVE


async def a_page_already_there_starts_at_once(arena: Arena) -> None:
    await arena.tick()
    first, second = await arena.in_order()
    await arena.arrive(second)
    await arena.arrive(first)
    await arena.move(first)
    assert (await arena.clock(second))["first_move_left"] == FIRST_MOVE


RULES = {
    "first_move_waits_for_the_page": (2, first_move_waits_for_the_page),
    "who_never_comes_holds_the_other_briefly": (2, who_never_comes_holds_the_other_briefly),
    "a_lapse_pauses_until_resume": (4, a_lapse_pauses_until_resume),
    "the_second_first_move_waits_too": (2, the_second_first_move_waits_too),
    "a_page_already_there_starts_at_once": (2, a_page_already_there_starts_at_once),
}
"""Each rule: how many players, and its body."""
PEOPLE = ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize("rule", RULES)
def test_an_arena_rule_on_sqlite(tmp_path: Path, rule: str) -> None:
    players, body = RULES[rule]
    in_an_arena(tmp_path, PEOPLE[:players], body)
