"""Accounts and ratings in Chromium, by clicking (issue 34), at a desktop's and a phone's size:
sign up, log out, log in on a second device and play on; two accounts' rated game and the new
ratings on their profiles. axe-core checks the new pages."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from boneyard.web.guard.signin import COOKIE
from tests.web.accessibility import blocking_violations
from tests.web.browsing import (
    TIMEOUT_MS,
    click_square,
    launch,
    legal_strings,
    play_by_clicking,
    seq_of,
    serve,
    wait_for_seq_above,
)

pytestmark = [pytest.mark.browser]

PASSWORD = "correct horse battery"
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
_names = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory.mktemp("accounts") / "web.db", bot_delay=0.05)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where the screenshots go (BONEYARD_SHOTS to keep them)."""
    folder = Path(os.environ.get("BONEYARD_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def device(browser: Any, size: str) -> Any:
    """A fresh browser profile (its own cookies and storage) at ``size``."""
    width, height = SIZES[size]
    context = browser.new_context(bypass_csp=True, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def move_each_by_clicking(pages: list[Any]) -> None:
    """Each page plays its first legal move by clicking, in turn (a game without chance)."""
    for turn in range(len(pages)):
        for page in pages:
            page.wait_for_function(f"document.getElementById('game')?.dataset.seq === '{turn}'")
        mover = next(p for p in pages if p.get_attribute("#game", "data-mine") == "yes")
        play_by_clicking(mover, legal_strings(mover)[0])
    for page in pages:
        wait_for_seq_above(page, len(pages) - 1)


def open_menu_link(page: Any, name: str) -> None:
    page.locator("header.top").get_by_role("link", name=name).click()


def sign_up(page: Any, server: str, name: str) -> None:
    page.goto(server + "/")
    open_menu_link(page, "Sign in")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Account name").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector(f"h1:has-text('Welcome, {name}')")
    assert page.locator(".recovery-codes li").count() == 10
    assert page.locator("header.top .signed-in").inner_text() == name


def log_in(page: Any, server: str, name: str) -> None:
    page.goto(server + "/")
    open_menu_link(page, "Sign in")
    page.get_by_label("Account name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    page.wait_for_selector("h1:has-text('My games')")


def play_first_move(page: Any) -> None:
    page.wait_for_function("document.getElementById('game')?.dataset.mine === 'yes'")
    seq = seq_of(page)
    page.click("#all-moves summary")
    page.locator("#all-actions [data-action]").first.click()
    wait_for_seq_above(page, seq)


@pytest.mark.parametrize("size", SIZES)
def test_sign_up_log_out_and_play_on_from_another_device(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    name = f"Walker{next(_names)}{size}"
    phone = device(browser, size)
    # A game against the computer before signing up: the account claims it.
    phone.goto(server + "/")
    phone.locator("form[action='/new/toy_walk']").get_by_role(
        "button", name="Play the computer"
    ).click()
    phone.wait_for_selector("#game[data-seq]")
    play_first_move(phone)
    game_url = phone.url
    sign_up(phone, server, name)
    phone.screenshot(path=str(shots / f"signed-up-{size}.png"), full_page=True)
    assert not blocking_violations(phone)
    phone.locator("header.top").get_by_role("button", name="Log out").click()
    phone.wait_for_selector("header.top >> text=Sign in")
    assert phone.locator("header.top .signed-in").count() == 0

    laptop = device(browser, size)
    log_in(laptop, server, name)
    game_id = game_url.split("/game/")[1].split("?")[0]
    entry = laptop.locator(f".mine-game[data-game-id='{game_id}']")
    entry.get_by_role("link", name="Carry on").click()
    laptop.wait_for_selector("#game[data-seq]")
    before = seq_of(laptop)
    play_first_move(laptop)
    assert seq_of(laptop) > before
    laptop.screenshot(path=str(shots / f"played-on-{size}.png"), full_page=True)
    for page in (phone, laptop):
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_two_accounts_rated_game_moves_their_profiles(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    number = next(_names)
    names = [f"Ann{number}{size}", f"Bob{number}{size}"]
    ann, bob = device(browser, size), device(browser, size)
    sign_up(ann, server, names[0])
    sign_up(bob, server, names[1])
    open_menu_link(ann, "Lobby")
    ann.locator("#open-game").get_by_label("Game").select_option("toy_walk")
    ann.get_by_label("Rated").check()
    ann.get_by_role("button", name="Open a game").click()
    ann.wait_for_selector("#rating-note:has-text('Rated game')")
    game_id = ann.get_attribute("#game", "data-game-id")

    open_menu_link(bob, "Lobby")
    waiting = bob.locator(f".lobby-game[data-game-id='{game_id}']")
    assert "rated" in waiting.inner_text() and f"{names[0]} (1500?) waits" in waiting.inner_text()
    bob.get_by_label("from").fill("1600")  # the range of ratings hides Ann's game, then shows it
    waiting.wait_for(state="detached")
    bob.get_by_label("from").fill("1400")
    waiting.get_by_role("button", name="Join").click()
    bob.wait_for_selector("#game[data-seq]")
    bob.wait_for_selector("#rating-note:has-text('Rated game')")
    move_each_by_clicking([ann, bob])  # before, the game could only be called off
    bob.get_by_role("button", name="Resign").click()
    bob.locator("#session-yes").click()
    for page in (ann, bob):
        page.wait_for_selector("#rating-note:has-text('New ratings')")
    change = {
        item.get_attribute("data-name"): int(item.get_attribute("data-change"))
        for item in ann.locator("#rating-note .rating-change").all()
    }
    assert change[names[0]] > 0 > change[names[1]]
    assert f"(+{change[names[0]]})" in ann.inner_text("#rating-note")
    ann.screenshot(path=str(shots / f"rated-end-{size}.png"), full_page=True)
    ann.locator("#session-question").get_by_role("button", name="Close").click()  # the news

    for page, name, sign in ((ann, names[0], 1), (bob, names[1], -1)):
        page.locator("header.top .signed-in").click()
        page.wait_for_selector(f"h1:has-text('{name}')")
        rating = page.locator("tr[data-game='toy_walk'] .rating")
        assert rating.inner_text().endswith("?")  # provisional after one game
        assert (int(rating.get_attribute("data-rating")) - 1500) * sign > 0
        assert page.get_by_role("link", name="replay").count() >= 1
        assert not blocking_violations(page)
    bob.screenshot(path=str(shots / f"profile-{size}.png"), full_page=True)
    for page in (ann, bob):
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_quick_pairing_brings_two_seekers_to_one_game(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    number = next(_names)
    cy, di = device(browser, size), device(browser, size)
    sign_up(cy, server, f"Cy{number}{size}")
    for page in (cy, di):
        page.goto(server + "/")
        open_menu_link(page, "Lobby")
        page.get_by_label("Game to play now").select_option("toy_walk")
    cy.get_by_role("button", name="Quick pairing").click()
    cy.wait_for_selector("#quick-status:has-text('Looking for an opponent')")
    cy.screenshot(path=str(shots / f"quick-pairing-{size}.png"), full_page=True)
    assert not blocking_violations(cy)
    di.get_by_label("Your name").fill("Di")  # no account: a name for the opponent to read
    di.get_by_role("button", name="Quick pairing").click()
    for page in (cy, di):
        page.wait_for_selector("#game[data-seq]")
    assert cy.get_attribute("#game", "data-game-id") == di.get_attribute("#game", "data-game-id")
    assert cy.get_attribute("#game", "data-tokens") != di.get_attribute("#game", "data-tokens")
    for page in (cy, di):
        page.context.close()


def test_a_ladder_level_solved_signed_in_shows_on_another_device(server: str, browser: Any) -> None:
    from boneyard.solvers.oyno_puzzle import solve_position

    name = f"Climber{next(_names)}"
    phone = device(browser, "phone")
    sign_up(phone, server, name)
    open_menu_link(phone, "Puzzle ladder")
    phone.click("[data-level='1'] button")
    phone.wait_for_selector("#game[data-seq]")
    game_id, seat_token = phone.url.split("/game/")[1].split("?t=")
    # The seat is the account's: its token opens it with the account's session only.
    session = {c["name"]: c["value"] for c in phone.context.cookies() if c["name"] == COOKIE}
    view = httpx2.get(
        f"{server}/api/games/{game_id}", params={"token": seat_token}, cookies=session
    ).json()
    solution = solve_position(view["observation"]["position"])
    assert solution is not None
    phone.wait_for_selector("#session-puzzle:not([hidden])")
    for move in solution:
        before = seq_of(phone)
        for square in move.split("-"):
            click_square(phone, square)
        wait_for_seq_above(phone, before)
    phone.wait_for_selector("#session-puzzle[data-solved='yes']")
    laptop = device(browser, "desktop")
    log_in(laptop, server, name)
    open_menu_link(laptop, "Puzzle ladder")
    laptop.wait_for_selector("[data-level='1'][data-state='solved']")
    assert laptop.get_attribute("[data-level='2']", "data-state") == "open"
    for page in (phone, laptop):
        page.context.close()


def test_a_passkey_added_on_the_profile_logs_in_without_a_password(
    server: str, browser: Any
) -> None:
    """Chromium's virtual authenticator stands for the device's (a passkey needs a name, not an
    address, for its site: the page is opened at localhost)."""
    site = server.replace("127.0.0.1", "localhost")
    name = f"Keyholder{next(_names)}"
    page = device(browser, "desktop")
    authenticator = page.context.new_cdp_session(page)
    authenticator.send("WebAuthn.enable")
    authenticator.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    sign_up(page, site, name)
    page.get_by_role("link", name="Your profile").click()
    page.get_by_role("button", name="Add a passkey").click()
    page.wait_for_selector("#passkey-status:has-text('Passkey added: you have 1')")
    page.locator("header.top").get_by_role("button", name="Log out").click()
    page.wait_for_selector("header.top >> text=Sign in")
    open_menu_link(page, "Sign in")
    page.get_by_role("button", name="Log in with a passkey").click()
    page.wait_for_selector("h1:has-text('My games')")
    assert page.locator("header.top .signed-in").inner_text() == name
    page.context.close()


def test_the_account_pages_pass_axe(server: str, browser: Any) -> None:
    page = device(browser, "desktop")
    for path in ("/signup", "/login", "/recover", "/leaderboard/toy_walk"):
        page.goto(server + path)
        page.wait_for_selector("main h1")
        found = blocking_violations(page)
        assert not found, f"{path}:\n" + "\n".join(found)
    page.context.close()


def test_sign_up_works_under_the_servers_csp(server: str, browser: Any) -> None:
    """The account pages' own scripts and forms pass the Content-Security-Policy, unreported."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    reports: list[str] = []
    page.on(
        "console",
        lambda message: (
            reports.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    name = f"Csp{next(_names)}"
    sign_up(page, server, name)
    page.locator("header.top").get_by_role("button", name="Log out").click()
    page.wait_for_selector("header.top >> text=Sign in")
    log_in(page, server, name)
    assert reports == []
    context.close()
