"""A shared browser after a log-out (issue 41, items 2 and 9), in Chromium at a desktop's and a
phone's size: the next person to sign up there finds nothing of the first account's, and the
first account's game, opened by its old link, only watches and says whose seat it is."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.accessibility import blocking_violations
from tests.web.browsing import launch, serve
from tests.web.test_accounts_browser import SIZES, device, sign_up

pytestmark = [pytest.mark.browser]

_names = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory.mktemp("account_seats") / "web.db", bot_delay=0.05)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BONEYARD_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def my_games(page: Any) -> list[str]:
    """The games the My games page lists, once it has asked the server about each."""
    page.locator("header.top").get_by_role("link", name="My games").click()
    page.wait_for_selector("#mine[data-refreshed='yes']", state="attached")
    return [str(item.get_attribute("data-game-id")) for item in page.locator(".mine-game").all()]


@pytest.mark.parametrize("size", SIZES)
def test_after_a_log_out_the_next_sign_up_sees_nothing_of_the_first_account(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    first, second = f"Ann{next(_names)}{size}", f"Bob{next(_names)}{size}"
    page = device(browser, size)
    sign_up(page, server, first)
    page.goto(server + "/")
    page.locator("form[action='/new/bondo_cones']").get_by_role(
        "button", name="Play the computer"
    ).click()
    page.wait_for_function("document.getElementById('game').dataset.mine === 'yes'")
    game_url = page.url
    game_id = game_url.split("/game/")[1].split("?")[0]
    assert my_games(page) == [game_id]

    page.locator("header.top").get_by_role("button", name="Log out").click()
    page.wait_for_selector("header.top >> text=Sign in")
    kept = page.evaluate("Object.keys(localStorage).map((k) => localStorage.getItem(k)).join()")
    assert game_id not in kept  # forgotten at once, whatever page comes next
    sign_up(page, server, second)
    assert my_games(page) == []
    assert page.get_by_text("No games yet.").is_visible()

    # The old link, from the browser's history: the page watches, never as the first account.
    page.goto(game_url)
    page.wait_for_selector("#game[data-seq]")
    note = page.locator("#owner-note")
    assert note.inner_text().startswith(f"This seat is {first}’s.")
    assert page.get_by_role("link", name=f"Log in as {first}").is_visible()
    assert page.locator("#game").get_attribute("data-mine") != "yes"
    assert "(you)" not in page.locator("#seats").inner_text()
    page.screenshot(path=str(shots / f"someone-elses-seat-{size}.png"), full_page=True)
    assert not blocking_violations(page)
    assert my_games(page) == []
    page.context.close()
