"""Play one Bones game between two bots and print every move: who played it, the native bot's
value and finished depth, the heuristic for seat 0, and whether the move brought back a
position the game had seen (``ai/repetition.py``). Not a test: it shows why a game was drawn.

    PYTHONPATH=src nice -n 15 .venv/bin/python benchmarks/bones_trace.py --seed 11 \\
        --white native_alphabeta:time_limit=1.0 --black hard
"""

from __future__ import annotations

import argparse
import json

from boneyard.ai.arena import build_bot
from boneyard.ai.repetition import repeating_actions
from boneyard.core.registry import load_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--white", default="native_alphabeta:time_limit=1.0")
    parser.add_argument("--black", default="hard")
    args = parser.parse_args(argv)
    game = load_game("bones")
    bots = [
        build_bot(spec, game, seat, args.seed * 8 + seat + 1, None)
        for seat, spec in enumerate((args.white, args.black))
    ]
    state = game.new_initial_state()
    repeats = [0, 0]
    while not state.is_terminal():
        player = state.current_player()
        repeating = repeating_actions(state)
        action = bots[player].step(state)
        repeats[player] += action in repeating
        line = {
            "ply": state.move_number(),
            "player": player,
            "move": state.action_to_string(action),
            "repeat": action in repeating,
            "value": getattr(bots[player], "last_value", None),
            "depth": getattr(bots[player], "last_depth", None),
            "heuristic_white": round(game.evaluate(state, 0), 4),
        }
        print(json.dumps(line), flush=True)
        state.apply_action(action)
    print(json.dumps({"returns": list(state.returns()), "repeating_moves": repeats}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
