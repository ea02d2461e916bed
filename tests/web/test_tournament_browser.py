"""A four-account arena tournament in Chromium, by clicking (issue 34 item 4), at a desktop's
and a phone's size: made with the form, joined, every game played out by resigning, until the
final table shows the winners. axe-core checks the tournament pages."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.accessibility import blocking_violations
from tests.web.browsing import launch, serve
from tests.web.test_accounts_browser import SIZES, device, open_menu_link, shots, sign_up

pytestmark = [pytest.mark.browser]

__all__ = ["shots"]  # the screenshots' fixture, shared
_runs = itertools.count(1)
WAIT_FOR_NEWS_MS = 90_000
"""The longest a page waits for the tournament to change: a pair that would meet again waits
for others up to ``REMATCH_WAIT_SECONDS``, and the end comes after the tournament's length."""
MOST_PASSES = 200
"""A bound on the passes over the four pages (each plays out the games it finds)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory.mktemp("tournaments") / "web.db")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def open_tournament(page: Any, title: str) -> None:
    """From anywhere, by the menu: the tournaments list, then the tournament."""
    open_menu_link(page, "Tournaments")
    page.get_by_role("link", name=title, exact=True).click()
    page.wait_for_selector("#tournament[data-live='yes']")


def play_out(page: Any, title: str) -> None:
    """Open the page's game; resign it unless it is already over; back to the tournament."""
    page.get_by_role("link", name="Play your game").click()
    page.wait_for_selector("#game[data-seq]")
    page.wait_for_function(
        "document.getElementById('game').dataset.sessionEnded"
        " || !document.querySelector('[data-session=resign]').hidden"
    )
    if not page.get_attribute("#game", "data-session-ended"):
        page.click("[data-session=resign]")
        page.click("#session-yes")  # "Resign this game?"
        page.wait_for_function("document.getElementById('game').dataset.sessionEnded")
    else:  # the other side resigned: the page says so, and the notice is closed
        page.get_by_role("button", name="Close").click()
        page.wait_for_selector("#session-question", state="hidden")
    open_tournament(page, title)


@pytest.mark.parametrize("size", SIZES)
def test_a_four_account_arena_from_creation_to_the_winners(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    run = next(_runs)
    names = [f"Arena{run}{size}{who}" for who in ("Ann", "Bob", "Cy", "Dee")]
    players = []
    for name in names:
        page = device(browser, size)
        sign_up(page, server, name)
        players.append(page)
    maker = players[0]
    open_menu_link(maker, "Tournaments")
    assert not blocking_violations(maker)
    maker.get_by_label("Game").select_option(label="Toy Walk")
    maker.get_by_label("Length in minutes").fill("0.5")
    maker.get_by_label("Starts in seconds").fill("0")
    maker.get_by_role("button", name="Make the tournament").click()
    maker.wait_for_selector("#tournament[data-live='yes']")
    title = f"{maker.locator('h1').inner_text()} by {names[0]}"
    for page in players[1:]:
        open_tournament(page, title)
    for page in players:
        page.get_by_role("button", name="Join").click()
        page.wait_for_selector("[data-action=withdraw-tournament]:visible")
    maker.screenshot(path=str(shots / f"tournament-running-{size}.png"), full_page=True)
    assert not blocking_violations(maker)

    played = 0
    for _ in range(MOST_PASSES):
        if all(page.get_attribute("#tournament", "data-status") == "finished" for page in players):
            break
        version = maker.get_attribute("#tournament", "data-version")
        for page in players:
            if page.get_attribute("#tournament", "data-game"):
                play_out(page, title)
                played += 1
        if maker.get_attribute("#tournament", "data-version") == version:
            maker.wait_for_function(
                f"document.getElementById('tournament').dataset.version !== '{version}'",
                timeout=WAIT_FOR_NEWS_MS,
            )
    else:
        pytest.fail("the tournament did not finish")

    maker.wait_for_selector("#podium:not([hidden])")
    podium = maker.locator("#podium-places li").all_inner_texts()
    rows = [row.locator("td").all_inner_texts() for row in maker.locator("#standings tr").all()]
    shown = [row[1].split(" (")[0] for row in rows]  # "(on a streak)" aside
    assert sorted(shown) == sorted(names)
    assert podium == shown[:3]
    scores = [int(row[3]) for row in rows]
    assert scores == sorted(scores, reverse=True) and scores[0] >= 2
    games = sum(len(row[2].split()) for row in rows) // 2
    assert games >= 2  # the two first games at least, each a win and a loss
    assert maker.get_by_role("button", name="Join").is_hidden()
    maker.screenshot(path=str(shots / f"tournament-final-{size}.png"), full_page=True)
    assert not blocking_violations(maker)
    for page in players:
        page.context.close()
