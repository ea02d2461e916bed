"""Small wrongs of the table in Chromium (issue 26, item 10)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web import test_browser
from tests.web.test_browser import TIMEOUT_MS

server = test_browser.server
browser = test_browser.browser

pytestmark = [pytest.mark.browser]


def test_the_lobby_opens_a_game_with_hints_on(server: str, browser: Any) -> None:
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/lobby")
    page.fill("#your-name", "Ann")
    page.select_option("#open-kind", "obonto")
    page.check("#open-hints")
    page.click("#open-game button[type=submit]")
    page.wait_for_selector("#game[data-seq]")
    page.wait_for_selector("#hints-on:not([hidden])")
    context.close()


def test_the_home_pages_puzzle_deals_a_level_and_leads_on_to_the_next(
    server: str, browser: Any
) -> None:
    from boneyard.solvers.oyno_puzzle import solve_position
    from tests.web.test_browser import click_square
    from tests.web.test_sessions_browser import api_view

    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/")
    card = "li[data-game=oyno_puzzle]"
    assert page.locator(f"{card} a[href='/ladder']").count() == 1, "the card leads to the ladder"
    page.select_option(f"{card} select[name=level]", "2")
    page.click(f"{card} form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-seq]")
    assert "/invite" not in page.url
    page.wait_for_selector("#session-puzzle:not([hidden])")
    assert page.inner_text("#session-puzzle-text").startswith("Level 2, 3 bones")
    game_id, token = page.url.split("/game/")[1].split("?t=")
    solution = solve_position(api_view(server, game_id, token)["observation"]["position"])
    assert solution is not None
    for move in solution:
        before = int(page.get_attribute("#game", "data-seq"))
        for square in move.split("-"):
            click_square(page, square)
        page.wait_for_function(
            f"Number(document.getElementById('game').dataset.seq) > {before}", timeout=TIMEOUT_MS
        )
    page.wait_for_selector("#session-next-level:not([hidden])")
    assert page.locator("#session-puzzle a[href='/ladder']").is_visible()
    page.click("#session-next-level")
    page.wait_for_function(
        "document.getElementById('session-puzzle-text')?.textContent.startsWith('Level 3')"
    )
    # The ladder opens the level after the one solved, though level 1 was never played.
    page.click("header.top nav a[href='/ladder']")
    page.wait_for_selector("[data-level='2'][data-state=solved]")
    assert page.get_attribute("[data-level='3']", "data-state") == "open"
    assert page.is_enabled("[data-level='3'] button")
    assert page.get_attribute("[data-level='4']", "data-state") == "locked"
    context.close()


def test_a_phones_table_head_keeps_its_tools_on_one_line_and_the_clocks_whole(
    server: str, browser: Any
) -> None:
    """At 390x844 a timed game from *Play a friend*: "Flip board" and "Mute sounds" each on one
    line (broken over two they read as four buttons), the clocks on a row of their own."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/")
    card = "li[data-game=bondo_cones]"
    page.select_option(f"{card} select[name=clock]", "300+3")
    page.click(f"{card} button:has-text('Play a friend')")
    page.locator("a.invite").first.click()
    page.wait_for_selector("#game[data-seq]")
    page.wait_for_selector("#clocks:not([hidden]) .clock")
    page.wait_for_selector("#flip:not([hidden])")
    for tool in ("#flip", "#mute"):
        height = page.evaluate(
            f"parseFloat(getComputedStyle(document.querySelector('{tool}')).lineHeight)"
        )
        box = page.locator(tool).bounding_box()
        assert box is not None and box["height"] < 2 * height, (tool, box, height)
    title = page.locator(".table-head h1").bounding_box()
    clocks = page.locator("#clocks").bounding_box()
    assert title is not None and clocks is not None
    assert clocks["y"] >= title["y"] + title["height"], "the clocks below the title, not beside"
    context.close()
