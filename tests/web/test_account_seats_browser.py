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
from tests.web.test_accounts_browser import PASSWORD, SIZES, device, sign_up

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
    page.wait_for_function("document.getElementById('game')?.dataset.mine === 'yes'")
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
    # The first account, back on this browser, follows the offer and plays its seat again.
    page.goto(game_url)
    page.get_by_role("link", name=f"Log in as {first}").click()
    page.get_by_label("Account name").fill(first)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    page.wait_for_function("document.getElementById('game')?.dataset.mine === 'yes'")
    assert page.url == game_url and page.locator("#owner-note").count() == 0
    page.context.close()


def test_an_accounts_seat_goes_by_its_name_and_a_guest_cannot_take_it(
    server: str, browser: Any, shots: Path
) -> None:
    ann_name = f"ann{next(_names)}"  # written in lower case: it stays so everywhere
    ann = device(browser, "desktop")
    ben = device(browser, "phone")
    sign_up(ann, server, ann_name)
    ann.goto(server + "/")
    ann.select_option("li[data-game=bones] select[name=clock]", "1d")  # a clock shows names too
    ann.click("li[data-game=bones] button:has-text('Play a friend')")
    ann_li = ann.locator(f"li[data-seat]:has-text('{ann_name} (')")
    ann_seat = int(str(ann_li.get_attribute("data-seat")))
    ben_seat = 1 - ann_seat
    ben_li = f"li[data-seat='{ben_seat}']"
    ann.wait_for_function(
        f"document.querySelector(\"{ben_li} input.link\").value.startsWith('http')"
    )
    invite = ann.input_value(f"{ben_li} input.link")
    ann.click(f"li[data-seat='{ann_seat}'] a.invite")
    ann.wait_for_selector("#game[data-seq]")
    colours = ["White", "Black"]
    ann.wait_for_selector(
        f"#seats li[data-seat='{ann_seat}']:text-is('{ann_name} ({colours[ann_seat]}, you)')"
    )
    assert ann.locator("#name-form").is_hidden()  # an account's seat has the account's name
    own_clock = f"[data-clock-seat='{ann_seat}'] .clock-name"
    ann.wait_for_selector(f"{own_clock}:text-is('{ann_name} ({colours[ann_seat]}, you)')")

    ben.goto(invite)
    ben.wait_for_selector("#name-form:not([hidden])")
    ben.wait_for_selector(f"#seats li[data-seat='{ann_seat}']:has-text('{ann_name} (')")
    ben.fill("#seat-name", ann_name.upper())
    ben.click("#name-form button[type=submit]")
    message = ben.locator("#message")
    message.filter(has_text="is the name of an account here").wait_for()
    assert message.inner_text().startswith("Your name was not saved:")
    ben.screenshot(path=str(shots / "name-refused-phone.png"), full_page=True)
    ben.fill("#seat-name", "Ben")
    ben.click("#name-form button[type=submit]")
    ben.wait_for_selector(
        f"#seats li[data-seat='{ben_seat}']:has-text('Ben ({colours[ben_seat]}, you)')"
    )
    ben.wait_for_function("document.getElementById('message')?.textContent === ''")
    assert not blocking_violations(ben)
    ann.wait_for_selector(
        f"#seats li[data-seat='{ben_seat}']:has-text('Ben ({colours[ben_seat]})')"
    )
    ann.wait_for_selector(f"#session-events li:has-text('{colours[ben_seat]} is now called Ben')")
    assert "is now called" not in ben.locator("#session-events").inner_text()
    ann.screenshot(path=str(shots / "account-seat-desktop.png"), full_page=True)
    ben.screenshot(path=str(shots / "guest-seat-phone.png"), full_page=True)

    assert my_games(ann) == [invite.split("/game/")[1].split("?")[0]]
    line = ann.locator(".mine-game").inner_text()
    assert f"you play {ann_name} (" in line and "against Ben (" in line, line
    for page in (ann, ben):
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_settings_page_from_the_menu(server: str, browser: Any, size: str, shots: Path) -> None:
    name = f"Set{next(_names)}{size}"
    page = device(browser, size)
    sign_up(page, server, name)
    assert page.get_by_role("button", name="Copy the codes").is_visible()
    if size == "desktop":
        page.locator("header.top").get_by_role("link", name="Settings").click()
    else:  # a phone's menu keeps to its lines: the account's name leads to its profile
        page.locator("header.top .signed-in").click()
        page.locator("main").get_by_role("link", name="Settings").click()
    page.wait_for_selector("h1:has-text('Settings')")
    assert page.get_by_text("At least 8 characters.").is_visible()
    page.get_by_label("Current password").first.fill("not my password")
    page.get_by_label("New password", exact=True).fill("a brand new secret")
    page.get_by_label("New password again").fill("a brand new secret")
    page.get_by_role("button", name="Change password").click()
    page.get_by_role("alert").filter(has_text="not your current password").wait_for()
    page.get_by_label("Current password").first.fill(PASSWORD)
    page.get_by_label("New password", exact=True).fill("a brand new secret")
    page.get_by_label("New password again").fill("a brand new secret")
    page.get_by_role("button", name="Change password").click()
    page.get_by_text("Your password is changed.").wait_for()
    page.get_by_label("Current password").nth(1).fill("a brand new secret")
    page.get_by_role("button", name="Make new recovery codes").click()
    page.get_by_text("Your new recovery codes.").wait_for()
    assert page.locator(".recovery-codes li").count() == 10
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.get_by_role("button", name="Copy the codes").click()
    page.get_by_text("Copied: paste them somewhere safe.").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()").split("\n")
    assert copied == [code.inner_text() for code in page.locator(".recovery-codes code").all()]
    page.screenshot(path=str(shots / f"settings-{size}.png"), full_page=True)
    assert not blocking_violations(page)
    page.get_by_role("button", name="Log out everywhere").click()
    page.wait_for_selector("header.top >> text=Sign in")
    page.context.close()
