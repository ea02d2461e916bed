"""``boneyard bench [GAME] [--native]``: random playouts per second through the public API.

Each step is what any program using the engine pays: ``legal_actions`` (or ``chance_outcomes``),
a random choice, ``apply_action``. One process, one core. ``--native`` measures the native
engine (``boneyard.native``) the same way, and beside it whole playouts inside Rust. Rates are
per second of this process's CPU time, so that other work on a shared machine does not lower
them; on an idle machine CPU time and wall-clock time agree.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import click
from rich.console import Console
from rich.table import Table

from boneyard.cli.common import GAME_NAME, fail_on_bad_input, game_from_options
from boneyard.core.game import CHANCE, Game, State, sample_chance_outcome
from boneyard.core.registry import list_games, load_game

if TYPE_CHECKING:
    from boneyard.native import NativeGame


@dataclass
class BenchResult:
    game: str
    steps: int
    playouts: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds


def bench_inside_rust(game: NativeGame, seconds: float, seed: int = 0) -> BenchResult:
    """Whole random games played inside Rust for about ``seconds`` of CPU time."""
    steps = playouts = 0
    batch = 16
    start = time.process_time()
    while time.process_time() - start < seconds:
        played, actions = game.random_playouts(batch, seed + playouts)
        playouts += played
        steps += actions
        batch *= 2
    return BenchResult(game.name, steps, playouts, time.process_time() - start)


def bench_random_playouts(game: Game | NativeGame, seconds: float, seed: int = 0) -> BenchResult:
    """Play random games for about ``seconds`` of CPU time; count the steps (chance included)."""
    rng = random.Random(seed)
    steps = playouts = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                # A native state keeps the same contract (boneyard.native), not the class.
                action = sample_chance_outcome(cast(State, state), rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
        playouts += 1
    return BenchResult(game.name, steps, playouts, time.process_time() - start)


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("game", type=GAME_NAME, required=False)
@click.option("--seconds", default=3.0, show_default=True, help="Time per game.")
@click.option("-p", "--param", "params", multiple=True, help="A game parameter, name=value.")
@click.option("--seed", default=0, show_default=True)
@click.option(
    "--native",
    is_flag=True,
    help="Also the native engine through Python, and whole playouts inside Rust.",
)
@click.pass_context
@fail_on_bad_input
def bench(
    ctx: click.Context,
    game: str | None,
    seconds: float,
    params: tuple[str, ...],
    seed: int,
    native: bool,
) -> None:
    """Measure random-playout speed of GAME (every game when none is named)."""
    if native:  # imported when asked for: the rest of the command works on the Python rules
        from boneyard.native import NativeGame as native_game
        from boneyard.native import has_native_engine
    if game is not None:
        games = [game_from_options(game, params, list(ctx.args))]
    else:
        games = [load_game(name) for name in list_games()]
    table = Table(title="random playouts, one core (per second of CPU time)")
    for column in ("game", "engine", "steps/s", "playouts/s", "mean length"):
        table.add_column(column, justify="left" if column in ("game", "engine") else "right")
    for loaded in games:
        runs: list[tuple[str, BenchResult]] = [
            ("python", bench_random_playouts(loaded, seconds, seed))
        ]
        if native and has_native_engine(loaded.name):
            fast = native_game(loaded)
            runs.append(("native", bench_random_playouts(fast, seconds, seed)))
            runs.append(("inside Rust", bench_inside_rust(fast, seconds, seed)))
        elif native:
            runs.append(("native", BenchResult(loaded.name, 0, 0, 0.0)))
        for engine, result in runs:
            if not result.seconds:
                table.add_row(repr(loaded), engine, "no native engine", "", "")
                continue
            table.add_row(
                repr(loaded),
                engine,
                f"{result.steps_per_second:,.0f}",
                f"{result.playouts / result.seconds:,.1f}",
                f"{result.steps / max(result.playouts, 1):,.1f}",
            )
    Console().print(table)
