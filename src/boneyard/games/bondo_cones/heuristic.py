"""The greedy heuristic of Bond O Cones, for the bots: reads nothing but one seat's observation.

Two ideas, both priced in points:

* capture the most valuable target: an opponent cone is worth its value where the observation
  shows it (captured-and-known or spied), else the expected value of what the opponent has left
  hidden (``expected_hidden_value``);
* keep the BondO cone out of reach: a cone the opponent can hit with some die roll next turn is
  at risk with probability (number of such rolls) / 6 (``capture_rolls``, ``risk``); a ring cone
  at risk also risks the ring.

``evaluate_observation(game, observation)`` turns these into a number in (-1, 1) (``evaluate``
is the game's hook); ``action_values(game, observation)`` prices each move of the die just
rolled, so a one-ply bot can pick the best without looking at any state.
"""

from __future__ import annotations

from typing import Any

from boneyard.core.game import State
from boneyard.games.bondo_cones.board import Cones
from boneyard.games.bondo_cones.notation import INDEX, observed_cones
from boneyard.games.bondo_cones.observation import BondoObservation, observe
from boneyard.games.bondo_cones.rules import VALUES

RING_WORTH = 3.0
"""How many points a ring is worth to its holder, in the heuristic's eyes."""


def remaining_values(observation: BondoObservation) -> list[int]:
    """The opponent's values the observing seat has not seen: its 26 values minus those captured
    from it and those shown on the board (spied)."""
    seat = _seat(observation)
    left = list(VALUES)
    for value in observation["captured"][seat]:
        left.remove(value)
    for cone in observed_cones(observation).values():
        if cone["seat"] != seat and cone["value"] is not None:
            left.remove(cone["value"])
    return left


def expected_hidden_value(observation: BondoObservation) -> float:
    """The mean of ``remaining_values``: what an unknown opponent cone is worth on average."""
    left = remaining_values(observation)
    return sum(left) / len(left) if left else 0.0


def cone_worth(observation: BondoObservation, square: str, hidden: float | None = None) -> float:
    """The value of the cone on ``square`` as the observing seat sees it (expected if unknown)."""
    value = observed_cones(observation)[square]["value"]
    if value is not None:
        return float(value)
    return expected_hidden_value(observation) if hidden is None else hidden


def capture_rolls(observation: BondoObservation, attacker: int, square: str) -> set[int]:
    """The die rolls (1-4) with which ``attacker`` could capture the cone on ``square``."""
    return _capture_rolls(Cones.from_observation(observation), attacker, INDEX[square])


def _capture_rolls(board: Cones, attacker: int, target: int) -> set[int]:
    hits = board.hit_masks(attacker, 1 << target)
    return {roll for roll in range(1, 5) if hits[roll]}


def risk(observation: BondoObservation, square: str) -> float:
    """The chance that the opponent can capture the cone on ``square`` with its next roll."""
    owner = observed_cones(observation)[square]["seat"]
    return len(capture_rolls(observation, 1 - owner, square)) / 6


def material(observation: BondoObservation) -> float:
    """Points ahead (scores) plus the heuristic worth of the rings each side holds, for the
    observing seat."""
    seat = _seat(observation)
    scores = observation["scores"]
    rings = [0, 0]
    for cone in observed_cones(observation).values():
        rings[cone["seat"]] += cone["rings"]
    return scores[seat] - scores[1 - seat] + RING_WORTH * (rings[seat] - rings[1 - seat])


def exposure(observation: BondoObservation) -> float:
    """Expected points the observing seat stands to lose to the opponent's next roll: for each
    roll, the most its hit cones (ring cones and valuable cones) are worth, over six rolls."""
    seat = _seat(observation)
    worths: list[tuple[int, float]] = []
    valuable = 0
    for name, cone in observed_cones(observation).items():
        if cone["seat"] == seat:
            worth = float(cone["value"] or 0) + RING_WORTH * cone["rings"]
            if worth >= 2:
                bit = 1 << INDEX[name]
                worths.append((bit, worth))
                valuable |= bit
    if not valuable:
        return 0.0
    hits = Cones.from_observation(observation).hit_masks(1 - seat, valuable)
    if not (hits[1] | hits[2] | hits[3] | hits[4]):
        return 0.0
    lost_by_roll = [0.0] * 5
    for bit, worth in worths:
        for roll in range(1, 5):
            if hits[roll] & bit and worth > lost_by_roll[roll]:
                lost_by_roll[roll] = worth
    return sum(lost_by_roll) / 6


_CACHE: dict[tuple[Any, ...], float] = {}
CACHE_SIZE = 1 << 16
"""How many evaluated positions ``evaluate`` remembers (then it forgets them all and starts
over): searches over resamples meet the same observation again and again."""


def evaluate(state: State, seat: int) -> float:
    """``Game.evaluate``: the value of ``seat``'s observation of ``state``."""
    return evaluate_observation(state.game, observe(state, seat))


def evaluate_observation(game: Any, observation: BondoObservation) -> float:
    """A value in (-1, 1) for the observing seat: material minus exposure, against the target.

    Cached on exactly the parts of the observation it reads."""
    key = (
        observation["seat"],
        observation["winner"],
        observation["target"],
        observation["turn_player"],
        *observation["scores"],
        *observation["cones"].items(),
    )
    value = _CACHE.get(key)
    if value is None:
        if len(_CACHE) >= CACHE_SIZE:
            _CACHE.clear()
        value = _CACHE[key] = _evaluate(observation)
    return value


def _evaluate(observation: BondoObservation) -> float:
    winner = observation["winner"]
    seat = _seat(observation)
    if winner is not None:
        return 0.0 if winner == "draw" else (1.0 if winner == seat else -1.0)
    target = observation["target"]
    points = material(observation)
    # The opponent's next roll threatens fully on its turn, and half as much from ours (we may
    # still move away).
    weight = 1.0 if observation["turn_player"] == 1 - seat else 0.5
    points -= weight * exposure(observation)
    value = points / (target + 2 * RING_WORTH)
    return max(-0.99, min(0.99, value))


def action_values(
    observation: BondoObservation, actions: list[tuple[int, str]]
) -> dict[int, float]:
    """Price moves of a rolled die from the observation alone: a capture gains what the target
    is worth (expected if unknown); any move loses what the moved cone then risks."""
    seat = _seat(observation)
    hidden = expected_hidden_value(observation)
    board = Cones.from_observation(observation)
    cones = observed_cones(observation)
    prices: dict[int, float] = {}
    for action, text in actions:
        if "-" not in text or " " in text:
            prices[action] = 0.0
            continue
        origin_name, target_name = text.split("-")
        origin, target = INDEX[origin_name], INDEX[target_name]
        gain = 0.0
        if board.cones[1 - seat] >> target & 1:
            gain = cone_worth(observation, target_name, hidden)
            gain += RING_WORTH * board.rings_on(1 - seat, target)
        after = board.copy()
        after.move_cone(seat, origin, target)
        worth = float(cones[origin_name]["value"] or 0) + RING_WORTH * after.rings_on(seat, target)
        hit = _capture_rolls(after, 1 - seat, target)
        prices[action] = gain - worth * len(hit) / 6
    return prices


def _seat(observation: BondoObservation) -> int:
    seat = observation["seat"]
    return 0 if seat is None else int(seat)
