"""Bon-Bon's drawings, heuristic, observation tensor and rule page."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.games.bonbon.bonbon_helpers import game, new, play

from boneyard.games.bonbon import bust_probability
from boneyard.games.bonbon.examples import PICTURE_SEAT, picture_state, pictures
from boneyard.games.bonbon.heuristic import TRAILING_RISK, estimated_score, evaluate_observation
from boneyard.games.bonbon.rules import BonBonGame

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules"
PAGE = DOCS / "bonbon.md"
SVG = "{http://www.w3.org/2000/svg}"


# ----- drawings ---------------------------------------------------------------------------------


def test_the_text_shows_own_face_down_cards_and_hides_others() -> None:
    state = picture_state()
    mine = state.game.render_text(state.observation(0))
    assert "seat 0: in play, wins 0, up 1/10, tile -: [2] 1 [3] [5]" in mine
    assert "seat 1: in play, wins 0, up 4/10, tile -: 4 [?] [peek]" in mine
    assert "seat 2: passed, wins 0, up 3/10, tile 3: 3!" in mine
    assert "collective 8/15  deck 68" in mine
    theirs = state.game.render_text(state.observation(1))
    assert "seat 0: in play, wins 0, up 1/10, tile -: [?] 1 [?] [5]" in theirs  # it peeked the 5
    assert "drawn by seat 1: 1" in theirs
    assert str(state) == state.game.render_text(state.observation(None))
    assert "[2]" not in str(state)


def test_the_board_names_the_marker_as_the_prompt_and_the_panel_do() -> None:
    state = picture_state()
    observation = state.observation(PICTURE_SEAT)
    (item,) = [i for i in state.game.panel(observation, PICTURE_SEAT) if "marker" in i.label]
    svg = state.game.render_svg(observation)
    assert f">{item.label}: {item.value}<" in svg
    assert "shared marker" in state.game.prompt(observation, PICTURE_SEAT)
    assert "Collective" not in svg


def test_the_svg_marks_seats_cards_and_the_marker() -> None:
    state = picture_state()
    root = ET.fromstring(state.game.render_svg(state.observation(0)))
    cards = [g for g in root.iter(f"{SVG}g") if "data-card" in g.attrib]
    assert len(cards) == 4 + 3 + 1 + 1, "the runs' cards and the card just drawn, in hand"
    assert [g.get("data-face") for g in cards if g.get("data-card") == "drawn"] == ["in-hand"]
    first = next(g for g in cards if g.get("data-seat") == "0" and g.get("data-card") == "0")
    assert first.get("data-face") == "down"
    assert first.get("data-kind") == "2"
    hidden = next(g for g in cards if g.get("data-seat") == "1" and g.get("data-card") == "1")
    assert hidden.get("data-kind") == "?"
    marker = next(c for c in root.iter(f"{SVG}circle") if "data-marker" in c.attrib)
    assert marker.get("data-marker") == "8"
    tiles = [g.get("data-tile") for g in root.iter(f"{SVG}g") if "data-tile" in g.attrib]
    assert tiles == ["1", "2", "3"]


def test_svg_cards_say_their_effect_in_words_and_explain_it() -> None:
    state = new(
        "tiles 1 2 3", "draw", "card second", "up", "card wrapper", "end",
        "draw", "card 4!", "draw", "card 3",
    )  # fmt: skip
    root = ET.fromstring(state.game.render_svg(state.observation(0)))
    cards = {g.get("data-kind"): g for g in root.iter(f"{SVG}g") if "data-card" in g.attrib}
    words = {kind: [t.text for t in g.iter(f"{SVG}text")] for kind, g in cards.items()}
    assert words == {
        "second": ["1", "second", "helping"],
        "wrapper": ["0", "empty", "wrapper"],
        "4!": ["4", "face up!"],
        "3": ["3"],  # the card drawn, in Red's hand: a card on the table, not only words
    }
    drawn = cards["3"].findtext(f"{SVG}title") or ""
    assert drawn.startswith("Red drew a chocolate worth 3"), drawn
    title = cards["second"].findtext(f"{SVG}title") or ""
    assert "another card at once" in title and "face up" in title
    every_text = [t.text or "" for t in root.iter(f"{SVG}text")]
    for code in ("2x", "W", "P", "5!", "4!", "C!"):
        assert code not in every_text, code
    assert "Red drew a 3." in every_text
    assert "Red drew a card." in [
        t.text
        for t in ET.fromstring(state.game.render_svg(state.observation(1))).iter(f"{SVG}text")
    ]


def test_svg_face_down_cards_show_a_back_and_a_value_only_to_who_knows_it() -> None:
    state = picture_state()
    for seat, shown in ((0, ["2"]), (2, ["?"])):
        root = ET.fromstring(state.game.render_svg(state.observation(seat)))
        first = next(
            g
            for g in root.iter(f"{SVG}g")
            if g.get("data-seat") == "0" and g.get("data-card") == "0"
        )
        assert first.get("data-face") == "down"
        assert [t.text for t in first.iter(f"{SVG}text")] == shown
        assert any(r.get("fill") == "url(#bonbon-back)" for r in first.iter(f"{SVG}rect"))
    tiles = [g.findtext(f"{SVG}title") for g in root.iter(f"{SVG}g") if "data-tile" in g.attrib]
    assert all("passing bonus tile" in (t or "") for t in tiles)


def test_drawings_work_at_every_phase() -> None:
    g = game(players=3)
    rng = random.Random(2)
    state = g.new_initial_state()
    while not state.is_terminal():
        for seat in (0, None):
            observation = state.observation(seat)
            assert g.render_text(observation)
            ET.fromstring(g.render_svg(observation))
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert "game over, won by seat" in str(state)


# ----- the heuristic ----------------------------------------------------------------------------


def test_bust_probability_counts_the_unseen_cards_that_break_a_limit() -> None:
    state = new("tiles 1 2 3", "draw", "card 5!", "draw", "card 1", "down")
    observation = state.observation(0)
    # Seat 0: 5 up, marker 5 of 10: only a 6! (two unseen) breaks; seat 0 has seen 5! and no more.
    assert sum(observation["unseen"].values()) == 76
    assert bust_probability(observation, 0) == pytest.approx(2 / 76)
    # Seat 1 (it has seen its own 1): 0 up, the same marker; a wrapper would reveal only 1.
    assert bust_probability(state.observation(1), 1) == pytest.approx(2 / 75)


def test_a_wrapper_breaks_a_limit_when_the_hidden_cards_are_too_many() -> None:
    state = new("tiles 1 2 3", "bonus 1", "draw", "card 5!", "draw", "card 4", "down")
    observation = state.observation(1)
    # Room 5 (personal and collective): the 6!s break; a wrapper would reveal 4, which does not.
    assert bust_probability(observation, 1) == pytest.approx(2 / 75)
    play(state, "draw", "card 2", "down")
    # The trailing 4 + 2 = 6 > 5: now the eight wrappers break too.
    assert bust_probability(state.observation(1), 1) == pytest.approx((2 + 8) / 74)


def test_a_gift_breaks_nothing_while_someone_else_can_receive_it() -> None:
    state = new("tiles 1 2 3", "draw", "card 6!", "draw", "card 3", "down", "draw", "card 3!")
    observation = state.observation(0)  # seat 0: 9 up, marker 9: any value above 1 breaks
    breaking = sum(
        n for label, n in observation["unseen"].items() if observation["values"][label] > 1
    )
    gifts = observation["unseen"]["gift"]
    total = sum(observation["unseen"].values())
    assert bust_probability(observation, 0) == pytest.approx((breaking - gifts) / total)


def test_a_peeked_card_makes_the_bust_certain_or_impossible() -> None:
    state = new("tiles 1 2 3", "draw", "card 5!", "bonus 1", "draw", "card peek", "up")
    assert bust_probability(new("tiles 1 2 3").observation(0), 0) == 0.0
    six = play(state.clone(), "card 6!")
    assert bust_probability(six.observation(0), 0) == 1.0
    assert bust_probability(six.observation(1), 0) == pytest.approx((6 + 1 + 2) / 75)
    two = play(state.clone(), "card 2")
    assert bust_probability(two.observation(0), 0) == 0.0


def test_evaluate_reads_the_observation_and_stays_in_range() -> None:
    g = game(players=3)
    three = new("tiles 1 2 3", "draw", "card 3", "down", players=3)
    four = new("tiles 1 2 3", "draw", "card 4", "down", players=3)
    assert g.evaluate(three, 1) == g.evaluate(four, 1)
    # A trailing face-down card counts at 1 - TRAILING_RISK of its value.
    assert estimated_score(three.observation(0), 0) == 3 * (1 - TRAILING_RISK)
    assert estimated_score(four.observation(0), 0) == 4 * (1 - TRAILING_RISK)
    unseen = three.observation(1)["unseen"]
    mean = sum(three.observation(1)["values"][k] * n for k, n in unseen.items()) / 77
    assert estimated_score(three.observation(1), 0) == pytest.approx(mean * (1 - TRAILING_RISK))
    play(three, "draw", "card 2", "up")  # seat 1
    play(three, "draw", "card 1", "up")  # seat 2
    play(three, "draw", "card 2", "down")  # seat 0: (3) (2), one group: a bonus of 1
    assert estimated_score(three.observation(0), 0) == (3 + 2) * (1 - TRAILING_RISK) + 1
    assert 0.0 <= evaluate_observation(three.observation(0), 0) <= 1.0
    won = new("tiles 1 2 3", "draw", "card 3", "up", "bonus 1", "pass", max_rounds=1)
    assert won.game.evaluate(won, 0) == 1.0
    assert won.game.evaluate(won, 1) == 0.0


def test_evaluate_values_the_choices_of_a_turn() -> None:
    g = game()
    start = new("tiles 1 2 3", "draw", "card 1", "up", "draw", "card 4", "up")
    # Passing first with the tile worth 3 beats the tile worth 1.
    best = g.evaluate(play(start.clone(), "bonus 3"), 0)
    assert best > g.evaluate(play(start.clone(), "bonus 1"), 0)
    # With the marker near the limit, taking a card is worth less than passing.
    risky = new("tiles 1 2 3", "draw", "card 6!", "draw", "card 3!")
    assert g.evaluate(play(risky.clone(), "draw"), 0) < g.evaluate(
        play(risky.clone(), "bonus 3"), 0
    )
    # A seat in play is worth at least what its best choice is worth.
    assert g.evaluate(risky, 0) >= g.evaluate(play(risky.clone(), "draw"), 0)


def test_evaluate_prefers_chocolates_and_a_winning_round() -> None:
    state = game().new_initial_state()
    state.wins = [1, 0]
    play(state, "tiles 1 2 3", "draw", "card 4", "down", "draw", "card 1", "down")
    assert state.game.evaluate(state, 0) > state.game.evaluate(state, 1)


# ----- the observation tensor -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 6])
def test_the_tensor_has_a_fixed_size(players: int) -> None:
    g = game(players=players)
    (size,) = g.observation_tensor_shape()
    assert size == 13 * players + 28 + 4 * 14
    state = g.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        for seat in (0, None):
            assert len(g.observation_tensor(state.observation(seat))) == size
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_tensor_shows_only_what_the_seat_knows() -> None:
    g = game(players=3)
    three = new("tiles 1 2 3", "draw", "card 3", "down", players=3)
    four = new("tiles 1 2 3", "draw", "card 4", "down", players=3)
    assert g.observation_tensor(three.observation(1)) == g.observation_tensor(four.observation(1))
    assert g.observation_tensor(three.observation(0)) != g.observation_tensor(four.observation(0))


# ----- the rule page ----------------------------------------------------------------------------


def test_the_picture_is_the_codes_own() -> None:
    for filename, text in pictures().items():
        path = DOCS / "img" / filename
        assert path.read_text() == text, (
            f"{filename} is stale: python -m boneyard.games.bonbon.examples --write docs/rules/img"
        )
    state = picture_state()
    assert pictures()["bonbon-round.svg"] == state.game.render_svg(state.observation(PICTURE_SEAT))


def test_the_page_shows_the_picture_every_parameter_and_the_default_deck() -> None:
    page = PAGE.read_text()
    for filename in pictures():
        assert f"(img/{filename})" in page
    for parameter in BonBonGame.parameters:
        assert f"`{parameter.name}`" in page
    for kind in game().deck.kinds:
        assert f"| {kind.name} | `{kind.label}` | {kind.value} | {kind.count} |" in page
    for text in ("pass", "bonus V", "draw", "up", "down", "end", "gift S", "catch S"):
        assert f"`{text}`" in page
