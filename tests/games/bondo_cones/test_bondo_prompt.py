"""Bond O Cones in words: a prompt for every decision, actions as each viewer saw them, the panel
with the die's picture, and results."""

from __future__ import annotations

from tests.games.bondo_cones.bondo_helpers import new_game, play, set_up, setup_puts

import boneyard
from boneyard.games.bondo_cones.rules import BondoConesState


def words(state: BondoConesState, seat: int | None = None) -> str:
    seat = state.current_player() if seat is None else seat
    return str(state.game.prompt(state.observation(seat), seat))


def test_set_up_prompts_name_the_cone_and_the_fields() -> None:
    game = new_game()
    state = game.new_initial_state()
    assert words(state).startswith("Put your cone worth 8 on one of your shaded start fields.")
    play(state, setup_puts(0)[0])
    assert words(state).startswith("Put your cone worth 4 (1 of 4) on one of your shaded")
    play(state, *setup_puts(0)[1:16])
    assert words(state) == ("Put your BondO ring on one of the cones on your red fields: d4 or g4.")
    assert state.why_illegal("put a1").startswith("Put the ring on one of the cones")


def test_the_last_cone_prompt_says_the_zeros_fill_the_rest() -> None:
    first_one = play(new_game().new_initial_state(), *setup_puts(0)[:11])
    assert "Put your cone worth 1 (1 of 5)" in words(first_one)
    assert "fill the fields left" not in words(first_one)
    state = play(new_game().new_initial_state(), *setup_puts(0)[:15])
    assert "Put your cone worth 1 (5 of 5)" in words(state)
    assert "the ten cones worth 0 fill the fields left" in words(state)


def told(state: BondoConesState, actor: int | None, move: str, viewer: int | None) -> str:
    """``move``, about to be played in ``state``, as ``viewer`` is told it."""
    seen = state.action_string_for(viewer, state.string_to_action(move))
    return state.game.describe_action(state.observation(viewer), actor, seen)


def test_a_hidden_set_up_is_told_once_as_its_last_cone_lands() -> None:
    state = new_game().new_initial_state()
    puts = setup_puts(0)
    assert state.action_string_for(1, state.string_to_action(puts[0])) == "put ?"
    assert told(state, 0, puts[0], 0) == f"Black put the cone worth 8 on {puts[0][4:]}."
    for move in puts[:15]:  # White and a spectator cannot follow these cone by cone
        assert told(state, 0, move, 1) == told(state, 0, move, None) == ""
        assert told(state, 0, move, 0).startswith("Black put the cone worth")
        play(state, move)
    last = "Black put their 16 cones on their start fields, hidden from you."
    assert told(state, 0, puts[15], 1) == last
    assert told(state, 0, puts[15], None) == last.replace("hidden from you", "in secret")
    play(state, puts[15])
    assert told(state, 0, "ring d4", 1) == "Black put the BondO ring on d4."


def test_a_random_set_up_is_told_once_for_each_side() -> None:
    state = new_game(setup="random").new_initial_state()
    told_lines, rings = [], []
    while state.observation(None)["phase"] in ("setup_put", "setup_ring"):
        action = state.chance_outcomes()[-1][0]
        if state.action_to_string(action).startswith("ring"):
            rings.append(state.action_to_string(action).split()[1])
        said = {told(state, None, state.action_to_string(action), v) for v in (0, 1, None)}
        assert len(said) == 1, "every seat and a spectator are told the same"
        told_lines += [line for line in said if line]
        state.apply_action(action)
    assert told_lines == [
        "Black's cones were put on their start fields at random.",
        f"Black put the BondO ring on {rings[0]}.",
        "White's cones were put on their start fields at random.",
        f"White put the BondO ring on {rings[1]}.",
    ]


def test_the_die_decides_the_prompt() -> None:
    game = new_game()
    cones = {"d4": "b0+", "e5": "b2", "f6": "b1", "e7": "w4", "j12": "w0+"}
    number = game.position(cones, die="2")
    assert words(number).startswith("The die shows 2: move one cone exactly 2 steps")
    assert "a Double BondO goes 4" in words(number)
    assert number.why_illegal("e5-e9").startswith("The die shows 2")
    assert number.why_illegal("a1-a3") == "There is no cone of yours on a1."
    assert number.why_illegal("f6-d4").startswith("d4 holds a cone of yours")
    eye = game.position(cones, die="eye")
    assert words(eye) == "The die shows the eye: peek at one of your cones to see its value."
    ring = game.position(cones, die="ring")
    assert words(ring).startswith("The die shows a ring: move one of your BondO rings")
    assert ring.why_illegal("ring e5-f6") == "The cone on e5 carries no ring of yours."
    no_ring = game.position({"d4": "b0", "e5": "b2", "j12": "w0+"}, die="ring")
    assert words(no_ring) == "The die shows a ring, but you have no ring to move: pass."
    aside = game.position({"d4": "b0+", "e5": "b2", "j12": "w0"}, die="ring", set_aside=True)
    assert words(aside).startswith("The die shows a ring: put the set-aside ring")


def test_battle_prompts_and_labels() -> None:
    game = new_game()
    state = game.position(
        {"e5": "b2+", "a1": "b4", "b1": "b1", "e7": "w0", "j12": "w8+"}, to_move=1, die="2"
    )
    play(state, "e7-e5")  # white captures black's last ring: black may battle
    assert words(state).startswith("You have no ring: declare a BondO battle")
    assert game.action_label(state.observation(0), "battle") == "Declare a BondO battle"
    assert game.action_label(state.observation(0), "roll") == "Roll the die"
    won = state.clone()
    play(won, "battle", "battle won")
    assert words(won).startswith("You won the battle: pick one of White's ringed cones")
    assert game.describe_action(won.observation(1), 0, "take j12>a1") == (
        "Black took White's ring from j12 and put it on a1."
    )
    play(state, "battle")
    assert game.describe_action(state.observation(1), None, "battle lost") == (
        "Black lost the battle."
    )
    play(state, "battle lost")
    assert words(state) == "Black lost the battle: pick one of their cones to learn its value."


def test_a_lost_battle_against_a_double_asks_for_a_seizure() -> None:
    game = new_game()
    state = game.position({"a1": "b4", "b1": "b2", "j12": "w8#"}, windows=(3, 0))
    play(state, "battle", "battle lost")
    assert "to seize it and score its value" in words(state)


def test_rolls_and_moves_are_described() -> None:
    game = new_game()
    ready = set_up(game)
    assert game.describe_action(ready.observation(0), None, "first 1") == "White starts."
    state = game.position({"d4": "b0+", "e5": "b2", "e7": "w4", "j12": "w0+"})
    observation = state.observation(1)
    assert game.describe_action(observation, None, "roll ring") == "Black rolled a ring."
    assert game.describe_action(observation, None, "roll 3") == "Black rolled a 3."
    state = game.position({"d4": "b0+", "e5": "b2", "e7": "w4", "j12": "w0+"}, die="2")
    assert game.describe_action(state.observation(1), 0, "e5-e7") == (
        "Black moved the cone from e5 to e7 and captured White's cone there."
    )
    assert game.describe_action(state.observation(1), 0, "d4-d6") == (
        "Black moved the BondO cone from d4 to d6."
    )
    assert game.action_label(state.observation(0), "peek e5") == "Peek at the cone on e5"


def test_the_panel_shows_scores_the_die_as_a_picture_and_the_rings() -> None:
    game = new_game()
    state = game.position({"d4": "b0+", "e5": "b2", "j12": "w0+"}, die="eye", scores=(4, 2))
    items = {item.label: item for item in game.panel(state.observation(0), 0)}
    assert items["Black (you)"].value == "4 of 28 points"
    assert items["White"].value == "2 of 28 points"
    assert items["Die"].value == "the eye"
    assert items["Die"].picture is not None and items["Die"].picture.startswith("<svg")
    assert items["Rings"].value == "Black on 1 cone, White on 1 cone"
    setup = game.new_initial_state()
    assert {i.label: i.value for i in game.panel(setup.observation(0), 0)}["Cones placed"] == (
        "Black 0 of 16, White 0 of 16"
    )


def test_results_in_words() -> None:
    game = new_game(target=4)
    state = game.position({"e5": "b2", "e6": "w4", "j12": "w0+"}, die="1")
    play(state, "e5-e6")
    assert state.is_terminal()
    observation = state.observation(None)
    assert game.result(observation, 0, state.returns()) == "You won 4-0: you captured 4 points."
    assert game.result(observation, 1, state.returns()) == "You lost 4-0: Black captured 4 points."
    assert game.result(observation, None, state.returns()) == "Black won 4-0, capturing 4 points."
    draw = new_game(max_turns=1).position({"e5": "b2", "j12": "w0"}, die="eye")
    play(draw, "peek e5")
    assert draw.is_terminal()
    assert game.result(draw.observation(0), 0, draw.returns()).startswith(
        "Draw: no winner after 1 turn"
    )


def test_only_the_set_up_may_be_left_to_chance() -> None:
    chosen = boneyard.load_game("bondo_cones")
    state = chosen.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    assert chosen.in_setup(state.observation(seat)), "placing cones is the set-up"
    dealt = boneyard.load_game("bondo_cones", setup="random")
    state = dealt.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    assert not dealt.in_setup(state.observation(seat)), "a dealt set-up leaves only play"
