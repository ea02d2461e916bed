"""The move log of a long game in a real browser: a view carries only its latest lines, and
*Earlier moves* pages back to the first (issue 33: a view's cost must not grow with the game).

Skipped, with the reason, where /usr/bin/chromium or Playwright is missing (CI installs it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from boneyard.core.game import Game
from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from boneyard.web.play.live import LOG_IN_VIEW
from tests.web.browsing import CHROMIUM, TIMEOUT_MS, launch, open_page
from tests.web.conftest import all_games, app_settings, free_port
from tests.web.test_reads import LongWalk, store_long_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="no Chromium at /usr/bin/chromium (apt-get install -y chromium)",
    ),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

LENGTH = 250
"""Actions in the long game: two pages of the log before the latest lines."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """The app (with ``toy_long``) under uvicorn in a thread: its address and its store."""
    import uvicorn

    games: dict[str, type[Game]] = {**all_games(), "toy_long": LongWalk}
    db = tmp_path_factory.mktemp("reads") / "web.db"
    app = create_app(f"sqlite:///{db}", catalog=Catalog(games), settings=app_settings())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", app.state.manager.store
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def lines_shown(page: Any, count: int) -> list[int]:
    """The log's lines once ``count`` are shown: their sequence numbers."""
    page.wait_for_function(
        f"document.querySelectorAll('#log li[data-seq]').length === {count}", timeout=TIMEOUT_MS
    )
    seqs: list[str] = page.eval_on_selector_all(
        "#log li[data-seq]", "items => items.map(item => item.dataset.seq)"
    )
    return [int(seq) for seq in seqs]


def test_the_game_page_shows_the_latest_moves_and_pages_back(
    served: tuple[str, Any], browser: Any
) -> None:
    address, store = served
    game = store_long_game(store, LENGTH, finished=False)
    page = open_page(browser, f"{address}/game/{game['id']}?t={game['tokens'][0]}")
    assert lines_shown(page, LOG_IN_VIEW) == list(range(LENGTH - LOG_IN_VIEW, LENGTH))
    page.click("#log button.earlier")
    assert lines_shown(page, 2 * LOG_IN_VIEW) == list(range(LENGTH - 2 * LOG_IN_VIEW, LENGTH))
    page.click("#log button.earlier")
    assert lines_shown(page, LENGTH) == list(range(LENGTH))
    assert page.locator("#log button.earlier").count() == 0, "nothing earlier than the first"
    page.context.close()


def test_the_replay_page_shows_a_frames_latest_moves_and_pages_back(
    served: tuple[str, Any], browser: Any
) -> None:
    address, store = served
    game = store_long_game(store, LENGTH, finished=True)
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{address}/game/{game['id']}/replay")
    assert page.get_attribute("#step", "max") == str(LENGTH), "a stop after every move"
    page.click("#last")
    assert lines_shown(page, LOG_IN_VIEW) == list(range(LENGTH - LOG_IN_VIEW, LENGTH))
    page.click("#log button.earlier")
    assert lines_shown(page, 2 * LOG_IN_VIEW)[0] == LENGTH - 2 * LOG_IN_VIEW
    context.close()
