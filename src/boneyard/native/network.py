"""A policy-value network evaluated in Rust, and the ``expert``'s PUCT search on it.

``NativeNetwork`` holds the arrays of a ``boneyard.ai.network.Network`` (``Network.native()``
makes one) and computes what that one computes: the MLP over a seat's native observation
tensor, an action's logit the sum of its three heads' logits, the softmax over the legal
actions, one value per seat (the mover first in the head). ``expert_search`` runs the
``expert``'s search (``boneyard.ai.expert``: the same selection, chance handling and values,
native/engine/src/search/expert.rs) from many states at once, their leaves evaluated together,
the GIL released: what ``boneyard train`` plays its self-play with.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from boneyard.native import _engine
from boneyard.native._engine import State as NativeState

__all__ = ["MOST_ITERATIONS", "ExpertSearchResult", "NativeNetwork", "expert_search"]

MOST_ITERATIONS = 1_000_000
"""The most iterations one search may ask for (``expert.rs``'s ``MAX_ITERATIONS``)."""


class NativeNetwork:
    """A network's weights in Rust: ``layers`` the ``(weight, bias)`` of each hidden layer,
    ``policy`` and ``value`` the heads', ``index`` each flat id's three positions in the head
    logits (``Network.index``)."""

    def __init__(
        self,
        layers: Sequence[tuple[np.ndarray, np.ndarray]],
        policy: tuple[np.ndarray, np.ndarray],
        value: tuple[np.ndarray, np.ndarray],
        index: np.ndarray,
    ) -> None:
        def f32(pair: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
            return tuple(np.ascontiguousarray(a, np.float32) for a in pair)  # type: ignore[return-value]

        self.core = _engine.Network(
            [f32(pair) for pair in layers],
            f32(policy),
            f32(value),
            np.ascontiguousarray(index, np.int64),
        )
        self.head_outputs = int(np.asarray(policy[0]).shape[1])

    @property
    def input_size(self) -> int:
        return self.core.input_size

    @property
    def value_outputs(self) -> int:
        """1: an older file's mover's value; else one per seat, the mover first."""
        return self.core.value_outputs

    def forward(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Head logits ``[rows, heads]`` and values ``[rows, value_outputs]`` of a batch of
        flat observation tensors ``[rows, input_size]`` (``Network.forward``)."""
        rows = np.ascontiguousarray(np.asarray(features, np.float32).reshape(-1, self.input_size))
        logits, values = self.core.forward(rows, rows.shape[0])
        shape = rows.shape[0]
        return (
            np.asarray(logits, np.float32).reshape(shape, self.head_outputs),
            np.asarray(values, np.float32).reshape(shape, self.value_outputs),
        )

    def evaluate_seats(self, state: NativeState) -> tuple[dict[int, float], list[float]]:
        """The policy over the legal actions and every seat's value (-1 to 1, by seat number)
        of a native state, from the mover's observation tensor (``Network.evaluate_seats``)."""
        legal, priors, values = self.core.evaluate(state)
        return dict(zip(legal, priors)), values

    def evaluate(self, state: NativeState) -> tuple[dict[int, float], float]:
        """The policy and the mover's value (``Network.evaluate``)."""
        policy, values = self.evaluate_seats(state)
        return policy, values[state.current_player()]


@dataclasses.dataclass(frozen=True)
class ExpertSearchResult:
    """One search's root: per legal action (in id order) its visits and mean value (0 to 1)
    for the mover, and the iterations it ran."""

    actions: list[int]
    visits: list[int]
    values: list[float]
    iterations: int


def expert_search(
    states: Sequence[NativeState],
    network: NativeNetwork,
    *,
    iterations: int = MOST_ITERATIONS,
    seeds: Sequence[int],
    exploration: float = 1.5,
    exact_chance: int = 12,
    threads: int = 1,
    time_limit: float | None = None,
) -> list[ExpertSearchResult]:
    """The ``expert``'s search of ``iterations`` iterations from each state (a seat to move in
    each, all of one native game) for its mover, search ``i`` seeded by ``seeds[i]``; in a
    hidden-information game every iteration searches a resample of the mover's view. The
    states are not changed. ``threads`` splits the searches over that many threads (the same
    results, sooner where there are cores to spare). ``time_limit`` (seconds from the call)
    stops each search short of its iterations, after its first: a bot's clock, so the visits
    then depend on the machine's speed."""
    if not states:
        return []
    game = states[0].game
    if any(state.game is not game for state in states):
        raise ValueError("expert_search: the states must all be of one game")
    if exact_chance < 0:
        raise ValueError(f"exact_chance must be 0 or more, not {exact_chance}")
    found = _engine.expert_search(
        list(states),
        network.core,
        hidden=not game.perfect_information,
        iterations=iterations,
        exploration=exploration,
        exact_chance=exact_chance,
        utility_range=(float(game.info.min_utility), float(game.info.max_utility)),
        seeds=[int(seed) % 2**64 for seed in seeds],
        threads=threads,
        time_limit_ms=None if time_limit is None else max(1, round(time_limit * 1000)),
    )
    return [ExpertSearchResult(list(a), list(v), list(q), n) for a, v, q, n in found]
