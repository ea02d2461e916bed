"""Every bot on every game and variant: legal answers, the state untouched, reproducible seeds."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard import Game
from boneyard.ai import make_bot

from .cases import GAME_NAMES, TOY_CASES, VARIANT_CASES, decision_states, random_step
from .toy_games import DiceRace

# Tiny iteration budgets: these tests check behaviour, not strength, and never time anything.
TINY: dict[str, dict[str, Any]] = {
    "random": {},
    "greedy": {"samples": 1, "evaluations": 40},
    "mcts": {"iterations": 12, "rollout_depth": 4},
    "ismcts": {"iterations": 12, "rollout_depth": 4},
    "alphabeta": {"max_depth": 1},
}


def _check_bots_on(game: Game, seed: int, calls: int) -> None:
    rng = random.Random(seed)
    state = game.new_initial_state()
    names = list(TINY)
    for call in range(calls):
        while state.is_chance_node():
            random_step(state, rng)
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        name = names[call % len(names)]
        seat = state.current_player()
        bot = make_bot(name, game, seat, seed=call, **TINY[name])
        before = state.to_json()
        text = str(state)
        action = bot.step(state)
        assert state.to_json() == before, f"{name} changed the state"
        assert str(state) == text, f"{name} changed the state"
        assert action in state.legal_actions(), f"{name} chose illegal {action}"
        state.apply_action(action)
        for _ in range(rng.randrange(4)):
            if state.is_terminal():
                break
            random_step(state, rng)


@pytest.mark.parametrize(("name", "variant"), VARIANT_CASES)
def test_every_bot_plays_legally_without_changing_the_state(
    name: str, variant: dict[str, Any]
) -> None:
    _check_bots_on(boneyard.load_game(name, **variant), seed=len(variant), calls=15)


@pytest.mark.parametrize("game", TOY_CASES)
def test_every_bot_plays_the_toy_games(game: Game) -> None:
    _check_bots_on(game, seed=1, calls=30)


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("bot_name", ["greedy", "mcts", "ismcts", "alphabeta", "random"])
def test_equal_seeds_give_equal_choices(name: str, bot_name: str) -> None:
    game = boneyard.load_game(name)
    for state in decision_states(game, 3, seed=7):
        seat = state.current_player()
        first = make_bot(bot_name, game, seat, seed=11, **TINY[bot_name])
        second = make_bot(bot_name, game, seat, seed=11, **TINY[bot_name])
        assert first.step(state) == second.step(state)


def test_a_whole_seeded_game_replays_identically() -> None:
    game = DiceRace()

    def play() -> list[int]:
        bots = [make_bot("mcts", game, seat, seed=seat, iterations=30) for seat in (0, 1)]
        rng = random.Random(3)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                random_step(state, rng)
            else:
                state.apply_action(bots[state.current_player()].step(state))
        return state.history()

    assert play() == play()


def test_a_bot_refuses_a_state_where_its_seat_is_not_to_move() -> None:
    game = boneyard.load_game("obonto")
    state = game.new_initial_state()
    bot = make_bot("random", game, 1 - state.current_player(), seed=0)
    with pytest.raises(ValueError, match="seat"):
        bot.step(state)


def test_a_bad_seat_is_refused() -> None:
    game = boneyard.load_game("obonto")
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        make_bot("random", game, 2)
