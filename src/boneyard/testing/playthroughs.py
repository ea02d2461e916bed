"""Golden playthroughs: one seeded random game per game and variant, written out as text.

Each file shows, for every state of the game, the board, whose turn, the legal actions, each
seat's observation and the returns, then the action played. A test regenerates every file and
fails on any difference, so any change in behaviour is seen and must be meant. Rewrite them after
an intended change with ``make playthroughs``.

boneyard's own games keep their files in the repository's ``tests/playthroughs`` (the folder
``make playthroughs`` is given); any other game keeps them in its own folder,
``games/<name>/playthroughs/``, so that a new game is its folder alone: ``make playthroughs``
writes them there the first time.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

from boneyard.core.game import CHANCE, TERMINAL, Game
from boneyard.core.registry import game_class, load_game
from boneyard.core.rules_pages import game_folder
from boneyard.testing import random_action, variants

SEED = 20261122
MAX_RECORDED_STEPS = 250
"""Long games (Bond O Cones, Bon-Bon) are recorded up to here; the rest is summarised."""


def file_name(name: str, params: dict[str, Any]) -> str:
    """``obonto.txt``, ``obonto__games=3.txt``: the file of a game and parameter set."""
    parts = [name] + [f"{key}={params[key]}" for key in sorted(params)]
    return re.sub(r"[^A-Za-z0-9_.=,-]", "_", "__".join(parts)) + ".txt"


def playthrough(name: str, params: dict[str, Any], seed: int = SEED) -> str:
    """The text of one seeded random playout of a registered game."""
    return game_playthrough(load_game(name, **params), seed)


def game_playthrough(game: Game, seed: int = SEED) -> str:
    """The text of one seeded random playout of ``game`` (registered or not)."""
    name = game.name
    rng = random.Random(seed)
    state = game.new_initial_state()
    seats: list[int | None] = [*range(game.info.num_players), None]
    lines = [
        f"game: {name}",
        f"params: {json.dumps(game.params, sort_keys=True)}",
        f"seed: {seed}",
        "",
    ]
    step = 0
    while True:
        if step < MAX_RECORDED_STEPS or state.is_terminal():
            lines.append(f"# state {step}")
            lines.extend(str(state).splitlines())
            lines.append(f"current_player: {_player(state.current_player())}")
            legal = state.legal_actions()
            lines.append("legal: " + ", ".join(state.action_to_string(a) for a in legal))
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                lines.append(
                    "chance: "
                    + ", ".join(f"{state.action_to_string(a)}={p:.6g}" for a, p in outcomes)
                )
            for seat in seats:
                observation = json.dumps(state.observation(seat), sort_keys=True)
                lines.append(f"observation {_seat(seat)}: {observation}")
            lines.append(f"returns: {state.returns()}")
        if state.is_terminal():
            break
        action = random_action(state, rng)
        if step < MAX_RECORDED_STEPS:
            lines.append(f"action: {state.action_to_string(action)} ({action})")
            lines.append("")
        state.apply_action(action)
        step += 1
    lines.append(f"history: {' '.join(map(str, state.history()))}")
    return "\n".join(lines) + "\n"


def _player(player: int) -> str:
    return {CHANCE: "chance", TERMINAL: "terminal"}.get(player, str(player))


def _seat(seat: int | None) -> str:
    return "spectator" if seat is None else str(seat)


def expected_files() -> dict[str, tuple[str, dict[str, Any]]]:
    """File name -> (game, params) for every registered game and variant."""
    return {file_name(name, params): (name, params) for name, params in variants()}


OWN_FOLDER = "playthroughs"
"""The folder of a game's own golden files, inside its package."""


def golden_path(filename: str, name: str, shared: Path) -> Path:
    """Where the golden file ``filename`` of game ``name`` lives: in ``shared`` (the
    repository's tests/playthroughs) where it is there, else in the game's own folder."""
    if (shared / filename).is_file():
        return shared / filename
    return game_folder(game_class(name)) / OWN_FOLDER / filename


def difference(path: Path, name: str, params: dict[str, Any]) -> str | None:
    """How the golden file ``path`` differs from the game's playthrough now, or ``None``."""
    if not path.is_file():
        return f"{path.name} is missing: run `make playthroughs` and review it"
    want = path.read_text(encoding="utf-8").splitlines()
    got = playthrough(name, params).splitlines()
    for number, (old, new) in enumerate(zip(want, got), start=1):
        if old != new:
            return f"{path.name}:{number} differs\n  golden: {old}\n  now:    {new}"
    if len(want) != len(got):
        return f"{path.name}: {len(want)} lines golden, {len(got)} now"
    return None


def stale_files(shared: Path) -> list[Path]:
    """Golden files of no registered game or variant, in ``shared`` or a game's own folder."""
    expected = expected_files()
    folders = {shared, *(game_folder(game_class(name)) / OWN_FOLDER for name, _ in variants())}
    return sorted(
        path
        for folder in folders
        for path in folder.glob("*.txt")
        if path.name not in expected
        or golden_path(path.name, expected[path.name][0], shared) != path
    )


def write_all(shared: Path, only_game: str | None = None) -> list[Path]:
    """Write every golden file (or ``only_game``'s) where it lives (``golden_path``)."""
    written = []
    for filename, (name, params) in expected_files().items():
        if only_game is not None and name != only_game:
            continue
        path = golden_path(filename, name, shared)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(playthrough(name, params), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--write",
        type=Path,
        required=True,
        help="the shared folder of golden files (a game with none there gets its own)",
    )
    parser.add_argument("--game", help="rewrite only this game's files")
    args = parser.parse_args(argv)
    for path in write_all(args.write, args.game):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
