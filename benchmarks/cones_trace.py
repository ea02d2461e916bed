"""Where Bond O Cones' searches choose differently, and which choice plays on better.

Not a test. Positions come from seeded games of ``hard``'s search (the native depth-0
lookahead for both seats, random dice): every ``--every``-th cone move with a choice. At each,
the depth-0 lookahead (``hard``), the depth-1 lookahead (what ``native_lookahead`` reaches at
1 s) and the rollouts search (``native_rollouts``, ``--worlds`` worlds) choose; a referee then
plays the depth-0 lookahead's ten best actions on in ``--referee`` resampled worlds of the
seat's view (the rollouts search with more worlds and turns: both seats the depth-0 lookahead,
the same dice for every action) and gives each choice its mean value in points. Printed: how
often the choices agree with depth 0, and where they differ the referee's mean gain over depth
0's choice with its standard error (a positive gain: the deeper choice plays on better).

    PYTHONPATH=src nice -n 15 .venv/bin/python benchmarks/cones_trace.py --games 4 --every 6
"""

from __future__ import annotations

import argparse
import json
import math
import random

from boneyard import native
from boneyard.games.bondo_cones import notation as nt


def _positions(games: int, every: int, seed: int) -> list[native.NativeState]:
    """Cone moves with a choice from seeded games of the depth-0 lookahead for both seats."""
    game = native.load_game("bondo_cones")
    found = []
    for number in range(games):
        rng = random.Random(seed + number)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions, weights = zip(*outcomes, strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and max(legal) < nt.RING_MOVE_BASE:
                moves += 1
                if moves % every == 0:
                    found.append(state.clone())
            chosen = state.search("lookahead", json.dumps({"depth": 0}), None, None, number)
            state.apply_action(chosen["action"])
    return found


def _summary(name: str, gains: list[float], agree: int, total: int) -> str:
    if not gains:
        return f"{name}: the same choice as depth 0 at all {total} positions"
    mean = sum(gains) / len(gains)
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, len(gains) - 1))
    error = spread / math.sqrt(len(gains))
    return (
        f"{name}: depth 0's choice at {agree} of {total} positions; where it differs "
        f"({len(gains)}), the referee's gain over depth 0 {mean:+.3f} points (s.e. {error:.3f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=250, help="the rollouts search's worlds")
    parser.add_argument("--referee", type=int, default=600, help="the referee's worlds")
    parser.add_argument("--referee-turns", type=int, default=3)
    args = parser.parse_args(argv)
    positions = _positions(args.games, args.every, args.seed)
    gains: dict[str, list[float]] = {"depth 1": [], "rollouts": []}
    agree = {"depth 1": 0, "rollouts": 0}
    for index, state in enumerate(positions):
        zero = state.search("lookahead", json.dumps({"depth": 0}), None, None, index)["action"]
        choices = {
            "depth 1": state.search("lookahead", json.dumps({"depth": 1}), None, None, index)[
                "action"
            ],
            "rollouts": state.search("lookahead_rollouts", "{}", None, args.worlds, index + 1000)[
                "action"
            ],
        }
        referee = dict(
            state.search(
                "lookahead_rollouts",
                json.dumps({"candidates": 10, "turns": args.referee_turns}),
                None,
                args.referee,
                index + 2000,
            )["action_values"]
        )
        line: dict[str, object] = {"position": index, "depth 0": state.action_to_string(zero)}
        for name, action in choices.items():
            line[name] = state.action_to_string(action)
            if action == zero:
                agree[name] += 1
            else:
                gains[name].append(referee[action] - referee[zero])
                line[f"{name} gain"] = round(referee[action] - referee[zero], 3)
        print(json.dumps(line), flush=True)
    for name in gains:
        print(_summary(name, gains[name], agree[name], len(positions)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
