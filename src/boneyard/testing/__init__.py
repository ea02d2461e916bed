"""The conformance suite: checks that a game keeps the engine contract, step by step.

Anyone adding a game runs it, like PettingZoo's ``api_test``::

    from boneyard import load_game
    from boneyard.testing import check_game
    check_game(load_game("obonto"), playouts=10, seed=0)

It plays seeded random playouts and, at every step, checks: legal actions sorted, unique, in
range and non-empty while the game runs; an illegal action raises and changes no declared field;
a clone equals its original field by field, owns every container it copies (none reachable from
both), and playing on it changes no field of the original; every attribute a state holds is
declared in its record; ``to_json`` round-trips exactly, field by field (the playout goes on from
the restored copy); action
strings round-trip; chance probabilities are positive and sum to 1; returns are zero until the end
and inside the utility range; the game ends within ``max_game_length``; observations are plain
JSON; and in hidden-information games ``resample(seat)`` keeps ``observation(seat)`` and depends
on nothing else.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from typing import Any

from boneyard.core.errors import IllegalActionError, InvalidParameterError
from boneyard.core.game import CHANCE, TERMINAL, Game, State, random_action
from boneyard.core.record import record_of
from boneyard.core.registry import game_class, list_games, load_game

__all__ = [
    "ConformanceError",
    "check_game",
    "check_info",
    "check_parameter_errors",
    "random_action",
    "random_playout",
    "record_values",
    "variants",
]


class ConformanceError(AssertionError):
    """A game broke the engine contract; the message says where and how."""


def random_playout(game: Game, rng: random.Random) -> Iterator[tuple[State, int]]:
    """Yield ``(state, action)`` before each action of one random game, then play it."""
    state = game.new_initial_state()
    while not state.is_terminal():
        action = random_action(state, rng)
        yield state, action
        state.apply_action(action)


def variants() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with each parameter set it asks the suite to cover."""
    return [
        (name, dict(params))
        for name in list_games()
        for params in game_class(name).conformance_variants
    ]


def check_game(game: Game, *, playouts: int = 10, seed: int = 0) -> None:
    """Run ``playouts`` seeded random playouts of ``game``, checking the contract at every step."""
    check_info(game)
    for playout in range(playouts):
        rng = random.Random(seed * 1_000_003 + playout)
        _check_playout(game, rng, label=f"{game!r} playout {playout} (seed {seed})")


def check_info(game: Game) -> None:
    """The game's declared metadata is coherent."""
    info = game.info
    _expect(info.name == game.name, f"info.name {info.name!r} != {game.name!r}")
    _expect(
        info.min_players <= info.num_players <= info.max_players,
        f"{game.name}: {info.num_players} players, not {info.min_players}..{info.max_players}",
    )
    _expect(info.min_utility <= info.max_utility, f"{game.name}: utility range reversed")
    _expect(info.num_distinct_actions > 0, f"{game.name}: no distinct actions declared")
    _expect(
        info.chance == (info.max_chance_outcomes > 0),
        f"{game.name}: chance={info.chance} but max_chance_outcomes={info.max_chance_outcomes}",
    )
    _expect(info.max_game_length > 0, f"{game.name}: max_game_length must be positive")
    json.dumps(info.to_json())


def _check_playout(game: Game, rng: random.Random, label: str) -> None:
    state = game.new_initial_state()
    _expect(state.history() == [], f"{label}: a new state has a history")
    steps = 0
    while True:
        where = f"{label}, step {steps} ({state.history()[-8:]} last actions)"
        _check_step(game, state, rng, where)
        if state.is_terminal():
            break
        # Go on from an exact copy restored from JSON: any field to_json forgets shows up later.
        state = _restored(game, state, where)
        action = random_action(state, rng)
        _check_seat_views_of_action(game, state, action, where)
        state.apply_action(action)
        steps += 1
        _expect(
            steps <= game.info.max_game_length,
            f"{where}: more than max_game_length={game.info.max_game_length} actions",
        )
        _expect(len(state.history()) == steps, f"{where}: history length is not {steps}")


def _check_step(game: Game, state: State, rng: random.Random, where: str) -> None:
    player = state.current_player()
    players = game.info.num_players
    _expect(
        player in (CHANCE, TERMINAL) or 0 <= player < players,
        f"{where}: current_player() is {player}",
    )
    _check_returns(game, state, where)
    _check_observations(game, state, where)
    _check_evaluate(game, state, where)
    if player == TERMINAL:
        _expect(state.legal_actions() == [], f"{where}: legal actions after the end")
        _check_illegal(state, 0, where)
        return
    legal = _check_legal_actions(game, state, where)
    _check_action_strings(state, legal, where)
    _check_illegal_actions(game, state, legal, where)
    _check_clone(state, rng, where)
    if not game.info.perfect_information:
        _check_resample(game, state, rng, where)


def _check_legal_actions(game: Game, state: State, where: str) -> list[int]:
    legal = state.legal_actions()
    _expect(legal, f"{where}: no legal actions while the game runs")
    _expect(legal == sorted(set(legal)), f"{where}: legal actions not sorted and unique: {legal}")
    _expect(
        all(isinstance(a, int) and not isinstance(a, bool) for a in legal),
        f"{where}: legal actions must be ints: {legal}",
    )
    if state.current_player() == CHANCE:
        bound = game.info.max_chance_outcomes
        outcomes = state.chance_outcomes()
        _expect(
            [a for a, _ in outcomes] == legal,
            f"{where}: chance outcomes {outcomes} differ from legal actions {legal}",
        )
        _expect(all(p > 0 for _, p in outcomes), f"{where}: a chance probability is not positive")
        total = math.fsum(p for _, p in outcomes)
        _expect(abs(total - 1.0) < 1e-9, f"{where}: chance probabilities sum to {total}")
    else:
        bound = game.info.num_distinct_actions
        _expect(state.chance_outcomes() == [], f"{where}: chance outcomes at a player node")
    _expect(
        legal[0] >= 0 and legal[-1] < bound,
        f"{where}: legal actions {legal[0]}..{legal[-1]} outside 0..{bound - 1}",
    )
    return legal


def _check_action_strings(state: State, legal: list[int], where: str) -> None:
    strings = [state.action_to_string(a) for a in legal]
    _expect(len(set(strings)) == len(strings), f"{where}: two legal actions share a string")
    for action, text in zip(legal, strings):
        _expect(text == text.lower() and text.strip() == text, f"{where}: action string {text!r}")
        back = state.string_to_action(text)
        _expect(back == action, f"{where}: {text!r} parses to {back}, not {action}")
        _expect(
            state.string_to_action("  " + text.upper() + " ") == action,
            f"{where}: {text!r} does not parse in upper case with spaces",
        )


def _check_illegal_actions(game: Game, state: State, legal: list[int], where: str) -> None:
    bound = (
        game.info.max_chance_outcomes
        if state.current_player() == CHANCE
        else game.info.num_distinct_actions
    )
    legal_set = set(legal)
    candidates: list[Any] = [-1, bound, bound + 7, True, "0"]
    unplayable = next((a for a in range(bound) if a not in legal_set), None)
    if unplayable is not None:
        candidates.append(unplayable)
    for action in candidates:
        _check_illegal(state, action, where)


def _check_illegal(state: State, action: Any, where: str) -> None:
    before = state.to_json()
    fields = record_values(state)
    board = str(state)
    try:
        state.apply_action(action)
    except IllegalActionError as error:
        _expect(str(error), f"{where}: IllegalActionError without a message")
    else:
        raise ConformanceError(f"{where}: illegal action {action!r} was accepted")
    _expect(state.to_json() == before, f"{where}: a refused action {action!r} changed the state")
    _expect_same_record(
        record_values(state), fields, f"{where}: a refused action {action!r} changed"
    )
    _expect(str(state) == board, f"{where}: a refused action {action!r} changed the board")


def _check_clone(state: State, rng: random.Random, where: str) -> None:
    before = state.to_json()
    fields = record_values(state)
    copy = state.clone()
    _expect(type(copy) is type(state), f"{where}: a clone is a {type(copy).__name__}")
    _expect(copy.to_json() == before, f"{where}: a clone differs from its original")
    _expect(str(copy) == str(state), f"{where}: a clone's board differs from its original")
    _expect_same_record(record_values(copy), fields, f"{where}: a clone differs in")
    _check_declared(state, where)
    _check_nothing_shared(state, copy, where)
    for _ in range(3):  # play on the clone: any field it shares by mistake changes the original
        if copy.is_terminal():
            break
        copy.apply_action(random_action(copy, rng))
    _expect(state.to_json() == before, f"{where}: playing on a clone changed the original")
    _expect_same_record(
        record_values(state), fields, f"{where}: playing on a clone changed the original's"
    )


def record_values(state: State) -> dict[str, Any]:
    """The compared fields of ``state``'s declared record, containers frozen into tuples, so
    that later changes in place cannot reach the result."""
    if not isinstance(state, State):
        return {}  # a native state keeps its fields in Rust: its JSON and board are compared
    record = record_of(type(state))
    return {name: _frozen(getattr(state, name)) for name in record.compared()}


def _frozen(value: Any) -> Any:
    if isinstance(value, (list, tuple, bytearray)):
        return (type(value).__name__, *(_frozen(item) for item in value))
    if isinstance(value, dict):
        return ("dict", *sorted((repr(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", *sorted(repr(item) for item in value))
    return value


def _expect_same_record(got: dict[str, Any], want: dict[str, Any], what: str) -> None:
    for name, value in want.items():
        _expect(got.get(name) == value, f"{what} field {name}: {got.get(name)!r} != {value!r}")


def _check_declared(state: State, where: str) -> None:
    if not isinstance(state, State):
        return
    record = record_of(type(state))
    if record is State.record:
        return  # a class that declares no fields clones by deep copy
    undeclared = set(vars(state)) - set(record.fields) - {"game"}
    _expect(
        not undeclared,
        f"{where}: {type(state).__name__} holds undeclared fields {sorted(undeclared)} "
        "(declare each once, with how it is copied: boneyard.core.record)",
    )


def _check_nothing_shared(state: State, copy: State, where: str) -> None:
    """Every container a clone copies is its own: a ``Copied``, ``Derived`` or ``Memo`` field
    itself, and each item of a ``Nested`` one. (Their items are immutable by declaration;
    playing on the clone checks the rest.)"""
    if not isinstance(state, State):
        return
    record = record_of(type(state))
    for name, spec in record.fields.items():
        if spec.copy not in ("copy", "nested"):
            continue
        mine, theirs = getattr(state, name), getattr(copy, name)
        shared = mine is theirs
        if spec.copy == "nested" and not shared:
            shared = any(a is b for a, b in zip(mine, theirs))
        _expect(not shared, f"{where}: the clone shares field {name} with its original")


def _restored(game: Game, state: State, where: str) -> State:
    doc = state.to_json()
    text = json.dumps(doc)
    restored = game.state_from_json(json.loads(text))
    _expect(restored.to_json() == doc, f"{where}: to_json -> state_from_json is not exact")
    _expect(str(restored) == str(state), f"{where}: the restored board differs")
    _expect(
        restored.legal_actions() == state.legal_actions(),
        f"{where}: the restored state has other legal actions",
    )
    _expect(
        restored.current_player() == state.current_player(),
        f"{where}: the restored state has another player to move",
    )
    for seat in _seats(game):
        _expect(
            restored.observation(seat) == state.observation(seat),
            f"{where}: the restored state looks different to seat {seat}",
        )
    _expect_same_record(
        record_values(restored), record_values(state), f"{where}: the restored state differs in"
    )
    return restored


def _check_returns(game: Game, state: State, where: str) -> None:
    returns = state.returns()
    _expect(len(returns) == game.info.num_players, f"{where}: returns {returns} has a wrong length")
    if not state.is_terminal():
        _expect(all(r == 0 for r in returns), f"{where}: returns {returns} before the end")
        return
    low, high = game.info.min_utility, game.info.max_utility
    _expect(
        all(low <= r <= high for r in returns),
        f"{where}: returns {returns} outside the utility range {low}..{high}",
    )


def _check_observations(game: Game, state: State, where: str) -> None:
    before = state.to_json()
    for seat in _seats(game):
        observation = state.observation(seat)
        _expect(isinstance(observation, dict), f"{where}: observation({seat}) is not a dict")
        try:
            text = json.dumps(observation)
        except (TypeError, ValueError) as error:
            raise ConformanceError(f"{where}: observation({seat}) is not JSON: {error}") from None
        _expect(
            json.loads(text) == observation,
            f"{where}: observation({seat}) changes through JSON (tuples? non-str keys?)",
        )
        _check_optional_views(game, observation, where)
        _check_fast_tensor(game, state, seat, observation, where)
    _expect(state.to_json() == before, f"{where}: observing changed the state")


def _check_optional_views(game: Game, observation: dict[str, Any], where: str) -> None:
    try:
        tensor = game.observation_tensor(observation)
    except NotImplementedError:
        pass
    else:
        size = math.prod(game.observation_tensor_shape())
        _expect(len(tensor) == size, f"{where}: observation tensor has {len(tensor)} != {size}")
    try:
        text = game.render_text(observation)
    except NotImplementedError:
        pass
    else:
        _expect(isinstance(text, str) and text, f"{where}: render_text gave no text")


def _check_fast_tensor(
    game: Game, state: State, seat: int | None, observation: dict[str, Any], where: str
) -> None:
    try:
        slow = [float(x) for x in game.observation_tensor(observation)]
    except NotImplementedError:
        return
    fast = [float(x) for x in game.state_observation_tensor(state, seat)]
    _expect(
        fast == slow,
        f"{where}: state_observation_tensor({seat}) differs from observation_tensor of "
        f"observation({seat})",
    )


def _check_evaluate(game: Game, state: State, where: str) -> None:
    low, high = game.info.min_utility, game.info.max_utility
    for seat in range(game.info.num_players):
        value = game.evaluate(state, seat)
        _expect(low <= value <= high, f"{where}: evaluate(seat {seat}) = {value} outside range")


def _check_seat_views_of_action(game: Game, state: State, action: int, where: str) -> None:
    for seat in _seats(game):
        text = state.action_string_for(seat, action)
        _expect(isinstance(text, str) and text, f"{where}: action_string_for({seat}) is empty")


def _check_resample(game: Game, state: State, rng: random.Random, where: str) -> None:
    before = state.to_json()
    for seat in range(game.info.num_players):
        key = rng.randrange(2**32)
        view = state.observation(seat)
        sampled = state.resample(seat, random.Random(key))
        _expect(
            sampled.observation(seat) == view,
            f"{where}: resample({seat}) changed what seat {seat} sees",
        )
        if state.current_player() == seat:
            _expect(
                sampled.legal_actions() == state.legal_actions(),
                f"{where}: resample({seat}) changed seat {seat}'s legal actions",
            )
        again = sampled.resample(seat, random.Random(key + 1)).to_json()
        direct = state.resample(seat, random.Random(key + 1)).to_json()
        _expect(
            again == direct,
            f"{where}: resample({seat}) depends on more than observation({seat}) and the rng",
        )
    _expect(state.to_json() == before, f"{where}: resample changed the original state")


def check_parameter_errors(name: str) -> None:
    """``load_game`` refuses unknown names, unknown parameters and bad values, naming them."""
    try:
        load_game(name + "_nonexistent")
    except ValueError as error:
        _expect(name + "_nonexistent" in str(error), f"unknown-game error: {error}")
    else:
        raise ConformanceError(f"load_game accepted the unknown game {name}_nonexistent")
    _expect_parameter_error(name, {"no_such_parameter": 1}, "no_such_parameter")
    for parameter in game_class(name).parameters:
        for bad in _bad_values(parameter):
            _expect_parameter_error(name, {parameter.name: bad}, parameter.name)


def _bad_values(parameter: Any) -> list[Any]:
    bad: list[Any] = [object()]
    if parameter.minimum is not None:
        bad.append(parameter.minimum - 1)
    if parameter.maximum is not None:
        bad.append(parameter.maximum + 1)
    if parameter.type in (int, float):
        bad.append("many")
    if parameter.type is bool:
        bad.append("perhaps")
    if parameter.choices is not None:
        bad.append("no-such-choice")
    return bad


def _expect_parameter_error(name: str, params: dict[str, Any], mentioned: str) -> None:
    try:
        load_game(name, **params)
    except InvalidParameterError as error:
        _expect(mentioned in str(error), f"{name}: error {error!r} does not name {mentioned!r}")
    else:
        raise ConformanceError(f"{name}: load_game accepted bad parameters {params!r}")


def _seats(game: Game) -> list[int | None]:
    return [*range(game.info.num_players), None]


def _expect(condition: object, message: str) -> None:
    if not condition:
        raise ConformanceError(message)
