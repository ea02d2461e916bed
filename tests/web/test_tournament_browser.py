"""A four-account arena in Chromium (issue 41 item 9), at a desktop's and a phone's size: made
with the form and joined by clicking; one player joins and never comes back. Every present
player reaches each of their games by itself (no click finds a game: the page they have open,
the arena's or a finished game's, opens the next one), with the tab's title and a sound; the
absent one's games are called off and they are paused, paired no more; the final table shows
the winners. axe-core checks the tournament and game pages.

The players play at once, each in their own browser context, with Playwright's async API (one
waits for their opponent's move while the other makes it), on a thread of their own; the end is
checked with the sync API.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.web.accessibility import blocking_violations
from tests.web.browsing import ARGS, CHROMIUM, TIMEOUT_MS, launch, serve
from tests.web.test_accounts_browser import PASSWORD, SIZES, device, log_in, open_menu_link, shots

pytestmark = [pytest.mark.browser]

__all__ = ["shots"]  # the screenshots' fixture, shared
_runs = itertools.count(1)
ARRIVAL_SECONDS = 15.0
FIRST_MOVE_SECONDS = 15.0
ARENA_MINUTES = "1"
WAIT_MS = 120_000
"""The longest a player waits for their next game, or for the end: a pair that would meet again
waits for the others' game, and the absent player's game waits for them to come."""

NEXT = """([seen, acted]) => {
  const arena = document.documentElement.dataset.arena;
  if (arena === "finished" || arena === "paused") return arena;
  const game = document.getElementById("game");
  if (!game || !game.dataset.seq) return false;
  if (!seen.includes(game.dataset.gameId)) return "arrived";
  if (game.dataset.terminal !== "no" || game.dataset.mine !== "yes") return false;
  return `${game.dataset.gameId} ${game.dataset.seq}` === acted ? false : "move";
}"""
"""What a player's page waits for: a game it opened, their move in it (not the one it just
made, still on screen), or the arena's end."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(
        tmp_path_factory.mktemp("tournaments") / "web.db",
        arena_arrival_seconds=ARRIVAL_SECONDS,
        clock_first_move_seconds=FIRST_MOVE_SECONDS,
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


# ----- the players, each on their own, at once (async) ----------------------------------------


async def new_player(browser: Any, server: str, size: str, name: str) -> Any:
    width, height = SIZES[size]
    context = await browser.new_context(
        bypass_csp=True, viewport={"width": width, "height": height}
    )
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    await page.goto(server + "/signup")
    await page.get_by_label("Account name").fill(name)
    await page.get_by_label("Password", exact=True).fill(PASSWORD)
    await page.get_by_label("Password again").fill(PASSWORD)
    await page.get_by_role("button", name="Sign up").click()
    await page.wait_for_selector(f"h1:has-text('Welcome, {name}')")
    return page


async def open_arena(page: Any, name: str) -> None:
    """From anywhere, by the menu: the tournaments list, then the arena named ``name``."""
    await page.locator("header.top").get_by_role("link", name="Tournaments").click()
    await page.get_by_role("link", name=name, exact=True).click()
    await page.wait_for_selector("#tournament[data-live='yes']")


async def join(page: Any) -> None:
    """Press Join: the page then waits for a game, or (paired at once) opens it."""
    await page.get_by_role("button", name="Join").click()
    await page.wait_for_selector("[data-action=withdraw-tournament]:visible, #game")


async def next_thing(page: Any, seen: list[str], acted: str) -> str:
    """Wait for a new game on the page, the player's move or the end; a page that opens a
    game by itself (navigates) while asked is asked again."""
    while True:
        try:
            handle = await page.wait_for_function(NEXT, arg=[seen, acted], timeout=WAIT_MS)
        except Exception as error:
            if "context was destroyed" in str(error) or "navigat" in str(error).lower():
                continue
            raise
        return str(await handle.json_value())


async def arrival(page: Any) -> dict[str, Any]:
    """A game the page opened, as the player first sees it."""
    game = page.locator("#game")
    return {
        "id": await game.get_attribute("data-game-id"),
        "sent": await game.get_attribute("data-arena-sent"),
        "title": await page.title(),
        "sounds": int(await page.evaluate("document.documentElement.dataset.sounds") or 0),
        "back": await page.locator("[data-action=back-to-arena]").count(),
        "path": await page.evaluate("location.pathname"),
    }


async def play_arena(page: Any, shots: Path, shot: str) -> list[dict[str, Any]]:
    """Play every game the arena brings this page, without a click to find one: move once,
    then resign at the next turn (a game counts once each side moved). Each game's arrival as
    the page saw it: its id, whether the arena sent the page there, the title, the sounds."""
    arrivals: list[dict[str, Any]] = []
    acted = ""  # the game and move number last acted on (a page may still show it)
    while (what := await next_thing(page, [a["id"] for a in arrivals], acted)) != "finished":
        assert what != "paused", f"{shot}: a present player was paused"
        if what == "arrived":
            try:
                arrivals.append(await arrival(page))
            except Exception as error:  # gone on to a newer game meanwhile: asked again
                if "context was destroyed" not in str(error):
                    raise
                continue
            if len(arrivals) == 1:
                await page.screenshot(path=str(shots / f"{shot}.png"), full_page=True)
            continue
        game = page.locator("#game")
        seq = int(await game.get_attribute("data-seq") or 0)
        acted = f"{await game.get_attribute('data-game-id')} {seq}"
        if seq >= 2:  # each side moved: resign
            await page.click("[data-session=resign]")
            await page.click("#session-yes")  # "Resign this game?"
        else:
            await page.click("#all-moves summary")
            await page.locator("#all-actions [data-action]").first.click()
    return arrivals


async def the_arena(server: str, size: str, run: int, shots: Path) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    names = [f"Arena{run}{size[0]}{who}" for who in ("Ann", "Bob", "Cy", "Dee")]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        ann, bob, cy, dee = [await new_player(browser, server, size, n) for n in names]
        await ann.locator("header.top").get_by_role("link", name="Tournaments").click()
        await ann.get_by_label("Game").select_option(label="Toy Walk")
        await ann.get_by_label("Length in minutes").fill(ARENA_MINUTES)
        await ann.get_by_label("Clock: minutes each").fill("0.25")
        await ann.get_by_label("Clock: seconds added a move").fill("0")
        await ann.get_by_label("Starts in seconds").fill("0")
        await ann.get_by_role("button", name="Make the tournament").click()
        await ann.wait_for_selector("#tournament[data-live='yes']")
        arena = await ann.locator("h1").inner_text()
        await ann.screenshot(path=str(shots / f"arena-before-{size}.png"), full_page=True)
        # Dee joins, then shuts the browser: they never come to a game
        await open_arena(dee, arena)
        await join(dee)
        await dee.context.close()
        # Ann, on the arena's page, is paired with Dee at once: the page opens the game
        playing = [asyncio.ensure_future(play_arena(ann, shots, f"arena-game-{size}"))]
        await join(ann)
        for page in (bob, cy):
            await open_arena(page, arena)
        await join(bob)
        # Bob waits on another page of the site: it opens his game all the same
        await bob.locator("header.top").get_by_role("link", name="My games").click()
        await bob.wait_for_selector("h1:has-text('My games')")
        playing.append(asyncio.ensure_future(play_arena(bob, shots, f"arena-bob-{size}")))
        playing.append(asyncio.ensure_future(play_arena(cy, shots, f"arena-cy-{size}")))
        await join(cy)
        played = await asyncio.gather(*playing)
        await browser.close()
    return {"names": names, "arena": arena, "played": played}


# ----- the test --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_four_account_arena_where_one_never_comes_plays_itself(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    run = next(_runs)
    # its own thread: the sync API's browser (the fixture) holds an event loop in this one
    with ThreadPoolExecutor(1) as thread:
        seen = thread.submit(asyncio.run, the_arena(server, size, run, shots)).result()
    names, played = seen["names"], seen["played"]
    for who, arrivals in zip(names, played, strict=False):
        assert arrivals, f"{who} played no game"
        for arrival in arrivals:
            # every game reached by itself, and said so: the title and the sound
            assert arrival["sent"] == "yes", (who, arrival)
            # (the header's count of games waiting for the player may stand first: "(1) ")
            title = re.sub(r"^\(\d+\) ", "", arrival["title"])
            assert title.startswith("Your arena game started"), (who, arrival)
            assert arrival["back"] == 1, (who, arrival)
    ids = [a["id"] for arrivals in played for a in arrivals]
    assert len(set(ids)) >= 3  # Ann's called-off game with Dee, and more than one after it

    page = device(browser, size)
    log_in(page, server, names[0])
    open_menu_link(page, "Tournaments")
    page.get_by_role("link", name=seen["arena"], exact=True).click()
    page.wait_for_selector("#tournament[data-live='yes'][data-status='finished']")
    page.wait_for_selector("#podium:not([hidden])")
    rows = [row.locator("td").all_inner_texts() for row in page.locator("#standings tr").all()]
    shown = {row[1].split(" (")[0]: row for row in rows}
    assert sorted(shown) == sorted(names)
    dee = shown[names[3]]
    assert dee[2] == "" and dee[3] == "0"  # every game called off: no points
    podium = page.locator("#podium-places li").all_inner_texts()
    assert podium == [row[1].split(" (")[0] for row in rows][:3]
    assert names[3] not in podium
    assert page.get_by_role("button", name="Join").is_hidden()
    assert page.get_by_text("sign up to join").count() == 0
    assert page.locator("#tournament-clock").is_hidden()
    page.screenshot(path=str(shots / f"arena-final-{size}.png"), full_page=True)
    assert blocking_violations(page) == []
    # Ann's first game, with Dee: called off, never a draw, in My games and on the profile
    open_menu_link(page, "My games")
    page.wait_for_selector(".mine-game .status-line:has-text('Game called off')")
    statuses = page.locator(".mine-game .status-line").all_inner_texts()
    assert "Game over: a draw" not in statuses
    # its page gives the right reason (before: "not every seat was a different account's")
    called_off = page.locator(".mine-game", has_text="Game called off").first
    called_off.get_by_role("link", name="Look at it").click()
    page.wait_for_selector("#rating-note:not([hidden])")
    page.wait_for_function(
        "document.getElementById('rating-note').textContent.includes('called off')"
    )
    assert "different account" not in page.locator("#rating-note").inner_text()
    page.goto(f"{server}/@/{names[0]}")
    assert "called off" in page.locator("ul.recent-games").inner_text()
    page.context.close()


def test_a_guest_watches_a_running_arena_to_its_end(server: str, browser: Any, shots: Path) -> None:
    """The tournament page showed no name, no time left, no games to watch, no way back from
    a game to its arena, and "Log in or sign up to join" once finished. A guest opens a
    running arena: its name, the time left counting down, the game being played (watched,
    and back); its first mover never moves and is paused, comes to the arena's page, presses
    Resume and is sent to the next game; then the end: the winners, and no invitation to join
    a finished arena."""
    run = next(_runs)
    people = [httpx2.Client(base_url=server) for _ in range(2)]
    names = [f"Watched{run}{who}" for who in ("Eve", "Fay")]
    for someone, name in zip(people, names, strict=True):
        made = someone.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
    arena = people[0].post(
        "/api/tournaments",
        json={"game": "toy_walk", "kind": "arena", "minutes": 1,
              "clock": {"initial": 15, "increment": 0}, "starts_in": 0},
    ).json()  # fmt: skip
    for someone in people:
        assert someone.post(f"/api/tournaments/{arena['id']}/join").status_code == 200
    page = device(browser, "desktop")
    page.goto(server + "/")
    open_menu_link(page, "Tournaments")
    title = f"Toy Walk arena by {names[0]}"
    page.get_by_role("link", name=title, exact=True).click()
    page.wait_for_selector("#tournament[data-live='yes']")
    assert page.locator("h1").inner_text() == title and page.title() == title
    page.wait_for_selector("#tournament-games:not([hidden])")  # the pairing's game
    left = page.locator("#tournament-clock").inner_text()
    assert left.startswith("Time left: 0:")
    page.wait_for_function(
        f"document.getElementById('tournament-clock').textContent !== {left!r}"
    )  # counting down
    assert page.get_by_text("sign up to join").is_visible()
    page.screenshot(path=str(shots / "arena-watched.png"), full_page=True)
    assert blocking_violations(page) == []
    page.locator("#tournament-games-list a").first.click()  # "Eve against Fay": watch it
    page.wait_for_selector("#game[data-seq]")
    assert page.get_attribute("#game", "data-tokens") == ""  # a spectator
    page.click("[data-action=back-to-arena]")
    page.wait_for_selector("#tournament[data-live='yes']")
    # nobody moves: the game is called off, and its first mover paused
    page.wait_for_selector("#standings td:has-text('(paused)')", timeout=WAIT_MS)
    standings = page.locator("#standings").inner_text()
    paused = next(name for name in names if f"{name} (paused)" in standings)
    # they come to the arena's page: paused, with Resume; pressed, the next game opens itself
    player = device(browser, "phone")
    log_in(player, server, paused)
    open_menu_link(player, "Tournaments")
    player.get_by_role("link", name=title, exact=True).click()
    player.wait_for_selector("#tournament-paused:not([hidden])")
    assert player.get_by_role("button", name="Resume").is_visible()
    player.screenshot(path=str(shots / "arena-paused-phone.png"), full_page=True)
    assert blocking_violations(player) == []
    player.get_by_role("button", name="Resume").click()
    player.wait_for_selector("#game[data-arena-sent='yes']")  # paired with the other at once
    assert re.sub(r"^\(\d+\) ", "", player.title()).startswith("Your arena game started")
    player.context.close()
    # nobody moves again; the time runs out, the arena ends
    page.wait_for_selector("#tournament[data-status='finished']", timeout=WAIT_MS)
    page.wait_for_selector("#podium:not([hidden])")
    assert page.get_by_text("sign up to join").is_hidden()
    assert page.locator("#tournament-games").is_hidden()
    assert page.locator("#tournament-clock").is_hidden()
    page.screenshot(path=str(shots / "arena-watched-end.png"), full_page=True)
    assert blocking_violations(page) == []
    page.context.close()
    for someone in people:
        someone.close()
