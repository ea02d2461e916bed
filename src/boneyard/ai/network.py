"""A policy-value network in numpy: inference without JAX.

``boneyard train`` (``boneyard.ai.training``, the ``train`` extra) learns the weights; this
module only reads them, so playing with a network needs numpy and nothing else. A network is an
MLP over a seat's observation tensor (the game's ``tensor.py``, the same numbers the batch
engines' ``observation`` holds):

    x = relu(... relu(tensor @ W0 + b0) ... @ Wn + bn)
    head logits = x @ Wp + bp          kinds | rows | columns (``boneyard.jax.heads``' factoring)
    values = tanh(x @ Wv + bv)         each seat's outcome, -1 to +1 (``outcome_targets``)

The value head has one output per seat, in the order of play from the seat to move (the mover
first, then the seat after it, ...): a network learns one game for every seat count it is
trained at, and a seat's value is what the game's returns say of it (``outcome_targets``: a
shared win in two players is a draw, 0 for both). Files from before it have one output, the
mover's value of a two-player game (the other seat's is its negation); they still load.

An action's logit is the sum of the logits of its three heads (its kind, its row, its column,
the exact map of ``ActionHeads.to_heads``), so the output has ``sum(head_sizes)`` numbers instead
of one per id (Obonto 163 instead of 6,561). The policy is the softmax of those logits over the
legal actions.

A model file is one ``.npz``: the weights by name (``w0``, ``b0``, ..., ``wp``, ``bp``, ``wv``,
``bv``) and ``config``, a JSON string (the game, its parameters, the layer sizes, the action
segments, what the training did and, since issue 43, ``made_by``: the commit, the library
versions and the command that made it).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from boneyard.ai.evaluators import Evaluator
from boneyard.ai.values import state_values
from boneyard.core.game import Game, State, sample_chance_outcome

if TYPE_CHECKING:
    from boneyard.native.network import NativeNetwork

MODELS_DIR = Path(__file__).parent / "models"
"""The shipped models: ``<game>.npz``, one per game (see ``models/README.md``)."""


def outcome_targets(returns: Sequence[float], low: float, high: float) -> list[float]:
    """Each seat's value target in [-1, 1] from a finished game's returns (utility range
    ``low``..``high``): its return less the mean of the others' returns, over the range.

    What the returns say and nothing else: a two-player zero-sum game's +-r becomes +-r / range
    (Bones' win 1, loss -1), a Bon-Bon shared win (1 to both) is a draw, 0 for both, and with
    any number of seats the targets sum to zero, the returns' sum less its mean share, so the
    search's per-seat values keep the game's balance. One seat (the OYNO puzzle): its return
    scaled into [-1, 1] (solved 1, unsolved -1)."""
    width = high - low
    if width <= 0:
        return [0.0] * len(returns)
    players = len(returns)
    if players == 1:
        return [max(-1.0, min(1.0, 2.0 * (float(returns[0]) - low) / width - 1.0))]
    total = float(sum(returns))
    targets = []
    for mine in returns:
        others = (total - float(mine)) / (players - 1)
        targets.append(max(-1.0, min(1.0, (float(mine) - others) / width)))
    return targets


def rotate_to_mover(values: Sequence[float], mover: int) -> list[float]:
    """Per-seat values by seat number into the value head's order: the mover first."""
    players = len(values)
    return [float(values[(mover + k) % players]) for k in range(players)]


def rotate_from_mover(values: Sequence[float], mover: int) -> list[float]:
    """The value head's order (the mover first) back to values by seat number."""
    players = len(values)
    seats = [0.0] * players
    for k, value in enumerate(values):
        seats[(mover + k) % players] = float(value)
    return seats


def segment_maps(
    segments: Sequence[Sequence[Any]], num_actions: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per flat id, its kind, row and column (``ActionHeads.to_heads`` in numpy).

    ``segments``: ``(name, offset, rows, columns)`` each, tiling ``0 .. num_actions - 1``."""
    kind = np.zeros(num_actions, np.int64)
    row = np.zeros(num_actions, np.int64)
    column = np.zeros(num_actions, np.int64)
    for k, (_, offset, rows, columns) in enumerate(segments):
        ids = np.arange(int(rows) * int(columns))
        kind[offset : offset + ids.size] = k
        row[offset : offset + ids.size] = ids // int(columns)
        column[offset : offset + ids.size] = ids % int(columns)
    return kind, row, column


class Network:
    """A loaded policy-value network (``load`` a file, or from weights and a config)."""

    def __init__(self, weights: dict[str, np.ndarray], config: dict[str, Any]) -> None:
        self.config = config
        self.layers = int(config["layers"])
        self.weights = [
            (np.asarray(weights[f"w{i}"], np.float32), np.asarray(weights[f"b{i}"], np.float32))
            for i in range(self.layers)
        ]
        self.policy = (
            np.asarray(weights["wp"], np.float32),
            np.asarray(weights["bp"], np.float32),
        )
        self.value_head = (
            np.asarray(weights["wv"], np.float32),
            np.asarray(weights["bv"], np.float32),
        )
        self.value_outputs = int(self.value_head[0].shape[1])
        """1: an older file's mover's value; else one per seat, the mover first."""
        self.head_sizes = tuple(int(n) for n in config["head_sizes"])
        self.num_actions = int(config["num_actions"])
        kind, row, column = segment_maps(config["segments"], self.num_actions)
        sizes = self.head_sizes
        # each id's three positions in the concatenated head logits
        self.index = np.stack([kind, sizes[0] + row, sizes[0] + sizes[1] + column], axis=1)
        self._native: NativeNetwork | None = None

    @property
    def game_name(self) -> str:
        return str(self.config["game"])

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """A network from a model file (``.npz`` with its ``config``). A file from before
        model files named what made them takes ``made_by`` from its sidecar, the ``.json``
        beside it, where there is one."""
        path = Path(path)
        with np.load(path, allow_pickle=False) as data:
            config = json.loads(str(data["config"]))
            weights = {name: data[name] for name in data.files if name != "config"}
        sidecar = path.with_suffix(".json")
        if "made_by" not in config and sidecar.exists():
            config["made_by"] = json.loads(sidecar.read_text()).get("made_by")
        return cls(weights, config)

    def forward(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Head logits ``[..., sum(head_sizes)]`` and values ``[..., value_outputs]`` (the mover
        first) of a batch of flat observation tensors ``[..., input_size]``."""
        x = np.asarray(features, np.float32)
        for weight, bias in self.weights:
            x = np.maximum(x @ weight + bias, 0.0)
        logits = x @ self.policy[0] + self.policy[1]
        values = np.tanh(x @ self.value_head[0] + self.value_head[1])
        return logits, values

    def action_logits(self, head_logits: np.ndarray, actions: Sequence[int]) -> np.ndarray:
        """The logits of ``actions`` (flat ids): the sum of their heads' logits."""
        return np.asarray(head_logits[..., self.index[np.asarray(actions, np.int64)]].sum(-1))

    def evaluate(self, state: State) -> tuple[dict[int, float], float]:
        """The policy over the legal actions and the value (-1 to 1) of ``state`` for the seat
        to move, from that seat's observation tensor alone."""
        policy, values = self.evaluate_seats(state)
        return policy, values[state.current_player()]

    def evaluate_seats(self, state: State) -> tuple[dict[int, float], list[float]]:
        """The policy over the legal actions and every seat's value (-1 to 1, by seat number)
        of ``state``, from the observation tensor of the seat to move alone."""
        seat = state.current_player()
        head_logits, values = self.forward(self.features(state, seat))
        legal = state.legal_actions()
        logits = self.action_logits(head_logits, legal)
        logits = logits - logits.max()
        weights = np.exp(logits)
        weights /= weights.sum()
        return dict(zip(legal, weights.tolist())), self.seat_values(values, seat, state)

    def features(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s observation tensor of ``state``, flat: a native state's own (the same
        numbers, made in Rust from the seat's observation), else the game's."""
        game = state.game
        if hasattr(game, "python_game"):  # boneyard.native's: no Python dict in between
            size = int(self.weights[0][0].shape[0])
            native_tensor = state.observation_tensor  # type: ignore[attr-defined]
            return np.asarray(native_tensor(seat, size), np.float32)
        return np.asarray(game.state_observation_tensor(state, seat), np.float32).reshape(-1)

    def seat_values(self, values: np.ndarray, mover: int, state: State) -> list[float]:
        """The head's outputs as values by seat number."""
        players = state.game.info.num_players
        if self.value_outputs == 1:  # an older file: the mover's value of a two-player game
            mine = float(values[0])
            return [mine if s == mover else -mine / max(players - 1, 1) for s in range(players)]
        if self.value_outputs != players:
            raise ValueError(
                f"this network values {self.value_outputs} seats, the game has {players}"
            )
        return rotate_from_mover(values.tolist(), mover)

    def native(self) -> NativeNetwork:
        """The same network evaluated in Rust (``boneyard.native.network``), made once: what
        the native ``expert`` search and self-play evaluate."""
        if self._native is None:
            from boneyard.native.network import NativeNetwork

            self._native = NativeNetwork(self.weights, self.policy, self.value_head, self.index)
        return self._native

    def best_action(self, state: State) -> int:
        """The policy's most likely legal action (no search)."""
        policy, _ = self.evaluate(state)
        return max(policy, key=policy.__getitem__)


_LOADED: dict[str, Network] = {}


def shipped_model_path(game: Game | str) -> Path:
    name = game if isinstance(game, str) else game.name
    return MODELS_DIR / f"{name}.npz"


def load_network(game: Game | str, path: str | Path | None = None) -> Network:
    """The network in ``path``, by default the shipped one of ``game`` (loaded once, cached).

    Raises ValueError where no model exists or it was trained for another game."""
    name = game if isinstance(game, str) else game.name
    file = Path(path) if path is not None else shipped_model_path(name)
    key = str(file.resolve())
    network = _LOADED.get(key)
    if network is None:
        if not file.exists():
            raise ValueError(f"no network for {name}: {file} does not exist")
        network = _LOADED[key] = Network.load(file)
    if network.game_name != name:
        raise ValueError(f"the network in {file} plays {network.game_name}, not {name}")
    return network


def available_models() -> list[str]:
    """The games with a shipped network."""
    return sorted(path.stem for path in MODELS_DIR.glob("*.npz"))


class NetworkEvaluator(Evaluator):
    """A network's value as an ``Evaluator``: values in [0, 1] per seat.

    At a chance node it samples outcomes (``rng``) until a seat is to move. A seat's value is
    ``(1 + v) / 2`` of the network's ``v`` for it. A finished game is scored by its returns: for
    a network with a value per seat on the scale it learned (``outcome_targets``), for an older
    file by ``state_values`` (where the mover's value was all it had, the other seat got
    ``(1 - v) / 2``, more players sharing what is left)."""

    def __init__(self, network: Network, rng: random.Random | None = None) -> None:
        self.network = network
        self.rng = rng or random.Random(0)
        self.last_policy: dict[int, float] = {}
        """The policy at the last position evaluated (for a search's priors)."""

    def evaluate(self, state: State, perspective: int) -> list[float]:
        while state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, self.rng))
        if state.is_terminal():
            self.last_policy = {}
            if self.network.value_outputs == 1:
                return state_values(state, perspective)
            low, high = state.game.info.min_utility, state.game.info.max_utility
            return [0.5 * (1.0 + t) for t in outcome_targets(state.returns(), low, high)]
        players = state.game.info.num_players
        mover = state.current_player()
        if self.network.value_outputs == 1:
            self.last_policy, value = self.network.evaluate(state)
            mine = 0.5 * (1.0 + value)
            others = (1.0 - mine) / max(players - 1, 1)
            return [mine if seat == mover else others for seat in range(players)]
        self.last_policy, values = self.network.evaluate_seats(state)
        return [0.5 * (1.0 + v) for v in values]

    def priors(self) -> dict[int, float]:
        return self.last_policy


def fits(network: Network, game: Game) -> bool:
    """Whether ``network`` reads ``game``'s tensors and ids: the same game, tensor size and
    number of actions (a variant with other parameters may differ)."""
    if network.game_name != game.name or game.spec.tensor is None:
        return False
    size = math.prod(game.observation_tensor_shape())
    return bool(
        network.weights[0][0].shape[0] == size
        and network.num_actions == game.num_distinct_actions()
    )


def fitting_network(game: Game, path: str | Path | None = None) -> Network | None:
    """The network in ``path`` (it must fit ``game``: ValueError if not), or by default the
    game's shipped one where it exists and fits, else None."""
    if path is not None:
        network = load_network(game, path)
        if not fits(network, game):
            raise ValueError(f"the network in {path} does not fit this {game.name}")
        return network
    if not shipped_model_path(game).exists():
        return None
    network = load_network(game)
    return network if fits(network, game) else None
