"""Small two-player OYNO duels solved exactly: can perfect play beat the greedy bot?

    .venv/bin/python benchmarks/oyno_duel_solve.py                  # 3x3 with 1-3 bones, 5x5 with 2
    .venv/bin/python benchmarks/oyno_duel_solve.py --variants 3x3 --games 20
    .venv/bin/python benchmarks/oyno_duel_solve.py --place-rules all_up,supply --json out.json

For each variant (``SIZExSIZE:BONES``, or ``SIZExSIZE`` for every bone count that fits) it solves
the duel three times with ``boneyard.solvers.oyno_duel``: both sides perfect, then greedy's seat
restricted to the actions the ``greedy`` bot ties for best (red, then white). It prints the value
of the start, how many positions are won, drawn and lost for the player to move, whether the start
is a forced win against greedy, and the exact chance that perfect play beats greedy from the start
when greedy breaks its ties at random. ``--games N`` then plays N games of each seat between the
solver (maximising that chance) and the real ``greedy`` bot through the rules (repetition and the
move cap included), seeded 0..N-1, and counts the results. ``--place-rules`` names the readings
of the place rule to solve (the game's parameter ``place_rule``); ``--json`` writes every line's
numbers.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import boneyard
from boneyard.ai import make_bot
from boneyard.games.oyno.duel import DuelState
from boneyard.solvers import oyno_duel

NAMES = {oyno_duel.WIN: "win", oyno_duel.DRAW: "draw", oyno_duel.LOSS: "loss"}


def variants(text: str) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    for item in text.split(","):
        board_text, _, bones_text = item.partition(":")
        size = int(board_text.split("x")[0])
        if bones_text:
            found.append((size, int(bones_text)))
        else:
            most = (size * size - 2) // 2
            found.extend((size, bones) for bones in range(1, most + 1) if size == 3 or bones <= 2)
    return found


def play(size: int, bones: int, solution: oyno_duel.SolvedDuel, seat: int, seed: int) -> float:
    game = boneyard.load_game(
        "oyno", size=size, bones_per_player=bones, place_rule=solution.place_rule
    )
    state = game.new_initial_state()
    assert isinstance(state, DuelState)
    greedy = make_bot("greedy", game, 1 - seat, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == seat:
            state.apply_action(rng.choice(solution.best_actions(state)))
        else:
            state.apply_action(greedy.step(state))
    return state.returns()[seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", default="3x3,5x5:2", help="e.g. 3x3,3x3:2,5x5:2")
    parser.add_argument("--games", type=int, default=0, help="games of each seat vs greedy")
    parser.add_argument("--place-rules", default="supply,all_up", help="e.g. supply,all_up")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    for rule, (size, bones) in (
        (rule, variant)
        for variant in variants(args.variants)
        for rule in args.place_rules.split(",")
    ):
        began = time.perf_counter()
        plain = oyno_duel.solve(size, bones, place_rule=rule)
        value, plies = plain.value(0, 0, 0, 0)
        row: dict[str, object] = {
            "place_rule": rule,
            "size": size,
            "bones": bones,
            "start": NAMES[value],
            "start_plies": plies,
            "positions": plain.counts(),
            "seconds": round(time.perf_counter() - began, 1),
        }
        rows.append(row)
        print(
            f"place_rule={rule}: "
            f"{size}x{size}, {bones} bone{'s' if bones != 1 else ''} a side: "
            + f"the start is a {NAMES[value]} for red"
            + (f" in {plies} actions" if value != oyno_duel.DRAW else "")
            + f"; positions (win/draw/loss for the mover) {plain.counts()}"
            + f" [{time.perf_counter() - began:.1f} s]",
            flush=True,
        )
        for greedy_seat in (0, 1):
            began = time.perf_counter()
            restricted = oyno_duel.solve(size, bones, restrict=greedy_seat, place_rule=rule)
            perfect = 1 - greedy_seat
            value, _ = restricted.value(0, 0, 0, 0)
            forced = value == (oyno_duel.WIN if perfect == 0 else oyno_duel.LOSS)
            chance = restricted.win_chance(0, 0, 0, 0)
            colour = ("red", "white")[greedy_seat]
            row[f"greedy_{colour}_forced_win"] = forced
            row[f"greedy_{colour}_win_chance"] = chance
            line = (
                f"  greedy {('red', 'white')[greedy_seat]}: perfect "
                f"{('red', 'white')[perfect]} forces a win: {forced}; its chance to win from "
                f"the start: {chance:.4f}; positions {restricted.counts()}"
            )
            if args.games:
                results = [play(size, bones, restricted, perfect, s) for s in range(args.games)]
                wins = sum(r > 0 for r in results)
                draws = sum(r == 0 for r in results)
                line += f"; games vs greedy W/D/L {wins}/{draws}/{len(results) - wins - draws}"
                row[f"greedy_{colour}_games_wdl"] = [wins, draws, len(results) - wins - draws]
            print(line + f" [{time.perf_counter() - began:.1f} s]", flush=True)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=2)
            handle.write("\n")


if __name__ == "__main__":
    main()
