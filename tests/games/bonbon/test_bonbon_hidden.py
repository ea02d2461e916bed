"""Bon-Bon's hidden information: observations, secret action strings, resampling, snapshots."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from tests.games.bonbon.bonbon_helpers import game, new, play

from boneyard import CHANCE, InvalidStateError
from boneyard.games.bonbon.rules import NONE, PLACE, BonBonGame, BonBonState


def test_a_face_down_card_is_seen_by_its_owner_only() -> None:
    three = new("tiles 1 2 3", "draw", "card 3", "down", players=3)
    four = new("tiles 1 2 3", "draw", "card 4", "down", players=3)
    for seat in (1, 2, None):
        assert three.observation(seat) == four.observation(seat)
    assert three.observation(0) != four.observation(0)
    assert three.observation(0)["runs"][0] == [{"card": "3", "up": False, "seen_by": [0]}]
    assert three.observation(1)["runs"][0] == [{"card": None, "up": False, "seen_by": [0]}]


def test_the_drawn_card_is_seen_by_its_drawer_until_played_face_up() -> None:
    three = new("tiles 1 2 3", "draw", "card 3", players=3)
    four = new("tiles 1 2 3", "draw", "card 4", players=3)
    assert three.observation(1) == four.observation(1)
    assert three.observation(None) == four.observation(None)
    assert three.observation(0)["drawn"] == {"by": 0, "card": "3", "seen_by": [0]}
    play(three, "up")
    assert three.observation(1)["runs"][0] == [{"card": "3", "up": True, "seen_by": [0, 1, 2]}]


def test_the_unseen_counts_are_what_the_seat_has_not_seen() -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "down", "draw", "card 5!")
    assert state.observation(0)["unseen"]["3"] == 10
    assert state.observation(1)["unseen"]["3"] == 11
    assert state.observation(1)["unseen"]["5!"] == 1
    assert sum(state.observation(1)["unseen"].values()) == 76
    assert sum(state.observation(None)["unseen"].values()) == 76


def test_the_deck_order_is_no_ones_it_is_only_counts() -> None:
    state = new("tiles 1 2 3")
    assert state.counts == state.game.full_counts
    assert "deck" not in state.observation(0)
    assert state.observation(0)["deck_left"] == 77


def test_a_draw_outcome_reads_as_card_question_mark_to_everyone_else() -> None:
    state = new("tiles 1 2 3", "draw", players=3)
    five = state.string_to_action("card 5")
    assert state.action_string_for(0, five) == "card 5"
    assert state.action_string_for(1, five) == "card ?"
    assert state.action_string_for(None, five) == "card ?"
    assert state.action_string_for(1, state.string_to_action("card wrapper")) == "card ?"
    play(state, "card 5")
    assert state.action_string_for(1, state.string_to_action("down")) == "down"


def test_a_peeked_card_is_seen_by_the_peeker_only() -> None:
    four = new("tiles 1 2 3", "draw", "card peek", "up", "card 4", players=3)
    two = new("tiles 1 2 3", "draw", "card peek", "up", "card 2", players=3)
    assert four.observation(1) == two.observation(1)
    assert four.observation(0) != two.observation(0)
    play(four, "draw")
    assert four.action_string_for(0, four.string_to_action("card 4")) == "card 4"
    assert four.action_string_for(2, four.string_to_action("card 4")) == "card ?"


def test_a_gift_shows_itself_while_its_receiver_is_chosen() -> None:
    state = new("tiles 1 2 3", "draw", "card gift", players=3)
    assert state.observation(1)["drawn"]["card"] == "gift"


def test_an_effect_shows_its_card_even_face_down() -> None:
    state = new("tiles 1 2 3", "draw", "card second", "down", players=3)
    assert state.observation(1)["runs"][0][0]["card"] == "second"
    state = new("tiles 1 2 3", "draw", "card peek", "down", players=3)
    assert state.observation(2)["runs"][0][0]["card"] == "peek"
    assert state.observation(2)["runs"][0][0]["seen_by"] == [0, 1, 2]


def test_a_spectator_sees_the_face_up_cards_only() -> None:
    state = new("tiles 1 2 3", "draw", "card peek", "down", "card 3", "draw", "card 3", "up")
    play(state, "draw", "card gift")
    spectator = state.observation(None)
    assert [card["card"] for card in spectator["runs"][0]] == [None]
    assert [card["card"] for card in spectator["runs"][1]] == ["3"]
    assert spectator["drawn"] == {"by": 0, "card": None, "seen_by": [0, 1]}
    assert spectator["peek"] is None


def eager_playout(g: BonBonGame, rng: random.Random) -> Iterator[BonBonState]:
    """A playout that draws often and plays face down often, to reach every effect."""
    state = g.new_initial_state()
    while not state.is_terminal():
        yield state
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            words = [state.action_to_string(a) for a in legal]
            if "draw" in words and rng.random() < 0.85:
                action = legal[words.index("draw")]
            elif "down" in words and rng.random() < 0.6:
                action = legal[words.index("down")]
            else:
                action = rng.choice(legal)
        state.apply_action(action)
    yield state


def _all_cards(state: BonBonState) -> Counter[int]:
    cards: Counter[int] = Counter()
    for kind, count in enumerate(state.counts):
        cards[kind] += count
    for run in state.runs:
        cards.update(kind for kind, _, _ in run)
    if state.drawn >= 0:
        cards[state.drawn] += 1
    return cards


@pytest.mark.parametrize("players", [2, 4, 6])
def test_resample_keeps_the_observation_and_deals_a_whole_deck(players: int) -> None:
    g = game(players=players)
    rng = random.Random(players)
    full = Counter({k: c for k, c in enumerate(g.full_counts)})
    checked = 0
    for step, state in enumerate(eager_playout(g, rng)):
        if step % 3 or state.is_terminal():
            continue
        for seat in range(players):
            view = state.observation(seat)
            sampled = state.resample(seat, random.Random(step))
            assert sampled.observation(seat) == view
            assert sampled.current_player() == state.current_player()
            # Until the end every card is somewhere: the deck, a run or the drawer's hand.
            assert _all_cards(sampled) == full
            assert _all_cards(state) == full
            again = sampled.resample(seat, random.Random(step + 1)).to_json()
            assert again == state.resample(seat, random.Random(step + 1)).to_json()
            checked += 1
    assert checked > 20


def test_resample_deals_face_down_cards_a_player_could_have_played_face_down() -> None:
    g = game(players=3)
    for step, state in enumerate(eager_playout(g, random.Random(7))):
        if state.is_terminal() or step % 2:
            continue
        sampled = state.resample(1, random.Random(step))
        for owner, run in enumerate(sampled.runs):
            for index, (kind, up, _) in enumerate(run):
                if up or state.observation(1)["runs"][owner][index]["card"] is not None:
                    continue
                assert not g.face_up_only[kind]
                assert g.effects[kind] == NONE or sampled.deck_left == 0
        if sampled.phase == PLACE:
            assert not g.face_up_only[sampled.drawn]


def test_resample_depends_only_on_the_observation() -> None:
    three = new("tiles 1 2 3", "draw", "card 3", "down", "draw", "card 1", players=3)
    four = new("tiles 1 2 3", "draw", "card 4", "down", "draw", "card 2", players=3)
    for key in range(5):
        a = three.resample(2, random.Random(key)).to_json()
        b = four.resample(2, random.Random(key)).to_json()
        assert a == b


def test_resample_varies_with_the_generator() -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "down", players=3)
    hidden = {state.resample(1, random.Random(key)).runs[0][0][0] for key in range(40)}
    assert len(hidden) > 1
    assert all(not state.game.face_up_only[kind] for kind in hidden)


def test_resampled_states_play_on_to_the_end() -> None:
    g = game(players=4)
    rng = random.Random(3)
    for step, state in enumerate(eager_playout(g, random.Random(11))):
        if step % 5 or state.is_terminal():
            continue
        sampled = state.resample(step % 4, random.Random(step))
        for _ in eager_playout_from(sampled, rng):
            pass


def eager_playout_from(state: BonBonState, rng: random.Random) -> Iterator[None]:
    state = state.clone()
    for _ in range(400):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(legal)
        state.apply_action(action)
        yield None


def test_to_json_round_trips_through_the_snapshot() -> None:
    g = game(players=3)
    for state in eager_playout(g, random.Random(5)):
        doc = json.loads(json.dumps(state.to_json()))
        back = g.state_from_json(doc)
        assert back.to_json() == state.to_json()
        assert str(back) == str(state)


def test_a_document_with_only_the_history_replays() -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "down", "draw", "card peek", "up", "card 2")
    doc = state.to_json()
    del doc["snapshot"]
    back = state.game.state_from_json(doc)
    assert back.to_json() == state.to_json()


@pytest.mark.parametrize(
    "change",
    [
        {"counts": [1, 2]},
        {"deck_left": 3},
        {"phase": 42},
        {"turn": 9},
        {"runs": [[[0, True, 3]]]},
        {"runs": [[["x", True, 3]], []]},
        {"status": [0]},
        {"wins": "many"},
        {"tiles": [3, 2, 1]},
        {"tile_taken": [12, -1]},
        {"winners": [5]},
    ],
)
def test_a_bad_snapshot_is_refused(change: dict[str, object]) -> None:
    state = new("tiles 1 2 3", "draw", "card 3", "down")
    doc = state.to_json()
    doc["snapshot"].update(change)
    with pytest.raises(InvalidStateError):
        state.game.state_from_json(doc)
