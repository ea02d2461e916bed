"""The ``boneyard`` command line: a click group; each command lives in its own module."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boneyard")
def main() -> None:
    """Play, solve and study five tabletop games: Obonto, OYNO, Bones, Bond O Cones, Bon-Bon."""


# Commands register below, one line each.
from boneyard.cli import bench, info, play, serve  # noqa: E402

main.add_command(info.games)
main.add_command(info.rules)
main.add_command(play.play)
main.add_command(bench.bench)
main.add_command(serve.serve)
main.add_command(__import__("boneyard.cli.arena", fromlist=["arena"]).arena)
main.add_command(__import__("boneyard.cli.solve", fromlist=["solve"]).solve)
main.add_command(__import__("boneyard.cli.analyze", fromlist=["analyze"]).analyze)
