"""Train a small Obonto policy with PPO on the JAX batch engine, then play it against random.

The agent learns against a uniformly random legal player in both seats at once: one batch agent
loop (``boneyard.jax.loop.BatchLoop``) a seat, whose opponent moves inside the jitted step, with
auto-reset and a seed a game. Everything of one PPO iteration (the rollout of every game and the
updates) is one jitted call. The game is Obonto with its default parameters (one game, the
standard start), the one a person plays.

The policy is a plain-JAX MLP over the seat's observation tensor (the rules engine's, 9 planes of
9 x 9). Two choices make the game small for it:

* **one frame for both seats**: the start position is symmetric under a half turn of the board,
  so the second seat sees its board turned by 180 degrees and learns from the same weights;
* **the library's heads** (``env.action_heads``, ``boneyard.jax.heads``): the policy picks a
  from square among the legal ones (81 logits), then a destination among the moves of that
  piece (81 logits from the trunk and the chosen square's embedding), not one of the 6,561
  from-to ids; the heads' masks say what is legal and ``to_flat`` gives the rules engine's id.

It learns from the win or the loss (+1 / -1), not the points: winning is what it is asked to
do. Evaluation plays the greedy policy (its most likely legal from square, then destination)
against random for ``--games`` games in each seat, on seeds the training never used.

    .venv/bin/python examples/train_obonto.py                 # at most 9 minutes in all
    .venv/bin/python examples/train_obonto.py --minutes 6 --seed 1
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

import boneyard.jax
from boneyard.jax.core import Env, random_legal_action
from boneyard.jax.heads import ActionHeads
from boneyard.jax.loop import BatchLoop, LoopState

Array = jax.Array
Params = list[tuple[Array, Array]]
Policy = Callable[[Any, Array, Array, Array, int], Array]
"""(parameters, key, observations, legal masks, seat) of a batch -> one rules-engine action id
a game."""

SQUARES = 81
PLANES = 9
FEATURES = PLANES * SQUARES
SEAT_NAMES = ("first", "second")
EVALUATION_SEEDS = 1_000_000_000
"""Evaluation games draw from seeds this far above the training seeds, so none is replayed."""
HEADS: ActionHeads = boneyard.jax.make("obonto").action_heads
"""The library's factoring of Obonto's 6,561 ids: one kind (a move), its row (the from square)
and its column (the to square)."""
assert HEADS.head_sizes == (1, SQUARES, SQUARES), HEADS.head_sizes


# ----- the agent's frame ----------------------------------------------------------------------


def canonical(observation: Array, seat: int) -> Array:
    """One game's observation in the agent's frame, as flat features.

    The observation is 9 planes over squares ``rank * 9 + file`` (light squares, the seat's lion,
    zebra and camel, the opponent's three, to move, solo phase). Reversing the square order turns
    the board by half a turn, which maps the second seat's start onto the first seat's."""
    planes = observation.reshape(PLANES, SQUARES)
    if seat == 1:
        planes = planes[:, ::-1]
    return planes.reshape(FEATURES)


def in_frame(squares: Array, seat: int) -> Array:
    """A per-square array (or a square) turned between the board's frame and the agent's (a
    half turn is its own inverse)."""
    if seat == 1:
        return squares[..., ::-1] if jnp.ndim(squares) else SQUARES - 1 - squares
    return squares


def from_mask(mask: Array, seat: int) -> Array:
    """bool[81]: the squares the agent may move from (the row head's mask), in its frame."""
    _, rows, _ = HEADS.head_masks(mask, jnp.int32(0), jnp.int32(0))
    return in_frame(rows, seat)


def to_mask(mask: Array, origin: Array, seat: int) -> Array:
    """bool[81]: the squares the piece on ``origin`` (agent's frame) may move to (the column
    head's mask given the row), in the agent's frame."""
    _, _, columns = HEADS.head_masks(mask, jnp.int32(0), in_frame(origin, seat))
    return in_frame(columns, seat)


def action_id(origin: Array, target: Array, seat: int) -> Array:
    """The rules engine's id of a move from ``origin`` to ``target`` (agent's frame), by the
    heads' exact map."""
    return HEADS.to_flat(jnp.int32(0), in_frame(origin, seat), in_frame(target, seat))


# ----- the network ----------------------------------------------------------------------------


def init_params(key: Array, hidden: int) -> Params:
    """An MLP trunk (features -> hidden -> hidden), a from-square head with the value, and a
    to-square head that reads the trunk plus an embedding of the chosen from square."""
    shapes = [
        (FEATURES, hidden),  # trunk
        (hidden, hidden),  # trunk
        (hidden, SQUARES + 1),  # from-square logits and value
        (SQUARES, hidden),  # the chosen from square's embedding
        (hidden, SQUARES),  # to-square logits
    ]
    params = []
    layer_keys = jax.random.split(key, len(shapes))
    for layer_key, (n_in, n_out) in zip(layer_keys, shapes):
        weight = jax.random.normal(layer_key, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
        params.append((weight, jnp.zeros(n_out)))
    # near-uniform first heads and a value near zero
    for head in (2, 4):
        weight, bias = params[head]
        params[head] = (weight * 0.01, bias)
    return params


def forward(params: Params, features: Array) -> tuple[Array, Array, Array]:
    """The trunk's output, the from-square logits and the value of a batch of features."""
    x = features
    for weight, bias in params[:2]:
        x = jax.nn.relu(x @ weight + bias)
    weight, bias = params[2]
    out = x @ weight + bias
    return x, out[..., :SQUARES], out[..., SQUARES]


def to_logits(params: Params, trunk: Array, origin: Array) -> Array:
    """The to-square logits given the chosen from square (agent's frame), a batch."""
    embedding, bias = params[3]
    x = jax.nn.relu(trunk + embedding[origin] + bias)
    weight, bias = params[4]
    return x @ weight + bias


def masked_log_policy(logits: Array, legal: Array) -> Array:
    return jax.nn.log_softmax(jnp.where(legal, logits, -1e9), axis=-1)


def agent_inputs(games: Any, seat: int) -> tuple[Array, Array]:
    """(features, legal from squares) of a batch of games at the agent's turn."""
    features = jax.vmap(canonical, (0, None))(games.observation, seat)
    return features, jax.vmap(from_mask, (0, None))(games.legal_action_mask, seat)


def greedy_policy(
    params: Params, key: Array, observations: Array, masks: Array, seat: int
) -> Array:
    """The trained policy's most likely legal from square, then its most likely legal
    destination for that piece."""
    features = jax.vmap(canonical, (0, None))(observations, seat)
    trunk, logits, _ = forward(params, features)
    legal = jax.vmap(from_mask, (0, None))(masks, seat)
    origin = jnp.argmax(jnp.where(legal, logits, -jnp.inf), axis=-1)
    targets = jax.vmap(to_mask, (0, 0, None))(masks, origin, seat)
    logits = to_logits(params, trunk, origin)
    target = jnp.argmax(jnp.where(targets, logits, -jnp.inf), axis=-1)
    return jax.vmap(action_id, (0, 0, None))(origin, target, seat)


def random_policy(params: Any, key: Array, observations: Array, masks: Array, seat: int) -> Array:
    """A uniformly random legal action a game (the opponent's policy, as a baseline)."""
    return jax.vmap(random_legal_action)(jax.random.split(key, masks.shape[0]), masks)


# ----- evaluation -----------------------------------------------------------------------------


class Record(NamedTuple):
    """Outcomes of the agent's games in one seat."""

    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def win_rate(self) -> float:
        return self.wins / self.games


class Evaluation:
    """``games`` games of ``policy`` on ``seat`` against a uniformly random legal player (the
    batch loop's opponent), compiled when made (for parameters shaped as ``params``) and played
    when called, so that compiling and playing can be timed apart."""

    def __init__(self, env: Env, policy: Policy, params: Any, seat: int, games: int) -> None:
        self.loop = loop = BatchLoop(env, games, seat=seat)

        def play(params: Any, state: LoopState, key: Array) -> Array:
            def unfinished(carry: tuple[LoopState, Array, Array, Array]) -> Array:
                return ~jnp.all(carry[2])

            def turn(
                carry: tuple[LoopState, Array, Array, Array],
            ) -> tuple[LoopState, Array, Array, Array]:
                state, key, finished, result = carry
                key, pick = jax.random.split(key)
                games = state.games
                actions = policy(params, pick, games.observation, games.legal_action_mask, seat)
                state, step = loop.step(state, actions)
                result = jnp.where(step.done & ~finished, step.reward, result)
                return state, key, finished | step.done, result

            start = (state, key, jnp.zeros(games, bool), jnp.zeros(games, jnp.float32))
            return jax.lax.while_loop(unfinished, turn, start)[3]

        state = loop.reset(loop.seeds(0))
        self.play = jax.jit(play).lower(params, state, jax.random.PRNGKey(0)).compile()

    def __call__(self, params: Any, seed: int) -> Record:
        """Game ``i`` on seed ``seed + i``; the first game of each is counted by the sign of the
        agent's return."""
        state = self.loop.reset(self.loop.seeds(seed))
        result = np.asarray(self.play(params, state, jax.random.PRNGKey(seed)))
        return Record(int((result > 0).sum()), int((result < 0).sum()), int((result == 0).sum()))


# ----- PPO ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Settings:
    envs: int = 128
    """Games a seat (twice as many in all)."""
    steps: int = 32
    """Agent turns a game per rollout."""
    hidden: int = 256
    learning_rate: float = 1e-3
    epochs: int = 3
    minibatches: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_weight: float = 0.5
    entropy_weight: float = 0.01


class Trajectory(NamedTuple):
    features: Array
    legal_from: Array
    legal_to: Array
    """The destinations legal for the chosen from square."""
    origin: Array
    target: Array
    log_prob: Array
    value: Array
    reward: Array
    done: Array


class Trainer(NamedTuple):
    params: Params
    opt_state: Any
    loops: tuple[LoopState, LoopState]
    key: Array


class Stats(NamedTuple):
    loss: Array
    entropy: Array
    games: Array
    wins: Array


def _taken(log_policy: Array, choice: Array) -> Array:
    """The log-probability of each game's ``choice``."""
    return jnp.take_along_axis(log_policy, choice[:, None], axis=-1)[:, 0]


def _entropy(log_policy: Array, legal: Array) -> Array:
    return -jnp.sum(jnp.where(legal, jnp.exp(log_policy) * log_policy, 0.0), axis=-1).mean()


def make_trainer(
    env: Env, settings: Settings, seed: int
) -> tuple[Trainer, Callable[[Trainer], tuple[Trainer, Stats]]]:
    """The first trainer state and the jitted PPO iteration (rollout and updates)."""
    loops = (BatchLoop(env, settings.envs, seat=0), BatchLoop(env, settings.envs, seat=1))
    optimiser = optax.chain(
        optax.clip_by_global_norm(0.5), optax.adam(settings.learning_rate, eps=1e-5)
    )
    key, init_key = jax.random.split(jax.random.PRNGKey(seed))
    params = init_params(init_key, settings.hidden)
    # the two seats' games on distinct seeds
    states = (
        loops[0].reset(loops[0].seeds(seed * 2 * settings.envs)),
        loops[1].reset(loops[1].seeds(seed * 2 * settings.envs + settings.envs)),
    )
    trainer = Trainer(params, optimiser.init(params), states, key)

    def rollout_step(
        carry: tuple[Params, tuple[LoopState, LoopState], Array], _: None
    ) -> tuple[tuple[Params, tuple[LoopState, LoopState], Array], Trajectory]:
        params, states, key = carry
        key, *picks = jax.random.split(key, 3)
        parts = []
        new_states = []
        for seat, (loop, state, pick) in enumerate(zip(loops, states, picks)):
            features, legal_from = agent_inputs(state.games, seat)
            trunk, logits, value = forward(params, features)
            from_policy = masked_log_policy(logits, legal_from)
            from_key, to_key = jax.random.split(pick)
            origin = jax.random.categorical(from_key, from_policy)
            legal_to = jax.vmap(to_mask, (0, 0, None))(state.games.legal_action_mask, origin, seat)
            to_policy = masked_log_policy(to_logits(params, trunk, origin), legal_to)
            target = jax.random.categorical(to_key, to_policy)
            actions = jax.vmap(action_id, (0, 0, None))(origin, target, seat)
            state, step = loop.step(state, actions)
            new_states.append(state)
            log_prob = _taken(from_policy, origin) + _taken(to_policy, target)
            won = jnp.sign(step.reward)  # learn from the win, not the points
            parts.append(
                Trajectory(
                    features, legal_from, legal_to, origin, target, log_prob, value, won, step.done
                )
            )
        joined = jax.tree_util.tree_map(lambda *xs: jnp.concatenate(xs), *parts)
        return (params, (new_states[0], new_states[1]), key), joined

    def last_values(params: Params, states: tuple[LoopState, LoopState]) -> Array:
        values = [
            forward(params, agent_inputs(s.games, seat)[0])[2] for seat, s in enumerate(states)
        ]
        return jnp.concatenate(values)

    def advantages(trajectory: Trajectory, last_value: Array) -> tuple[Array, Array]:
        """Generalised advantage estimates and returns; a game that ended is not bootstrapped
        from the next game's first position."""

        def back(carry: tuple[Array, Array], t: Trajectory) -> tuple[tuple[Array, Array], Array]:
            gae, next_value = carry
            alive = 1.0 - t.done
            delta = t.reward + settings.gamma * next_value * alive - t.value
            gae = delta + settings.gamma * settings.gae_lambda * alive * gae
            return (gae, t.value), gae

        _, gaes = jax.lax.scan(
            back, (jnp.zeros_like(last_value), last_value), trajectory, reverse=True
        )
        return gaes, gaes + trajectory.value

    def loss_fn(
        params: Params, batch: Trajectory, advantage: Array, target: Array
    ) -> tuple[Array, Array]:
        trunk, logits, value = forward(params, batch.features)
        from_policy = masked_log_policy(logits, batch.legal_from)
        to_policy = masked_log_policy(to_logits(params, trunk, batch.origin), batch.legal_to)
        log_prob = _taken(from_policy, batch.origin) + _taken(to_policy, batch.target)
        ratio = jnp.exp(log_prob - batch.log_prob)
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        clipped = jnp.clip(ratio, 1 - settings.clip, 1 + settings.clip)
        policy_loss = -jnp.minimum(ratio * advantage, clipped * advantage).mean()
        value_loss = 0.5 * ((value - target) ** 2).mean()
        # the from head's entropy and the to head's given the from square taken
        entropy = _entropy(from_policy, batch.legal_from) + _entropy(to_policy, batch.legal_to)
        loss = policy_loss + settings.value_weight * value_loss - settings.entropy_weight * entropy
        return loss, entropy

    def iteration(trainer: Trainer) -> tuple[Trainer, Stats]:
        params, opt_state, states, key = trainer
        key, rollout_key, shuffle_key = jax.random.split(key, 3)
        (_, states, _), trajectory = jax.lax.scan(
            rollout_step, (params, states, rollout_key), None, settings.steps
        )
        gaes, targets = advantages(trajectory, last_values(params, states))
        samples = settings.steps * 2 * settings.envs
        flat = jax.tree_util.tree_map(lambda x: x.reshape(samples, *x.shape[2:]), trajectory)
        gaes, targets = gaes.reshape(samples), targets.reshape(samples)

        def epoch(
            carry: tuple[Params, Any], key: Array
        ) -> tuple[tuple[Params, Any], tuple[Array, Array]]:
            order = jax.random.permutation(key, samples).reshape(settings.minibatches, -1)

            def minibatch(
                carry: tuple[Params, Any], index: Array
            ) -> tuple[tuple[Params, Any], tuple[Array, Array]]:
                params, opt_state = carry
                batch = jax.tree_util.tree_map(lambda x: x[index], flat)
                (loss, entropy), grads = jax.value_and_grad(loss_fn, has_aux=True)(
                    params, batch, gaes[index], targets[index]
                )
                updates, opt_state = optimiser.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), (loss, entropy)

            return jax.lax.scan(minibatch, carry, order)

        (params, opt_state), (losses, entropies) = jax.lax.scan(
            epoch, (params, opt_state), jax.random.split(shuffle_key, settings.epochs)
        )
        stats = Stats(
            losses.mean(),
            entropies.mean(),
            trajectory.done.sum(),
            (trajectory.done & (trajectory.reward > 0)).sum(),
        )
        return Trainer(params, opt_state, states, key), stats

    return trainer, jax.jit(iteration)


def train(
    env: Env,
    settings: Settings,
    seed: int,
    seconds: float,
    iterations: int | None = None,
    stop_at: float = 0.96,
    log: Callable[[str], None] = print,
) -> tuple[Params, list[Stats]]:
    """PPO for ``seconds`` (an iteration that would end past them is not begun), or until
    ``iterations`` are done, or the agent won ``stop_at`` of the games ended in the last five
    iterations (with its sampled moves, weaker than its greedy play)."""
    trainer, iteration = make_trainer(env, settings, seed)
    began = time.perf_counter()
    history: list[Stats] = []
    last = 0.0
    while True:
        start = time.perf_counter()
        trainer, stats = iteration(trainer)
        stats = Stats(*(np.asarray(x).item() for x in stats))
        history.append(stats)
        last = time.perf_counter() - start if len(history) > 1 else 0.0  # the first compiles
        elapsed = time.perf_counter() - began
        recent = history[-5:]
        games = sum(s.games for s in recent)
        rate = sum(s.wins for s in recent) / max(games, 1)
        done = len(history)
        if done == 1 or done % 10 == 0:
            played = int(sum(s.games for s in history))
            log(
                f"iteration {done:4d}  {elapsed:6.1f}s  games {played:7d}"
                f"  recent win rate {rate:6.1%}  loss {stats.loss:+.3f}"
                f"  entropy {stats.entropy:.2f}"
            )
        if iterations is not None and done >= iterations:
            break
        if elapsed + last >= seconds or (done >= 5 and games >= 500 and rate >= stop_at):
            break
    log(
        f"trained {len(history)} iterations ({int(sum(s.games for s in history))} games) "
        f"in {time.perf_counter() - began:.1f}s"
    )
    return trainer.params, history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--minutes",
        type=float,
        default=9.0,
        help="time budget of the whole run; training gets what the evaluation leaves",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the training")
    parser.add_argument("--games", type=int, default=200, help="evaluation games a seat")
    parser.add_argument("--envs", type=int, default=Settings.envs, help="games a seat in training")
    parser.add_argument(
        "--stop-at",
        type=float,
        default=0.96,
        help="stop training early once the recent training win rate reaches this",
    )
    args = parser.parse_args()
    began = time.perf_counter()
    env = boneyard.jax.make("obonto")
    print(
        f"Obonto (one game, standard start) on {jax.devices()[0].platform.upper()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    settings = Settings(envs=args.envs)
    seeds = [EVALUATION_SEEDS + seat * args.games for seat in (0, 1)]
    untrained = init_params(jax.random.PRNGKey(args.seed), settings.hidden)
    evaluations = [Evaluation(env, greedy_policy, untrained, s, args.games) for s in (0, 1)]
    print(f"evaluation compiled at {time.perf_counter() - began:.0f}s")

    def evaluate_both(params: Params, who: str) -> Record:
        total = Record(0, 0, 0)
        for seat in (0, 1):
            record = evaluations[seat](params, seeds[seat])
            total = Record(*(a + b for a, b in zip(total, record)))
            print(f"{who} against random, {SEAT_NAMES[seat]} seat: {describe(record)}")
        return total

    # the untrained policy first, for scale; twice its playing time is kept for the last one
    start = time.perf_counter()
    evaluate_both(untrained, "untrained policy")
    reserve = 2 * (time.perf_counter() - start) + 10
    budget = args.minutes * 60 - (time.perf_counter() - began) - reserve
    print(f"training for at most {budget:.0f}s")
    params, _ = train(env, settings, args.seed, budget, stop_at=args.stop_at)
    total = evaluate_both(params, "trained policy")
    print(
        f"both seats: {describe(total)}; {time.perf_counter() - began:.0f}s in all, "
        f"load average {os.getloadavg()[0]:.1f}"
    )


def describe(record: Record) -> str:
    return (
        f"{record.wins} wins, {record.losses} losses, {record.draws} draws in {record.games} "
        f"games ({record.win_rate:.1%} won)"
    )


if __name__ == "__main__":
    main()
