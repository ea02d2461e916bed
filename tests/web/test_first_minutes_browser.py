"""What a first-time player hits in the first minutes (issue 35), in Chromium, clicking only from
the home page: the table fits a laptop's window, a seat that left only watches, motion for every
change."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest

from boneyard.core.registry import list_games
from tests.web import test_browser
from tests.web.browsing import (
    TIMEOUT_MS,
    legal_strings,
    play_by_clicking,
    seq_of,
)

server = test_browser.server
browser = test_browser.browser

pytestmark = [pytest.mark.browser]

TWO_PLAYER_GAMES = [name for name in list_games() if name != "oyno_puzzle"]


def first_visit(browser: Any, width: int, height: int, **options: Any) -> Any:
    """A page in a fresh browser (nothing remembered: How to play opens), ``width`` x ``height``."""
    context = browser.new_context(
        bypass_csp=True, viewport={"width": width, "height": height}, **options
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def play_the_computer(page: Any, server: str, game: str) -> None:
    """The home page's one click, then the first view in which this seat decides."""
    page.goto(server + "/")
    page.click(f"li[data-game={game}] form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-mine='yes']")


def box_of(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is shown"
    return dict(box)


def in_window(box: dict[str, float], width: int, height: int) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )


@pytest.mark.parametrize("window", [(1280, 900), (1366, 768)], ids=["1280x900", "1366x768"])
@pytest.mark.parametrize("game", [*TWO_PLAYER_GAMES, "oyno_puzzle"])
def test_the_whole_table_fits_a_laptops_window_on_a_first_visit(
    server: str, browser: Any, game: str, window: tuple[int, int]
) -> None:
    width, height = window
    page = first_visit(browser, width, height)
    play_the_computer(page, server, game)
    assert page.locator("#how-to-play").get_attribute("open") is not None, "a first visit"
    assert page.evaluate("scrollY") == 0
    board = box_of(page, "#board svg")
    assert in_window(board, width, height), f"the whole board in view: {board}"
    assert in_window(box_of(page, "[role=status]"), width, height), "the prompt in view"
    controls = page.locator(
        "#actions [data-action], #table-bar button:visible, #session-buttons button:visible"
    )
    for index in range(controls.count()):
        control = dict(controls.nth(index).bounding_box())
        assert in_window(control, width, height), f"control {index} in view: {control}"
    how = box_of(page, "#how-to-play")
    assert how["y"] >= board["y"] and how["x"] >= board["x"] + board["width"], (
        "How to play beside the board, never above it"
    )
    page.context.close()


def test_a_phone_keeps_one_column_with_the_board_first(server: str, browser: Any) -> None:
    page = first_visit(browser, 390, 844, is_mobile=True, has_touch=True)
    play_the_computer(page, server, "obonto")
    board = box_of(page, "#board svg")
    how = box_of(page, "#how-to-play")
    assert board["width"] >= 340, f"the board takes the phone's width: {board}"
    assert how["y"] > board["y"] + board["height"], "the board before How to play"
    assert box_of(page, "[role=status]")["y"] < board["y"], "the prompt just above it"
    page.context.close()


# Every time the page sets whether it is this seat's move, once the test says to record.
RECORD_MINE = """
window.__mine = [];
new MutationObserver(() => {
  const game = document.getElementById('game');
  if (window.__recording && game) window.__mine.push(game.dataset.mine);
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-mine'] });
"""


def custom_game_invites(page: Any, server: str, game: str, seats: list[str], **params: str) -> None:
    """From the home page, *Custom game* of ``game`` with ``params`` and a seat each of
    ``seats`` ("human" or a level's number), started: the page of invite links."""
    page.goto(server + "/")
    page.click(f"li[data-game={game}] a:has-text('Custom game')")
    for name, value in params.items():
        page.locator(f"[name=p_{name}]").fill(value)
    for index, choice in enumerate(seats):
        page.select_option(f"select[name=seat{index}]", choice)
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("a.invite")


def test_a_seat_that_left_a_game_of_three_watches_and_says_so(server: str, browser: Any) -> None:
    page = first_visit(browser, 1280, 900)
    page.add_init_script(RECORD_MINE)
    custom_game_invites(page, server, "bonbon", ["human", "human", "1"], players="3")
    page.locator("li[data-seat='0'] a.invite").click()
    page.wait_for_selector("#game[data-mine='yes']")  # Red moves first
    assert "(you)" in page.locator("#seats li[data-seat='0']").inner_text()
    page.evaluate("window.__recording = true")
    page.locator('[data-session="resign"]').click()
    page.locator("#session-yes").click()  # "Resign this game?" Yes
    page.wait_for_function(
        "document.getElementById('prompt').textContent.includes('left this game')"
    )
    # The computer plays Red's turn in the person's place: the page watches it, never invited.
    seq = int(page.get_attribute("#game", "data-seq"))
    page.wait_for_function(f"Number(document.getElementById('game')?.dataset.seq) > {seq}")
    assert "yes" not in page.evaluate("window.__mine"), "never this page's move again"
    assert page.locator("#actions [data-action]").count() == 0, "no move offered"
    assert not page.title().startswith("Your move")
    listed = page.locator("#seats li[data-seat='0']").inner_text()
    assert "computer" in listed and "(you)" not in listed and "in your place" in listed, listed
    # Nor any other label of the page: the side panel, the drawing, the phone's bar.
    assert "(you)" not in page.inner_text("body")
    assert "(you)" not in page.inner_html("#board")
    page.context.close()


def at_one_screen(browser: Any, server: str, game: str) -> Any:
    """From the home page, *Play a friend*, then *Play every seat at this screen*."""
    page = first_visit(browser, 1280, 900)
    page.goto(server + "/")
    page.click(f"li[data-game={game}] .ways button:has-text('Play a friend')")
    page.click("a.together")
    page.wait_for_selector("#game[data-covered]")
    return page


DECIDING = """() => {
  const game = document.getElementById('game');
  // (every seat's socket has sent its view: none redraws the page under a click)
  return game.dataset.connected === 'yes' && (game.dataset.covered === 'yes'
    || game.dataset.mine === 'yes' || game.dataset.terminal === 'yes');
}"""


def next_seat(page: Any) -> int | None:
    """Wait for the next decision at one screen, taking the screen for its seat (a click on
    "I am ..."); that seat, or None once the game is over."""
    page.wait_for_function(DECIDING)
    if page.get_attribute("#game", "data-covered") == "yes":
        page.click("#uncover")
        page.wait_for_function(DECIDING)
    if page.get_attribute("#game", "data-terminal") == "yes":
        return None
    return int(page.get_attribute("#game", "data-seat"))


def titles(page: Any, owner: int) -> dict[str, str]:
    """The tooltip of each of ``owner``'s cones on ``page``'s board, by square."""
    found: dict[str, str] = page.eval_on_selector_all(
        f"#board g.cone[data-seat='{owner}']",
        "cones => Object.fromEntries(cones.map(c => [c.dataset.cone, "
        "c.querySelector('title').textContent]))",
    )
    return found


def played(page: Any, seq: int, moves: int = 1) -> None:
    """Wait until the ``moves`` played from ``seq`` are drawn, or the screen is covered for the
    next person (a covered page keeps its last move number)."""
    page.wait_for_function(
        "document.getElementById('game').dataset.covered === 'yes'"
        f" || Number(document.getElementById('game').dataset.seq) >= {seq + moves}"
    )


def test_bond_o_cones_credits_each_peek_to_the_side_that_peeked(server: str, browser: Any) -> None:
    """White peeks at its own cone: Black's board says White peeked, not "you"; when Black picks
    a cone to peek at, the targets ring its cones (their values stay readable) in a colour of
    their own, not the peeked mark's."""
    page = at_one_screen(browser, server, "bondo_cones")
    rng = random.Random("peeks")
    white_peeked = False
    for _decision in range(600):  # a die shows the eye one roll in six
        seat = next_seat(page)
        assert seat is not None, "the game ended before both sides could peek"
        if page.locator("#quick-setup").is_visible():
            seq = seq_of(page)
            page.click("#quick-setup")
            played(page, seq, moves=17)  # a side's 16 cones and its ring
            continue
        legal = legal_strings(page)
        peeks = [action for action in legal if action.startswith("peek ")]
        if seat == 0 and peeks and white_peeked:
            break
        seq = seq_of(page)
        chosen = rng.choice(peeks or legal)
        play_by_clicking(page, chosen)
        white_peeked = white_peeked or (seat == 1 and bool(peeks))
        played(page, seq)
    else:
        raise AssertionError("no eye for both sides in 600 decisions")
    for square, title in titles(page, owner=1).items():
        if page.get_attribute(f"#board g.cone[data-cone='{square}']", "data-peeked") == "1":
            assert "White peeked at it" in title and "you" not in title, title
    for square in (action.split()[1] for action in peeks):
        target = page.locator(f"#board rect.mark-dest[data-mark='{square}']")
        assert target.get_attribute("class") == "mark mark-dest on-piece", "a ring, not a dot"
        assert target.evaluate("node => getComputedStyle(node).fill") == "none"
    peeked_dot = page.locator("#board g.cone[data-peeked='1'] circle").last
    dot = peeked_dot.evaluate("node => getComputedStyle(node).fill")
    ring = page.locator("#board rect.mark-dest").first.evaluate(
        "node => getComputedStyle(node).stroke"
    )
    assert dot != ring, "the peeked mark and the targets differ in colour"
    page.context.close()


# Every element.animate call, with the move number on screen and the square or card it moves;
# and after each drawing, the face of every piece on the board by its square.
RECORD_MOTION = """
window.__animations = [];
window.__boards = {};
const original = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const on = this.closest?.('[data-square], [data-cone], [data-card]');
  window.__animations.push({
    seq: Number(document.getElementById('game')?.dataset.seq ?? -1),
    square: on?.getAttribute('data-square') ?? on?.getAttribute('data-cone') ?? null,
    card: on?.getAttribute('data-card') ?? null,
  });
  return original.apply(this, args);
};
new MutationObserver(() => {
  const game = document.getElementById('game');
  if (!game?.dataset.seq) return;
  const faces = {};
  for (const piece of document.querySelectorAll('#board g.bone:not(.taken)')) {
    faces[piece.dataset.square] = piece.dataset.face;
  }
  window.__boards[game.dataset.seq] = faces;
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-seq'] });
"""

FILES = "abcdefghijklmnopqrstuvwxyz"


def next_to(square: str, others: set[str]) -> bool:
    """Whether ``square`` is beside (left, right, above, below) one of ``others``."""
    file, rank = FILES.index(square[0]), int(square[1:])
    return any(
        f"{FILES[file + df]}{rank + dr}" in others
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if 0 <= file + df < len(FILES)
    )


def test_every_bone_that_turns_over_in_oyno_moves(server: str, browser: Any) -> None:
    page = first_visit(browser, 1280, 900)
    page.add_init_script(RECORD_MOTION)
    play_the_computer(page, server, "oyno")
    for _turn in range(3):
        page.wait_for_selector("#game[data-mine='yes']")
        bones = set(page.eval_on_selector_all("#board g.bone", "g => g.map(b => b.dataset.square)"))
        places = [a for a in legal_strings(page) if a.startswith("place ")]
        beside = [a for a in places if next_to(a.split()[1], bones)]
        seq = seq_of(page)
        play_by_clicking(page, (beside or places)[0])
        page.wait_for_function(f"Number(document.getElementById('game')?.dataset.seq) > {seq}")
    boards = {int(seq): faces for seq, faces in page.evaluate("window.__boards").items()}
    records = page.evaluate("window.__animations")
    turned_beside = 0
    seqs = sorted(boards)
    for before, after in itertools.pairwise(seqs):
        changed = {sq for sq, face in boards[after].items() if boards[before].get(sq) != face}
        moved = {record["square"] for record in records if record["seq"] == after}
        assert changed <= moved, f"move {after}: {sorted(changed - moved)} changed unseen"
        turned_beside += len({sq for sq in changed if sq in boards[before]}) > 0
    assert turned_beside, "a bone beside a placed one turned over"
    page.context.close()


def test_bon_bons_drawn_card_is_dealt_as_a_card(server: str, browser: Any) -> None:
    page = first_visit(browser, 1280, 900)
    page.add_init_script(RECORD_MOTION)
    play_the_computer(page, server, "bonbon")
    # Red's own card in hand, not the computer's (Blue's drawn card shows on the board too).
    held = (
        "[...document.querySelectorAll(\"#board [data-card='drawn'] title\")]"
        ".some((title) => title.textContent.startsWith('Red drew '))"
    )
    for _move in range(60):  # a face-up-only card is played at once: no card is held then
        page.wait_for_selector("#game[data-mine='yes']")
        seq, legal = seq_of(page), legal_strings(page)
        # Draw, or answer what the last card asks (a gift's receiver, a catch, another card
        # after an empty wrapper); never stop taking cards.
        answers = [a for a in legal if a.split()[0] not in ("pass", "bonus")]
        action = "draw" if "draw" in legal else (answers or legal)[0]
        page.locator(f'#actions [data-action="{action}"]').click()
        page.wait_for_function(
            f"Number(document.getElementById('game')?.dataset.seq) > {seq} && ({held} || "
            "document.getElementById('game')?.dataset.mine === 'yes')"
        )
        if page.evaluate(held) and "down" in legal_strings(page):
            break
    else:
        raise AssertionError("thirty draws and never a card held")
    # The drawing that shows the card in hand is the one its motion was started on.
    dealt = page.evaluate("window.__animations.filter(record => record.card === 'drawn')")
    assert dealt, "the drawn card is dealt with motion"
    page.context.close()


def test_play_a_friend_in_bon_bon_asks_how_many_players(server: str, browser: Any) -> None:
    page = first_visit(browser, 1280, 900)
    page.goto(server + "/")
    card = "li[data-game=bonbon]"
    page.select_option(f"{card} select[name=p_players]", "3")
    page.click(f"{card} .ways button:has-text('Play a friend')")
    page.wait_for_selector("a.invite")
    assert page.locator("a.invite").count() == 3, "a link for each of the three"
    # Custom game asks it first, above the seats it decides.
    page.goto(server + "/")
    page.click(f"{card} a:has-text('Custom game')")
    question = box_of(page, "label.param:has-text('How many players?')")
    assert question["y"] < box_of(page, "label.seat")["y"]
    page.fill("[name=p_players]", "4")
    assert page.locator("label.seat:visible").count() == 4
    page.context.close()


DEVELOPER_WORDS = ("boneyard analyze", "docs/", "2-core", "--out", "benchmarks/", ".json")


@pytest.mark.parametrize("game", [*TWO_PLAYER_GAMES, "oyno_puzzle"])
def test_a_rules_page_shows_every_picture_and_keeps_measuring_in_a_note(
    server: str, browser: Any, game: str
) -> None:
    page = first_visit(browser, 1280, 900)
    page.goto(server + "/")
    page.click(f"li[data-game={game}] .ways a:has-text('Rules')")
    page.wait_for_selector("article.rules")
    page.wait_for_function("[...document.images].every(image => image.complete)")
    broken = page.eval_on_selector_all(
        "img", "images => images.filter(i => !i.naturalWidth).map(i => i.getAttribute('src'))"
    )
    assert broken == [], f"pictures that do not load: {broken}"
    shown = page.inner_text("main")  # (a folded note's text is not shown)
    said = [words for words in DEVELOPER_WORDS if words in shown]
    assert said == [], f"a player's page reads like developer notes: {said}"
    notes = page.locator("details.measured")
    if notes.count():
        notes.first.locator("summary").click()
        assert "boneyard analyze" in notes.first.inner_text(), "how it was measured, one click away"
    page.context.close()


def test_levels_read_as_levels_not_ratings(server: str, browser: Any) -> None:
    page = first_visit(browser, 1280, 900)
    page.goto(server + "/")
    assert not re.search(r"about \d{3,4}", page.inner_text("main")), "no rating-like numbers"
    card = "li[data-game=bonbon]"
    options = page.locator(f"{card} select[name=level] option").all_inner_texts()
    assert options[0] == "Level 1 of 6 · easy" and options[-1] == "Level 6 of 6 · strongest"
    page.select_option(f"{card} select[name=level]", "3")
    page.click(f"{card} form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-seq]")
    assert "(computer, level 3 of 6)" in page.inner_text("#seats")
    # The measured scale stays on the rules page, with what it means.
    page.goto(server + "/")
    page.click(f"{card} .ways a:has-text('Rules')")
    levels = page.inner_text("section.levels")
    assert "Level 1 of 6 · easy" in levels and re.search(r"about \d{3,4}", levels)
    page.context.close()


def test_a_skip_link_leads_past_the_sites_links(server: str, browser: Any) -> None:
    page = first_visit(browser, 1280, 900)
    page.goto(server + "/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the page"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # the first stop on the page itself: the name, then the games
    assert page.evaluate("document.activeElement.id") == "your-name"
    page.click("li[data-game=obonto] form.play-computer button[type=submit]")
    page.wait_for_selector("#game[data-seq]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the board"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "board", "one Tab and Enter to the board"
    page.context.close()


def test_a_puzzle_lists_no_players(server: str, browser: Any) -> None:
    page = first_visit(browser, 1280, 900)
    play_the_computer(page, server, "oyno_puzzle")
    assert page.locator("#seats").is_hidden() and page.locator("#players-title").is_hidden()
    page.context.close()


def test_bones_last_domino_is_outlined_once_and_its_numbers_explained(
    server: str, browser: Any
) -> None:
    page = first_visit(browser, 1280, 900)
    play_the_computer(page, server, "bones")
    seq = seq_of(page)
    play_by_clicking(page, legal_strings(page)[0])
    page.wait_for_function(f"Number(document.getElementById('game')?.dataset.seq) > {seq}")
    page.wait_for_selector("#board rect.mark-last")
    assert page.locator("#board rect.mark-last").count() == 1, "one outline round the domino"
    caption = page.locator("#board svg text.caption").text_content() or ""
    assert "how many pieces are stacked" in caption, caption
    page.context.close()


def overlap(one: dict[str, float], two: dict[str, float]) -> bool:
    return not (
        one["x"] + one["width"] <= two["x"]
        or two["x"] + two["width"] <= one["x"]
        or one["y"] + one["height"] <= two["y"]
        or two["y"] + two["height"] <= one["y"]
    )


def test_a_draw_offer_covers_neither_the_score_nor_the_board(server: str, browser: Any) -> None:
    page = first_visit(browser, 1280, 900)
    page.goto(server + "/")
    page.click("li[data-game=oyno] .ways button:has-text('Play a friend')")
    urls = [str(link.get_attribute("href")) for link in page.locator("a.invite").all()]
    offering, answering = (first_visit(browser, 1280, 900) for _ in urls)
    for seat_page, url in zip((offering, answering), urls, strict=True):
        # (How to play already read and folded: the panel is at the top of its column)
        seat_page.add_init_script("localStorage.setItem('boneyard.seen.oyno', 'yes')")
        seat_page.goto(server + url)
        seat_page.wait_for_selector("#game[data-seq]")
    offering.locator('[data-session="offer_draw"]').click()
    answering.wait_for_selector("#session-question:not([hidden])")
    question = box_of(answering, "#session-question")
    assert in_window(question, 1280, 900), question
    for covered in ("#panel", "#board svg", "[role=status]"):
        assert not overlap(question, box_of(answering, covered)), f"the offer covers {covered}"
    for seat_page in (page, offering, answering):
        seat_page.context.close()
