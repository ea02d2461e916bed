"""The native searches beside the Python ones: speed, and a bounded arena (docs/ai.md,
"Native searches").

    python benchmarks/native_search.py mcts-speed [--seconds 2]
    python benchmarks/native_search.py mcts-timing [--repeats 5]
    python benchmarks/native_search.py mcts-arena GAME [--minutes 10] [--bot SPEC] [--seed 0]

``mcts-speed``: simulations a second of the native ``mcts``/``ismcts`` searches and of the Python
``mcts``/``ismcts`` bots from the same positions (a few moves into a seeded game), one search of
``--seconds`` each, on one core.

``mcts-timing``: how far past its time budget (100 ms, 1 s) a native search answers.

``mcts-arena``: ``--bot`` (by default ``native_ismcts`` at 1 s a move) against today's ``hard``
(or ``--against``) in GAME, seats alternating, the games of ``boneyard arena GAME BOT hard --seed
S`` played one after another (the same tasks, so ``-n K`` replays the first K) until ``--minutes``
are spent; each game is printed as it ends, then the score with its 95% Wilson interval. Run it
under ``nice``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import boneyard
from boneyard.ai import make_bot
from boneyard.ai.arena import play_game, tasks_for_pair
from boneyard.ai.stats import wilson_interval
from boneyard.core.game import State, sample_chance_outcome

# ----- MCTS and ISMCTS (search/mcts.rs, search/ismcts.rs) ---------------------------------------

MCTS_GAMES = ("bondo_cones", "bonbon", "obonto", "bones")


def _position(name: str, moves: int, seed: int) -> State:
    """A position ``moves`` random decisions into a seeded game, a player to move with a choice."""
    game = boneyard.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while True:
        if state.is_terminal():
            state, made = game.new_initial_state(), 0
            continue
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if made >= moves and len(state.legal_actions()) > 1:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1


def mcts_speed(seconds: float) -> None:
    """Simulations a second, native against Python, same position, same budget."""
    print("| game | search | Python sims/s | native sims/s | native / Python |")
    print("|---|---|---|---|---|")
    for name in MCTS_GAMES:
        state = _position(name, 20, 1)
        seat = state.current_player()
        for search in ("mcts", "ismcts"):
            python_bot = make_bot(search, name, seat, seed=1, iterations=None, time_limit=seconds)
            started = time.perf_counter()
            python_bot.step(state)
            python_rate = python_bot.last_iterations / (time.perf_counter() - started)  # type: ignore[attr-defined]
            native_bot = make_bot(
                f"native_{search}", name, seat, seed=1, iterations=None, time_limit=seconds
            )
            started = time.perf_counter()
            native_bot.step(state)
            native_rate = native_bot.last_iterations / (time.perf_counter() - started)  # type: ignore[attr-defined]
            print(
                f"| {name} | {search} | {python_rate:,.0f} | {native_rate:,.0f} | "
                f"{native_rate / python_rate:.0f}x |",
                flush=True,
            )


def mcts_timing(limits_ms: tuple[int, ...] = (100, 1000), repeats: int = 5) -> None:
    """How far past its time budget a native search answers: the wall time of ``State.search``
    (GIL released) from Python, minus the budget, over ``repeats`` searches a game and limit."""
    from boneyard import native

    print("| game | budget | searches | median over (ms) | most over (ms) |")
    print("|---|---|---|---|---|")
    for name in MCTS_GAMES:
        python_state = _position(name, 20, 1)
        state = native.load_game(name).state_from_json(python_state.to_json())
        info = python_state.game.info
        options = json.dumps({"utility_range": [info.min_utility, info.max_utility]})
        for limit in limits_ms:
            over = []
            for seed in range(repeats):
                started = time.perf_counter()
                state.search("ismcts", options, limit, None, seed)
                over.append((time.perf_counter() - started) * 1000 - limit)
            over.sort()
            print(
                f"| {name} | {limit} ms | {repeats} | {over[len(over) // 2]:.1f} | "
                f"{over[-1]:.1f} |",
                flush=True,
            )


def mcts_arena(
    name: str, minutes: float, bot: str, seed: int, against: str = "hard"
) -> dict[str, Any]:
    """``bot`` against ``against`` in ``name``, seats alternating, until ``minutes`` are
    spent."""
    game = boneyard.load_game(name)
    players = game.info.num_players
    deadline = time.perf_counter() + minutes * 60
    tasks = tasks_for_pair(name, {}, players, bot, against, 10_000, seed, 0, None)
    wins = draws = losses = 0
    for task in tasks:
        if time.perf_counter() >= deadline:
            break
        record = play_game(task)
        mine = [r for r, spec in zip(record.returns, record.seats) if spec == bot]
        theirs = [r for r, spec in zip(record.returns, record.seats) if spec != bot]
        a, b = sum(mine) / len(mine), sum(theirs) / len(theirs)
        wins += a > b
        draws += a == b
        losses += a < b
        print(
            f"game {task.index} seats {record.seats} returns {record.returns} "
            f"{record.turns} turns {record.seconds:.0f} s",
            flush=True,
        )
    games = wins + draws + losses
    score = (wins + 0.5 * draws) / games if games else 0.0
    low, high = wilson_interval(wins + 0.5 * draws, games)
    summary = {
        "game": name,
        "bot": bot,
        "against": against,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": score,
        "interval": [low, high],
    }
    print(
        f"{name}: {bot} - {against} {wins}-{draws}-{losses} in {games} games, score "
        f"{score:.3f} [{low:.3f}, {high:.3f}] (command: boneyard arena {name} {bot} {against} "
        f"-n {games} "
        f"--seed {seed} --workers 1)",
        flush=True,
    )
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    speed = sub.add_parser("mcts-speed")
    speed.add_argument("--seconds", type=float, default=2.0)
    timing = sub.add_parser("mcts-timing")
    timing.add_argument("--repeats", type=int, default=5)
    arena = sub.add_parser("mcts-arena")
    arena.add_argument("game", choices=["bondo_cones", "bonbon"])
    arena.add_argument("--minutes", type=float, default=10.0)
    arena.add_argument("--bot", default="native_ismcts:iterations=100000000,time_limit=1.0")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--against", default="hard", help="a level or bot spec (default hard)")
    args = parser.parse_args(argv)
    if args.command == "mcts-speed":
        mcts_speed(args.seconds)
    elif args.command == "mcts-timing":
        mcts_timing(repeats=args.repeats)
    else:
        mcts_arena(args.game, args.minutes, args.bot, args.seed, args.against)
    return 0


if __name__ == "__main__":
    sys.exit(main())
