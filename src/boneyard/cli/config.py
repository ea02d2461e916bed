"""The configuration file of every command: TOML (``--config PATH`` or ``BONEYARD_CONFIG``).

Top-level keys are given to every command that has an option of that name (``db`` reaches
``serve``, ``bots`` and the ``db`` commands alike); a table names one command (``[serve]``,
``[bots]``; ``[db.backup]`` for a command of a group) and wins over the top level. Keys are the
options' names, with dashes or underscores (``bot-delay`` or ``bot_delay``). What decides a
value, strongest first: the command line, the environment (``BONEYARD_DB``), the file, the
option's default. A key no command knows is an error that lists what is allowed: a typo must
not be silently ignored.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import click


def _key(name: str) -> str:
    return name.replace("-", "_")


def _options(command: click.Command) -> set[str]:
    return {str(p.name) for p in command.params if isinstance(p, click.Option) and p.name}


def _defaults_for(
    command: click.Command, shared: dict[str, Any], table: dict[str, Any], where: str
) -> dict[str, Any]:
    """``command``'s default map: the shared keys it has, then its table's (all known)."""
    if isinstance(command, click.Group):
        found: dict[str, Any] = {}
        for name, sub in command.commands.items():
            sub_table = table.get(name, {})
            if not isinstance(sub_table, dict):
                raise click.BadParameter(f"{where}.{name} must be a table ([{where}.{name}])")
            found[name] = _defaults_for(sub, shared, sub_table, f"{where}.{name}")
        unknown = sorted(set(table) - set(command.commands))
        if unknown:
            raise click.BadParameter(
                f"unknown command {unknown[0]!r} in [{where}]; its commands: "
                + ", ".join(sorted(command.commands))
            )
        return found
    options = _options(command)
    defaults = {_key(k): v for k, v in shared.items() if _key(k) in options}
    for key, value in table.items():
        if _key(key) not in options:
            raise click.BadParameter(
                f"unknown setting {key!r} in [{where}]; its settings: "
                + ", ".join(sorted(o.replace("_", "-") for o in options))
            )
        defaults[_key(key)] = value
    return defaults


def _all_options(command: click.Command) -> set[str]:
    if isinstance(command, click.Group):
        return set().union(*(_all_options(sub) for sub in command.commands.values()))
    return _options(command)


def default_map(path: Path, group: click.Group) -> dict[str, Any]:
    """The click ``default_map`` of ``group``'s commands from the TOML file at ``path``."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise click.BadParameter(f"cannot read {str(path)!r}: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise click.BadParameter(f"{str(path)!r} is not TOML: {error}") from None
    shared = {k: v for k, v in data.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    unknown_tables = sorted(set(tables) - set(group.commands))
    if unknown_tables:
        raise click.BadParameter(
            f"unknown command [{unknown_tables[0]}] in {str(path)!r}; commands: "
            + ", ".join(sorted(group.commands))
        )
    known = _all_options(group)
    unknown = sorted(k for k in shared if _key(k) not in known)
    if unknown:
        raise click.BadParameter(
            f"unknown setting {unknown[0]!r} in {str(path)!r}; settings: "
            + ", ".join(sorted(o.replace("_", "-") for o in known))
        )
    return {
        name: _defaults_for(command, shared, tables.get(name, {}), name)
        for name, command in group.commands.items()
    }
