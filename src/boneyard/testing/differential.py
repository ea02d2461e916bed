"""Two engines of one game held equal, step by step: the Python rules and the native ones.

``check_same_play(python_game, native_game, playouts=..., seed=...)`` plays seeded random games
through both at once, the same action in each, and at every step compares all that the engine
contract shows: whose turn, the legal actions and their strings, the chance outcomes with their
probabilities, every seat's and a spectator's observation (as JSON), the returns, the state's
JSON (each engine reads the other's), an illegal action's refusal, and, in hidden-information
games, what a resample keeps. The first difference raises ``EnginesDiffer`` with the step, the
last actions and both answers.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any, Protocol

from boneyard.core.errors import IllegalActionError
from boneyard.core.game import CHANCE, Game, random_action

__all__ = ["EnginesDiffer", "check_same_play"]


class EnginesDiffer(AssertionError):
    """The two engines of a game answered one question differently."""


class _AnyState(Protocol):
    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def history(self) -> list[int]: ...
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def observation(self, seat: int | None) -> dict[str, Any]: ...
    def to_json(self) -> dict[str, Any]: ...
    def resample(self, seat: int, rng: random.Random) -> Any: ...


class _AnyGame(Protocol):
    name: str

    def new_initial_state(self) -> Any: ...
    def state_from_json(self, doc: Any) -> Any: ...


def check_same_play(
    python_game: Game,
    native_game: _AnyGame,
    *,
    playouts: int = 10,
    seed: int = 0,
    same_resample: bool = True,
) -> int:
    """Play ``playouts`` seeded random games through both engines; the plies compared.

    ``same_resample``: a native resample from a generator must equal the Python one from an
    equal generator (both draw alike), not only keep the seat's observation.
    """
    plies = 0
    for playout in range(playouts):
        rng = random.Random(seed * 1_000_003 + playout)
        plies += _play_both(python_game, native_game, rng, same_resample, f"playout {playout}")
    return plies


def _play_both(
    python_game: Game, native_game: _AnyGame, rng: random.Random, same_resample: bool, label: str
) -> int:
    ours: _AnyState = python_game.new_initial_state()
    theirs: _AnyState = native_game.new_initial_state()
    seats: list[int | None] = [*range(python_game.info.num_players), None]
    step = 0
    while True:
        where = f"{python_game.name} {label}, step {step} (last actions {ours.history()[-8:]})"
        _compare_step(ours, theirs, seats, where)
        _compare_json(python_game, native_game, ours, theirs, where)
        if ours.is_terminal():
            return step
        _compare_refusal(python_game, ours, theirs, rng, where)
        if not python_game.info.perfect_information:
            _compare_resamples(ours, theirs, rng, same_resample, where)
        action = random_action(ours, rng)  # type: ignore[arg-type]
        ours.apply_action(action)
        theirs.apply_action(action)
        step += 1


def _same(what: str, python: Any, native: Any, where: str) -> None:
    if python != native:
        raise EnginesDiffer(f"{where}: {what} differ\n  python: {python!r}\n  native: {native!r}")


def _as_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _compare_step(ours: _AnyState, theirs: _AnyState, seats: list[int | None], where: str) -> None:
    _same("current players", ours.current_player(), theirs.current_player(), where)
    _same("terminal flags", ours.is_terminal(), theirs.is_terminal(), where)
    legal = ours.legal_actions()
    _same("legal actions", legal, theirs.legal_actions(), where)
    strings = [ours.action_to_string(a) for a in legal]
    _same("action strings", strings, [theirs.action_to_string(a) for a in legal], where)
    _same("parsed strings", legal, [theirs.string_to_action(t) for t in strings], where)
    _same("returns", ours.returns(), theirs.returns(), where)
    if ours.current_player() == CHANCE:
        mine, other = ours.chance_outcomes(), theirs.chance_outcomes()
        _same("chance outcomes", [a for a, _ in mine], [a for a, _ in other], where)
        for (action, p), (_, q) in zip(mine, other):
            if not math.isclose(p, q, rel_tol=1e-12, abs_tol=0.0):
                _same(f"probabilities of outcome {action}", p, q, where)
    for seat in seats:
        _same(
            f"observations of seat {seat}",
            _as_json(ours.observation(seat)),
            _as_json(theirs.observation(seat)),
            where,
        )


def _compare_json(
    python_game: Game, native_game: _AnyGame, ours: _AnyState, theirs: _AnyState, where: str
) -> None:
    doc = ours.to_json()
    _same("JSON documents", doc, theirs.to_json(), where)
    # Each engine reads the other's document into the same position.
    read_by_native = native_game.state_from_json(json.loads(json.dumps(doc)))
    _same("native reading of the Python JSON", doc, read_by_native.to_json(), where)
    read_by_python = python_game.state_from_json(json.loads(json.dumps(theirs.to_json())))
    _same("Python reading of the native JSON", doc, read_by_python.to_json(), where)


def _compare_refusal(
    python_game: Game, ours: _AnyState, theirs: _AnyState, rng: random.Random, where: str
) -> None:
    bound = (
        python_game.info.max_chance_outcomes
        if ours.current_player() == CHANCE
        else python_game.info.num_distinct_actions
    )
    legal = set(ours.legal_actions())
    unplayable = [a for a in (rng.randrange(bound), bound, -1) if a not in legal]
    for action in unplayable[:1]:
        before = theirs.to_json()
        try:
            theirs.apply_action(action)
        except IllegalActionError:
            pass
        else:
            raise EnginesDiffer(f"{where}: the native engine accepted illegal action {action}")
        _same(f"states after refusing {action}", before, theirs.to_json(), where)


def _compare_resamples(
    ours: _AnyState, theirs: _AnyState, rng: random.Random, same_resample: bool, where: str
) -> None:
    seat = rng.randrange(len(ours.returns()))
    key = rng.randrange(2**32)
    mine = ours.resample(seat, random.Random(key))
    other = theirs.resample(seat, random.Random(key))
    _same(
        f"observations of seat {seat} after a resample",
        _as_json(ours.observation(seat)),
        _as_json(other.observation(seat)),
        where,
    )
    if same_resample:
        _same(f"resamples for seat {seat}", mine.to_json(), other.to_json(), where)
