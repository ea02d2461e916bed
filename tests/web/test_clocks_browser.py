"""Clocks in a real browser: set on the new-game form, ticking on both pages, low time warned,
and a clock running out with both pages closed (the server ends the game by itself).

Clicks only, at a desktop's and a phone's size; every wait is on a state (the page's data
attributes, the API's answer), never a guessed sleep. Skipped, with the reason, where
/usr/bin/chromium or Playwright is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from tests.web.accessibility import blocking_violations
from tests.web.browsing import CHROMIUM, TIMEOUT_MS, launch, play_by_clicking, serve
from tests.web.conftest import wait_for
from tests.web.test_newcomer import fits_the_screen

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="no Chromium at /usr/bin/chromium (apt-get install -y chromium)",
    ),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory.mktemp("clocks") / "web.db", bot_delay=0.05)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def new_page(browser: Any, size: str) -> Any:
    width, height = SIZES[size]
    context = browser.new_context(bypass_csp=True, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def clock_of(page: Any, seat: int) -> Any:
    return page.locator(f'#clocks [data-clock-seat="{seat}"]')


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_new_game_form_sets_a_time_control(server: str, browser: Any, size: str) -> None:
    page = new_page(browser, size)
    page.goto(f"{server}/new/toy_walk")
    page.select_option("[name=seat1]", "human")
    page.select_option("[data-clock-choice]", "180+2")
    page.click("#new-game button[type=submit]")
    page.click("a.invite >> nth=0")  # the first seat's link, from the invite page
    page.wait_for_selector("#game[data-seq]")
    assert clock_of(page, 0).locator(".clock-time").inner_text() == "3:00"
    assert clock_of(page, 1).locator(".clock-time").inner_text() == "3:00"
    assert clock_of(page, 0).get_attribute("data-running") == "yes"
    assert "3+2" in page.locator("#clocks .clock-note").inner_text()
    assert page.get_attribute('[role="status"]', "id") == "status"
    assert blocking_violations(page) == []
    page.context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_clock_runs_out_with_both_pages_closed(server: str, browser: Any, size: str) -> None:
    created = httpx2.post(
        f"{server}/api/games",
        json={"game": "toy_walk", "clock": {"initial": 15, "increment": 0}},
        timeout=30,
    ).json()
    north, south = new_page(browser, size), new_page(browser, size)
    north.goto(server + created["seats"][0]["url"])
    south.goto(server + created["seats"][1]["url"])
    for page in (north, south):
        page.wait_for_selector("#game[data-seq]")
        page.wait_for_selector('#clocks [data-clock-seat="0"]')
    play_by_clicking(north, "a1-a2")  # each side's first move: not on the clock
    south.wait_for_function("document.getElementById('game')?.dataset.mine === 'yes'")
    play_by_clicking(south, "c3-c2")
    # North's clock now runs on both pages; under ten seconds it turns red and sounds once.
    for page in (north, south):
        page.wait_for_selector('#clocks [data-clock-seat="0"][data-running="yes"]')
    north.wait_for_selector('#clocks [data-clock-seat="0"][data-low="yes"]', timeout=30_000)
    assert north.evaluate("document.documentElement.dataset.lastSound") == "low"
    assert clock_of(south, 1).get_attribute("data-running") == "no"
    if size == "phone":
        fits_the_screen(south)  # both clocks on a phone: no sideways scrolling, no tiny text
    north.context.close()
    south.context.close()

    path = f"{server}/api/games/{created['id']}"

    def ended() -> Any:
        view = httpx2.get(path, params={"draw": "false"}, timeout=10).json()
        return view["terminal"] and view

    view = wait_for("the server to end the game on time", ended, 60)
    assert view["session"]["ending"]["kind"] == "flag"
    assert view["returns"] == [-1.0, 1.0]
    assert view["status"] == "Game over: North ran out of time, South wins"
    assert view["clock"]["remaining"][0] == 0 and view["clock"]["running"] is None

    again = new_page(browser, size)  # opened afterwards: the result says time ran out
    again.goto(server + created["seats"][1]["url"])
    again.wait_for_selector("#game[data-terminal=yes]")
    again.wait_for_selector("#clocks .clock")
    assert clock_of(again, 0).locator(".clock-time").inner_text() == "0:00.0"
    assert "ran out of time" in again.locator("#game").inner_text()
    assert blocking_violations(again) == []
    again.context.close()


def test_an_open_games_clock_starts_when_someone_joins(server: str, browser: Any) -> None:
    ann, ben = new_page(browser, "desktop"), new_page(browser, "phone")
    ann.goto(server + "/lobby")
    ann.fill("#your-name", "Ann")
    ann.select_option("#open-kind", "toy_walk")
    ann.select_option("#open-clock", "300+3")
    ann.click("#open-game button[type=submit]")
    ann.wait_for_selector("#game[data-seq]")
    ann.wait_for_selector("#clocks .clock")
    # Waiting in the lobby is on nobody's clock.
    assert ann.locator('#clocks [data-running="yes"]').count() == 0
    assert "5+3" in ann.locator("#clocks .clock-note").inner_text()
    game_id = ann.url.split("/game/")[1].split("?")[0]
    ben.goto(server + "/")
    ben.fill("#your-name", "Ben")
    ben.click("nav a:has-text('Lobby')")
    ben.wait_for_url("**/lobby")
    ben.click(f"[data-game-id='{game_id}'] button.join")
    ben.wait_for_url(f"**/game/{game_id}?t=*")
    ben.wait_for_selector('#clocks [data-clock-seat="0"][data-running="yes"]')
    ann.wait_for_selector('#clocks [data-clock-seat="0"][data-running="yes"]')
    assert "first move" in ben.locator("#clocks .clock-note").inner_text()
    assert blocking_violations(ben) == []
    ann.context.close()
    ben.context.close()


def test_play_a_friend_from_the_home_page_with_a_clock(server: str, browser: Any) -> None:
    page = new_page(browser, "phone")
    page.goto(server + "/")
    game = page.locator("li[data-game=toy_walk]")
    game.locator("[data-clock-choice]").select_option("600+5")
    game.locator("button:has-text('Play a friend')").click()
    page.click("a.invite >> nth=1")  # the friend's seat, as the invite page lists it
    page.wait_for_selector("#game[data-seq]")
    assert clock_of(page, 1).locator(".clock-time").inner_text() == "10:00"
    assert "10+5" in page.locator("#clocks .clock-note").inner_text()
    fits_the_screen(page)
    page.goto(server + "/")
    fits_the_screen(page)
    assert blocking_violations(page) == []
    page.context.close()


def opened_by(server: str, name: str, clock: dict[str, int] | None) -> str:
    """Someone else opens a game of Bones in the lobby (through the API): its id."""
    with httpx2.Client(base_url=server, headers={"Origin": server}) as other:
        who = other.post("/api/people", json={"name": name}).json()
        proof = {"id": who["id"], "secret": who["secret"]}
        body = {"game": "bones", "person": proof, "clock": clock, "seat": 0}
        opened = other.post("/api/open", json=body)
        assert opened.status_code == 201, opened.text
        game_id: str = opened.json()["id"]
        return game_id


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_lobby_shows_each_clock_and_filters_by_it(server: str, browser: Any, size: str) -> None:
    blitz = opened_by(server, f"Dee {size}", {"initial": 180, "increment": 2})
    untimed = opened_by(server, f"Eli {size}", None)
    page = new_page(browser, size)
    page.goto(server + "/")
    page.click("nav a:has-text('Lobby')")
    blitz_row = page.locator(f".lobby-game[data-game-id='{blitz}']")
    untimed_row = page.locator(f".lobby-game[data-game-id='{untimed}']")
    blitz_row.wait_for()
    assert "3+2" in blitz_row.inner_text()
    assert "+" not in untimed_row.inner_text().split("waits")[0]  # no clock, no clock words
    page.select_option("#speed-filter", "blitz")
    untimed_row.wait_for(state="detached")
    assert blitz_row.is_visible()
    page.select_option("#speed-filter", "untimed")
    blitz_row.wait_for(state="detached")
    untimed_row.wait_for()
    page.select_option("#speed-filter", "correspondence")
    untimed_row.wait_for(state="detached")
    assert "matches" in page.locator("#waiting-empty").inner_text()
    fits_the_screen(page)
    assert blocking_violations(page) == []
    page.context.close()
