"""Shared pieces of the Chromium tests: a live server on a free port and a headless browser."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.web.conftest import free_port, make_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# How long a browser test waits for a state or an event before it fails. Every wait ends as soon
# as the state is there, so a long bound costs a passing run nothing; a short one failed page
# loads on a two-core machine at a load of 15 to 20 (CI's machine is busy too).
TIMEOUT_MS = 60_000


def serve(db_path: Path, port: int | None = None, **settings: Any) -> Iterator[str]:
    """Run the app with uvicorn in a thread; yield its address; stop it afterwards."""
    import uvicorn

    app = make_app(db_path, **settings)
    port = port or free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def launch() -> Iterator[Any]:
    """A headless Chromium (Playwright's sync API)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        yield chromium
        chromium.close()


def open_page(browser: Any, url: str) -> Any:
    # The pages run under the server's CSP (test_pages_run_under_the_csp); the tests' string
    # predicates are evaluated in the page, which that CSP forbids, so the tests bypass it.
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.wait_for_selector("#game[data-seq]")
    return page


def seq_of(page: Any) -> int:
    return int(page.get_attribute("#game", "data-seq"))


def wait_for_seq_above(page: Any, seq: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.seq) > {seq}", timeout=TIMEOUT_MS
    )


def legal_strings(page: Any) -> list[str]:
    """The legal actions on screen: the ``data-action`` of every move button."""
    strings: list[str] = page.eval_on_selector_all(
        "#all-actions [data-action]", "buttons => buttons.map(b => b.dataset.action)"
    )
    return strings


SQUARE = re.compile(r"(?<![a-z0-9])([a-z]\d{1,2})(?![0-9])")


def click_square(page: Any, square: str) -> None:
    from playwright.sync_api import Error as PlaywrightError

    target = page.locator(f'#board svg [data-square="{square}"]').first
    for attempt in range(5):
        # The board is drawn anew on every view: a square found just before a redraw is gone.
        try:
            # To the middle of the window: at its edge a phone's bar (stuck to the bottom of
            # the screen) would take the click.
            target.evaluate("node => node.scrollIntoView({block: 'center', inline: 'center'})")
            box = target.bounding_box()
            break
        except PlaywrightError:
            if attempt == 4:
                raise
            target.wait_for(state="attached")  # the square of the new drawing
    assert box is not None, f"no square {square} on the board"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def action_control(page: Any, where: str, action: str) -> Any:
    """The control under ``where`` that carries ``data-action="<action>"``."""
    return page.locator(f"{where} [data-action={json.dumps(action)}]")


def play_by_clicking(page: Any, action: str) -> None:
    """Play ``action`` the way a person would: click its squares, or its button."""
    squares = SQUARE.findall(action)
    has_svg = page.locator("#board svg").count() > 0
    if squares and has_svg:
        for square in squares[:2]:
            click_square(page, square)
        choice = action_control(page, "#choices", action)
        if choice.count():
            choice.first.click()
    elif squares:
        page.click("#all-moves summary")
        action_control(page, "#all-actions", action).click()
    else:
        action_control(page, "#actions", action).click()


SMALL: dict[str, dict[str, str]] = {
    "obonto": {},
    "oyno": {"max_moves": "30"},
    "oyno_puzzle": {"max_moves": "12"},
    "bones": {"width": "6", "height": "6", "pieces": "6"},
    "bondo_cones": {"target": "3", "max_turns": "12", "setup": "random"},
    "bonbon": {"max_rounds": "1"},
}
"""Parameters that keep a whole game short (typed into the Custom game form)."""


def start_custom_game(page: Any, address: str, game: str, params: dict[str, str]) -> None:
    """From the home page, *Custom game* with ``params`` typed in (opening *Advanced* where a
    field is folded under it, as a person would), started against the computer."""
    page.goto(address + "/")
    page.click(f"li[data-game={game}] a:has-text('Custom game')")
    for parameter, value in params.items():
        field = page.locator(f"[name=p_{parameter}]")
        if not field.is_visible():
            page.click("details.advanced summary")
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#game[data-seq]")


def wait_for_a_decision(page: Any) -> bool:
    """Wait until this seat is to move (True) or the game is over (False)."""
    page.wait_for_function(
        "document.getElementById('game').dataset.mine === 'yes'"
        " || document.getElementById('game').dataset.terminal === 'yes'",
        timeout=30_000,
    )
    return page.get_attribute("#game", "data-terminal") != "yes"
