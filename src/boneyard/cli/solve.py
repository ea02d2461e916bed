"""``boneyard solve oyno_puzzle --start '...'``: an optimal solution, move by move with boards."""

from __future__ import annotations

import click
from rich.console import Console

from boneyard.cli.common import fail_on_bad_input
from boneyard.core.errors import BoneyardError, InvalidPositionError
from boneyard.core.registry import game_specs


def solvable_games() -> list[str]:
    """The games whose solver plays a whole optimal line from a start (their spec says so)."""
    return [spec.name for spec in game_specs() if spec.solver and spec.solver.solves_from_start]


@click.command()
@click.argument("game", type=click.Choice(solvable_games()))
@click.option(
    "--start",
    required=True,
    help="The position: ranks from the highest down, '/' between them, U up, D down, "
    ". empty, o the center. Example: 'U...D/.D.../..o../...U./D...U'.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the moves.")
@fail_on_bad_input
def solve(game: str, start: str, quiet: bool) -> None:
    """Solve a GAME position optimally and print the moves and the boards after each."""
    import boneyard
    from boneyard import solvers
    from boneyard.games.oyno.search import SearchLimitError

    console = Console(highlight=False)
    try:
        loaded = boneyard.load_game(game, start=start)
    except BoneyardError as error:
        message = str(error)
        prefix = f"bad value {start!r} for parameter 'start': "
        if message.startswith(prefix):
            message = message[len(prefix) :]
        raise InvalidPositionError(message) from None
    state = loaded.new_initial_state()
    try:
        actions = solvers.solve(state)
    except SearchLimitError as error:
        raise click.ClickException(f"this position is too large to solve here: {error}") from None
    if actions is None:
        console.print(state)
        console.print("no solution: every position reachable from this one has a down bone")
        raise SystemExit(1)
    moves = [state.action_to_string(a) for a in actions]
    if quiet:
        console.print(" ".join(moves) if moves else "(already solved)")
        return
    console.print(state)
    if not actions:
        console.print("already solved: every bone is up")
        return
    console.print(f"optimal solution: {len(actions)} move{'s' if len(actions) != 1 else ''}")
    for number, action in enumerate(actions, 1):
        text = state.action_to_string(action)
        state.apply_action(action)
        console.print(f"\n{number}. {text}")
        console.print(state)
