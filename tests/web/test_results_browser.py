"""Results that belong to who played them (issue 41, item 1), by clicking in Chromium at a
desktop's and a phone's size: in a rated game whose other side stops moving the page offers to
claim the win or call the game off, never the computer; in a casual game the computer may stand
in, both pages say the game counts for nobody, and no Hint appears for the person left.

The server's silence before a claim is short here (``SILENCE``); the page learns of it from its
session's look every 15 seconds: each wait is on the page's state, never on a time."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from boneyard.web.store.ratings import PAIR_GAMES_PER_DAY
from boneyard.web.table.session import SessionSettings
from tests.web.accessibility import blocking_violations
from tests.web.browsing import (
    TIMEOUT_MS,
    launch,
    legal_strings,
    play_by_clicking,
    wait_for_seq_above,
)
from tests.web.conftest import all_games, app_settings
from tests.web.test_accounts_browser import (
    SIZES,
    device,
    log_in,
    move_each_by_clicking,
    open_menu_link,
    sign_up,
)
from tests.web.test_ratings import PASSWORD, move_each
from tests.web.test_results import ask, rated_game_of, serve_in_thread

pytestmark = [pytest.mark.browser]

SILENCE = 1.0
_names = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with a short silence before a claim or a stand-in, in a uvicorn thread."""
    app = create_app(
        f"sqlite:///{tmp_path_factory.mktemp('results') / 'web.db'}",
        catalog=Catalog(all_games()),
        settings=app_settings(bot_delay=0.05),
        session_settings=SessionSettings(stand_in_seconds=SILENCE),
    )
    yield from serve_in_thread(app)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BONEYARD_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def a_game_of_two(ann: Any, bob: Any, rated: bool) -> None:
    """Ann opens a Toy Walk game in the lobby (rated or not), Bob joins it."""
    open_menu_link(ann, "Lobby")
    ann.locator("#open-game").get_by_label("Game").select_option("toy_walk")
    if rated:
        ann.get_by_label("Rated").check()
    ann.get_by_role("button", name="Open a game").click()
    ann.wait_for_selector("#game[data-seq]")
    game_id = ann.get_attribute("#game", "data-game-id")
    open_menu_link(bob, "Lobby")
    bob.locator(f".lobby-game[data-game-id='{game_id}']").get_by_role("button", name="Join").click()
    bob.wait_for_selector("#game[data-seq]")


def the_mover(pages: list[Any]) -> tuple[Any, Any]:
    """(the page whose seat is to move, the other), once both show the same move number."""
    seq = max(int(p.get_attribute("#game", "data-seq")) for p in pages)
    for page in pages:
        page.wait_for_function(f"document.getElementById('game')?.dataset.seq === '{seq}'")
    mover = next(p for p in pages if p.get_attribute("#game", "data-mine") == "yes")
    return mover, next(p for p in pages if p is not mover)


@pytest.mark.parametrize("size", SIZES)
def test_a_rated_game_offers_the_claim_not_the_computer(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    number = next(_names)
    names = [f"Ann{number}{size}", f"Bob{number}{size}"]
    ann, bob = device(browser, size), device(browser, size)
    sign_up(ann, server, names[0])
    sign_up(bob, server, names[1])
    a_game_of_two(ann, bob, rated=True)
    move_each_by_clicking([ann, bob])
    present, absent = the_mover([ann, bob])
    seq = int(present.get_attribute("#game", "data-seq"))
    play_by_clicking(present, legal_strings(present)[0])
    wait_for_seq_above(present, seq)  # the other side is to move, and stops moving
    claim = present.get_by_role("button", name="Claim the win")
    claim.wait_for(state="visible", timeout=TIMEOUT_MS)
    waiting = present.locator("#session-waiting")
    assert "You may claim the win, or call the game off" in waiting.inner_text()
    assert present.get_by_role("button", name="Call the game off").is_visible()
    assert not present.get_by_role("button", name="Let the computer play for them").is_visible()
    assert present.locator("#hint").is_hidden()
    assert not blocking_violations(present)
    present.screenshot(path=str(shots / f"claim-offered-{size}.png"), full_page=True)
    claim.click()
    question = present.locator("#session-question")
    assert "Claim the win?" in question.inner_text()
    present.locator("#session-yes").click()
    for page in (present, absent):
        page.wait_for_selector("#game[data-terminal='yes']")
        assert "stopped moving" in page.locator("[role=status]").first.inner_text()
        page.wait_for_selector("#rating-note:has-text('New ratings')")
    winner = ann if present is ann else bob
    won = names[0] if present is ann else names[1]
    change = {
        item.get_attribute("data-name"): int(item.get_attribute("data-change"))
        for item in winner.locator("#rating-note .rating-change").all()
    }
    assert change[won] > 0
    absent.screenshot(path=str(shots / f"claim-lost-{size}.png"), full_page=True)
    for page in (ann, bob):
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_casual_stand_in_says_so_and_brings_no_hint(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    number = next(_names)
    ann, bob = device(browser, size), device(browser, size)
    sign_up(ann, server, f"Cy{number}{size}")
    sign_up(bob, server, f"Di{number}{size}")
    a_game_of_two(ann, bob, rated=False)  # two accounts, a casual game
    present, absent = the_mover([ann, bob])
    seq = int(present.get_attribute("#game", "data-seq"))
    play_by_clicking(present, legal_strings(present)[0])
    wait_for_seq_above(present, seq)
    stand_in = present.get_by_role("button", name="Let the computer play for them")
    stand_in.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert present.get_by_role("button", name="Claim the win").is_hidden()
    stand_in.click()
    present.wait_for_selector("#game[data-mine='yes']")  # the computer answered for them
    for page in (present, absent):
        page.wait_for_selector(".session-events li:has-text('this game counts for nobody')")
    assert present.locator("#hint").is_hidden(), "no Hint in a game between people"
    assert "You were away" in absent.locator("[role=status]").first.inner_text()
    assert not blocking_violations(present)
    present.screenshot(path=str(shots / f"stand-in-{size}.png"), full_page=True)
    absent.screenshot(path=str(shots / f"stood-in-for-{size}.png"), full_page=True)
    for page in (ann, bob):
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_rated_game_with_a_friend_from_the_custom_game_page(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    number = next(_names)
    names = [f"Eve{number}{size}", f"Fay{number}{size}"]
    eve, fay, guest = (device(browser, size) for _ in range(3))
    sign_up(eve, server, names[0])
    sign_up(fay, server, names[1])
    eve.goto(server + "/")
    eve.click("li[data-game=toy_walk] a:has-text('Custom game')")
    eve.locator("select[name=seat1]").select_option("human")
    eve.get_by_label("Rated: between accounts").check()
    assert not blocking_violations(eve)
    eve.get_by_role("button", name="Start the game").click()
    eve.wait_for_selector("h1:has-text('is ready')")
    assert "Rated game: each player signs in" in eve.inner_text("main")
    assert eve.locator("a.together").count() == 0, "one screen would count for nobody"
    eve.screenshot(path=str(shots / f"rated-invite-{size}.png"), full_page=True)
    links = [eve.get_attribute(f"li[data-seat='{s}'] a.invite", "href") for s in (0, 1)]
    guest.goto(server + links[1])  # a guest with the friend's link is told to sign in
    guest.wait_for_selector("#rating-note:has-text('Rated game between accounts')")
    assert guest.get_by_role("link", name="Sign in").count() >= 1
    guest.screenshot(path=str(shots / f"rated-guest-{size}.png"), full_page=True)
    fay.goto(server + links[1])
    eve.goto(server + links[0])
    for page in (eve, fay):
        page.wait_for_selector("#rating-note:has-text('Rated game: the ratings move')")
    move_each_by_clicking([eve, fay])
    fay.get_by_role("button", name="Resign").click()
    fay.locator("#session-yes").click()
    for page in (eve, fay):
        page.wait_for_selector("#rating-note:has-text('New ratings')")
    assert f"{names[0]} " in eve.inner_text("#rating-note")
    for page in (eve, fay, guest):
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_challenge_from_a_profile_seen_on_every_page(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    number = next(_names)
    names = [f"Gus{number}{size}", f"Hal{number}{size}"]
    gus, hal = device(browser, size), device(browser, size)
    sign_up(gus, server, names[0])
    sign_up(hal, server, names[1])
    hal.goto(server + "/")  # Hal reads the home page meanwhile
    gus.goto(f"{server}/@/{names[1]}")
    gus.get_by_text("Challenge", exact=True).click()
    gus.get_by_label("Game").select_option("toy_walk")
    gus.get_by_label("Rated").check()
    assert not blocking_violations(gus)
    gus.get_by_role("button", name="Send the challenge").click()
    gus.wait_for_selector("#challenge-sent:has-text('Challenge sent')")
    gus.wait_for_selector("#challenges p[data-status='open']:has-text('waits for an answer')")
    banner = hal.locator("#challenges p[data-status='open']")
    banner.wait_for(timeout=TIMEOUT_MS)  # the home page's next look, without a reload
    assert f"{names[0]} challenges you: Toy Walk, No clock, rated." in banner.inner_text()
    assert not blocking_violations(hal)
    hal.screenshot(path=str(shots / f"challenged-{size}.png"), full_page=True)
    banner.get_by_role("button", name="Accept").click()
    hal.wait_for_selector("#game[data-seq]")
    hal.wait_for_selector("#rating-note:has-text('Rated game')")
    answer = gus.locator("#challenges p[data-status='accepted']")
    answer.wait_for(timeout=TIMEOUT_MS)
    assert f"{names[1]} accepted your challenge" in answer.inner_text()
    gus.screenshot(path=str(shots / f"challenge-accepted-{size}.png"), full_page=True)
    answer.get_by_role("link", name="Play").click()
    gus.wait_for_selector("#game[data-seq]")
    assert gus.locator("#challenges").is_hidden(), "the game's own page says no more of it"
    move_each_by_clicking([gus, hal])  # both seats are theirs: the game is on
    # A second challenge, declined: the challenger's page says so.
    gus.goto(f"{server}/@/{names[1]}")
    gus.get_by_text("Challenge", exact=True).click()
    gus.get_by_role("button", name="Send the challenge").click()
    hal.goto(server + "/lobby")
    hal.locator("#challenges p[data-status='open']").get_by_role("button", name="Decline").click()
    hal.locator("#challenges").wait_for(state="hidden")
    gus.wait_for_selector("#challenges p[data-status='declined']", timeout=TIMEOUT_MS)
    for page in (gus, hal):
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_pairs_fourth_rated_game_of_the_day_says_before_it_starts(
    server: str, browser: Any, size: str, shots: Path
) -> None:
    number = next(_names)
    names = [f"Ivy{number}{size}", f"Jon{number}{size}"]
    http = []
    for offset, name in enumerate(names):  # three counted games, played through the API
        transport = httpx2.HTTPTransport(local_address=f"127.0.0.{20 + 2 * number + offset}")
        player = httpx2.Client(base_url=server, transport=transport, timeout=30)
        answer = player.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        http.append(player)
    for _ in range(PAIR_GAMES_PER_DAY):
        game = rated_game_of(*http)
        move_each(http, game)
        assert ask(http[1], game, 1, "resign").status_code == 200
    ivy, jon = device(browser, size), device(browser, size)
    log_in(ivy, server, names[0])
    log_in(jon, server, names[1])
    a_game_of_two(ivy, jon, rated=True)
    for page in (ivy, jon):  # before a move is made
        page.wait_for_selector("#rating-note:has-text('Unrated: these two accounts have played')")
        assert page.get_attribute("#game", "data-seq") == "0"
    ivy.screenshot(path=str(shots / f"unrated-repeat-{size}.png"), full_page=True)
    for page in (ivy, jon):
        page.context.close()
    for player in http:
        player.close()
