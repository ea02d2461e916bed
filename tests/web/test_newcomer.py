"""A newcomer in Chromium: every game started from the home page and played by clicks only.

From the home page each game starts against the computer with its defaults in one click (one
form submit); the status element (``role="status"``) says what to do; no page text (the SVG
drawings' text and tooltips included) shows a raw key, a snake_case word or a seat number; and
a whole game is played by clicking ``data-square`` squares and ``data-action`` controls only,
at 1280x900 and, for some games, at 390x844 (text of at least 12 px, no sideways scrolling).
Whole games use small parameters (set in the *Custom game* form) to keep the suite quick.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from boneyard.core.registry import list_games
from tests.web.browsing import (
    CHROMIUM,
    SMALL,
    TIMEOUT_MS,
    launch,
    legal_strings,
    play_by_clicking,
    seq_of,
    serve,
    start_custom_game,
    wait_for_a_decision,
    wait_for_seq_above,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="no Chromium at /usr/bin/chromium (apt-get install -y chromium)",
    ),
]
pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

GAMES = [name for name in ("obonto", "oyno", "oyno_puzzle", "bones", "bondo_cones", "bonbon")]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

RAW = re.compile(
    r"\b[a-z]+_[a-z0-9_]+\b|\bphase\b|\bto move \d|\bsetup progress\b|\bseat \d|"
    r"\bset aside ring\b|\btiles open\b|\bround starter\b|\blast drawer\b|\bsolo moves \d|"
    r"\bcurrent player\b|\bNone\b|\bnull\b|\bundefined\b",
    re.IGNORECASE,
)
"""Developer words a page must never show."""

PAGE_WORDS = """() => [document.body.innerText,
  ...[...document.querySelectorAll('svg text, svg title')].map(n => n.textContent)].join('\\n')"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory.mktemp("newcomer") / "web.db", bot_delay=0.02)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(viewport: dict[str, int]) -> Any:
        context = browser.new_context(viewport=viewport, bypass_csp=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        return page

    yield make
    for context in contexts:
        context.close()


def registered(name: str) -> Any:
    return pytest.param(
        name, marks=pytest.mark.skipif(name not in list_games(), reason=f"{name} not registered")
    )


def raw_words(page: Any) -> list[str]:
    """Raw keys and developer words anywhere on the page, drawings included."""
    return sorted({m.group(0) for m in RAW.finditer(page.evaluate(PAGE_WORDS))})


def prompt(page: Any) -> str:
    text: str = page.inner_text("[role=status]")
    return text.strip()


def play(page: Any, rng: random.Random, decisions: int) -> list[str]:
    """Make up to ``decisions`` random legal decisions by clicks; return the prompts seen."""
    prompts = []
    for count in range(decisions):
        if not wait_for_a_decision(page):
            break
        prompts.append(prompt(page))
        assert prompts[-1], "the status says what to decide"
        if count % 4 == 0:
            assert raw_words(page) == [], prompts[-1]
        seq = seq_of(page)
        play_by_clicking(page, rng.choice(legal_strings(page)))
        wait_for_seq_above(page, seq)
    return prompts


def fits_the_screen(page: Any) -> None:
    """No sideways scrolling, and no visible text under 12 px (the board's text included)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"
    small = page.evaluate(
        """() => {
        const found = [];
        for (const node of document.querySelectorAll('body *')) {
          const own = [...node.childNodes].some(c => c.nodeType === 3 && c.textContent.trim());
          if (!own || node.closest('svg') || !node.getClientRects().length) continue;
          const size = parseFloat(getComputedStyle(node).fontSize);
          if (size < 12) found.push(`${node.tagName} ${size}px: ${node.textContent.slice(0, 30)}`);
        }
        for (const text of document.querySelectorAll('#board svg text')) {
          const box = text.getBoundingClientRect();
          if (!box.width || !text.textContent.trim()) continue;
          const size = parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a;
          if (size < 11.5) found.push(`svg ${size.toFixed(1)}px: ${text.textContent.slice(0, 30)}`);
        }
        return found;
      }"""
    )
    assert small == [], small


@pytest.mark.parametrize("name", [registered(name) for name in GAMES])
def test_each_game_starts_with_the_defaults_in_one_click(
    server: str, new_page: Any, name: str
) -> None:
    page = new_page(DESKTOP)
    page.goto(server + "/")
    page.fill("#your-name", "Ann")
    page.click(f"li[data-game={name}] form.play-computer button[type=submit]")  # the one click
    page.wait_for_selector("#game[data-seq]")
    assert page.get_attribute("[role=status]", "aria-live") == "polite"
    assert "Ann" in page.inner_text("#seats"), "the person is named by the name given"
    how = page.locator("#how-to-play")
    assert how.get_attribute("open") is not None, "the rules in short, open the first time"
    assert how.inner_text().count("\n") >= 3, "a few sentences"
    page.click("#how-to-play-done")  # "Got it"
    assert how.get_attribute("open") is None
    prompts = play(page, random.Random(name), 3)
    assert prompts, "the person gets to move"
    assert raw_words(page) == []
    assert page.locator("#fairness").get_attribute("open") is None, "fairness stays small"
    page.goto(server + "/")
    page.click(f"li[data-game={name}] form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-seq]")
    assert how.get_attribute("open") is None, "folded once this browser has seen the game"
    how.locator("summary").click()
    assert how.locator("li").first.is_visible(), "one click away"


@pytest.mark.parametrize(
    ("name", "viewport"),
    [
        *[pytest.param(*registered(name).values, DESKTOP, id=f"{name}-desktop") for name in GAMES],
        pytest.param("obonto", PHONE, id="obonto-phone"),
        pytest.param("bondo_cones", PHONE, id="bondo_cones-phone"),
        pytest.param("bonbon", PHONE, id="bonbon-phone"),
    ],
)
def test_a_whole_game_against_the_computer_by_clicks(
    server: str, new_page: Any, name: str, viewport: dict[str, int]
) -> None:
    if name not in list_games():
        pytest.skip(f"{name} is not registered")
    page = new_page(viewport)
    start_custom_game(page, server, name, SMALL[name])
    if viewport == PHONE:
        fits_the_screen(page)
    prompts = play(page, random.Random(f"{name} whole"), 400)
    assert page.get_attribute("#game", "data-terminal") == "yes", "the game reached its end"
    result = prompt(page)
    assert result and result not in prompts[-1:], "the status turns to the result"
    assert len({*prompts, result}) >= 2, "the prompt changes with the decision"
    assert raw_words(page) == []
    assert page.locator("#hint").is_hidden(), "no hint once the game is over"
    assert page.text_content("#seed"), "the seed is revealed in the Fairness note"
    if viewport == PHONE:
        fits_the_screen(page)
    page.click("#replay-link")
    page.wait_for_selector("#where:has-text('0 of')")
    page.click("#last")
    page.wait_for_selector("#log li")
    assert raw_words(page) == [], "the replay speaks as plainly"
    stops = count_stops(page.get_attribute("#replay", "data-stops")) - 1
    assert page.inner_text("#where") == f"{stops} of {stops}"
    assert page.locator("#log li").count() == stops, "one step a move told"
    assert page.get_attribute("#log", "start") is None, "moves count from 1, as in play"
    assert page.locator("#fairness").get_attribute("open") is None, "fairness stays small"
    if viewport == PHONE:
        fits_the_screen(page)  # the replay's board as readable as the game's


@pytest.mark.skipif("bondo_cones" not in list_games(), reason="bondo_cones is not registered")
def test_bond_o_cones_set_up_at_random_in_one_click(server: str, new_page: Any) -> None:
    page = new_page(DESKTOP)
    page.goto(server + "/")
    page.click("li[data-game=bondo_cones] form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-mine=yes]")
    targets = page.eval_on_selector_all("rect.mark-dest", "marks => marks.map(m => m.dataset.mark)")
    puts = {s.split()[1] for s in legal_strings(page) if s.startswith("put ")}
    assert puts and set(targets) == puts, "every square a cone may be put on is highlighted"
    before = prompt(page)
    page.click("#quick-setup")
    # Black's 16 cones and its ring, all from the one click:
    page.wait_for_function("Number(document.getElementById('game')?.dataset.seq) >= 17")
    wait_for_a_decision(page)
    assert page.locator("#quick-setup").is_hidden(), "the set-up is done"
    told = page.locator("#log li", has_text="cones on their start fields, hidden from you")
    assert told.count() == 1 and told.locator(".notation").count() == 0, "no 'put ?' beside it"
    assert not any(s.startswith("put ") for s in legal_strings(page))
    assert prompt(page) != before or before == ""


@pytest.mark.skipif("obonto" not in list_games(), reason="obonto is not registered")
def test_the_keyboard_moves_a_ring_and_enter_picks(server: str, new_page: Any) -> None:
    page = new_page(DESKTOP)
    page.goto(server + "/")
    page.click("li[data-game=obonto] form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-mine=yes]")
    assert page.get_attribute("#board", "role") and page.get_attribute("#board", "aria-label")
    names = page.eval_on_selector_all(
        "#board svg [data-square][aria-label]",
        "nodes => nodes.map(n => n.getAttribute('aria-label'))",
    )
    assert len(set(names)) == 81 and any("lion" in name for name in names), names[:5]
    page.focus("#board")
    page.keyboard.press("ArrowRight")  # the ring appears on the seat's own pieces
    ring = "document.querySelector('rect.mark-focus')?.dataset.mark"
    first = page.evaluate(ring)
    legal = [a.split("-")[0] for a in legal_strings(page)]
    assert first in legal, (first, legal)  # South's first animal in reading order
    page.keyboard.press("ArrowUp")
    assert page.evaluate(ring) != first, "the ring moved"
    # Walk the ring to South's lion on d1 and pick it, then to d2 and play there.
    for _ in range(12):
        page.keyboard.press("ArrowDown")
    for _ in range(8):
        page.keyboard.press("ArrowLeft")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.evaluate(ring) == "d1"
    page.keyboard.press("Enter")
    assert page.locator('rect.mark-sel[data-mark="d1"]').count() == 1
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    wait_for_seq_above(page, 0)
    assert "d1-d2" in page.inner_text("#log")
    assert page.evaluate("document.activeElement.id") == "board", "focus stays on the board"


@pytest.mark.skipif("obonto" not in list_games(), reason="obonto is not registered")
def test_a_move_clicked_while_the_connection_is_down_is_sent_on_reconnect(
    tmp_path: Any, new_page: Any
) -> None:
    from tests.web.conftest import free_port

    port = free_port()
    first = serve(tmp_path / "web.db", port=port, bot_delay=0.02)
    address = next(first)
    page = new_page(DESKTOP)
    page.goto(address + "/")
    page.click("li[data-game=obonto] form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-mine=yes]")
    assert page.locator("#banner").is_hidden()
    next(first, None)  # the server stops
    page.wait_for_selector("#banner", state="visible")
    play_by_clicking(page, "d1-d2")
    assert "will be sent" in page.inner_text("#message")
    second = serve(tmp_path / "web.db", port=port, bot_delay=0.02)
    next(second)
    page.wait_for_selector("#banner", state="hidden", timeout=20_000)
    wait_for_seq_above(page, 0)
    assert "d1-d2" in page.inner_text("#log"), "the move was not lost"
    next(second, None)


@pytest.mark.skipif("oyno" not in list_games(), reason="oyno is not registered")
def test_the_lobby_asks_in_words_and_fits_a_phone(server: str, new_page: Any) -> None:
    page = new_page(PHONE)
    page.goto(server + "/lobby")
    page.select_option("#open-kind", "oyno")
    rule = page.locator("[data-param=place_rule]")
    rule.wait_for()
    labels = rule.locator("option").all_inner_texts()
    assert labels[0] == "Whenever they still hold one", "a choice in words, as on Custom game"
    fits_the_screen(page)


@pytest.mark.parametrize("name", [registered(name) for name in GAMES])
def test_the_custom_game_form_fits_a_phone(server: str, new_page: Any, name: str) -> None:
    page = new_page(PHONE)
    page.goto(server + "/")
    page.click(f"li[data-game={name}] a:has-text('Custom game')")
    page.wait_for_selector("form button[type=submit]")
    for advanced in page.locator("details.advanced summary").all():
        advanced.click()  # the settings a player would not choose, opened too
    fits_the_screen(page)


def count_stops(runs: str) -> int:
    """The stops a replay page names as runs ("0,16-17,33-36": seven stops)."""
    total = 0
    for run in runs.split(","):
        first, _, last = run.partition("-")
        total += int(last or first) - int(first) + 1
    return total
