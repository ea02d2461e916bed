"""A correct mctx recurrent function for boneyard's batch engines, whose turns do not always
alternate (Obonto's solo phase, Bond O Cones' battles, Bon-Bon's rounds).

pgx's AlphaZero example backs values up with ``discount = -1`` at every step: right where the
players alternate, wrong wherever the same player moves again, and nothing fails, the values
are just wrong. mctx backs a child's value up to its parent as ``reward + discount * value``,
each value from the view of the player to move at its node, so the sign must follow
``current_player``: ``+1`` when the mover moves again, ``-1`` when the other player moves, ``0``
once the game is over. Two-player zero-sum games only (a value is one number, the mover's).
Games with chance inside ``step`` (Bon-Bon, Bond O Cones, wild OYNO) draw an outcome from the
key, and mctx keeps one child per edge: the first outcome drawn at an edge stands for it through
the whole search. Search them with Stochastic MuZero's chance nodes
(``mctx.stochastic_muzero_policy``) over the engines' split step (``decision_step``,
``chance_step``: docs/interop.md) instead.

Run a Gumbel MuZero search from the start of Obonto (uniform prior, zero value)::

    .venv/bin/python examples/mctx_turns.py --simulations 32 --batch 8

``tests/jax/test_mctx_example.py`` checks the backup of this recurrent function against a
brute-force search of the rules engine on small Obonto positions with a solo phase.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import mctx

import boneyard.jax

Evaluate = Callable[[Any, Any], tuple[jax.Array, jax.Array]]
"""``(params, states) -> (prior logits [batch, num_actions], values [batch])``, each value
from the view of the state's ``current_player``."""


def turn_discount(state: Any, next_state: Any) -> jax.Array:
    """mctx's discount from ``state`` to ``next_state``: +1 where the same player moves again,
    -1 where the other does, 0 once the game is over."""
    same = next_state.current_player == state.current_player
    return jnp.where(next_state.terminated, 0.0, jnp.where(same, 1.0, -1.0))


def make_recurrent_fn(env: Any, evaluate: Evaluate) -> Callable[..., Any]:
    """mctx's ``recurrent_fn`` over a batch of ``env``'s states (the embeddings)."""
    step = jax.vmap(env.step)

    def recurrent_fn(params: Any, key: jax.Array, action: jax.Array, state: Any) -> Any:
        batch = action.shape[0]
        next_state = step(state, action, jax.random.split(key, batch))
        mover = state.current_player
        reward = next_state.rewards[jnp.arange(batch), mover]
        logits, value = evaluate(params, next_state)
        logits = jnp.where(next_state.legal_action_mask, logits, -jnp.inf)
        value = jnp.where(next_state.terminated, 0.0, value)
        output = mctx.RecurrentFnOutput(
            reward=reward,
            discount=turn_discount(state, next_state),
            prior_logits=logits,
            value=value,
        )
        return output, next_state

    return recurrent_fn


def uniform_evaluate(env: Any) -> Evaluate:
    """A uniform prior and a zero value: search by the rules alone."""

    def evaluate(params: Any, states: Any) -> tuple[jax.Array, jax.Array]:
        batch = states.current_player.shape[0]
        return jnp.zeros((batch, env.num_actions)), jnp.zeros(batch)

    return evaluate


def search(env: Any, states: Any, key: jax.Array, simulations: int) -> Any:
    """One Gumbel MuZero search from a batch of states: mctx's ``PolicyOutput``."""
    evaluate = uniform_evaluate(env)
    logits, value = evaluate(None, states)
    root = mctx.RootFnOutput(
        prior_logits=jnp.where(states.legal_action_mask, logits, -jnp.inf),
        value=value,
        embedding=states,
    )
    return mctx.gumbel_muzero_policy(
        params=None,
        rng_key=key,
        root=root,
        recurrent_fn=make_recurrent_fn(env, evaluate),
        num_simulations=simulations,
        invalid_actions=~states.legal_action_mask,
        max_num_considered_actions=16,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--batch", type=int, default=8)
    args = parser.parse_args()
    env = boneyard.jax.make("obonto")
    keys = jax.random.split(jax.random.PRNGKey(0), args.batch)
    states = jax.vmap(env.init)(keys)
    output = jax.jit(lambda s, k: search(env, s, k, args.simulations))(
        states, jax.random.PRNGKey(1)
    )
    print("actions:", output.action.tolist())
    print("root values:", output.search_tree.node_values[:, 0].tolist())


if __name__ == "__main__":
    main()
