"""What a view's words cost beside the observation it is made from, for every game.

Not a test (timings depend on the machine). Each view of a page or the terminal asks the game for
``observation(seat)`` and then its words: ``prompt``, ``panel`` and, for the buttons, an
``action_label`` per legal action (at most ``--labels``). Over seeded random playouts this script
times, at every decision, the observation (the reference, built anyway) and the words, in CPU time
of this process, and prints the mean of each and their ratio.

    .venv/bin/python benchmarks/bench_words.py
    .venv/bin/python benchmarks/bench_words.py --games bondo_cones bonbon --playouts 10
"""

from __future__ import annotations

import argparse
import random
import time

from boneyard import list_games, load_game
from boneyard.testing import random_action


def measure(name: str, playouts: int, labels: int, max_actions: int) -> tuple[float, float, int]:
    """Mean seconds per view of the observation and of the words, and the number of views."""
    game = load_game(name)
    clock = time.process_time
    observing = wording = 0.0
    views = 0
    for playout in range(playouts):
        rng = random.Random(playout)
        state = game.new_initial_state()
        for _ in range(max_actions):
            if state.is_terminal():
                break
            seat = state.current_player()
            if seat >= 0:
                start = clock()
                observation = state.observation(seat)
                middle = clock()
                game.prompt(observation, seat)
                game.panel(observation, seat)
                for action in state.legal_actions()[:labels]:
                    game.action_label(observation, state.action_to_string(action))
                observing += middle - start
                wording += clock() - middle
                views += 1
            state.apply_action(random_action(state, rng))
    return observing / max(views, 1), wording / max(views, 1), views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list_games())
    parser.add_argument("--playouts", type=int, default=5)
    parser.add_argument("--labels", type=int, default=10, help="labels per view, at most")
    parser.add_argument("--max-actions", type=int, default=600)
    args = parser.parse_args()
    print(f"{'game':12s} {'views':>6s} {'observation':>12s} {'words':>10s} {'ratio':>6s}")
    for name in args.games:
        observing, wording, views = measure(name, args.playouts, args.labels, args.max_actions)
        ratio = wording / observing if observing else float("nan")
        print(
            f"{name:12s} {views:6d} {observing * 1e6:10.1f}us {wording * 1e6:8.1f}us {ratio:6.2f}"
        )


if __name__ == "__main__":
    main()
