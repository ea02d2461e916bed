"""Gumbel AlphaZero-style self-play on a batch engine, with ``mctx`` and ``optax``.

One training step:

1. **self-play**: ``batch`` games move ``unroll`` times; each move is a search
   (``make_search``) with ``simulations`` simulations from the position, the network giving
   priors and leaf values. A finished game starts again at once.
2. **targets**: the policy target of a move is the search's improved policy
   (``action_weights``); its value target is the game's result for the seat that moved, in
   [-1, 1] (``Model.outcomes``: win 1, draw 0, loss -1, read from the game's returns and
   utility range), or, for a game still running at the end of the unroll, the search's value
   of the position.
3. **update**: ``epochs`` Adam steps on cross-entropy (policy) plus squared error (value).

The recurrent function follows ``examples/mctx_turns.py``: a child's value is backed up with
``discount = +1`` where the same seat moves again and ``-1`` where the other does, so games
whose turns do not alternate (Obonto's solo phase, Bond O Cones' battles, Bon-Bon's rounds)
are searched right. Two-player games only.

**Chance.** A game whose steps draw nothing (Obonto, Bones, OYNO) is searched by
``mctx.gumbel_muzero_policy`` over ``env.step``. A game whose steps draw chance (a die, a card,
a wild roll: Bond O Cones, Bon-Bon, wild OYNO) is searched by ``mctx.stochastic_muzero_policy``
over the engine's split step (``make_chance_fns``): a decision gives an afterstate, valued by
the exact expectation over the step's joint chance outcomes (``exact_outcomes``), and a chance
node with a child per outcome, visited in proportion to the probabilities; the policy target
is then the root's visit counts. (Stepping the engine with a key inside one recurrent function
would not do: mctx keeps one child per edge, so the first outcome drawn at an edge would stand
for it through the whole search.) A Bon-Bon deck whose split step is not built is searched as
a game without chance nodes, one outcome an edge.

**Hidden information, honestly.** In Bond O Cones and Bon-Bon the search runs on the *true*
state of the self-play game, hidden cards included, while the network only ever sees the
moving seat's observation tensor: the targets are those of a player who peeks, a known bias of
this shortcut (perfect-information search). Playing, the ``expert`` bot never peeks: it
searches resampled worlds (``state.resample``).

The network is ``boneyard.ai.network``'s MLP: policy logits over the game's factored heads
(``env.action_heads``), an action's logit the sum of its heads' logits.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax

import boneyard.jax
from boneyard.ai.network import segment_maps
from boneyard.ai.values import values_from_return_arrays
from boneyard.core.registry import load_game
from boneyard.jax.core import random_legal_action

Array = jax.Array
Params = dict[str, Array]


@dataclasses.dataclass
class TrainConfig:
    """What a training run does (all of it saved with its checkpoints)."""

    game: str
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    seed: int = 0
    steps: int | None = 100
    """Training steps (self-play unroll + update) in all, counting those of a resumed run."""
    minutes: float | None = None
    """Stop after this many minutes of this run (whichever of steps and minutes ends first)."""
    batch: int = 32
    unroll: int = 16
    simulations: int = 16
    considered: int = 16
    exact_outcomes: int = 256
    """In a game whose steps draw chance, the search's chance nodes value an afterstate by the
    exact expectation over the step's joint chance outcomes where it has at most this many
    (Bon-Bon's 196, Bond O Cones' 12), else by the mean of this many outcomes sampled."""
    hidden: int = 128
    layers: int = 2
    learning_rate: float = 1e-3
    epochs: int = 2
    eval_every: int = 20
    eval_games: int = 64
    """Games of the network's greedy policy against random (half in each seat) at each
    evaluation, on the batch engine."""
    checkpoint_every: int = 10
    """Steps between checkpoints (and one at the end, and on SIGINT/SIGTERM); 0: only those."""
    hard_every: int = 0
    """Steps between measurements against ``hard`` on the rules engine (in a worker); 0: none."""
    hard_games: int = 10
    hard_time: float = 0.25
    """Seconds a move for both sides of a measurement against ``hard``."""


# ----- the network ------------------------------------------------------------------------


def init_params(key: Array, input_size: int, hidden: int, layers: int, outputs: int) -> Params:
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
    params["wv"] = jax.random.normal(keys[layers + 1], (hidden, 1)) * 0.01
    params["bv"] = jnp.zeros(1)
    return params


def forward(params: Params, features: Array, layers: int) -> tuple[Array, Array]:
    """Head logits and values (tanh) of a batch of flat features: ``Network.forward`` in JAX."""
    x = features
    for i in range(layers):
        x = jax.nn.relu(x @ params[f"w{i}"] + params[f"b{i}"])
    logits = x @ params["wp"] + params["bp"]
    value = jnp.tanh(x @ params["wv"] + params["bv"])[..., 0]
    return logits, value


class Model:
    """A game's network shapes, the flat-id map of its heads and its evaluation."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.env = boneyard.jax.make(config.game, **config.params)
        if self.env.num_players != 2:
            raise ValueError("boneyard train plays two-player games only")
        heads = self.env.action_heads
        self.segments = [[s.name, s.offset, s.rows, s.columns] for s in heads.segments]
        self.head_sizes = tuple(int(n) for n in heads.head_sizes)
        self.num_actions = int(self.env.num_actions)
        self.input_size = int(np.prod(self.env.observation_shape))
        kind, row, column = segment_maps(self.segments, self.num_actions)
        sizes = self.head_sizes
        self.index = jnp.asarray(
            np.stack([kind, sizes[0] + row, sizes[0] + sizes[1] + column], axis=1), jnp.int32
        )
        info = load_game(config.game, **config.params).info
        self.utility_range = (float(info.min_utility), float(info.max_utility))

    def init(self, key: Array) -> Params:
        c = self.config
        return init_params(key, self.input_size, c.hidden, c.layers, sum(self.head_sizes))

    def evaluate(self, params: Params, states: Any) -> tuple[Array, Array]:
        """Flat logits over every id, masked by legality, and values (the mover's view)."""
        features = states.observation.reshape(states.observation.shape[0], -1)
        features = features.astype(jnp.float32)
        head_logits, value = forward(params, features, self.config.layers)
        logits = head_logits[:, self.index].sum(-1)
        logits = jnp.where(states.legal_action_mask, logits, -1e9)
        return logits, value

    def outcomes(self, rewards: Array, ended: Array) -> Array:
        """Each seat's result in [-1, 1] where ``ended`` (the step that gave ``rewards``, the
        game's returns, ended the game), else 0: ``2 * values_from_returns - 1``, the scale
        the ``expert``'s search values finished games on. Win 1, draw 0, loss -1 in games whose
        returns are +-1 or 1/0 (Bon-Bon); a score's margin (Obonto) moves it a little inside."""
        low, high = self.utility_range
        values = values_from_return_arrays(rewards, low, high, jnp)
        return jnp.where(ended[..., None], 2.0 * values - 1.0, 0.0)

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
            "trained": extra,
        }


def turn_discount(state: Any, next_state: Any) -> Array:
    """+1 where the same seat moves again, -1 where the other does, 0 once over."""
    same = next_state.current_player == state.current_player
    return jnp.where(next_state.terminated, 0.0, jnp.where(same, 1.0, -1.0))


def make_recurrent_fn(
    model: Model, transition: Callable[[Any, Array, Array], Any] | None = None
) -> Callable[..., Any]:
    """mctx's recurrent function: ``transition(states, actions, keys)`` (the engine's step by
    default; Stochastic MuZero's chance step from afterstates for ``make_chance_fns``), then the
    mover's reward, the turn's discount and the network's priors and value of what it gives."""
    step = transition if transition is not None else jax.vmap(model.env.step)

    def recurrent_fn(params: Params, key: Array, action: Array, state: Any) -> Any:
        batch = action.shape[0]
        next_state = step(state, action, jax.random.split(key, batch))
        ended = next_state.terminated & ~state.terminated
        reward = model.outcomes(next_state.rewards, ended)[jnp.arange(batch), state.current_player]
        logits, value = model.evaluate(params, next_state)
        value = jnp.where(next_state.terminated, 0.0, value)
        output = mctx.RecurrentFnOutput(
            reward=reward,
            discount=turn_discount(state, next_state),
            prior_logits=logits,
            value=value,
        )
        return output, next_state

    return recurrent_fn


def searches_chance(env: Any) -> bool:
    """Whether the search plans chance as nodes of its own (Stochastic MuZero): the game's steps
    draw chance and its split step lays it out as chance nodes. Elsewhere a step is
    deterministic (plain Gumbel MuZero), or, a Bon-Bon deck whose split is not built, chance
    is drawn inside the step once per edge of the tree."""
    return bool(env.step_draws_chance and env.chance_node_sizes)


def make_chance_fns(model: Model) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Stochastic MuZero's two recurrent functions over the engine's split step.

    The decision function plays ``decision_step`` (the afterstate, nothing drawn yet) and gives
    the chance outcomes' probabilities as the chance node's logits and, as the afterstate's
    value, the expectation over the outcomes of ``reward + discount * value`` (each outcome
    played by ``chance_step`` and valued by the network): exact where the step has at most
    ``exact_outcomes`` joint outcomes, else the mean of that many sampled. The chance function
    plays one outcome (mctx picks a chance node's outcomes in proportion to their
    probabilities, each visit the one furthest below its share). Rewards and discounts are the
    plain recurrent function's (``make_recurrent_fn``): the afterstate keeps its decider as
    ``current_player``."""
    env = model.env
    outcomes = env.num_chance_outcomes
    if model.config.exact_outcomes < 1:
        raise ValueError(
            f"exact_outcomes must be at least 1 (the outcomes an afterstate's value averages), "
            f"not {model.config.exact_outcomes}"
        )
    exact = outcomes <= model.config.exact_outcomes
    play = jax.vmap(lambda afterstate, outcome, _key: env.chance_step(afterstate, outcome))
    chance_fn = make_recurrent_fn(model, play)
    decide = jax.vmap(env.decision_step)
    probabilities = jax.vmap(env.chance_outcome_probs)

    def chance_recurrent_fn(params: Params, key: Array, outcome: Array, afterstate: Any) -> Any:
        # mctx also calls this at a decision node and discards it: keep the outcome in range
        outcome = jnp.clip(outcome, 0, outcomes - 1).astype(jnp.int32)
        out, state = chance_fn(params, key, outcome, afterstate)
        output = mctx.ChanceRecurrentFnOutput(
            action_logits=out.prior_logits,
            value=out.value,
            reward=out.reward,
            discount=out.discount,
        )
        return output, state

    def outcome_return(params: Params, key: Array, outcome: Array, afterstate: Any) -> Array:
        out, _ = chance_fn(params, key, outcome, afterstate)
        return out.reward + out.discount * out.value

    def decision_recurrent_fn(params: Params, key: Array, action: Array, state: Any) -> Any:
        # mctx also calls this at a chance node and discards it: keep the action in range
        action = jnp.clip(action, 0, env.num_actions - 1).astype(jnp.int32)
        batch = action.shape[0]
        afterstate = decide(state, action)
        probs = probabilities(afterstate)
        if exact:
            every = jnp.arange(outcomes, dtype=jnp.int32)
            returns = jax.vmap(
                lambda o: outcome_return(params, key, jnp.full(batch, o), afterstate)
            )(every).T
            # an impossible outcome's state may be nonsense: leave it out, do not weigh it 0
            value = jnp.sum(jnp.where(probs > 0, probs * returns, 0.0), axis=-1)
        else:
            drawn = jax.random.categorical(
                key, jnp.log(probs), shape=(model.config.exact_outcomes, batch)
            ).astype(jnp.int32)
            value = jnp.mean(
                jax.vmap(lambda o: outcome_return(params, key, o, afterstate))(drawn), axis=0
            )
        logits = jnp.log(jnp.maximum(probs, jnp.finfo(jnp.float32).tiny))
        output = mctx.DecisionRecurrentFnOutput(chance_logits=logits, afterstate_value=value)
        return output, afterstate

    return decision_recurrent_fn, chance_recurrent_fn


def make_search(model: Model) -> Callable[[Params, Array, Any], Any]:
    """``search(params, key, states)``: mctx's policy output at a batch of positions.

    Where the game's steps draw chance (``searches_chance``): ``mctx.stochastic_muzero_policy``
    over the split step, PUCT at decisions (Dirichlet noise at the root) and chance nodes whose
    outcomes are visited in proportion to their probabilities; the policy target is the root's
    visit counts. Elsewhere: ``mctx.gumbel_muzero_policy`` (its improved policy)."""
    c = model.config
    if searches_chance(model.env):
        decision_fn, chance_fn = make_chance_fns(model)

        def stochastic(params: Params, key: Array, states: Any) -> Any:
            logits, value = model.evaluate(params, states)
            root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=states)
            return mctx.stochastic_muzero_policy(
                params=params,
                rng_key=key,
                root=root,
                decision_recurrent_fn=decision_fn,
                chance_recurrent_fn=chance_fn,
                num_simulations=c.simulations,
                invalid_actions=~states.legal_action_mask,
            )

        return stochastic
    recurrent_fn = make_recurrent_fn(model)

    def gumbel(params: Params, key: Array, states: Any) -> Any:
        logits, value = model.evaluate(params, states)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=states)
        return mctx.gumbel_muzero_policy(
            params=params,
            rng_key=key,
            root=root,
            recurrent_fn=recurrent_fn,
            num_simulations=c.simulations,
            invalid_actions=~states.legal_action_mask,
            max_num_considered_actions=c.considered,
        )

    return gumbel


# ----- one training step ------------------------------------------------------------------


def make_functions(model: Model, optimizer: Any) -> tuple[Any, Any, Any, Any]:
    """(init games, self-play + update step, evaluation against random), all jitted."""
    env, c = model.env, model.config
    init = jax.vmap(env.init)
    step = jax.vmap(env.step)
    search = make_search(model)

    def new_games(key: Array) -> Any:
        return init(jax.random.split(key, c.batch))

    def play(params: Params, states: Any, key: Array) -> tuple[Any, Any]:
        def move(states: Any, key: Array) -> tuple[Any, Any]:
            search_key, step_key, reset_key = jax.random.split(key, 3)
            out = search(params, search_key, states)
            following = step(states, out.action, jax.random.split(step_key, c.batch))
            done = following.terminated
            fresh = new_games(reset_key)
            kept = jax.tree.map(
                lambda a, b: jnp.where(done.reshape(done.shape + (1,) * (a.ndim - 1)), a, b),
                fresh,
                following,
            )
            record = {
                "features": states.observation.reshape(c.batch, -1).astype(jnp.float32),
                "mask": states.legal_action_mask,
                "policy": out.action_weights,
                "mover": states.current_player,
                "rewards": following.rewards,
                "done": done,
                "search_value": out.search_tree.node_values[:, 0],
            }
            return kept, record

        return jax.lax.scan(move, states, jax.random.split(key, c.unroll))

    def targets(record: Any) -> Array:
        def back(carry: Any, x: Any) -> tuple[Any, Any]:
            outcome, known = carry
            rewards, done, mover, search_value = x
            outcome = jnp.where(done[:, None], model.outcomes(rewards, done), outcome)
            known = known | done
            mine = outcome[jnp.arange(c.batch), mover]
            return (outcome, known), jnp.where(known, mine, search_value)

        start = (jnp.zeros((c.batch, env.num_players)), jnp.zeros(c.batch, bool))
        _, values = jax.lax.scan(
            back,
            start,
            (record["rewards"], record["done"], record["mover"], record["search_value"]),
            reverse=True,
        )
        return values

    def loss_fn(params: Params, batch: Any) -> tuple[Array, Any]:
        head_logits, value = forward(params, batch["features"], c.layers)
        logits = head_logits[:, model.index].sum(-1)
        logits = jnp.where(batch["mask"], logits, -1e9)
        log_policy = jax.nn.log_softmax(logits, axis=-1)
        policy_loss = -jnp.mean(
            jnp.sum(batch["policy"] * jnp.where(batch["mask"], log_policy, 0.0), -1)
        )
        value_loss = jnp.mean((value - batch["value"]) ** 2)
        return policy_loss + value_loss, (policy_loss, value_loss)

    @jax.jit
    def train_step(params: Params, opt_state: Any, states: Any, key: Array) -> Any:
        states, record = play(params, states, key)
        values = targets(record)
        flat = {
            "features": record["features"].reshape(c.unroll * c.batch, -1),
            "mask": record["mask"].reshape(c.unroll * c.batch, -1),
            "policy": record["policy"].reshape(c.unroll * c.batch, -1),
            "value": values.reshape(-1),
        }

        def epoch(carry: Any, _: Any) -> tuple[Any, Any]:
            params, opt_state = carry
            (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, flat)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), (loss, *parts)

        (params, opt_state), losses = jax.lax.scan(
            epoch, (params, opt_state), None, length=c.epochs
        )
        games = jnp.sum(record["done"])
        return params, opt_state, states, jax.tree.map(lambda x: x[-1], losses), games

    against_random, games = make_evaluation(model)
    return jax.jit(new_games), train_step, against_random, games


def make_evaluation(model: Model, *, player: str = "greedy") -> tuple[Any, int]:
    """The jitted evaluation against random, and its number of games.

    ``player`` is the side measured: ``"greedy"``, the network's best action (no search), or
    ``"random"`` (uniform: random against random reads 0.5, a check of the measure). Its score
    is the arena's (``arena.tally``): a game it ends with a better return than the other
    seat's counts 1, an equal one 1/2, a worse one 0 (a game still running after ``cap``
    moves: a draw)."""
    if player not in ("greedy", "random"):
        raise ValueError(f"the measured player is 'greedy' or 'random', not {player!r}")
    env, c = model.env, model.config
    step = jax.vmap(env.step)
    games = max(2, c.eval_games - c.eval_games % 2)
    cap = 2000

    def random_actions(key: Array, states: Any) -> Array:
        return jax.vmap(random_legal_action)(jax.random.split(key, games), states.legal_action_mask)

    @jax.jit
    def against_random(params: Params, key: Array) -> Array:
        """The measured player's mean score against uniform random, half the games in each
        seat."""
        init_key, key = jax.random.split(key)
        states = jax.vmap(env.init)(jax.random.split(init_key, games))
        seat = jnp.arange(games) % 2
        start = (states, jnp.zeros((games, env.num_players)), key, 0)

        def cond(carry: Any) -> Array:
            states, _, _, count = carry
            return (~jnp.all(states.terminated)) & (count < cap)

        def body(carry: Any) -> Any:
            states, total, key, count = carry
            key, pick_key, own_key, step_key = jax.random.split(key, 4)
            if player == "greedy":
                logits, _ = model.evaluate(params, states)
                own = jnp.argmax(logits, axis=-1).astype(jnp.int32)
            else:
                own = random_actions(own_key, states)
            action = jnp.where(states.current_player == seat, own, random_actions(pick_key, states))
            states = step(states, action, jax.random.split(step_key, games))
            return states, total + states.rewards, key, count + 1

        _, total, _, _ = jax.lax.while_loop(cond, body, start)
        mine = total[jnp.arange(games), seat]
        theirs = (total.sum(-1) - mine) / (env.num_players - 1)
        return jnp.mean(jnp.where(mine > theirs, 1.0, jnp.where(mine == theirs, 0.5, 0.0)))

    return against_random, games
