"""``boneyard games`` and ``boneyard rules GAME``: what there is to play, and how."""

from __future__ import annotations

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from boneyard.cli.common import GAME_NAME, fail_on_bad_input
from boneyard.core.registry import game_class, list_games
from boneyard.core.rules_pages import rules_markdown


@click.command()
def games() -> None:
    """List every game with its players and parameters."""
    table = Table(title="boneyard games", show_lines=True)
    table.add_column("game", style="bold")
    table.add_column("players")
    table.add_column("parameters (default: allowed)")
    for name in list_games():
        cls = game_class(name)
        players = (
            str(cls.min_players)
            if cls.min_players == cls.max_players
            else f"{cls.min_players}-{cls.max_players}"
        )
        parameters = "\n".join(
            f"{p.name}={p.default!r}: {p.description} ({p.allowed()})" for p in cls.parameters
        )
        table.add_row(f"{name}\n{cls.title}", players, parameters or "none")
    Console().print(table)


@click.command()
@click.argument("game", type=GAME_NAME)
@fail_on_bad_input
def rules(game: str) -> None:
    """Show the rules of GAME."""
    Console().print(Markdown(rules_markdown(game)))
