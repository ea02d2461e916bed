"""Your turn, wherever you are, in Chromium (issue 41, item 7): the header's count on *My
games*, the tab's title, and notifications asked for once from a button."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web import test_browser
from tests.web.accessibility import blocking_violations
from tests.web.test_browser import TIMEOUT_MS, create

server = test_browser.server
browser = test_browser.browser

pytestmark = [pytest.mark.browser]

# A stand-in for the Web Notifications API that records what the page does with it: the
# permission kept in local storage (as a browser keeps it across pages), each request to ask.
FAKE_NOTIFICATIONS = """
class RecordedNotification {
  static get permission() { return localStorage.getItem("test.permission") ?? "default"; }
  static async requestPermission() {
    localStorage.setItem("test.asked", String(Number(localStorage.getItem("test.asked") ?? 0) + 1));
    localStorage.setItem("test.permission", "granted");
    return "granted";
  }
  constructor(title, options) {
    const notes = JSON.parse(localStorage.getItem("test.notes") ?? "[]");
    notes.push({ title, body: options?.body ?? "" });
    localStorage.setItem("test.notes", JSON.stringify(notes));
  }
  addEventListener() {}
}
window.Notification = RecordedNotification;
"""


def move(server: str, game_id: str, seat_token: str) -> None:
    import httpx2

    view = httpx2.get(f"{server}/api/games/{game_id}", params={"token": seat_token}).json()
    answer = httpx2.post(
        f"{server}/api/games/{game_id}/actions",
        json={"token": seat_token, "seq": view["seq"], "action": view["legal"][0]["id"]},
    )
    assert answer.status_code == 200, answer.text


def turns_shown(page: Any, count: int) -> None:
    page.wait_for_selector(f"html[data-turns='{count}']")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_the_header_counts_the_games_waiting_for_your_move_and_the_browser_tells_of_them(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    game = create(server, "toy_walk")
    north, south = (seat["token"] for seat in game["seats"])
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(FAKE_NOTIFICATIONS)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.clock.install()
    page.goto(server + game["seats"][1]["url"])  # South's seat, kept by this browser
    page.wait_for_selector("#game[data-mine=no]")
    turns_shown(page, 0)
    page.goto(server + "/")
    turns_shown(page, 0)
    assert not page.is_visible("#turn-count")
    assert page.title() == "boneyard"

    # North moves elsewhere: the home page, left open, counts South's game by itself.
    move(server, game["id"], north)
    page.clock.fast_forward(31_000)
    turns_shown(page, 1)
    assert page.inner_text("header.top #turn-count") == "1"
    assert page.title() == "(1) boneyard"
    assert page.get_by_role("link", name="My games, 1 game waits for your move").is_visible()
    assert blocking_violations(page) == []
    page.screenshot(path=f"/tmp/turns-home-{size[0]}.png")

    # Never asked for by itself: only the button of My games asks to notify.
    page.click("header.top a[href='/mine']")
    page.wait_for_selector("li.mine-game[data-your-move=yes]")
    assert page.evaluate("localStorage.getItem('test.asked')") is None
    assert page.title() == "(1) My games"
    page.click("[data-action=notify-turns]")
    page.wait_for_selector("[data-action=notify-turns]:text('Stop telling me')")
    assert page.evaluate("localStorage.getItem('test.asked')") == "1"
    assert blocking_violations(page) == []
    page.screenshot(path=f"/tmp/turns-mine-{size[0]}.png")

    # South's move (on another device), then North's: the game comes back to South's move.
    move(server, game["id"], south)
    page.clock.fast_forward(31_000)
    turns_shown(page, 0)
    assert page.title() == "My games"
    assert page.evaluate("localStorage.getItem('test.notes')") is None, (
        "the waiting game was no news"
    )
    move(server, game["id"], north)
    page.clock.fast_forward(31_000)
    turns_shown(page, 1)
    notes = page.evaluate("JSON.parse(localStorage.getItem('test.notes'))")
    assert notes == [
        {"title": "Your move in Toy Walk", "body": "Your opponent has moved: it is your turn."}
    ]
    # Told once: the next answers about the same waiting game tell nothing more.
    page.clock.fast_forward(31_000)
    page.reload()
    turns_shown(page, 1)
    page.clock.fast_forward(31_000)
    assert len(page.evaluate("JSON.parse(localStorage.getItem('test.notes'))")) == 1
    context.close()


@pytest.mark.parametrize("name", ["obonto", "oyno", "bones"])
def test_the_panel_says_the_result_not_whose_move_once_a_game_is_over(
    server: str, browser: Any, name: str
) -> None:
    """A resignation ends a game mid-turn: the panel's "To move" gives way to the result."""
    import httpx2

    game = create(server, name)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + game["seats"][0]["url"])
    page.wait_for_selector("#panel dt:text-is('To move')")
    resigned = httpx2.post(
        f"{server}/api/games/{game['id']}/session",
        json={"token": game["seats"][1]["token"], "do": "resign"},
    )
    assert resigned.status_code == 200, resigned.text
    page.wait_for_selector("#game[data-terminal=yes]")
    page.wait_for_selector("#panel dt:text-is('Result')")
    assert page.locator("#panel dt:text-is('To move')").count() == 0
    # in a word or two (the prompt says the whole sentence once): the other seat resigned
    assert page.inner_text("#panel dt:text-is('Result') + dd") == "you won"
    page.screenshot(path=f"/tmp/turns-end-{name}.png")
    context.close()


def test_a_phones_site_menu_takes_one_line_and_reaches_every_link(
    server: str, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/")
    page.wait_for_selector("header.top nav a[href='/ladder']")
    header = page.locator("header.top").bounding_box()
    brand = page.locator("header.top .brand").bounding_box()
    assert header is not None and brand is not None
    assert header["height"] < 2 * brand["height"] + 20, "one line, not three"
    page.screenshot(path="/tmp/turns-menu-start-390.png")
    links = page.locator("header.top nav a")
    tops = set()
    for at in range(links.count()):
        link = links.nth(at)
        link.scroll_into_view_if_needed()
        box = link.bounding_box()
        assert box is not None
        assert box["x"] >= -1 and box["x"] + box["width"] <= 391, link.inner_text()
        tops.add(round(box["y"]))
    assert len(tops) == 1, "every link on the one line"
    assert blocking_violations(page) == []
    page.screenshot(path="/tmp/turns-menu-390.png")
    page.click("header.top nav a[href='/login']")
    page.wait_for_url("**/login")
    context.close()


def test_a_phones_bond_o_cones_board_shows_whole_above_the_sticky_bar(
    server: str, browser: Any
) -> None:
    """At 390x844 in play (the bar holding the score, the die and the memory mode), scrolling
    to the foot of the board shows one's own cones above the bar, not under it."""
    game = create(server, "bondo_cones")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pages = []
    for seat in game["seats"]:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server + seat["url"])
        page.wait_for_selector("#quick-setup:not([hidden])")
        page.click("#quick-setup")
        pages.append(page)
    page = pages[0]
    page.wait_for_selector("#bar-facts dt:text-is('Die')")
    page.locator("#board").evaluate("board => board.scrollIntoView({ block: 'end' })")
    board = page.locator("#board svg").bounding_box()
    bar = page.locator("#table-bar").bounding_box()
    assert board is not None and bar is not None
    assert board["height"] + bar["height"] <= 844
    assert board["y"] + board["height"] <= bar["y"] + 1, "the foot of the board under the bar"
    assert blocking_violations(page) == []
    page.screenshot(path="/tmp/turns-bondo-390.png")
    context.close()


def test_game_lists_and_profiles_say_when_each_game_was_played(server: str, browser: Any) -> None:
    import re

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/")
    name = f"dora{abs(hash(server)) % 10_000}"
    signed = page.request.post(
        server + "/api/accounts", data={"name": name, "password": "correct horse battery"}
    )
    assert signed.status == 201, signed.text()
    made = page.request.post(server + "/api/games", data={"game": "toy_walk"})
    assert made.status == 201, made.text()
    today = re.compile(r"today \d\d:\d\d")

    page.click("header.top a[href='/mine']")
    page.wait_for_selector("li.mine-game time[data-when]")
    assert today.fullmatch(page.inner_text("li.mine-game time[data-when]"))
    turns_shown(page, 1)  # the account's game waits for its move: counted with no token kept
    page.screenshot(path="/tmp/turns-dates-mine.png")

    page.goto(server + f"/@/{name}")
    page.wait_for_selector(".recent-games time[data-when]:text-matches('^today')")
    assert today.fullmatch(page.inner_text(".recent-games time[data-when]"))
    assert blocking_violations(page) == []
    page.screenshot(path="/tmp/turns-dates-profile.png")

    # The lobby's lists: a game opened there, waiting for an opponent.
    page.click("header.top a[href='/lobby']")
    page.select_option("#open-kind", "obonto")
    page.click("#open-game button[type=submit]")
    page.wait_for_selector("#game[data-seq]")
    page.click("header.top a[href='/lobby']")
    page.wait_for_selector("li.lobby-game time[data-when]")
    assert today.fullmatch(page.inner_text("li.lobby-game time[data-when]"))
    page.screenshot(path="/tmp/turns-dates-lobby.png")

    # The tournaments' list: when each starts.
    arena = page.request.post(
        server + "/api/tournaments",
        data={"game": "toy_walk", "kind": "arena", "minutes": 5,
              "clock": {"initial": 180, "increment": 2}, "starts_in": 10},
    )  # fmt: skip
    assert arena.status == 201, arena.text()
    page.click("header.top a[href='/tournaments']")
    entry = f"li.tournament-entry[data-tournament-id='{arena.json()['id']}']"
    page.wait_for_selector(f"{entry} time[data-when]:text-matches('^today')")
    assert today.fullmatch(page.inner_text(f"{entry} time[data-when]"))
    assert "starts today" in page.inner_text(entry)
    page.locator(entry).screenshot(path="/tmp/turns-dates-tournament.png")

    # Older games, in the reader's own calendar: the day before, then a day and month.
    words = page.evaluate(
        """async () => {
          const { playedWords } = await import("/static/when.js");
          const now = new Date(2026, 11, 3, 10, 0);
          return [new Date(2026, 11, 2, 9, 5), new Date(2026, 10, 28, 9, 5),
                  new Date(2025, 11, 3, 9, 5)].map((when) => playedWords(when, now));
        }"""
    )
    assert words == ["yesterday 09:05", "28 Nov", "3 Dec 2025"]
    context.close()


def test_bones_keeps_its_boards_size_and_marks_no_number_with_a_dot(
    server: str, browser: Any
) -> None:
    """After the first move the board stays as big (its legend's room was kept from the
    start), and a square to go to that holds a piece is ringed, its stack's number in sight."""
    from tests.web.browsing import (
        click_square,
        legal_strings,
        play_by_clicking,
        seq_of,
    )

    game = create(server, "bones", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + game["seats"][0]["url"])
    page.wait_for_selector("#game[data-mine=yes]")
    before = page.locator("#board svg").bounding_box()
    seq = seq_of(page)
    play_by_clicking(page, legal_strings(page)[0])
    # The computer answers at once: "not my move" may never be seen, the count after its reply is
    # (a selector: this page's policy forbids a script the test would evaluate).
    page.wait_for_selector(f"#game[data-mine=yes][data-seq='{seq + 2}']")
    after = page.locator("#board svg").bounding_box()
    assert before is not None and after is not None
    assert abs(after["width"] - before["width"]) < 1, (before, after)
    assert abs(after["height"] - before["height"]) < 1, (before, after)
    # Pick a square of a piece: its neighbours to go to include squares under pieces.
    covered = page.eval_on_selector_all(
        "#board svg [data-squares]",
        "pieces => pieces.flatMap((p) => p.getAttribute('data-squares').split(/[\\s,]+/))",
    )
    starts = {move.split("-")[0] for move in legal_strings(page)}
    square = next(s for s in covered if s in starts)
    click_square(page, square)
    page.wait_for_selector("#board rect.mark-dest")
    marks = page.eval_on_selector_all(
        "#board rect.mark-dest",
        "marks => marks.map((m) => [m.dataset.mark, m.classList.contains('on-piece')])",
    )
    on_pieces = [ringed for mark, ringed in marks if mark in covered]
    assert on_pieces, marks
    assert all(on_pieces), f"a dot over a stack's number: {marks}"
    page.screenshot(path="/tmp/turns-bones.png")
    context.close()
