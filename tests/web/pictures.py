"""Take the web app's pictures in the README and docs/web.md again, by clicking as a person would.

    .venv/bin/python -m tests.web.pictures               # every picture
    .venv/bin/python -m tests.web.pictures home bondo    # some of them (names below)

It starts ``boneyard serve`` on a throwaway SQLite file and a free port, opens each page in
Chromium (``/usr/bin/chromium``) from the home page, plays random legal moves by clicking (the
browser tests' helpers), and writes the PNGs under ``docs/img/``. Run it after a change a person
can see, and look at what it wrote.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2

from tests.web.browsing import (
    SMALL,
    launch,
    legal_strings,
    play_by_clicking,
    seq_of,
    start_custom_game,
    wait_for_a_decision,
    wait_for_seq_above,
)
from tests.web.conftest import free_port

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
GAMES = ("obonto", "oyno", "oyno_puzzle", "bones", "bondo_cones", "bonbon")
MIDDLE = {"bones": 2, "bonbon": 1, "bondo_cones": 3}
"""Decisions played before a game's "later" picture where 8 would end the small game (Bond
O Cones' 12 turns are 6 a side)."""
LONGER = {"bonbon": {"max_rounds": "3"}}
"""Parameters over the browser tests' ``SMALL`` where one round would leave no "later"."""


@contextmanager
def served() -> Iterator[str]:
    """``boneyard serve`` on a fresh database; its address."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        command = [
            str(Path(sys.executable).with_name("boneyard")),
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{folder}/pictures.db",
            "--bot-delay",
            "0.05",
        ]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        address = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx2.get(address + "/readyz", timeout=2).status_code == 200:
                        break
                except httpx2.TransportError:
                    pass
                if server.poll() is not None:
                    said = server.stderr.read().decode(errors="replace") if server.stderr else ""
                    raise RuntimeError(f"boneyard serve stopped: {said.strip()}")
                if time.monotonic() > deadline:
                    raise RuntimeError("boneyard serve did not answer /readyz within 60 s")
                time.sleep(0.2)
            yield address
        finally:
            server.terminate()
            server.wait(timeout=20)


def page_at(browser: Any, viewport: dict[str, int], scale: float = 1.0) -> Any:
    """A page of its own context, drawn at ``scale`` (a picture ``scale`` times the viewport)."""
    context = browser.new_context(viewport=viewport, device_scale_factor=scale, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def play(page: Any, rng: random.Random, decisions: int) -> None:
    """Up to ``decisions`` random legal decisions by clicks (fewer if the game ends)."""
    for _ in range(decisions):
        if not wait_for_a_decision(page):
            return
        seq = seq_of(page)
        play_by_clicking(page, rng.choice(legal_strings(page)))
        wait_for_seq_above(page, seq)


def snap(page: Any, path: Path) -> None:
    """The top of the page, as a person lands on it, once the board has settled: the
    computer has replied (this seat decides, or the game is over) and nothing moves."""
    if page.locator("#game").count():
        wait_for_a_decision(page)
    page.wait_for_function(
        "document.getAnimations().every(animation => animation.playState !== 'running')"
    )
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path))
    print(path.relative_to(IMAGES.parents[1]))


def against_the_computer(browser: Any, address: str, game: str, phone: bool = False) -> Any:
    """A game against the computer from the home page's one click, as Ann."""
    page = page_at(browser, PHONE if phone else DESKTOP, 0.8 if phone else 0.6)
    page.goto(address + "/")
    page.fill("#your-name", "Ann")
    page.click(f"li[data-game={game}] form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-seq]")
    page.click("#how-to-play-done")  # read, and folded: the picture shows the board
    return page


def home(browser: Any, address: str) -> None:
    page = page_at(browser, DESKTOP, 0.6)
    page.goto(address + "/")
    page.fill("#your-name", "Ann")
    snap(page, IMAGES / "web-home.png")


def obonto(browser: Any, address: str) -> None:
    page = against_the_computer(browser, address, "obonto")
    play(page, random.Random("obonto"), 8)
    snap(page, IMAGES / "web-obonto.png")


def bondo(browser: Any, address: str) -> None:
    page = against_the_computer(browser, address, "bondo_cones", phone=True)
    play(page, random.Random("bondo"), 17 + 3)  # the set-up (16 cones, the ring), then play
    snap(page, IMAGES / "web-bondo-phone.png")


def bonbon(browser: Any, address: str) -> None:
    page = against_the_computer(browser, address, "bonbon", phone=True)
    play(page, random.Random("bonbon"), 4)
    snap(page, IMAGES / "web-bonbon-phone.png")


MIDWAY_DECISIONS = {"oyno": 8, "bones": 1, "bondo_cones": 17 + 6, "bonbon": 2}
"""The README's games against the computer at full size: decisions played before each picture
(Bond O Cones: its set-up of 16 cones and the ring first)."""


def midway(browser: Any, address: str) -> None:
    for game, decisions in MIDWAY_DECISIONS.items():
        page = against_the_computer(browser, address, game)
        play(page, random.Random(game), decisions)
        snap(page, IMAGES / f"web-{game}.png")
        page.context.close()


def games(browser: Any, address: str) -> None:
    """Each game from *Custom game* with small parameters (the browser tests' ``SMALL``), so
    that a whole game fits: its start, a later position and its end."""
    for game in GAMES:
        page = page_at(browser, DESKTOP)
        start_custom_game(page, address, game, {**SMALL[game], **LONGER.get(game, {})})
        rng = random.Random(game)
        snap(page, IMAGES / "games" / f"{game}-start.png")  # How to play open, as the first time
        page.click("#how-to-play-done")
        play(page, rng, MIDDLE.get(game, 8))
        snap(page, IMAGES / "games" / f"{game}-middle.png")
        play(page, rng, 400)
        if page.get_attribute("#game", "data-terminal") != "yes":
            raise RuntimeError(f"{game} did not end in 400 decisions")
        snap(page, IMAGES / "games" / f"{game}-end.png")
        page.context.close()


PICTURES: dict[str, Callable[[Any, str], None]] = {
    "home": home,
    "obonto": obonto,
    "bondo": bondo,
    "bonbon": bonbon,
    "midway": midway,
    "games": games,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"pictures to take: {', '.join(PICTURES)}")
    names = parser.parse_args().names or list(PICTURES)
    unknown = [name for name in names if name not in PICTURES]
    if unknown:
        parser.error(f"no picture {', '.join(unknown)}: the pictures are {', '.join(PICTURES)}")
    with served() as address:
        browsers = launch()
        browser = next(browsers)
        for name in names:
            PICTURES[name](browser, address)
        browsers.close()


if __name__ == "__main__":
    main()
