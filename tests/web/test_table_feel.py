"""The table's feel in Chromium (issue 26): motion after a move (none under reduced motion),
sounds with a remembered mute switch, marks that never repaint a piece, the Flip board control,
offers opened beside the board with the tab title saying so."""

from __future__ import annotations

import io
from typing import Any

import httpx2
import pytest

from tests.web import test_browser
from tests.web.browsing import (
    TIMEOUT_MS,
    click_square,
    legal_strings,
    play_by_clicking,
    seq_of,
)
from tests.web.test_browser import create

# The browser tests' server and Chromium, shared (module-scoped: one of each for this file).
server = test_browser.server
browser = test_browser.browser

pytestmark = [pytest.mark.browser]

# Every element.animate call, with the move number on screen and how many animations the
# document was running right after it.
RECORD_ANIMATIONS = """
window.__animations = [];
const original = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const made = original.apply(this, args);
  window.__animations.push({
    seq: Number(document.getElementById('game')?.dataset.seq ?? -1),
    running: document.getAnimations().length,
    card: Boolean(this.closest?.('#board [data-card]')),
    seat: this.closest?.('#board [data-card]')?.dataset.seat ?? null,
    face: this.closest?.('#board [data-card]')?.dataset.face ?? null,
  });
  return made;
};
"""


def open_seat(browser: Any, url: str, **context: Any) -> Any:
    """A seat's page in a fresh context (``context``: Playwright's options), first view drawn."""
    options = {"bypass_csp": True, "viewport": {"width": 1280, "height": 900}, **context}
    page = browser.new_context(**options).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.add_init_script(RECORD_ANIMATIONS)
    page.goto(url)
    page.wait_for_selector("#game[data-seq]")
    return page


def wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.seq) >= {seq}", timeout=TIMEOUT_MS
    )


def play_against_the_computer(server: str, browser: Any, **context: Any) -> tuple[Any, int]:
    """South (a person) against North (the computer) in Obonto: South moves, the computer
    answers. The page and the computer's move number."""
    created = create(server, "obonto", seats=[{}, {"kind": "computer", "level": "easy"}])
    page = open_seat(browser, server + created["seats"][0]["url"], **context)
    start = seq_of(page)
    move = next(action for action in legal_strings(page) if "-" in action)
    play_by_clicking(page, move)
    # The computer's answer is drawn; the page is the person's to move again.
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.seq) >= {start + 2} && "
        "document.getElementById('game').dataset.mine === 'yes'",
        timeout=TIMEOUT_MS,
    )
    return page, seq_of(page)


def test_after_the_computer_moves_in_obonto_the_page_animates(server: str, browser: Any) -> None:
    page, computer_seq = play_against_the_computer(server, browser)
    records = page.evaluate("window.__animations")
    answered = [record for record in records if record["seq"] == computer_seq]
    assert answered, f"an animation ran for the computer's move: {records}"
    assert all(record["running"] > 0 for record in answered), "document.getAnimations() saw it"


def test_the_last_move_is_marked_once(server: str, browser: Any) -> None:
    """The page's own mark, not the drawing's outline of it as well (two outlines, two colours)."""
    page, _ = play_against_the_computer(server, browser)
    assert page.locator("#board rect.mark-last").count() == 2, "both squares of the move"
    assert page.locator("#board svg .last-move").count() == 2, "the drawing outlines them too"
    assert not page.locator("#board svg .last-move").first.is_visible(), "but it is hidden"


def test_no_animation_under_reduced_motion(server: str, browser: Any) -> None:
    page, _ = play_against_the_computer(server, browser, reduced_motion="reduce")
    assert page.evaluate("window.__animations") == []
    assert page.evaluate("document.getAnimations().length") == 0


def test_a_move_plays_a_sound_and_the_mute_switch_is_remembered(server: str, browser: Any) -> None:
    page, _ = play_against_the_computer(server, browser)
    assert int(page.get_attribute("html", "data-sounds") or 0) >= 2, "the moves were heard"
    mute = page.locator("#mute")
    assert mute.get_attribute("aria-pressed") == "false"
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#game[data-seq]")
    assert page.locator("#mute").get_attribute("aria-pressed") == "true", "remembered"
    start = seq_of(page)
    play_by_clicking(page, next(action for action in legal_strings(page) if "-" in action))
    wait_seq(page, start + 2)
    assert page.get_attribute("html", "data-sounds") == "0", "muted: not one sound played"


def pixel(page: Any, node: Any, across: float, down: float) -> tuple[int, ...]:
    """The colour on screen at the point ``across``, ``down`` (fractions) of ``node``'s box."""
    from PIL import Image

    node.scroll_into_view_if_needed()
    box = node.bounding_box()
    assert box is not None
    at = {"x": box["x"] + box["width"] * across, "y": box["y"] + box["height"] * down}
    png = page.screenshot(clip={**at, "width": 1, "height": 1})
    colour = Image.open(io.BytesIO(png)).convert("RGB").getpixel((0, 0))
    assert isinstance(colour, tuple), "an RGB picture's pixel is a tuple"
    return colour


def test_a_selected_piece_keeps_its_colour(server: str, browser: Any) -> None:
    created = create(server, "obonto", seats=[{}, {"kind": "computer", "level": "easy"}])
    page = open_seat(browser, server + created["seats"][0]["url"])
    square = next(action for action in legal_strings(page) if "-" in action).split("-")[0]
    token = page.locator(f'#board g.animal[data-square="{square}"] circle').nth(1)
    fill = token.evaluate("node => getComputedStyle(node).fill")
    # A point on the token's face, off its emblem: left of the centre, inside the rim.
    seen = pixel(page, token, 0.15, 0.5)
    click_square(page, square)
    page.wait_for_selector(f'#board rect.mark-sel[data-mark="{square}"]')
    token = page.locator(f'#board g.animal[data-square="{square}"] circle').nth(1)
    assert token.evaluate("node => getComputedStyle(node).fill") == fill
    assert pixel(page, token, 0.15, 0.5) == seen, "selection is an outline, not a tint"
    assert page.locator("#board rect.mark-dest").count() > 0, "its targets are dotted"


def test_bones_last_piece_keeps_its_colour_and_targets_show_over_pieces(
    server: str, browser: Any
) -> None:
    created = create(server, "bones")
    pages = [open_seat(browser, server + seat["url"]) for seat in created["seats"]]
    mover = next(p for p in pages if p.get_attribute("#game", "data-mine") == "yes")
    start = seq_of(mover)
    move = legal_strings(mover)[0]
    play_by_clicking(mover, move)
    wait_seq(mover, start + 1)
    piece = mover.locator("#board rect.piece").last
    # Near an end of the domino: away from the dot and the outline a square's mark draws.
    hide = "document.querySelector('#board g.marks').style.display = '{}'"
    mover.evaluate(hide.format("none"))
    plain = pixel(mover, piece, 0.5, 0.06)  # the piece as the server drew it, unmarked
    mover.evaluate(hide.format(""))
    assert mover.locator("#board rect.mark-last").count() > 0, "the last move is marked"
    assert pixel(mover, piece, 0.5, 0.06) == plain, "the last move's mark does not tint it"
    # The marks' layer is the drawing's last: a target on a domino is drawn over it.
    other = next(p for p in pages if p is not mover)
    wait_seq(other, start + 1)
    layers = other.eval_on_selector(
        "#board svg", "svg => svg.lastElementChild.getAttribute('class')"
    )
    assert layers == "marks"


def test_flip_board_turns_the_board_and_is_remembered(server: str, browser: Any) -> None:
    created = create(server, "obonto", seats=[{}, {"kind": "computer", "level": "easy"}])
    page = open_seat(browser, server + created["seats"][0]["url"])

    def top(square: str) -> float:
        box = page.locator(f'#board svg rect[data-square="{square}"]').bounding_box()
        assert box is not None
        return float(box["y"])

    assert top("e1") > top("e9"), "South's own row at the bottom"
    flip = page.locator("#flip")
    assert flip.is_visible() and flip.get_attribute("aria-pressed") == "false"
    flip.click()
    assert top("e1") < top("e9"), "turned: South's row at the top"
    assert flip.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#game[data-seq]")
    assert top("e1") < top("e9"), "the choice is remembered for this game"
    page.locator("#flip").click()
    assert top("e1") > top("e9")


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)])
def test_a_draw_offer_opens_beside_the_board_and_in_the_title(
    server: str, browser: Any, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    created = create(server, "oyno")  # (Obonto is never drawn)
    size = {"viewport": {"width": width, "height": height}}
    offering, answering = (
        open_seat(browser, server + seat["url"], **size) for seat in created["seats"]
    )
    offering.locator('[data-session="offer_draw"]').click()
    answering.wait_for_selector("#session-question:not([hidden])")
    box = answering.locator("#session-question").bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, box
    assert "offers a draw" in answering.locator("#session-question").inner_text()
    assert answering.title().startswith("Draw offered — "), answering.title()
    answering.locator("#session-no").click()
    answering.wait_for_function("!document.title.startsWith('Draw offered')")


def inside(page: Any, selector: str, width: int = 390, height: int = 844) -> bool:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is shown"
    return bool(
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width
        and box["y"] + box["height"] <= height
    )


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def seen_before(browser: Any, server: str, url: str, game: str) -> Any:
    """A phone's page of a game whose How to play this browser has already seen."""
    page = browser.new_context(bypass_csp=True, **PHONE).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.add_init_script(f"localStorage.setItem('boneyard.seen.{game}', 'yes')")
    page.goto(server + url)
    page.wait_for_selector("#game[data-mine='yes']")
    return page


def test_bon_bon_for_six_keeps_draw_and_pass_on_a_phones_screen(server: str, browser: Any) -> None:
    computer = {"kind": "computer", "level": "easy"}
    body = {"game": "bonbon", "seats": [{}] + [computer] * 5, "params": {"players": 6}}
    response = httpx2.post(f"{server}/api/games", json=body, timeout=30)
    assert response.status_code == 201, response.text
    created = response.json()
    page = seen_before(browser, server, created["seats"][0]["url"], "bonbon")
    buttons = page.locator("#actions [data-action]")
    assert buttons.count() >= 2, "Draw and Pass"
    for index in range(buttons.count()):
        assert inside(page, f"#actions [data-action] >> nth={index}"), "in view, no scrolling"
    assert page.evaluate("scrollY") == 0
    assert inside(page, "#bar-facts"), "the facts of the decision beside them"


def test_bond_o_cones_keeps_its_score_and_controls_on_a_phones_screen(
    server: str, browser: Any
) -> None:
    created = create(server, "bondo_cones", seats=[{}, {"kind": "computer", "level": "easy"}])
    page = seen_before(browser, server, created["seats"][0]["url"], "bondo_cones")
    assert inside(page, "#quick-setup"), "the set-up button in view"
    facts = page.locator("#bar-facts").inner_text()
    assert "points" in facts and inside(page, "#bar-facts"), facts


def test_the_move_log_takes_focus_with_a_name(server: str, browser: Any) -> None:
    """A long game's log scrolls inside itself: a keyboard user must reach it."""
    created = create(server, "bondo_cones", seats=[{}, {"kind": "computer", "level": "easy"}])
    page = open_seat(browser, server + created["seats"][0]["url"])
    log = page.locator("#log")
    assert log.get_attribute("tabindex") == "0" and log.get_attribute("aria-label")
    log.focus()
    assert page.evaluate("document.activeElement.id") == "log"


def test_a_drawn_card_is_dealt_with_motion(server: str, browser: Any) -> None:
    """Bon-Bon: the card drawn is dealt into its drawer's hand, and played, lands in a run,
    each with an animation. A drawing and its motion are made in one render (game.js), so the
    test waits for the state the move leaves on the table, never for the motion's time."""
    created = create(server, "bonbon", seats=[{}, {"kind": "computer", "level": "easy"}])
    page = open_seat(browser, server + created["seats"][0]["url"])
    for _round in range(5):
        start = hold_a_bon_bon_card(page)
        # The drawing that shows the card in hand is the one its motion started on.
        records = page.evaluate("window.__animations")
        assert any(r["seq"] == start and r["card"] for r in records), records
        # Face down: a face-up card may break the limit and end the round, clearing the runs.
        page.locator('#actions [data-action="down"]').click()
        # The drawing that first shows it moves the card into this seat's run (the computer's
        # answer may come in the same drawing), unless the round ended first: then again.
        placed = (
            f"window.__animations.some((r) => r.seq > {start} && r.seat === '0'"
            " && r.face === 'down')"
        )
        ended = (
            "[...document.querySelectorAll('[data-round-summary]')]"
            f".some((summary) => Number(summary.dataset.seq) > {start})"
        )
        page.wait_for_function(f"{placed} || {ended}")
        if page.evaluate(placed):
            return
    raise AssertionError("five rounds ended before a card played face down was drawn in place")


def hold_a_bon_bon_card(page: Any) -> int:
    """Play seat 0 on to a card in its hand that may go face up or down; the move number."""
    # This seat's card in hand (the computer's drawn card shows on the board too).
    held = "document.querySelector(\"#board g[data-seat='0'][data-card='drawn']\") !== null"
    for _move in range(60):
        page.wait_for_selector("#game[data-mine='yes']")
        start, legal = seq_of(page), legal_strings(page)
        if page.evaluate(held) and "down" in legal:
            return start
        # Draw, or answer what the last card asks (a gift's receiver, a catch, another card
        # after an empty wrapper); never stop taking cards, which would end the test's turns.
        answers = [a for a in legal if a.split()[0] not in ("pass", "bonus")]
        action = "draw" if "draw" in legal else (answers or legal)[0]
        page.locator(f'#actions [data-action="{action}"]').click()
        # The card waits in hand, or was played at once (a face-up-only card, or one that ends
        # the round) and the computer has answered: either way this seat's move again.
        page.wait_for_function(
            "document.getElementById('game')?.dataset.mine === 'yes'"
            f" && Number(document.getElementById('game')?.dataset.seq) > {start}"
        )
    raise AssertionError("sixty moves and never a card to hold")


def test_the_opponents_resignation_opens_beside_the_board(server: str, browser: Any) -> None:
    created = create(server, "obonto")
    resigning, staying = (open_seat(browser, server + seat["url"]) for seat in created["seats"])
    resigning.locator('[data-session="resign"]').click()
    resigning.locator("#session-yes").click()  # "Resign this game?" Yes
    staying.wait_for_selector("#session-question:not([hidden])")
    assert "resigned" in staying.locator("#session-question").inner_text()
    assert inside(staying, "#session-question", 1280, 900)
    assert "resigned — " in staying.title(), staying.title()
    staying.locator("#session-no").click()  # Close
    staying.wait_for_selector("#session-question", state="hidden")
    assert "resigned — " not in staying.title()
