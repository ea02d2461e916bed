"""The native engines' speed beside the Python rules and OpenSpiel's C++ games, in one run.

    python benchmarks/native_speed.py --seconds 3

For each game with a native engine (default parameters), the same random-playout loop through
Python, one call a step (``legal_actions`` or ``chance_outcomes``, a draw, ``apply_action``,
``is_terminal``), timed in CPU seconds on: the Python engine, the native engine, and the
references of issue 42 in the same process, OpenSpiel's C++ ``breakthrough`` (for games of
perfect information, chance or not) and ``backgammon`` (for games with hidden information)
through pybind11. Then whole playouts inside Rust (``NativeGame.random_playouts``, no Python per
step). With ``--batch N``: ``NativeBatch`` stepping N games a call in Rust threads (random legal
actions drawn in Rust, ``NativeBatch.random_actions``; the observation tensors written)
beside ``boneyard.jax``'s engine of the same game at the same batch on this CPU (a jitted scan of
random legal steps with auto-reset, ``benchmarks/bench_jax.py``'s loop). Rates are noisy on a
shared machine: compare the ratios of one run, never a figure from another day.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import pyspiel

import boneyard
from boneyard import native


def steps_per_second(game: Any, seconds: float, seed: int = 1) -> float:
    """Random playouts through Python for ``seconds`` of CPU time; actions per CPU second."""
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return steps / (time.process_time() - start)


def inside_rust(game: native.NativeGame, seconds: float) -> float:
    """Whole random playouts inside Rust; actions per CPU second."""
    games, actions, spent = 16, 0, 0.0
    while spent < seconds:
        start = time.process_time()
        actions += game.random_playouts(games, seed=games)[1]
        spent += time.process_time() - start
        games *= 2
    return actions / spent


def native_batch_rate(name: str, batch: int, seconds: float) -> tuple[float, bool]:
    """Steps a second (wall clock: the batch runs in threads) of ``NativeBatch``, and whether the
    observation tensors were made."""
    from boneyard.native.batch import NativeBatch

    try:
        envs = NativeBatch(name, batch, seed=1, observe=True)
        observed = True
    except NotImplementedError:
        envs = NativeBatch(name, batch, seed=1)
        observed = False
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        envs.step(envs.random_actions())  # the random player drawn in Rust, as pgx's in JAX
        steps += batch
    return steps / (time.perf_counter() - start), observed


def jax_batch_rate(name: str, batch: int) -> float | None:
    """Steps a second (wall clock) of boneyard.jax's engine of ``name`` at ``batch``."""
    try:
        from bench_jax import batch_rates  # the batch engines' own benchmark loop

        import boneyard.jax
    except ImportError:
        return None
    engine = boneyard.jax.make(name)
    return batch_rates(engine, batch, total=batch * 64, repeats=3)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a measurement")
    parser.add_argument("--batch", type=int, default=0, help="also NativeBatch against JAX")
    args = parser.parse_args()
    seconds = args.seconds
    references = {
        name: steps_per_second(pyspiel.load_game(name), seconds)
        for name in ("breakthrough", "backgammon")
    }
    for name, rate in references.items():
        print(f"OpenSpiel C++ {name:<12} {rate:>12,.0f} steps/s through Python")
    print()
    print(
        f"{'game':<12} {'python':>10} {'native':>11} {'x python':>9} {'reference':>12} "
        f"{'x ref':>6} {'inside Rust':>13}"
    )
    for name in boneyard.list_games():
        if not native.has_native_engine(name):
            print(f"{name:<12} (no native engine)")
            continue
        python_game = boneyard.load_game(name)
        native_game = native.load_game(name)
        info = python_game.info
        # Issue 42's bars: a game of perfect information (chance or not) against breakthrough,
        # a game with hidden information against backgammon.
        reference = "breakthrough" if info.perfect_information else "backgammon"
        slow = steps_per_second(python_game, seconds)
        fast = steps_per_second(native_game, seconds)
        rust = inside_rust(native_game, seconds)
        print(
            f"{name:<12} {slow:>10,.0f} {fast:>11,.0f} {fast / slow:>8.1f}x {reference:>12} "
            f"{fast / references[reference]:>5.2f}x {rust:>13,.0f}"
        )
    if args.batch:
        print()
        print(f"batch of {args.batch}, steps/s (wall clock)")
        print(f"{'game':<12} {'NativeBatch':>12} {'tensors':>8} {'boneyard.jax':>13} {'x jax':>6}")
        for name in boneyard.list_games():
            if not native.has_native_engine(name):
                continue
            rate, observed = native_batch_rate(name, args.batch, seconds)
            jax_rate = jax_batch_rate(name, args.batch)
            ratio = f"{rate / jax_rate:>5.1f}x" if jax_rate else "     -"
            jax_text = f"{jax_rate:>13,.0f}" if jax_rate else f"{'-':>13}"
            tensors = "yes" if observed else "no"
            print(f"{name:<12} {rate:>12,.0f} {tensors:>8} {jax_text} {ratio}")


if __name__ == "__main__":
    main()
