"""The session of play in Chromium: rematch, an Obonto match on one page, takeback, My games."""

from __future__ import annotations

import random
from typing import Any

import httpx2
import pytest

from tests.web import test_browser
from tests.web.test_browser import TIMEOUT_MS, click_square, create, open_page, seq_of

# The browser tests' server and Chromium, shared (module-scoped: one of each for this file).
server = test_browser.server
browser = test_browser.browser

pytestmark = [pytest.mark.browser]


def api_view(server: str, game_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"draw": "false", **({"token": token} if token else {})}
    response = httpx2.get(f"{server}/api/games/{game_id}", params=params, timeout=30)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def api_play(server: str, game_id: str, token: str, move: str) -> None:
    play_at(server, game_id, token, api_view(server, game_id)["seq"], move)


def play_at(server: str, game_id: str, token: str, seq: int, move: str) -> None:
    """``move`` through the API, on the position of move number ``seq``."""
    response = httpx2.post(
        f"{server}/api/games/{game_id}/actions",
        json={"token": token, "seq": seq, "action_string": move},
        timeout=30,
    )
    assert response.status_code == 200, response.text


def wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.seq) === {seq}", timeout=TIMEOUT_MS
    )


def settle(page: Any) -> None:
    """Until nothing on the page moves: a square in the middle of its turn is not there to click."""
    page.wait_for_function(
        "document.getAnimations().every(animation => animation.playState !== 'running')",
        timeout=TIMEOUT_MS,
    )


def wait_seq_above(page: Any, seq: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.seq) > {seq}", timeout=TIMEOUT_MS
    )


def test_bones_rematch_in_two_browsers_the_loser_starts(server: str, browser: Any) -> None:
    created = create(server, "bones", seats=[{"kind": "human"}, {"kind": "human"}])
    white, black = (seat["token"] for seat in created["seats"])
    white_page = open_page(browser, server + created["seats"][0]["url"])
    black_page = open_page(browser, server + created["seats"][1]["url"])
    for white_move, black_move in (("e5-f5", "a1-a2"), ("g5-h5", "a3-a4"), ("c5-d5", None)):
        api_play(server, created["id"], white, white_move)
        if black_move:
            api_play(server, created["id"], black, black_move)
    black_page.wait_for_selector("[data-session=rematch]:not([hidden])")
    # The loser is told as lichess tells them, in the second person (issue 41); c5-d5 joined
    # e5-h5, and the words count all six squares.
    told = black_page.inner_text("#status").lower()
    assert "you lost: white has 6 squares in a line from c5 to h5" in told
    white_page.wait_for_selector("#status:has-text('You won')")
    black_page.click("[data-session=rematch]")
    black_page.wait_for_url(lambda url: created["id"] not in url, timeout=TIMEOUT_MS)
    black_page.wait_for_selector("#game[data-seq]")
    assert black_page.get_attribute("#game", "data-mine") == "yes", "the loser moves first"
    assert "place the first piece" in black_page.inner_text("#status").lower()
    assert "Game 2 of the series" in black_page.inner_text("#session-series")
    white_page.wait_for_selector("#session-next:not([hidden])")
    white_page.click("#session-next")
    white_page.wait_for_url(lambda url: created["id"] not in url, timeout=TIMEOUT_MS)
    white_page.wait_for_selector("#game[data-seq]")
    assert white_page.get_attribute("#game", "data-mine") == "no"
    series = white_page.inner_text("#session-series")
    # The first game's winner now plays black: the score follows the person, not the colour.
    assert "white 0 wins" in series.lower() and "black (you) 1 win" in series.lower()
    white_page.goto(server + "/mine")
    white_page.wait_for_selector(".mine-game")
    assert white_page.locator(".mine-game").count() == 2, "My games lists both games"
    first = f".mine-game[data-game-id='{created['id']}']"
    white_page.wait_for_selector(f"{first} .status-line:text-is('Game over: you won')")
    second = f".mine-game:not([data-game-id='{created['id']}'])"
    white_page.wait_for_selector(f"{second} .status-line:text-is('Waiting for White')")
    assert white_page.get_attribute(second, "data-your-move") == "no"
    white_page.context.close()
    black_page.context.close()


def test_an_obonto_match_of_three_games_on_one_page(server: str, browser: Any) -> None:
    """Games 1 and 2 played through the API and followed by the page, game 3 by clicks on it.

    Every wait is on a state the page or the server shows: the page at the server's move
    number, this seat's move on the page, a square picked before its destination is clicked
    (a click on the destination with nothing picked would play nothing, and the wait for the
    next move number would run out under load)."""
    response = httpx2.post(
        f"{server}/api/games",
        json={
            "game": "obonto",
            "params": {"games": 3},
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}],
        },
        timeout=30,
    )
    created = response.json()
    token = created["seats"][0]["token"]
    page = open_page(browser, server + created["seats"][0]["url"])
    url = page.url
    rng = random.Random(5)
    games_seen = set()
    while True:
        page.wait_for_function(
            "document.getElementById('game').dataset.mine === 'yes'"
            " || document.getElementById('game').dataset.terminal === 'yes'",
            timeout=TIMEOUT_MS,
        )
        view = api_view(server, created["id"], token)
        # The page shows what the server holds: this seat's move, or the match's end.
        assert view["seq"] == seq_of(page), "the page follows every move"
        games_seen.add(view["observation"]["game"])
        if view["terminal"]:
            break
        move = rng.choice(view["legal"])["string"]
        if view["observation"]["game"] < 3:
            play_at(server, created["id"], token, view["seq"], move)  # the page follows it
        else:
            origin, destination = move.split("-")
            settle(page)
            click_square(page, origin)
            page.wait_for_function(
                f"document.querySelector('#board rect.mark-sel[data-mark=\"{origin}\"]')"
                " || document.getElementById('message').textContent",
                timeout=TIMEOUT_MS,
            )
            assert page.locator("#message").inner_text() == "", page.inner_text("#game")
            click_square(page, destination)
        wait_seq_above(page, view["seq"])
    assert games_seen == {1, 2, 3}
    assert page.url == url, "the whole match is played on one page"
    end = api_view(server, created["id"], token)["observation"]
    assert len(end["results"]) == 3
    assert page.get_attribute("#game", "data-terminal") == "yes"
    page.context.close()


def test_takeback_against_the_computer_in_the_browser(server: str, browser: Any) -> None:
    created = create(
        server, "obonto", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    )
    page = open_page(browser, server + created["seats"][0]["url"])
    click_square(page, "e1")
    click_square(page, "e3")
    wait_seq(page, 2)  # the computer answered
    page.click("[data-session=takeback]")
    wait_seq(page, 0)
    assert page.get_attribute("#game", "data-mine") == "yes"
    assert "took back 2 moves" in page.inner_text("#session-events")
    page.click("[data-session=resign]")
    page.click("#session-yes")  # "Resign this game?"
    page.wait_for_selector("#game[data-session-ended=resign]")
    assert "resigned" in page.inner_text("#status")
    page.goto(f"{server}/game/{created['id']}/replay")
    page.click("#last")
    page.wait_for_function(
        "document.getElementById('replay-events').textContent.includes('resigned')"
    )
    page.context.close()


def test_a_ladder_level_solved_in_the_browser(server: str, browser: Any) -> None:
    from boneyard.solvers.oyno_puzzle import solve_position

    context = browser.new_context(bypass_csp=True)  # see browsing.open_page
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/ladder")
    assert page.get_attribute("[data-level='2']", "data-state") == "locked"
    page.click("[data-level='1'] button")
    page.wait_for_selector("#game[data-seq]")
    game_id, token = page.url.split("/game/")[1].split("?t=")
    position = api_view(server, game_id, token)["observation"]["position"]
    solution = solve_position(position)
    assert solution is not None
    page.wait_for_selector("#session-puzzle:not([hidden])")
    for move in solution:
        before = seq_of(page)
        for square in move.split("-"):
            click_square(page, square)
        page.wait_for_function(
            f"Number(document.getElementById('game').dataset.seq) > {before}",
            timeout=TIMEOUT_MS,
        )
    page.wait_for_selector("#session-puzzle[data-solved='yes']")
    assert f"Solved in {len(solution)} move" in page.inner_text("#session-puzzle")
    page.goto(server + "/ladder")
    assert page.get_attribute("[data-level='1']", "data-state") == "solved"
    assert page.get_attribute("[data-level='2']", "data-state") == "open"
    context.close()


def test_joining_an_open_game_from_a_second_browser(server: str, browser: Any) -> None:
    ann_context, ben_context = (browser.new_context(bypass_csp=True) for _ in range(2))
    ann, ben = ann_context.new_page(), ben_context.new_page()
    for page in (ann, ben):
        page.set_default_timeout(TIMEOUT_MS)
    ann.goto(server + "/lobby")
    # Ben gave his name on the home page: the lobby knows it
    ben.goto(server + "/")
    ben.fill("#your-name", "Ben")
    ben.click("nav a:has-text('Lobby')")
    ben.wait_for_url("**/lobby")  # (loaded: its script has run)
    assert ben.input_value("#your-name") == "Ben"
    ann.fill("#your-name", "Ann")
    ann.select_option("#open-kind", "bones")
    ann.fill("[data-param=pieces]", "20")
    ann.click("#open-game button[type=submit]")
    ann.wait_for_selector("#game[data-seq]")
    ann.wait_for_selector("#session-waiting:not([hidden])")
    # Before anyone joins, no move: the seat's prompt says it waits for an opponent.
    assert ann.inner_text("[role=status] #prompt") == "Waiting for an opponent to join."
    assert ann.get_attribute("#game", "data-mine") == "no"
    assert not ann.title().startswith("Your move")
    assert ann.locator("[data-session=abort]").is_visible(), "Call the game off stays"
    # ... but nobody is there yet to resign to or to offer a draw (issue 41)
    assert ann.locator("[data-session=resign]").is_hidden()
    assert ann.locator("[data-session=offer_draw]").is_hidden()
    game_id = ann.url.split("/game/")[1].split("?")[0]
    ben.wait_for_selector(f"[data-game-id='{game_id}'] button.join")
    again = ann_context.new_page()  # Ann looks at the lobby again: her game is hers
    again.set_default_timeout(TIMEOUT_MS)
    again.goto(server + "/lobby")
    back = again.locator(f"[data-game-id='{game_id}'] a.yours")
    back.wait_for()
    assert "you wait for an opponent" in again.inner_text(f"[data-game-id='{game_id}']")
    assert again.locator(f"[data-game-id='{game_id}'] button.join").count() == 0
    back.click()
    again.wait_for_selector("#game[data-seat]")
    again.close()
    # Bones draws the colours of a first game whose creator chose no seat.
    ann_seat = int(ann.get_attribute("#game", "data-seat"))
    colours = ["White", "Black"]
    ann.wait_for_selector(
        f"#seats li[data-seat='{ann_seat}']:has-text('Ann ({colours[ann_seat]}, you)')"
    )
    row = ben.inner_text(f"[data-game-id='{game_id}']")
    assert "Ann waits" in row and "pieces 20" in row
    ben.click(f"[data-game-id='{game_id}'] button.join")
    ben.wait_for_url(f"**/game/{game_id}?t=*")
    ben.wait_for_selector("#game[data-seq]")
    ben_seat = 1 - ann_seat
    assert ben.get_attribute("#game", "data-seat") == str(ben_seat)
    ann.wait_for_selector(  # his lobby name
        f"#seats li[data-seat='{ben_seat}']:has-text('Ben ({colours[ben_seat]})')"
    )
    ann.wait_for_selector("#session-waiting", state="hidden")
    white, other = (ann, ben) if ann_seat == 0 else (ben, ann)
    white.wait_for_selector("#game[data-mine='yes']")
    click_square(white, "e5")
    click_square(white, "f5")
    wait_seq(other, 1)  # the other board follows White's move
    ann.click("nav a:has-text('Games')")  # and the name Ann gave the lobby is hers everywhere
    ann.wait_for_url(server + "/")  # (loaded: its script has run)
    assert ann.input_value("#your-name") == "Ann"
    ann_context.close()
    ben_context.close()


def test_a_friend_names_their_seat_from_the_invite_link(server: str, browser: Any) -> None:
    ann_context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    ben_context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844})
    ann, ben = ann_context.new_page(), ben_context.new_page()
    for page in (ann, ben):
        page.set_default_timeout(TIMEOUT_MS)
    ann.goto(server + "/")
    ann.fill("#your-name", "Ann")
    ann.click("li[data-game=bones] button:has-text('Play a friend')")
    # Bones draws the colours of a first game: Ann's seat is either.
    ann_seat = int(ann.get_attribute("li[data-seat]:has-text('Ann (')", "data-seat"))
    ben_seat = 1 - ann_seat
    colours = ["White", "Black"]
    assert ann.inner_text(f"li[data-seat='{ann_seat}']").startswith(f"Ann ({colours[ann_seat]}):")
    ben_li = f"li[data-seat='{ben_seat}']"
    # the page's script makes each link a whole address; the click returns before it has run
    ann.wait_for_function(
        f"document.querySelector(\"{ben_li} input.link\").value.startsWith('http')"
    )
    invite = ann.input_value(f"{ben_li} input.link")  # what Ann sends to Ben
    assert invite.startswith(server + "/game/")
    assert ann.inner_text("a.spectate").startswith(server + "/game/")
    ann_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    ann.click(f"{ben_li} button.copy")  # Ann copies Ben's link to send it
    ann.wait_for_selector(f"{ben_li} button.copy:has-text('Copied')")
    assert ann.evaluate("navigator.clipboard.readText()") == invite
    ann.click(f"li[data-seat='{ann_seat}'] a.invite")
    ann.wait_for_selector("#game[data-seq]")
    assert ann.input_value("#seat-name") == "Ann"
    ben.goto(invite)
    ben.wait_for_selector("#name-form:not([hidden])")
    assert ben.input_value("#seat-name") == "", "Ben has not said his name yet"
    ben.fill("#seat-name", "Ben")
    ben.click("#name-form button[type=submit]")
    ben_colour = colours[ben_seat]
    ann.wait_for_selector(f"#seats li[data-seat='{ben_seat}']:has-text('Ben ({ben_colour})')")
    ann.wait_for_selector(f"#session-events li:has-text('{ben_colour} is now called Ben')")
    ben.wait_for_selector(f"#seats li[data-seat='{ben_seat}']:has-text('Ben ({ben_colour}, you)')")
    # the name is remembered: Ben's next invite link names his seat by itself
    second = httpx2.post(
        f"{server}/api/games",
        json={"game": "bones", "seats": [{"kind": "human"}, {"kind": "human"}]},
        timeout=30,
    ).json()
    ben.goto(server + second["seats"][1]["url"])
    ben.wait_for_selector("#seats li[data-seat='1']:has-text('Ben (Black, you)')")
    ann_context.close()
    ben_context.close()
