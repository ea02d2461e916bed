"""A game of computers alone goes on while its page is seen, in Chromium (issue 33, item 1)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from tests.web.browsing import launch, open_page, serve

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # A watch of 0.6 s (the page says it watches every 0.2 s) and half a second a move: a game
    # is no more than two moves old when nobody has been seen watching it for a watch.
    database = tmp_path_factory.mktemp("watching") / "web.db"
    yield from serve(database, bot_delay=0.5, bot_step_delay=0.5, watch_seconds=0.6)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_a_seen_page_keeps_a_game_of_computers_alone_going_to_its_end(
    server: str, browser: Any
) -> None:
    seats = [{"kind": "computer", "level": "easy"}, {"kind": "computer", "level": "easy"}]
    body = {"game": "toy_walk", "seats": seats, "params": {"max_moves": 100}}
    created = httpx2.post(f"{server}/api/games", json=body, timeout=30).json()
    page = open_page(browser, f"{server}/game/{created['id']}")
    assert page.get_attribute("#game", "data-watching-ms") == "200"
    # A game of Toy Walk lasts seven moves at least (3.5 s): without the page's word that it is
    # seen, it would stop after the watches of its creation and of the page's opening (1.2 s).
    # (Nothing else asks the server meanwhile: a request would count as watching too.)
    page.wait_for_selector("#game[data-terminal=yes]", timeout=60_000)
    page.context.close()
