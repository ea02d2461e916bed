"""The ``boneyard`` command line: a click group; each command lives in its own module."""

from __future__ import annotations

from pathlib import Path

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boneyard")
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="BONEYARD_CONFIG",
    show_envvar=True,
    help="A TOML file of settings for every command (flags and BONEYARD_DB win over it); "
    "docs/web.md shows one.",
)
@click.pass_context
def main(context: click.Context, config: Path | None) -> None:
    """Play, solve and study five tabletop games: Obonto, OYNO, Bones, Bond O Cones, Bon-Bon."""
    from boneyard.ai import check_levels

    if config is not None:
        from boneyard.cli.config import default_map

        assert isinstance(context.command, click.Group)
        try:
            context.default_map = default_map(config, context.command)
        except click.BadParameter as error:
            raise click.BadParameter(error.message, param_hint="--config") from None

    # A game's spec names its bots as text: a misspelt one stops every command here, by name.
    check_levels()


# Commands register below, one line each.
from boneyard.cli import (  # noqa: E402
    analyze,
    arena,
    bench,
    bots,
    db_backup,
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
# `db backup` and `db restore`, in the `db` group (made by them while no other command is).
db_backup.register(main)
