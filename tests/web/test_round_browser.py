"""Bon-Bon's round end in Chromium (issue 26): after the first round against the computer the
page says who won the round and every player's score, beside the board, until closed."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.web import test_browser
from tests.web.test_browser import TIMEOUT_MS, create, open_page

server = test_browser.server
browser = test_browser.browser

pytestmark = [pytest.mark.browser]

SHOTS = os.environ.get("BONEYARD_SHOTS")
"""A folder to save screenshots in, when set (to look at the page as a person would)."""


def test_the_first_round_ends_with_its_winner_and_the_scores(server: str, browser: Any) -> None:
    created = create(server, "bonbon", [{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    page = open_page(browser, server + created["seats"][0]["url"])
    # Play the first round by clicking: pass (taking a bonus tile) whenever it is our turn.
    for _ in range(60):
        if page.locator("#round-summary").count():
            break
        page.wait_for_selector('#game[data-mine="yes"], #round-summary', timeout=TIMEOUT_MS)
        if page.locator("#round-summary").count():
            break
        passing = page.locator(
            '#actions [data-action^="bonus"], #actions [data-action="pass"], '
            '#actions [data-action="up"], #actions [data-action="end"]'
        )
        seq = page.get_attribute("#game", "data-seq")
        passing.first.click()
        page.wait_for_function(
            f"document.querySelector('#game').dataset.seq !== '{seq}'", timeout=TIMEOUT_MS
        )
    box = page.locator("#round-summary")
    box.wait_for(timeout=TIMEOUT_MS)
    title = box.locator("h2").inner_text()
    assert title.startswith("Round 1: ")
    assert " with " in title and "point" in title, title
    text = box.inner_text()
    assert "You: " in text and "Blue" in text, "every player's score is named"
    assert "Chocolates won so far: You " in text
    if SHOTS:
        for width, height in ((1280, 900), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=f"{SHOTS}/round-{width}.png", full_page=False)
    # The same seat in a second browser: the summary is open there too.
    other = open_page(browser, server + created["seats"][0]["url"])
    other.locator("#round-summary").wait_for(timeout=TIMEOUT_MS)
    # Closed, it folds above the move log, still there to read.
    box.locator('[data-action="close-round-summary"]').click()
    assert page.locator("#round-summary").count() == 0
    folded = page.locator("#round-summary-folded")
    assert folded.locator("summary").inner_text() == title
    # Playing on in the next round folds it as well.
    other.wait_for_selector('#game[data-mine="yes"]', timeout=TIMEOUT_MS)
    assert other.locator("#round-summary").count() == 1
    other.locator('#actions [data-action="draw"]').click()
    other.wait_for_selector("#round-summary-folded", timeout=TIMEOUT_MS)
    assert other.locator("#round-summary").count() == 0
