"""The web app in a real browser: Playwright driving Debian's Chromium (headless).

Skipped, with the reason, where /usr/bin/chromium or Playwright is missing (CI installs it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from boneyard.ai.levels import level_number
from boneyard.core.registry import list_games
from tests.web.browsing import (
    CHROMIUM,
    TIMEOUT_MS,
    click_square,
    launch,
    legal_strings,
    open_page,
    play_by_clicking,
    seq_of,
    serve,
    wait_for_seq_above,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="no Chromium at /usr/bin/chromium (apt-get install -y chromium)",
    ),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory.mktemp("browser") / "web.db", bot_delay=0.05)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def create(server: str, name: str, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    import httpx2

    body: dict[str, Any] = {"game": name}
    if seats is not None:
        body["seats"] = seats
    response = httpx2.post(f"{server}/api/games", json=body, timeout=30)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


@pytest.mark.parametrize("name", [*list_games(), "toy_walk"])
def test_two_seats_play_by_clicking_and_see_each_other(
    server: str, browser: Any, name: str
) -> None:
    created = create(server, name)
    pages = [open_page(browser, server + seat["url"]) for seat in created["seats"][:2]]
    more = [open_page(browser, server + s["url"]) for s in created["seats"][2:]]
    everyone = pages + more
    for _ in range(3):
        seq = seq_of(everyone[0])
        if everyone[0].get_attribute("#game", "data-terminal") == "yes":
            break
        mover = next(p for p in everyone if p.get_attribute("#game", "data-mine") == "yes")
        # (the header's count of games waiting for this browser may stand first: "(1) ")
        title = re.sub(r"^\(\d+\) ", "", mover.title())
        assert title.startswith("Your move · "), "the tab tells whose move it is"
        assert not any(p.title().startswith("Your move") for p in everyone if p is not mover)
        action = legal_strings(mover)[0]
        play_by_clicking(mover, action)
        for page in everyone:
            wait_for_seq_above(page, seq)  # every seat's board follows
        assert action in everyone[0].inner_text("#log")
    for page in everyone:
        page.context.close()


def test_illegal_click_is_refused_with_a_message(server: str, browser: Any) -> None:
    created = create(server, "toy_walk")
    page = open_page(browser, server + created["seats"][0]["url"])
    click_square(page, "a1")
    assert page.locator("rect.mark-dest").count() == 2, "the two steps are highlighted"
    click_square(page, "c3")
    # One short reason, from the server over the socket; never the legal list.
    page.wait_for_function("document.getElementById('message')?.textContent.length > 0")
    assert "legal" not in page.inner_text("#message") and "a1-b1" not in page.inner_text("#message")
    assert page.locator("rect.mark-sel, rect.mark-dest").count() == 0, "the selection is dropped"
    assert seq_of(page) == 0
    click_square(page, "b2")
    page.wait_for_selector("#message:has-text('b2')")
    other = open_page(browser, server + created["seats"][1]["url"])
    click_square(other, "c3")
    assert "not your move" in other.inner_text("#message")
    page.context.close()
    other.context.close()


def test_a_bones_piece_is_clicked_in_either_order(server: str, browser: Any) -> None:
    created = create(server, "bones")
    page = open_page(browser, server + created["seats"][0]["url"])
    click_square(page, "f5")  # the upper square of e5-f5 first
    assert page.locator('rect.mark-dest[data-mark="e5"]').count() == 1
    click_square(page, "e5")
    page.wait_for_selector("#game[data-seq='1']")
    assert "e5-f5" in page.inner_text("#log")
    page.context.close()


def test_a_piece_is_fetched_by_clicking_its_destination_first(server: str, browser: Any) -> None:
    created = create(server, "toy_walk")
    page = open_page(browser, server + created["seats"][0]["url"])
    click_square(page, "a2")  # empty: the piece on a1 can step there
    assert page.locator('rect.mark-dest[data-mark="a1"]').count() == 1
    click_square(page, "a1")
    page.wait_for_selector("#game[data-seq='1']")
    assert "a1-a2" in page.inner_text("#log")
    page.context.close()


def test_reload_mid_game_and_continue(server: str, browser: Any) -> None:
    created = create(server, "toy_walk")
    north = open_page(browser, server + created["seats"][0]["url"])
    south = open_page(browser, server + created["seats"][1]["url"])
    play_by_clicking(north, "a1-a2")
    wait_for_seq_above(south, 0)
    north.reload()
    north.wait_for_selector("#game[data-seq='1']")
    assert "a1-a2" in north.inner_text("#log")
    play_by_clicking(south, "c3-c2")
    wait_for_seq_above(north, 1)
    play_by_clicking(north, "a2-a3")
    wait_for_seq_above(south, 2)
    assert "a2-a3" in south.inner_text("#log")
    north.context.close()
    south.context.close()


def test_friends_at_one_screen_take_turns(server: str, browser: Any) -> None:
    created = create(server, "toy_walk")
    page = open_page(browser, server + created["together_url"])
    assert page.get_attribute("#game", "data-seat") == "0"
    play_by_clicking(page, "a1-a2")
    page.wait_for_selector("#game[data-seat='1'][data-seq='1']")
    play_by_clicking(page, "c3-c2")
    page.wait_for_selector("#game[data-seat='0'][data-seq='2']")
    page.context.close()


@pytest.mark.skipif("bondo_cones" not in list_games(), reason="bondo_cones is not registered")
def test_bond_o_cones_memory_mode_hides_own_values(server: str, browser: Any) -> None:
    import httpx2

    response = httpx2.post(
        f"{server}/api/games", json={"game": "bondo_cones", "params": {"setup": "random"}}
    )
    created = response.json()
    page = open_page(browser, server + created["seats"][0]["url"])
    shown = "els => els.map(e => e.textContent)"
    own = '#board [data-cone][data-seat="0"] text'
    values = page.eval_on_selector_all(own, shown)
    assert values and all(v != "?" for v in values), "own values show by default"
    theirs = page.eval_on_selector_all('#board [data-cone][data-seat="1"] text', shown)
    assert set(theirs) == {"?"}
    page.check("#memory")
    assert set(page.eval_on_selector_all(own, shown)) == {"?"}
    page.uncheck("#memory")
    assert page.eval_on_selector_all(own, shown) == values
    page.context.close()


def test_one_screen_with_hidden_information_covers_each_turn(server: str, browser: Any) -> None:
    created = create(server, "toy_secret")
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + created["together_url"])
    page.wait_for_selector("#game[data-covered='yes']")
    assert "Pass the screen to" in page.inner_text("#status")
    assert page.locator("#hint").is_hidden(), "no hint for the covered seat"
    assert "deal" not in page.inner_text("#log") and page.locator("#board svg, pre").count() == 0
    page.click("#uncover")
    page.wait_for_selector("#game[data-covered='no']")
    page.click('#actions [data-action="guess 3"]')
    page.wait_for_selector("#game[data-covered='yes']")
    page.click("#uncover")
    page.wait_for_selector("#game[data-covered='no'][data-seat='1']")
    context.close()


def test_the_cover_holds_whichever_seat_answers_first(server: str, browser: Any) -> None:
    """At one screen, the first seat's secrets stay covered even when the second seat's socket
    answers first after the page loads (CI once saw this order and the cover never came)."""
    created = create(server, "toy_secret")
    first, second = (seat["token"] for seat in created["seats"][:2])
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    held: list[str | bytes] = []  # the first seat's views, until the second seat's has come
    routes: dict[str, Any] = {}
    second_answered = False

    def route(socket: Any) -> None:
        if "draw=false" in socket.url:  # the bar's watch for "your move" in My games
            socket.connect_to_server()
            return
        token = first if f"token={first}" in socket.url else second
        routes[token] = socket
        server_side = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            nonlocal second_answered
            if token == first and not second_answered:
                held.append(message)
                return
            socket.send(message)
            if token == second and not second_answered:
                second_answered = True
                while held:
                    routes[first].send(held.pop(0))

        server_side.on_message(from_server)

    page.route_web_socket("**/ws/games/**", route)
    page.goto(server + created["together_url"])
    page.wait_for_selector("#game[data-covered='yes']")
    assert "Pass the screen to" in page.inner_text("#status")
    assert page.locator("#board svg, pre").count() == 0, "no board behind the cover"
    assert second_answered and not held, "the sockets answered in the order the test set"
    context.close()


@pytest.mark.skipif("bonbon" not in list_games(), reason="bonbon is not registered")
def test_bon_bon_form_follows_the_number_of_players(server: str, browser: Any) -> None:
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/new/bonbon")
    visible = "label.seat:not([hidden])"
    assert page.locator(visible).count() == 2
    page.fill("input[name=p_players]", "5")
    assert page.locator(visible).count() == 5
    page.select_option("select[name=seat1]", "human")
    page.select_option("select[name=seat4]", str(level_number("bonbon", "medium")))
    page.click("button[type=submit]")
    page.wait_for_selector("ul.invites")
    assert page.locator("li[data-seat]").count() == 5
    assert page.locator("a.invite").count() == 2, "seats 0 and 1 are people, the rest computers"
    context.close()


def _noting_page(server: str, browser: Any) -> tuple[Any, list[str], list[str]]:
    """A page under the server's own Content-Security-Policy, with the policy's reports and the
    addresses it asked for elsewhere than the server."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    violations: list[str] = []
    outside: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.on(
        "request",
        lambda request: outside.append(request.url) if not request.url.startswith(server) else None,
    )
    return page, violations, outside


def test_pages_run_under_the_csp(server: str, browser: Any) -> None:
    """The pages' own scripts work under the server's Content-Security-Policy, with no report."""
    page, violations, outside = _noting_page(server, browser)
    page.goto(server + "/new/obonto")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-square]")
    page.wait_for_selector("[data-action]", state="attached")  # drawn by the page's script
    assert violations == [] and outside == []
    page.context.close()


def test_the_api_page_works_without_the_internet(server: str, browser: Any) -> None:
    """Swagger UI comes from the app itself (the test machine reaches nothing else)."""
    page, violations, outside = _noting_page(server, browser)
    page.goto(server + "/docs")
    page.wait_for_selector(".opblock")  # the API's operations, drawn by Swagger UI
    assert "/api/games" in page.inner_text("body")
    assert violations == [] and outside == []
    page.context.close()


def test_a_long_name_without_spaces_wraps_on_a_phone(server: str, browser: Any) -> None:
    """A 30-character name with no space in it wraps where it is shown; the page never scrolls
    sideways, and the site's own name stays whole."""
    name = "Bartholomew_Longname_Withoutsp"
    created = create(server, "bones", seats=[{"name": name}, {"name": "Ann"}])
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server}{created['seats'][1]['url']}")
    page.wait_for_selector("#game[data-seq]")
    page.wait_for_function(f"document.body.textContent.includes({name!r})")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    brand = page.locator("a.brand").bounding_box()
    assert brand is not None and brand["height"] < 40, "the site's name on one line"
    context.close()


def test_the_redoc_page_runs_under_its_policy(server: str, browser: Any) -> None:
    """ReDoc draws the API from the app's own files with no policy report and no failed request
    (its logo was blocked by the site's policy: issue 35)."""
    page, violations, outside = _noting_page(server, browser)
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(server + "/redoc")
    page.wait_for_selector("[data-section-id]")  # the API's sections, drawn by ReDoc
    page.wait_for_load_state("networkidle")
    assert "/api/games" in page.inner_text("body")
    # ReDoc's search runs in a worker made from a blob of the page's own origin.
    elsewhere = [url for url in outside if not url.startswith("blob:" + server)]
    assert violations == [] and elsewhere == [] and failed == []
    page.context.close()
