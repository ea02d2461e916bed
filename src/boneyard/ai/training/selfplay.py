"""AlphaZero-style self-play on the rules engines (native where there is one), and its update.

One training step:

1. **self-play**: ``batch`` whole games, each move chosen by the ``expert`` bot's own search
   (PUCT, ``simulations`` iterations, the network being trained as priors and values), or its
   twin in Rust (below): a search for the mover alone, so the search that makes a move's
   targets knows exactly what that seat knows. In Bond O Cones and Bon-Bon every iteration
   searches a fresh ``resample`` of the seat's view (``Bot.view``), never the true hidden cards
   or cones: two positions that look the same to the seat give the same targets for the same
   seed (``search_targets``; the native search's in tests/ai/test_native_expert.py). The first
   ``sample_moves`` moves of a game are drawn in proportion to the search's visits (the games
   differ), the rest are its most visited action.
2. **targets**: a move's policy target is the root's visit shares; its value target is one
   number per seat (``outcome_targets`` of the game's returns: what the returns say, a Bon-Bon
   shared win a draw), in the value head's order (the mover first). The search backs up one
   value per seat (``mcts.back_up``), so any number of seats trains, the OYNO puzzle's one
   included. A game still running after ``max_moves`` moves teaches its policies only.
3. **update**: ``epochs`` Adam steps (``optax``, JAX on the CPU) on cross-entropy over the legal
   actions plus the squared error of the per-seat values, over the positions of the last
   ``window`` steps.

The games run on ``boneyard.native``'s engine where the game has one (``engine="native"``), the
same State API as the Python rules (``engine="python"``). On the native engine the search is the
``expert``'s in Rust (``search="native"``: ``boneyard.native.network.expert_search``, the same
selection, chance handling and values, held to the Python search step by step by
tests/ai/test_native_expert.py) with the network evaluated in Rust, the step's ``batch`` games
played side by side and the leaves of all their searches evaluated together; ``search="python"``
(or the Python rules) is the ``expert`` bot itself, the network evaluated with numpy
(``boneyard.ai.network``), as the ``expert`` plays. The network's policy is over the game's
factored heads (``boneyard.jax.heads``), an action's logit the sum of its heads' logits.

**Evaluation** (``evaluate_network``): the network's most likely move (no search) against
uniform random on the rules engine, the measured seat going round the table, each game seeded
from a range of its own: ``SELECTION_SEEDS`` for the run's evaluations, on which ``best.npz`` is
picked, and ``HELD_OUT_SEEDS`` for the score a model is reported with, beside an untrained
network's on the same games.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from boneyard.ai.expert import DEFAULT_EXACT_CHANCE, ExpertBot
from boneyard.ai.network import (
    Network,
    NetworkEvaluator,
    outcome_targets,
    rotate_to_mover,
    segment_maps,
)
from boneyard.core.game import Game, State, sample_chance_outcome
from boneyard.core.registry import load_game

Array = jax.Array
Params = dict[str, Array]

ENGINES = ("native", "python")
SEARCHES = ("native", "python")

SELECTION_SEEDS = 0
"""The first seed of the games a run's evaluations play (``best.npz`` is picked on them)."""
HELD_OUT_SEEDS = 1_000_000
"""The first seed of the held-out games a model's reported score is measured on."""


@dataclasses.dataclass
class TrainConfig:
    """What a training run does (all of it saved with its checkpoints)."""

    game: str
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    seed: int = 0
    steps: int | None = 100
    """Training steps (self-play games + update) in all, counting those of a resumed run."""
    minutes: float | None = None
    """Stop after this many minutes of this run (whichever of steps and minutes ends first)."""
    batch: int = 8
    """Self-play games a step."""
    simulations: int = 32
    """Search iterations a move (the ``expert``'s PUCT search)."""
    exploration: float = 1.5
    sample_moves: int = 30
    """Moves at the start of each game drawn in proportion to the search's visits."""
    max_moves: int = 2000
    """Moves after which a self-play game stops (its positions teach their policies only)."""
    exact_chance: int = DEFAULT_EXACT_CHANCE
    """Ways through chance up to which the search values an action's first visit exactly."""
    engine: str = "native"
    """``native``: ``boneyard.native``'s engine where the game has one; ``python``: the rules."""
    search: str = "native"
    """``native``: the expert's search in Rust, the games of a step side by side (on the native
    engine; the Python rules have no native search); ``python``: the ``expert`` bot's."""
    threads: int = 1
    """Threads the native search splits a step's games over (the same games for any number)."""
    hidden: int = 128
    layers: int = 2
    learning_rate: float = 1e-3
    epochs: int = 4
    window: int = 4
    """Steps whose positions each update learns from: this step's and the ``window - 1``
    before it (AlphaZero's window of recent games; a sitting starts its window anew)."""
    eval_every: int = 20
    eval_games: int = 64
    """Games of the network's most likely move against random at each evaluation."""
    held_out_games: int = 200
    """Held-out games the finished run's best network and an untrained one are scored on."""
    checkpoint_every: int = 10
    """Steps between checkpoints (and one at the end, and on SIGINT/SIGTERM); 0: only those."""
    hard_every: int = 0
    """Steps between measurements against ``hard`` on the rules engine (in a worker); 0: none."""
    hard_games: int = 10
    hard_time: float = 0.25
    """Seconds a move for both sides of a measurement against ``hard``."""

    def check(self) -> None:
        """ValueError, saying what is allowed, for settings no run can use."""
        if self.engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {self.engine!r}")
        if self.search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {self.search!r}")
        for name in (
            "batch",
            "simulations",
            "hidden",
            "layers",
            "epochs",
            "window",
            "max_moves",
            "threads",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        for name in ("sample_moves", "exact_chance", "eval_games", "held_out_games"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 or more, not {getattr(self, name)}")


def rules_game(name: str, params: dict[str, Any], engine: str = "native") -> Game:
    """The game to play: its native engine where asked and there is one, else its rules
    (``params`` as text, as ``-p`` gives them, or typed)."""
    python_game = load_game(name, **params)
    params = {key: python_game.params[key] for key in params}
    if engine == "native":
        from boneyard import native

        if native.has_native_engine(name):
            return native.load_game(name, **params)  # type: ignore[return-value]
    return python_game


# ----- the network ------------------------------------------------------------------------


def init_params(
    key: Array, input_size: int, hidden: int, layers: int, outputs: int, values: int
) -> Params:
    params: Params = {}
    sizes = [input_size] + [hidden] * layers
    keys = jax.random.split(key, layers + 2)
    for i in range(layers):
        params[f"w{i}"] = jax.random.normal(keys[i], (sizes[i], sizes[i + 1])) * math.sqrt(
            2.0 / sizes[i]
        )
        params[f"b{i}"] = jnp.zeros(sizes[i + 1])
    params["wp"] = jax.random.normal(keys[layers], (hidden, outputs)) * 0.01
    params["bp"] = jnp.zeros(outputs)
    params["wv"] = jax.random.normal(keys[layers + 1], (hidden, values)) * 0.01
    params["bv"] = jnp.zeros(values)
    return params


def forward(params: Params, features: Array, layers: int) -> tuple[Array, Array]:
    """Head logits and per-seat values (tanh, the mover first) of a batch of flat features:
    ``Network.forward`` in JAX."""
    x = features
    for i in range(layers):
        x = jax.nn.relu(x @ params[f"w{i}"] + params[f"b{i}"])
    logits = x @ params["wp"] + params["bp"]
    values = jnp.tanh(x @ params["wv"] + params["bv"])
    return logits, values


class Model:
    """A game's network shapes, the flat-id map of its heads, and its rules engine."""

    def __init__(self, config: TrainConfig) -> None:
        config.check()
        self.config = config
        python_game = load_game(config.game, **config.params)
        if python_game.spec.tensor is None:
            raise ValueError(f"{config.game} has no observation tensor: no network can read it")
        # the parameters read and checked by the rules (``-p players=3`` arrives as text)
        typed = {name: python_game.params[name] for name in config.params}
        config.params = typed  # saved typed, in checkpoints and model files
        self.game = rules_game(config.game, typed, config.engine)
        self.num_players = int(python_game.info.num_players)
        self.num_actions = int(python_game.num_distinct_actions())
        self.input_size = int(math.prod(python_game.observation_tensor_shape()))
        self.utility_range = (
            float(python_game.info.min_utility),
            float(python_game.info.max_utility),
        )
        import boneyard.jax

        heads = boneyard.jax.make(config.game, **typed).action_heads
        self.segments = [[s.name, s.offset, s.rows, s.columns] for s in heads.segments]
        self.head_sizes = tuple(int(n) for n in heads.head_sizes)
        # each id's three positions in the concatenated head logits (``Network.index``)
        kind, row, column = segment_maps(self.segments, self.num_actions)
        sizes = self.head_sizes
        self.index = jnp.asarray(
            np.stack([kind, sizes[0] + row, sizes[0] + sizes[1] + column], axis=1), jnp.int32
        )

    def init(self, key: Array) -> Params:
        c = self.config
        outputs = sum(self.head_sizes)
        return init_params(key, self.input_size, c.hidden, c.layers, outputs, self.num_players)

    def inference_config(self, extra: dict[str, Any]) -> dict[str, Any]:
        c = self.config
        return {
            "game": c.game,
            "params": c.params,
            "layers": c.layers,
            "hidden": c.hidden,
            "input_size": self.input_size,
            "head_sizes": list(self.head_sizes),
            "segments": self.segments,
            "num_actions": self.num_actions,
            "values": "per seat, the mover first",
            "trained": extra,
        }

    def network(self, params: Params, extra: dict[str, Any] | None = None) -> Network:
        """The numpy network of ``params`` (what self-play and the ``expert`` evaluate)."""
        weights = {name: np.asarray(value, np.float32) for name, value in params.items()}
        return Network(weights, self.inference_config(extra or {}))


# ----- self-play --------------------------------------------------------------------------


@dataclasses.dataclass
class Position:
    """One decision of a self-play game: what the mover saw, its legal actions, the search's
    visit shares over them and, once the game ends, every seat's value target (the mover
    first; None where the game did not end)."""

    features: np.ndarray
    actions: list[int]
    policy: list[float]
    mover: int
    values: list[float] | None = None


def make_searchers(model: Model, network: Network, seed: int) -> list[ExpertBot]:
    """One ``expert`` search per seat, each seeded from ``seed``, guided by ``network``."""
    c = model.config
    rng = random.Random(seed)
    bots = []
    for seat in range(model.num_players):
        bot = ExpertBot(
            model.game,
            seat,
            seed=rng.randrange(2**63),
            use_solver=False,
            iterations=c.simulations,
            time_limit=None,
            exploration=c.exploration,
            exact_chance=c.exact_chance,
            evaluator=NetworkEvaluator(network),
        )
        bot.evaluator.rng = bot.rng  # type: ignore[attr-defined]
        bots.append(bot)
    return bots


def search_targets(bot: ExpertBot, state: State) -> tuple[list[int], list[float]]:
    """The legal actions of ``state`` (the bot's seat to move) and the search's visit shares
    over them: the policy target. The search sees ``state`` only through the bot's ``view``
    (a resample of what the seat knows where the game hides anything)."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions, [1.0]
    root = bot.search(state)
    visits = [root.children[a].visits if a in root.children else 0 for a in actions]
    total = sum(visits)
    return actions, [v / total for v in visits]


def play_game(model: Model, network: Network, seed: int) -> tuple[list[Position], bool]:
    """One self-play game from ``seed``: its positions with their targets, and whether it
    ended (within ``max_moves``)."""
    c = model.config
    game = model.game
    rng = random.Random(seed)
    bots = make_searchers(model, network, rng.randrange(2**63))
    state = game.new_initial_state()
    positions: list[Position] = []
    moves = 0
    while not state.is_terminal() and moves < c.max_moves:
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        seat = state.current_player()
        features = network.features(state, seat)
        actions, policy = search_targets(bots[seat], state)
        if moves < c.sample_moves:
            action = rng.choices(actions, weights=policy)[0]
        else:
            action = actions[max(range(len(actions)), key=policy.__getitem__)]
        positions.append(Position(features, actions, policy, seat))
        state.apply_action(action)
        moves += 1
    return positions, _value_targets(model, state, positions)


def _value_targets(model: Model, state: State, positions: list[Position]) -> bool:
    """Every position's per-seat value targets from the game's end (the mover first); whether
    it ended (a game cut at ``max_moves`` teaches its policies only)."""
    ended = state.is_terminal()
    if ended:
        low, high = model.utility_range
        targets = outcome_targets(state.returns(), low, high)
        for position in positions:
            position.values = rotate_to_mover(targets, position.mover)
    return ended


def native_search(model: Model) -> bool:
    """Whether self-play searches in Rust: ``search="native"`` on a native engine."""
    return model.config.search == "native" and hasattr(model.game, "python_game")


class _NativeGame:
    """One game of native self-play: its state, the generator of its chance, samples and
    search seeds, and its positions so far."""

    def __init__(self, model: Model, network: Network, seed: int) -> None:
        self.model, self.network = model, network
        self.rng = random.Random(seed)
        self.state = model.game.new_initial_state()
        self.positions: list[Position] = []

    def waits_for_a_search(self) -> bool:
        """Play chance and forced moves; whether a decision with a choice is next (False: the
        game is over or at ``max_moves``)."""
        state, rng = self.state, self.rng
        while not state.is_terminal() and len(self.positions) < self.model.config.max_moves:
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
                continue
            actions = state.legal_actions()
            if len(actions) > 1:
                return True
            self.play(actions, [1.0])
        return False

    def play(self, actions: list[int], policy: list[float]) -> None:
        """Record the mover's position with its policy target and play its move: drawn by the
        policy in the first ``sample_moves`` moves, else the most visited."""
        state, seat = self.state, self.state.current_player()
        if len(self.positions) < self.model.config.sample_moves:
            action = self.rng.choices(actions, weights=policy)[0]
        else:
            action = actions[max(range(len(actions)), key=policy.__getitem__)]
        features = self.network.features(state, seat)
        self.positions.append(Position(features, actions, policy, seat))
        state.apply_action(action)


def play_games_native(
    model: Model, network: Network, seeds: Sequence[int]
) -> tuple[list[Position], int]:
    """Self-play games, one per seed, side by side on the native engine: at each round every
    game waiting for a move gets the expert's search in Rust, all of them in one call (their
    leaves evaluated together). The positions of all games and how many ended."""
    from boneyard.native.network import expert_search

    c = model.config
    native_network = network.native()
    games = [_NativeGame(model, network, seed) for seed in seeds]
    while True:
        waiting = [game for game in games if game.waits_for_a_search()]
        if not waiting:
            break
        found = expert_search(
            [game.state for game in waiting],  # type: ignore[misc]
            native_network,
            iterations=c.simulations,
            seeds=[game.rng.randrange(2**63) for game in waiting],
            exploration=c.exploration,
            exact_chance=c.exact_chance,
            threads=c.threads,
        )
        for game, root in zip(waiting, found):
            total = sum(root.visits)
            # one iteration values the root and visits no child: the policy is then uniform
            policy = (
                [v / total for v in root.visits]
                if total
                else [1.0 / len(root.visits)] * len(root.visits)
            )
            game.play(root.actions, policy)
    positions: list[Position] = []
    ended = 0
    for game in games:
        ended += int(_value_targets(model, game.state, game.positions))
        positions.extend(game.positions)
    return positions, ended


def _padded(count: int, floor: int = 16) -> int:
    """A size at least ``count`` from few (powers of two), so jit compiles few shapes."""
    return max(floor, 1 << max(count - 1, 0).bit_length())


def batch_arrays(positions: Sequence[Position], players: int) -> dict[str, np.ndarray]:
    """The positions as padded arrays: features, the legal actions and their policy targets
    (``valid`` marks the real ones), per-seat value targets and their weights (0 where the
    game did not end, and for the padding)."""
    rows = _padded(len(positions))
    width = _padded(max((len(p.actions) for p in positions), default=1), 4)
    size = positions[0].features.size if positions else 1
    features = np.zeros((rows, size), np.float32)
    actions = np.zeros((rows, width), np.int32)
    valid = np.zeros((rows, width), bool)
    policy = np.zeros((rows, width), np.float32)
    values = np.zeros((rows, players), np.float32)
    weight = np.zeros(rows, np.float32)
    for i, p in enumerate(positions):
        features[i] = p.features
        n = len(p.actions)
        actions[i, :n] = p.actions
        valid[i, :n] = True
        policy[i, :n] = p.policy
        if p.values is not None:
            values[i] = p.values
            weight[i] = 1.0
    return {
        "features": features,
        "actions": actions,
        "valid": valid,
        "policy": policy,
        "values": values,
        "weight": weight,
        "rows": np.asarray([1.0] * len(positions) + [0.0] * (rows - len(positions)), np.float32),
    }


def make_update(model: Model, optimizer: Any) -> Any:
    """``update(params, opt_state, batch)``: ``epochs`` Adam steps on the batch (jitted);
    returns the new params and state and the last step's (loss, policy loss, value loss)."""
    c = model.config
    index = model.index

    def loss_fn(params: Params, batch: Any) -> tuple[Array, Any]:
        head_logits, values = forward(params, batch["features"], c.layers)
        # an action's logit: the sum of its three heads' logits
        positions = index[batch["actions"]]  # [rows, width, 3]
        logits = (
            jnp.take_along_axis(
                head_logits[:, None, :], positions.reshape(positions.shape[0], -1)[:, None, :], -1
            )
            .reshape(positions.shape)
            .sum(-1)
        )
        logits = jnp.where(batch["valid"], logits, -1e9)
        log_policy = jax.nn.log_softmax(logits, axis=-1)
        rows = jnp.maximum(batch["rows"].sum(), 1.0)
        cross = -jnp.sum(batch["policy"] * jnp.where(batch["valid"], log_policy, 0.0), -1)
        policy_loss = jnp.sum(cross * batch["rows"]) / rows
        errors = jnp.mean((values - batch["values"]) ** 2, -1)
        value_loss = jnp.sum(errors * batch["weight"]) / jnp.maximum(batch["weight"].sum(), 1.0)
        return policy_loss + value_loss, (policy_loss, value_loss)

    @jax.jit
    def update(params: Params, opt_state: Any, batch: Any) -> Any:
        def epoch(carry: Any, _: Any) -> tuple[Any, Any]:
            params, opt_state = carry
            (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, batch)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), (loss, *parts)

        (params, opt_state), losses = jax.lax.scan(
            epoch, (params, opt_state), None, length=c.epochs
        )
        return params, opt_state, jax.tree.map(lambda x: x[-1], losses)

    return update


def self_play(model: Model, params: Params, seed: int) -> tuple[list[Position], int]:
    """A step's ``batch`` games from ``seed``: their positions and how many ended."""
    network = model.network(params)
    seeds = random.Random(seed)
    if native_search(model):
        return play_games_native(
            model, network, [seeds.randrange(2**63) for _ in range(model.config.batch)]
        )
    positions: list[Position] = []
    ended = 0
    for _ in range(model.config.batch):
        game_positions, finished = play_game(model, network, seeds.randrange(2**63))
        positions.extend(game_positions)
        ended += int(finished)
    return positions, ended


# ----- evaluation -------------------------------------------------------------------------


def evaluate_network(
    network: Network | None,
    game: Game,
    games: int,
    first_seed: int,
    *,
    opponent: Network | None = None,
    opening: int = 0,
    cap: int = 5000,
) -> tuple[float, int]:
    """The mean score of ``network``'s most likely move (None: uniform random, a check that
    reads 1/2) against ``opponent``'s most likely move in every other seat (None: uniform
    random players), over ``games`` games seeded ``first_seed``, ``first_seed + 1``, ...; the
    measured seat goes round the table; the first ``opening`` moves of each game are uniform
    random for every seat (two networks' most likely moves in a game without chance would
    otherwise play the same game again and again). A game scores 1 where the
    measured seat's return beats the mean of the others', 1/2 where it equals it, else 0 (a
    game still running after ``cap`` moves: 1/2). Returns (score, games)."""
    players = game.info.num_players
    total = 0.0
    for number in range(games):
        rng = random.Random(first_seed + number)
        seat = number % players
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and moves < cap:
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
                continue
            player = network if state.current_player() == seat else opponent
            if player is not None and moves >= opening:
                action = player.best_action(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            moves += 1
        if not state.is_terminal():
            total += 0.5
            continue
        returns = state.returns()
        mine = returns[seat]
        if players == 1:  # a puzzle: the share of its return's range reached (solved: 1)
            low, high = game.info.min_utility, game.info.max_utility
            total += (mine - low) / (high - low) if high > low else 0.5
            continue
        theirs = (sum(returns) - mine) / (players - 1)
        total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return total / max(games, 1), games
