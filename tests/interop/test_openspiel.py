"""The OpenSpiel adapter: OpenSpiel's own random simulation test, game types, observers, and
OpenSpiel's algorithms (MCTS, ISMCTS, CFR) running on boneyard games."""

from __future__ import annotations

import json
import pickle
import random
import warnings
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, ismcts, mcts

import boneyard
from boneyard import Game
from boneyard.interop import openspiel

from .cases import quick_params
from .toygames import TOY_GAMES

for _toy in TOY_GAMES:
    openspiel.register_game_class(type(_toy))
openspiel.register()

GAMES = boneyard.list_games()
ALL_CASES = [pytest.param(name, id=name) for name in GAMES] + [
    pytest.param(toy.name, id=toy.name) for toy in TOY_GAMES
]


def _load(name: str, **params: Any) -> Any:
    if name in GAMES:
        params = {**quick_params(name), **params}
    return openspiel.load_game(name, **params)


@pytest.mark.parametrize("name", ALL_CASES)
def test_openspiel_random_sim_test_passes(name: str) -> None:
    pyspiel.random_sim_test(_load(name), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test_passes_with_default_parameters(name: str) -> None:
    game = pyspiel.load_game(openspiel.spiel_name(name))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ALL_CASES)
def test_game_type_and_info_follow_the_boneyard_game(name: str) -> None:
    spiel = _load(name)
    game: Game = spiel.boneyard_game
    kind = spiel.get_type()
    assert kind.short_name == f"boneyard_{name}"
    assert (kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC) == game.chance
    perfect = kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert perfect == game.perfect_information
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert spiel.num_players() == game.info.num_players
    assert spiel.num_distinct_actions() == game.info.num_distinct_actions
    assert spiel.max_chance_outcomes() == game.info.max_chance_outcomes
    assert (spiel.min_utility(), spiel.max_utility()) == (
        game.info.min_utility,
        game.info.max_utility,
    )
    assert spiel.max_game_length() == game.info.max_game_length


@pytest.mark.parametrize("name", ALL_CASES)
def test_the_utility_claim_holds_over_random_games(name: str) -> None:
    spiel = _load(name)
    kind = spiel.get_type().utility
    rng = random.Random(7)
    for _ in range(3):
        state = spiel.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        total = sum(state.returns())
        if kind == pyspiel.GameType.Utility.ZERO_SUM:
            assert total == pytest.approx(0.0)
        elif kind == pyspiel.GameType.Utility.CONSTANT_SUM:
            assert total == pytest.approx(spiel.utility_sum())


@pytest.mark.parametrize("name", ALL_CASES)
def test_observations_show_each_player_its_own_view(name: str) -> None:
    spiel = _load(name)
    game: Game = spiel.boneyard_game
    rng = random.Random(3)
    state = spiel.new_initial_state()
    for _ in range(12):
        if state.is_terminal():
            break
        inner = openspiel.boneyard_state(state)
        for player in range(spiel.num_players()):
            seen = inner.observation(player)
            assert json.loads(state.observation_string(player)) == seen
            assert state.information_state_string(player).startswith(
                state.observation_string(player) + " | "
            )
            if spiel.get_type().provides_observation_tensor:
                expected = np.asarray(game.observation_tensor(seen), np.float32)
                assert np.array_equal(np.asarray(state.observation_tensor(player)), expected)
        state.apply_action(rng.choice(state.legal_actions()))


def test_information_state_hides_what_a_player_cannot_see() -> None:
    spiel = openspiel.load_game("toy_poker")

    def dealt(first: int, second: int) -> Any:
        state = spiel.new_initial_state()
        state.apply_action(first)
        state.apply_action(second)
        return state

    a, b = dealt(0, 1), dealt(0, 2)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert "deal ?" in a.information_state_string(0)
    assert "deal ?" in a.information_state_string(1)


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    spiel = openspiel.load_game("toy_poker", cards=6)
    state = spiel.new_initial_state()
    for action in (4, 2, 1):  # deal 4 to seat 0, 2 to seat 1; seat 0 bets
        state.apply_action(action)
    seen = set()
    for seed in range(40):
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        world = state.resample_from_infostate(1, sampler)
        assert world.information_state_string(1) == state.information_state_string(1)
        assert openspiel.boneyard_state(world).cards[1] == 2
        seen.add(openspiel.boneyard_state(world).cards[0])
    assert seen == {0, 1, 3, 4, 5}  # every card seat 1 cannot rule out, and only those


def test_game_strings_round_trip_parameters_with_commas() -> None:
    for name in GAMES:
        cls = type(boneyard.load_game(name))
        for variant in cls.conformance_variants:
            spiel = openspiel.load_game(name, **variant)
            again = pyspiel.load_game(str(spiel))
            assert again.boneyard_game.params == boneyard.load_game(name, **variant).params
    assert (
        str(openspiel.load_game("toy_race", goal=9))
        == "boneyard_toy_race(coin=True,engine=python,goal=9,label=race)"
    )


def test_register_is_idempotent_and_names_every_game() -> None:
    assert openspiel.register() == [f"boneyard_{name}" for name in GAMES]
    registered = set(pyspiel.registered_names())
    assert {f"boneyard_{name}" for name in GAMES} <= registered


@pytest.mark.parametrize(
    "name",
    [n for n in GAMES if boneyard.load_game(n).perfect_information] + ["toy_race"],
)
def test_openspiel_mcts_plays_perfect_information_games(name: str) -> None:
    spiel = _load(name)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(spiel, 1.4, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = spiel.new_initial_state()
    for _ in range(3):
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize(
    "name",
    [n for n in GAMES if not boneyard.load_game(n).perfect_information] + ["toy_poker"],
)
def test_openspiel_ismcts_plays_hidden_information_games(name: str) -> None:
    spiel = _load(name)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(spiel, evaluator, 2.0, 6, random_state=rng)
    state = spiel.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    action = bot.step(state)
    assert action in state.legal_actions()


def test_cfr_finds_the_known_value_of_the_poker_toy() -> None:
    # Kuhn poker's value for the first player is -1/18 (Kuhn 1950); the toy is Kuhn poker.
    spiel = openspiel.load_game("toy_poker")
    solver = cfr.CFRPlusSolver(spiel)
    for _ in range(40):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(spiel.new_initial_state(), [policy, policy])
    assert value[0] == pytest.approx(-1 / 18, abs=1e-3)
    assert exploitability.exploitability(spiel, policy) < 0.01


def test_cfr_runs_on_a_tiny_oyno_and_lowers_exploitability() -> None:
    spiel = openspiel.load_game("oyno", size=3, bones_per_player=2, max_moves=3)
    solver = cfr.CFRSolver(spiel)
    uniform = exploitability.exploitability(spiel, solver.average_policy())
    for _ in range(8):
        solver.evaluate_and_update_policy()
    assert exploitability.exploitability(spiel, solver.average_policy()) < uniform


@pytest.mark.parametrize(
    "name",
    [n for n in GAMES if not boneyard.load_game(n).perfect_information] + ["toy_poker"],
)
def test_a_resampled_world_gives_the_player_the_same_information_state(name: str) -> None:
    spiel = _load(name)
    rng = random.Random(11)
    state = spiel.new_initial_state()
    checked = with_history = 0
    for step in range(60):
        if state.is_terminal():
            break
        player = state.current_player()
        if player >= 0 and (step % 4 == 0 or checked == 0):
            sampler = pyspiel.UniformProbabilitySampler(step, 0.0, 1.0)
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.information_state_tensor(player) == state.information_state_tensor(player)
            assert world.legal_actions() == state.legal_actions()
            assert world.move_number() == state.move_number()
            try:
                history = world.history()
            except openspiel.ResampledHistoryError:
                pass  # no consistent history within the budget: the world alone
            else:
                assert len(history) == len(state.history())
                with_history += 1
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0
    assert with_history > 0


@pytest.mark.parametrize(
    ("name", "seed"),
    [("bonbon", seed) for seed in range(4)] + [("bondo_cones", seed) for seed in range(4)],
)
def test_a_resampled_world_carries_a_history_that_looks_the_same_to_the_player(
    name: str, seed: int
) -> None:
    spiel = openspiel.load_game(name)  # the default game: longer than the quick variant
    steps = 10 + 12 * seed
    state = _random_walk(spiel, steps, seed=seed)
    while state.is_terminal() or state.is_chance_node():  # a shorter walk, to a decision
        steps -= 1
        state = _random_walk(spiel, steps, seed=seed)
    player = state.current_player()
    differs = False
    for draw in range(3):
        sampler = pyspiel.UniformProbabilitySampler(100 * seed + draw, 0.0, 1.0)
        world = state.resample_from_infostate(player, sampler)
        history = world.history()  # a history, not ResampledHistoryError
        assert len(history) == len(state.history()) == world.move_number()
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
        assert world.information_history(player) == state.information_history(player)
        # the history leads to the world, from the game's start
        replay = spiel.new_initial_state()
        for action in history:
            replay.apply_action(action)
        assert str(replay) == str(world)
        assert world.full_history()[-1].action == history[-1]
        differs |= history != state.history()
        # the other seats saw that history as the world's own
        other = 1 - player if player < 2 else 0
        assert world.information_state_string(other) == replay.information_state_string(other)
    if any("?" in view for view in state.information_history(player)):
        assert differs, "the player saw hidden actions, yet every world had the true history"


def _random_walk(spiel: Any, steps: int, seed: int) -> Any:
    rng = random.Random(seed)
    state = spiel.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ALL_CASES)
def test_the_information_state_tensor_has_the_size_the_game_declares(name: str) -> None:
    spiel = _load(name)
    assert spiel.get_type().provides_information_state_tensor
    size = spiel.information_state_tensor_size()
    observation_size = spiel.observation_tensor_size()
    assert size == observation_size + openspiel.MEMORY_SIZE
    tensors = set()
    for steps in (0, 3, 8):
        state = _random_walk(spiel, steps, seed=steps)
        for player in range(spiel.num_players()):
            tensor = np.asarray(state.information_state_tensor(player))
            assert tensor.shape == (size,)
            assert np.array_equal(tensor[:observation_size], state.observation_tensor(player))
            tensors.add(tensor.tobytes())
    assert len(tensors) > 1  # the memory and the observation move with the game


class _NoTensorRace(type(TOY_GAMES[0])):  # type: ignore[misc]
    name = "toy_race_without_tensor"

    def observation_tensor_shape(self) -> tuple[int, ...]:
        raise NotImplementedError("no tensor")


openspiel.register_game_class(_NoTensorRace)


def test_a_game_without_tensors_declares_none_and_raises_when_asked() -> None:
    spiel = openspiel.load_game("toy_race_without_tensor")
    kind = spiel.get_type()
    assert not kind.provides_observation_tensor
    assert not kind.provides_information_state_tensor
    state = spiel.new_initial_state()
    with pytest.raises(Exception, match="no observation tensor"):
        state.information_state_tensor(0)
    assert state.information_state_string(0)  # the strings are provided


@pytest.mark.parametrize("name", ALL_CASES)
def test_undo_action_restores_the_previous_state(name: str) -> None:
    spiel = _load(name)
    rng = random.Random(3)
    state = spiel.new_initial_state()
    for _ in range(12):
        if state.is_terminal():
            break
        before = state.clone()
        player, action = state.current_player(), rng.choice(state.legal_actions())
        state.apply_action(action)
        after = state.clone()
        state.undo_action(player, action)
        assert str(state) == str(before)
        assert state.history() == before.history()
        assert state.move_number() == before.move_number()
        assert [(p.player, p.action) for p in state.full_history()] == [
            (p.player, p.action) for p in before.full_history()
        ]
        assert state.legal_actions() == before.legal_actions()
        for seat in range(spiel.num_players()):
            assert state.information_state_string(seat) == before.information_state_string(seat)
            assert state.observation_tensor(seat) == before.observation_tensor(seat)
        with pytest.raises(ValueError, match=r"no action to undo|only the last action"):
            state.undo_action(player, -1)  # not the last action
        state.apply_action(action)
        assert str(state) == str(after)
        assert state.history() == after.history()


_MOVES = st.lists(st.tuples(st.booleans(), st.integers(0, 10_000)), max_size=24)
"""(undo?, which legal action) steps: an undo where there is something to undo, else an apply."""


@pytest.mark.parametrize("name", ALL_CASES)
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(moves=_MOVES)
def test_a_state_saved_after_applies_and_undos_restores_to_the_same_state(
    name: str, moves: list[tuple[bool, int]]
) -> None:
    spiel = _load(name)
    state = spiel.new_initial_state()
    for undo, pick in moves:
        if undo and state.history():
            last = state.full_history()[-1]
            state.undo_action(last.player, last.action)
        elif not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[pick % len(legal)])
    replay = spiel.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    text = state.serialize()
    assert text.split("\n")[:2] == replay.serialize().split("\n")[:2]
    for restored in (spiel.deserialize_state(text), pickle.loads(pickle.dumps(state))):
        assert restored.serialize() == text
        # pyspiel's own (C++) record, not the adapter's: what C++ callers read
        assert pyspiel.State.history(restored) == state.history()
        assert pyspiel.State.move_number(restored) == state.move_number()
        assert restored.history() == state.history()
        assert str(restored) == str(replay)
        assert restored.is_terminal() == replay.is_terminal()
        if not replay.is_terminal():
            assert restored.legal_actions() == replay.legal_actions()
        for seat in range(spiel.num_players()):
            assert restored.information_state_string(seat) == replay.information_state_string(seat)


def test_undo_action_refuses_the_wrong_player() -> None:
    spiel = _load("bones")
    state = spiel.new_initial_state()
    action = state.legal_actions()[0]
    state.apply_action(action)
    with pytest.raises(ValueError, match="was played by 0, not 1"):
        state.undo_action(1, action)


@pytest.mark.parametrize(
    "name",
    [n for n in GAMES if not boneyard.load_game(n).perfect_information] + ["toy_poker"],
)
def test_a_resampled_world_without_a_history_keeps_the_move_number_and_says_so(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(openspiel, "HISTORY_BUDGET", 0)  # no history search: the world alone
    spiel = _load(name)
    state = _random_walk(spiel, 3, seed=5)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert world.move_number() == state.move_number() > 0
    if openspiel.boneyard_state(world).history():
        # the game's resample gives a history (the toy's): it leads to the world
        replay = spiel.new_initial_state()
        for action in world.history():
            replay.apply_action(action)
        assert str(replay) == str(world)
    else:
        with pytest.raises(openspiel.ResampledHistoryError, match=f"for player {player}"):
            world.history()
    assert world.information_history(player) == state.information_history(player)
    if not world.is_terminal():
        action = world.legal_actions()[0]
        world.apply_action(action)
        assert world.move_number() == state.move_number() + 1
        world.undo_action(player, action)
        assert world.information_state_string(player) == state.information_state_string(player)


def test_openspiel_mcts_warns_that_it_sees_hidden_information() -> None:
    hidden, perfect = _load("bondo_cones"), _load("bones")
    for spiel, warned in ((hidden, True), (perfect, False)):
        state = spiel.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        rng = np.random.RandomState(0)
        bot = mcts.MCTSBot(spiel, 1.4, 2, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            bot.step(state)
            state.clone()  # a clone of one's own is not a search
        kinds = [w.category for w in caught]
        assert (openspiel.PerfectInformationSearchWarning in kinds) == warned
        warning = openspiel.PerfectInformationSearchWarning
        assert all(kind is warning for kind in kinds)


def test_a_search_that_ran_out_of_budget_is_not_paid_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """ISMCTS resamples the same state at every simulation: a state whose history search ran
    out of budget goes straight to the world without a history the next time."""
    spiel = openspiel.load_game("bondo_cones")
    state = _random_walk(spiel, 40, seed=1)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    searches = []
    search = openspiel.consistent_history

    def counted(*args: Any) -> Any:
        searches.append(args)
        return search(*args)

    monkeypatch.setattr(openspiel, "consistent_history", counted)
    monkeypatch.setattr(openspiel, "HISTORY_BUDGET", 0)
    for draw in range(3):
        world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(draw, 0, 1))
        assert world.information_state_string(player) == state.information_state_string(player)
        with pytest.raises(openspiel.ResampledHistoryError):
            world.history()
    assert len(searches) == 1
    # another position is searched again, and with budget enough finds a history
    monkeypatch.setattr(openspiel, "HISTORY_BUDGET", 20_000)
    state.apply_action(state.legal_actions()[0])
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(9, 0, 1))
    assert len(world.history()) == len(state.history())
    assert len(searches) == 2


@pytest.mark.parametrize("name", ["bones", "bonbon"])
def test_openspiel_dqn_learns_for_a_few_episodes(name: str) -> None:
    """OpenSpiel's PyTorch DQN (which needs dm-tree, in the ``rl`` extra) self-plays a boneyard
    game through ``rl_environment``: every action it picks is legal, and it learns (a finite
    loss once its replay buffer holds a batch)."""
    pytest.importorskip("torch")
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    env = rl_environment.Environment(_load(name), seed=0)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        dqn.DQN(
            player,
            size,
            actions,
            hidden_layers_sizes=(16,),
            batch_size=8,
            replay_buffer_capacity=500,
            min_buffer_size_to_learn=8,
            # (its replay buffer is made by its first transition, on its 2nd step: a learning
            # step before that finds none)
            learn_every=4,
            update_target_network_every=20,
            seed=player,
        )
        for player in range(env.num_players)
    ]
    for _ in range(3):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            output = agents[player].step(time_step)
            assert output.action in time_step.observations["legal_actions"][player]
            time_step = env.step([output.action])
        for agent in agents:
            agent.step(time_step)
    losses = [agent.loss for agent in agents]
    assert all(loss is not None and np.isfinite(float(loss)) for loss in losses)
