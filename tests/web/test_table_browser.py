"""The table in Chromium (issue 26): fair play between people, the board turned for North, one
click to place an OYNO bone."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from tests.web import test_browser
from tests.web.test_browser import TIMEOUT_MS, click_square, create, open_page

# The browser tests' server and Chromium, shared (module-scoped: one of each for this file).
server = test_browser.server
browser = test_browser.browser

pytestmark = [pytest.mark.browser]


def shown(page: Any) -> Any:
    """``page`` once its first view is drawn."""
    page.wait_for_selector("#game[data-seq]", timeout=TIMEOUT_MS)
    return page


def test_neither_seat_of_a_default_game_between_two_people_offers_a_hint(
    server: str, browser: Any
) -> None:
    created = create(server, "obonto")
    pages = [shown(open_page(browser, server + seat["url"])) for seat in created["seats"]]
    assert sorted(page.get_attribute("#game", "data-mine") for page in pages) == ["no", "yes"]
    for page in pages:
        assert page.locator("#hint").is_hidden(), "no Hint between people by default"
        assert page.locator("#hints-on").is_hidden()
    # At one screen (one page playing both seats) the Hint stays.
    together = shown(open_page(browser, server + created["together_url"]))
    together.wait_for_selector("#hint:not([hidden])", timeout=TIMEOUT_MS)


def test_every_seat_of_a_game_created_with_hints_on_says_so(server: str, browser: Any) -> None:
    response = httpx2.post(
        f"{server}/api/games", json={"game": "obonto", "hints": True}, timeout=30
    )
    assert response.status_code == 201, response.text
    created = response.json()
    pages = [shown(open_page(browser, server + seat["url"])) for seat in created["seats"]]
    for page in pages:
        assert page.locator("#hints-on").is_visible(), "every seat sees that hints are on"
        mine = page.get_attribute("#game", "data-mine") == "yes"
        assert page.locator("#hint").is_visible() == mine


def square_top(page: Any, square: str) -> float:
    box = page.locator(f'#board svg rect[data-square="{square}"]').bounding_box()
    assert box is not None, f"{square} is drawn"
    return float(box["y"])


def test_obontos_board_turns_for_north(server: str, browser: Any) -> None:
    """The person as North (seat 1) sees North's start row (e9) below South's (e1); South the
    other way round. ``data-square`` keeps naming the true squares."""
    created = create(server, "obonto", seats=[{"kind": "computer", "level": "easy"}, {}])
    north = shown(open_page(browser, server + created["seats"][1]["url"]))
    assert square_top(north, "e9") > square_top(north, "e1"), "North's own row is lower"
    assert north.locator('#board [data-square="e9"][data-seat="1"]').count() == 1
    created = create(server, "obonto", seats=[{}, {"kind": "computer", "level": "easy"}])
    south = shown(open_page(browser, server + created["seats"][0]["url"]))
    assert square_top(south, "e1") > square_top(south, "e9")


def api_play(server: str, game_id: str, seat_token: str, move: str) -> None:
    seq = httpx2.get(f"{server}/api/games/{game_id}", params={"draw": "false"}, timeout=30)
    response = httpx2.post(
        f"{server}/api/games/{game_id}/actions",
        json={"token": seat_token, "seq": seq.json()["seq"], "action_string": move},
        timeout=30,
    )
    assert response.status_code == 200, response.text


def last_move(page: Any, seq: int) -> str:
    """The log's last line once the page shows move number ``seq``."""
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.seq) === {seq}", timeout=TIMEOUT_MS
    )
    return str(page.locator("#log li").last.inner_text())


def test_one_click_on_an_empty_oyno_cell_places_though_a_bone_could_move_there(
    server: str, browser: Any
) -> None:
    created = create(server, "oyno")
    red, white = (seat["token"] for seat in created["seats"])
    for seat_token, move in (
        (red, "place e1"), (white, "place a5"), (red, "place c1"), (white, "place a3"),
        (red, "place a2"),
    ):  # fmt: skip
        api_play(server, created["id"], seat_token, move)
    legal = httpx2.get(
        f"{server}/api/games/{created['id']}", params={"token": white, "draw": "false"}
    ).json()["legal"]
    assert {"place a4", "move a3-a4"} <= {action["string"] for action in legal}
    page = shown(open_page(browser, server + created["seats"][1]["url"]))
    assert page.get_attribute("#game", "data-mine") == "yes"
    click_square(page, "a4")
    assert "a4" in last_move(page, 6) and "place" in last_move(page, 6).lower()
    # Moving a bone stays select-then-target: the bone first, then where it goes.
    api_play(server, created["id"], red, "place e5")
    page.wait_for_function(
        "document.getElementById('game').dataset.mine === 'yes'", timeout=TIMEOUT_MS
    )
    click_square(page, "a3")
    assert page.locator("#game").get_attribute("data-seq") == "7", "a click on a bone selects"
    click_square(page, "b2")
    assert "a3" in last_move(page, 8) and "b2" in last_move(page, 8)
