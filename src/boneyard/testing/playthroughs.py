"""Golden playthroughs: one seeded random game per game and variant, written out as text.

Each file shows, for every state of the game, the board, whose turn, the legal actions, each
seat's observation and the returns, then the action played. A test regenerates every file and
fails on any difference, so any change in behaviour is seen and must be meant. Rewrite them after
an intended change with ``make playthroughs``.
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
from boneyard.core.registry import load_game
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


def write_all(folder: Path, only_game: str | None = None) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for filename, (name, params) in expected_files().items():
        if only_game is not None and name != only_game:
            continue
        path = folder / filename
        path.write_text(playthrough(name, params))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, required=True, help="folder of the golden files")
    parser.add_argument("--game", help="rewrite only this game's files")
    args = parser.parse_args(argv)
    for path in write_all(args.write, args.game):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
