"""The ``boneyard`` command line: a click group; each command lives in its own module."""

from __future__ import annotations

import click

from boneyard.core.version import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="boneyard")
def main() -> None:
    """Play, solve and study five tabletop games: Obonto, OYNO, Bones, Bond O Cones, Bon-Bon."""
    from boneyard.ai import check_levels

    # A game's spec names its bots as text: a misspelt one stops every command here, by name.
    check_levels()


# Commands register below, one line each.
from boneyard.cli import (  # noqa: E402
    admin,
    analyze,
    arena,
    bench,
    bots,
    db,
    info,
    play,
    serve,
    solve,
    train,
)

main.add_command(info.games)
main.add_command(info.rules)
main.add_command(play.play)
main.add_command(bench.bench)
main.add_command(serve.serve)
main.add_command(bots.bots)
main.add_command(arena.arena)
main.add_command(solve.solve)
main.add_command(analyze.analyze)
main.add_command(train.train)
main.add_command(db.db)
main.add_command(admin.admin)
