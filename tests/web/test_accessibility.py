"""axe-core on every kind of page, in the light and the dark colour scheme: the home page, the
lobby, the ladder, a replay and each game's page mid-game. No critical or serious violation."""

from __future__ import annotations

from typing import Any

import pytest

from boneyard.core.registry import list_games
from tests.web import test_browser
from tests.web.accessibility import blocking_violations
from tests.web.browsing import TIMEOUT_MS, seq_of, wait_for_seq_above
from tests.web.test_browser import create

pytest.importorskip("axe_playwright_python", reason="axe-playwright-python is not installed")

server = test_browser.server
browser = test_browser.browser

pytestmark = [pytest.mark.browser]

SCHEMES = ["light", "dark"]


def visit(browser: Any, url: str, scheme: str, ready: str = "main") -> Any:
    context = browser.new_context(
        bypass_csp=True, color_scheme=scheme, viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.wait_for_selector(ready)
    return page


def check(page: Any) -> None:
    found = blocking_violations(page)
    assert not found, f"{page.url}:\n" + "\n".join(found)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("path", ["/", "/lobby", "/ladder"])
def test_site_pages(server: str, browser: Any, path: str, scheme: str) -> None:
    page = visit(browser, server + path, scheme)
    page.wait_for_load_state("networkidle")
    check(page)
    page.context.close()


def mid_game(browser: Any, server: str, name: str, scheme: str) -> Any:
    """The page of a person's seat in ``name`` (against the computer where the game has two
    seats) after the person's first two moves."""
    from boneyard.core.registry import load_game

    seats = load_game(name).info.num_players
    computer = {"kind": "computer", "level": "easy"}
    created = create(server, name, seats=[{}] + [computer] * (seats - 1) if seats > 1 else None)
    page = visit(browser, server + created["seats"][0]["url"], scheme, "#game[data-seq]")
    for _ in range(2):
        page.wait_for_function(
            "['yes'].includes(document.getElementById('game').dataset.mine)"
            " || document.getElementById('game').dataset.terminal === 'yes'"
        )
        if page.get_attribute("#game", "data-terminal") == "yes":
            break
        seq = seq_of(page)
        page.evaluate("document.getElementById('all-moves').open = true")
        page.locator("#all-actions [data-action]").first.click()
        wait_for_seq_above(page, seq)
    return page


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list_games())
def test_game_pages_mid_game(server: str, browser: Any, name: str, scheme: str) -> None:
    page = mid_game(browser, server, name, scheme)
    check(page)
    page.context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_replay(server: str, browser: Any, scheme: str) -> None:
    played = mid_game(browser, server, "obonto", scheme)
    game_id = played.get_attribute("#game", "data-game-id")
    played.context.close()
    page = visit(browser, f"{server}/game/{game_id}/replay", scheme)
    page.wait_for_load_state("networkidle")
    check(page)
    page.context.close()
