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
