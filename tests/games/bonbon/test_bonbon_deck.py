"""Bon-Bon decks are data (TOML), checked card by card; parameters and action ids are stable."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.games.bonbon.bonbon_helpers import game, new, play, strings, write_deck

from boneyard import InvalidActionStringError, InvalidParameterError
from boneyard.games.bonbon import notation as nt
from boneyard.games.bonbon.deck import load_deck


def test_the_default_deck_is_the_rulings_77_cards() -> None:
    deck = load_deck("default")
    assert deck.size == 77
    counts = {kind.label: kind.count for kind in deck.kinds}
    assert counts == {
        "1": 12,
        "2": 12,
        "3": 11,
        "4": 8,
        "5": 6,
        "3!": 3,
        "4!": 3,
        "5!": 2,
        "6!": 2,
        "wrapper": 8,
        "peek": 3,
        "second": 2,
        "gift": 3,
        "caught": 2,
    }
    values = {kind.label: kind.value for kind in deck.kinds if kind.effect != "none"}
    assert values == {"wrapper": 0, "peek": 1, "second": 1, "gift": 2, "caught": 0}
    face_up = {kind.label for kind in deck.kinds if kind.face_up_only}
    assert face_up == {"3!", "4!", "5!", "6!", "wrapper", "gift", "caught"}


def test_another_deck_loads_from_a_path(tmp_path: Path) -> None:
    path = write_deck(
        tmp_path / "small.toml",
        ("big", 7, 2, False, "none"),
        ("wrapper", 0, 1, True, "wrapper"),
        ("peek", 2, 1, True, "peek"),
    )
    state = new("tiles 1 2 3", "draw", deck=path)
    outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert outcomes == pytest.approx({"card 7": 0.5, "card wrapper": 0.25, "card peek": 0.25})
    play(state, "card peek")  # face up only in this deck: no choice, then the peek
    assert state.marker == 2
    assert state.observation(0)["phase"] == "peek"


@pytest.mark.parametrize(
    ("card", "field"),
    [
        ('name = "odd"\nvalue = 1\ncount = 1\nface_up_only = false\neffect = "boom"', "effect"),
        ('name = "minus"\nvalue = -1\ncount = 1\nface_up_only = false\neffect = "none"', "value"),
        ('name = "bare"\ncount = 1\nface_up_only = false\neffect = "none"', "value"),
        ('name = "nocount"\nvalue = 1\nface_up_only = false\neffect = "none"', "count"),
        ('name = "zero"\nvalue = 1\ncount = 0\nface_up_only = false\neffect = "none"', "count"),
        (
            'name = "flag"\nvalue = 1\ncount = 1\nface_up_only = "no"\neffect = "none"',
            "face_up_only",
        ),
        (
            'name = "gift"\nvalue = 2\ncount = 1\nface_up_only = false\neffect = "gift"',
            "face_up_only",
        ),
        (
            'name = "x"\nvalue = 1\ncount = 1\nface_up_only = false\neffect = "none"\nsize = 2',
            "size",
        ),
        ('value = 1\ncount = 1\nface_up_only = false\neffect = "none"', "name"),
    ],
)
def test_a_bad_card_is_named_with_its_field(tmp_path: Path, card: str, field: str) -> None:
    good = '[[card]]\nname = "fine"\nvalue = 2\ncount = 3\nface_up_only = false\neffect = "none"\n'
    path = tmp_path / "bad.toml"
    path.write_text(good + "\n[[card]]\n" + card + "\n")
    with pytest.raises(InvalidParameterError) as error:
        game(deck=str(path))
    message = str(error.value)
    assert "card 2" in message
    assert f"'{field}'" in message
    assert "deck" in message


def test_a_repeated_kind_is_refused(tmp_path: Path) -> None:
    path = write_deck(
        tmp_path / "twice.toml", ("a", 1, 1, False, "none"), ("b", 1, 2, False, "none")
    )
    with pytest.raises(InvalidParameterError, match=r"card 2 .'b'.*repeats kind '1'"):
        game(deck=path)


def test_a_missing_or_malformed_deck_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameterError, match="cannot read"):
        game(deck=str(tmp_path / "nowhere.toml"))
    path = tmp_path / "broken.toml"
    path.write_text("[[card]\n")
    with pytest.raises(InvalidParameterError, match="not valid TOML"):
        game(deck=str(path))
    path.write_text('title = "no cards"\n')
    with pytest.raises(InvalidParameterError, match=r"\[\[card\]\]"):
        game(deck=str(path))


@pytest.mark.parametrize("tiles", ["1,2", "1,x,3", "1,2,10", "", "1,,2,3"])
def test_bad_tile_values_are_refused(tiles: str) -> None:
    with pytest.raises(InvalidParameterError, match="tiles"):
        game(tiles=tiles)


def test_the_parameters_and_their_defaults() -> None:
    g = game()
    assert g.params == {"players": 2, "deck": "default", "tiles": "1,1,2,2,3,3", "max_rounds": 40}
    for bad in ({"players": 1}, {"players": 7}, {"max_rounds": 0}):
        with pytest.raises(InvalidParameterError):
            game(**bad)


def test_player_action_ids_are_fixed() -> None:
    state = new("tiles 1 2 3")
    expected = {"pass": 0, "draw": 1, "up": 2, "down": 3, "end": 4, "gift 0": 5, "gift 5": 10}
    expected |= {"catch 0": 11, "catch 5": 16, "bonus 0": 17, "bonus 9": 26}
    for text, action in expected.items():
        assert state.string_to_action(text) == action
        assert nt.player_action_to_string(action) == text
    assert game().info.num_distinct_actions == 27 == game(players=6).info.num_distinct_actions


def test_chance_ids_follow_the_canonical_order_of_kinds() -> None:
    state = new()
    # The default deck's highest plain value is 6: plain v is v, v! is 7 + v, effects from 14.
    ids = {"card 1": 1, "card 5": 5, "card 3!": 10, "card 6!": 13, "card wrapper": 14}
    ids |= {"card peek": 15, "card second": 16, "card gift": 17, "card caught": 18}
    for text, action in ids.items():
        assert state.string_to_action(text) == action
    # Tiles: every ascending triple of 0..3 after the 19 card ids, lexicographic.
    assert state.string_to_action("tiles 0 0 0") == 19
    assert state.string_to_action("tiles 1 2 3") == 19 + nt.tile_triples(3).index((1, 2, 3))
    assert game().info.max_chance_outcomes == 19 + 20
    play(state, "tiles 1 2 3", "draw")
    assert state.action_to_string(18) == "card caught"


def test_the_id_space_is_fixed_for_a_given_deck(tmp_path: Path) -> None:
    path = write_deck(tmp_path / "d.toml", ("a", 2, 1, False, "none"), ("b", 9, 1, True, "none"))
    small = game(deck=path, players=2)
    large = game(deck=path, players=6)
    assert small.info.max_chance_outcomes == large.info.max_chance_outcomes == 2 * 10 + 5 + 20


def test_malformed_action_strings_say_what_is_allowed() -> None:
    state = new("tiles 1 2 3")
    for text in ("jump", "gift 6", "card 7", "card ?", "tiles 3 2 1", "bonus 10"):
        with pytest.raises(InvalidActionStringError, match="pass, bonus V, draw"):
            state.string_to_action(text)
    assert state.string_to_action("  DRAW ") == 1
    assert strings(state) == ["draw", "bonus 1", "bonus 2", "bonus 3"]
