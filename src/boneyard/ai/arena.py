"""The arena: bots play each other many times, seats alternating, every game seeded.

``head_to_head`` plays bot A against bot B; ``round_robin`` plays every pair and fits Elo
ratings. Games run inline, in a pool of worker processes (``backend="local"``), or as Ray tasks
(``backend="ray"``, on the cluster at ``ray_address`` or a local one; Ray is the ``[ray]`` extra
and is imported only then). A game is fully described by a ``GameTask``, so any game of a run
can be replayed alone from its seed.

A bot is named by a level or bot name, optionally with options:
``mcts:iterations=500,rollout_depth=5``.

Seats: in a two-player game A sits at seat 0 in even-numbered games and at seat 1 in odd ones.
With more seats they alternate A, B, A, ... starting with A in even games and B in odd ones, and
A's result compares the mean return of A's seats with B's. In a one-player game (the OYNO
puzzle) both bots play the same deal: the better return wins, and between equal returns the
shorter game (a puzzle solved in fewer moves).
"""

from __future__ import annotations

import csv
import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from boneyard.ai.stats import elo_difference, elo_ratings, wilson_interval
from boneyard.core.game import sample_chance_outcome
from boneyard.core.registry import load_game

BACKENDS = ("local", "ray")

Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as results come in."""


# ----- bot specifications -------------------------------------------------------------------


def _parse_value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("none", "null"):
        return None
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=500,rollout_depth=5"`` -> ``("mcts", {"iterations": 500, ...})``."""
    name, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"bad bot option {item!r} in {spec!r}: write name=value")
        options[key.strip()] = _parse_value(value)
    if not name.strip():
        raise ValueError(f"bad bot {spec!r}: it needs a name, such as random or hard")
    return name.strip().lower(), options


def build_bot(spec: str, game: Any, seat: int, seed: int, time_limit: float | None) -> Any:
    from boneyard.ai import make_bot

    name, options = parse_bot_spec(spec)
    # A time limit in the spec wins over the arena-wide one.
    limit = options.pop("time_limit", time_limit)
    return make_bot(name, game, seat, seed=seed, time_limit=limit, **options)


# ----- one game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """Everything one arena game needs: it is replayed exactly from this."""

    game: str
    params: dict[str, Any]
    seats: tuple[str, ...]
    """The bot spec at each seat."""
    seed: int
    index: int = 0
    pair: int = 0
    """Which pairing of a round robin (0 in a head-to-head)."""
    time_limit: float | None = None
    engine: str = "python"
    """Whose rules the game is played on: ``python`` or ``native`` (``boneyard.native``)."""


ENGINES = ("python", "native")
"""The rules a game may be played on: the Python engine, or the native one (the same games from
the same seeds, faster: tests/ai/test_arena_native.py)."""


@dataclass
class GameRecord:
    """The outcome of one arena game."""

    index: int
    pair: int
    seed: int
    seats: list[str]
    returns: list[float]
    length: int
    seconds: float
    first_player: int = 0
    """The seat that moved first: the winner of a ``first N`` chance event (RULINGS: who
    starts) where the game has one, else the seat of the first decision."""
    turns: int = 0
    """Decisions taken by the seats (chance outcomes not counted, unlike ``length``)."""


def play_game(task: GameTask) -> GameRecord:
    """Play one game to the end: chance from ``random.Random(seed)``, each bot seeded too."""
    started = time.perf_counter()
    game = load_game(task.game, **task.params)
    chance = random.Random(task.seed)
    bots = [
        build_bot(spec, game, seat, task.seed * 8 + seat + 1, task.time_limit)
        for seat, spec in enumerate(task.seats)
    ]
    state: Any
    if task.engine == "native":
        from boneyard import native

        native_game = native.load_game(task.game, **task.params)
        state = native_game.new_initial_state()
        # A bot that reads Python states (a Python search, an exact solver) is shown the same
        # position rebuilt by the Python engine: right, if slower.
        seen = [
            (lambda s: s) if bot.reads_native_states else native_game.python_state for bot in bots
        ]
    elif task.engine == "python":
        state = game.new_initial_state()
        seen = [lambda s: s for _ in bots]
    else:
        raise ValueError(f"no engine {task.engine!r}; engines: {', '.join(ENGINES)}")
    first_player, chosen_by_chance, turns = -1, False, 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance_outcome(state, chance)
            if not chosen_by_chance:
                name = state.action_to_string(action).split()
                if len(name) == 2 and name[0] == "first" and name[1].isdigit():
                    first_player, chosen_by_chance = int(name[1]), True
        else:
            if first_player < 0:
                first_player = state.current_player()
            turns += 1
            player = state.current_player()
            action = bots[player].step(seen[player](state))
        state.apply_action(action)
    return GameRecord(
        index=task.index,
        pair=task.pair,
        seed=task.seed,
        seats=list(task.seats),
        returns=[float(r) for r in state.returns()],
        length=state.move_number(),
        seconds=time.perf_counter() - started,
        first_player=max(first_player, 0),
        turns=turns,
    )


def _seat_specs(players: int, bot_a: str, bot_b: str, index: int) -> tuple[str, ...]:
    first, second = (bot_a, bot_b) if index % 2 == 0 else (bot_b, bot_a)
    return tuple(first if seat % 2 == 0 else second for seat in range(players))


def tasks_for_pair(
    game_name: str,
    params: dict[str, Any],
    players: int,
    bot_a: str,
    bot_b: str,
    games: int,
    seed: int,
    pair: int,
    time_limit: float | None,
    engine: str = "python",
) -> list[GameTask]:
    """The games of one pairing, seats alternating (module docstring), each with its seed."""
    if engine not in ENGINES:
        raise ValueError(f"no engine {engine!r}; engines: {', '.join(ENGINES)}")
    tasks = []
    for index in range(games):
        game_seed = (seed * 1_000_003 + pair * 10_007 + index) % (2**31)
        if players == 1:
            for spec in (bot_a, bot_b):
                tasks.append(
                    GameTask(game_name, params, (spec,), game_seed, index, pair, time_limit, engine)
                )
        else:
            seats = _seat_specs(players, bot_a, bot_b, index)
            tasks.append(
                GameTask(game_name, params, seats, game_seed, index, pair, time_limit, engine)
            )
    return tasks


# ----- running many games -----------------------------------------------------------------


def run_tasks(
    tasks: Sequence[GameTask],
    *,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    ray_init: dict[str, Any] | None = None,
    progress: Progress | None = None,
) -> list[GameRecord]:
    """Play every task; results come back in task order whatever the backend."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if backend == "ray":
        results = _run_ray(tasks, ray_address, ray_init or {}, progress)
    else:
        results = _run_local(tasks, workers, progress)
    order = {id(task): number for number, task in enumerate(tasks)}
    return [record for _, record in sorted(results, key=lambda item: order[id(item[0])])]


def _report(progress: Progress | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def _run_local(
    tasks: Sequence[GameTask], workers: int, progress: Progress | None
) -> list[tuple[GameTask, GameRecord]]:
    results: list[tuple[GameTask, GameRecord]] = []
    _report(progress, 0, len(tasks))
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            results.append((task, play_game(task)))
            _report(progress, len(results), len(tasks))
        return results
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(min(workers, len(tasks))) as pool:
        numbered: Iterator[tuple[int, GameRecord]] = pool.imap_unordered(
            _play_numbered, list(enumerate(tasks))
        )
        for number, record in numbered:
            results.append((tasks[number], record))
            _report(progress, len(results), len(tasks))
    return results


def _play_numbered(item: tuple[int, GameTask]) -> tuple[int, GameRecord]:
    return item[0], play_game(item[1])


def _run_ray(
    tasks: Sequence[GameTask],
    address: str | None,
    init_options: dict[str, Any],
    progress: Progress | None,
) -> list[tuple[GameTask, GameRecord]]:
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'boneyard[ray]'") from None
    options = {"ignore_reinit_error": True, "include_dashboard": False, **init_options}
    if address is not None:
        options["address"] = address
    if not ray.is_initialized():
        ray.init(**options)
    remote_play = ray.remote(play_game)
    pending = {remote_play.remote(task): task for task in tasks}
    results: list[tuple[GameTask, GameRecord]] = []
    _report(progress, 0, len(tasks))
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for reference in done:
            results.append((pending.pop(reference), ray.get(reference)))
        _report(progress, len(results), len(tasks))
    return results


# ----- results ----------------------------------------------------------------------------


@dataclass
class PairResult:
    """Bot A against bot B: wins, draws and losses for A, with a 95% interval."""

    bot_a: str
    bot_b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    records: list[GameRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's points (draws half) per game."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of A's score."""
        return wilson_interval(self.wins + 0.5 * self.draws, self.games)

    @property
    def elo(self) -> float:
        """A's Elo advantage over B implied by the score."""
        return elo_difference(self.score)

    def summary(self) -> dict[str, Any]:
        low, high = self.interval
        elo = self.elo
        return {
            "bot_a": self.bot_a,
            "bot_b": self.bot_b,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "interval_95": [low, high],
            "elo_difference": elo if abs(elo) != float("inf") else None,
        }


def _outcome_for_a(records: list[GameRecord], bot_a: str) -> float:
    """1, 0.5 or 0: how A fared in one game (or, in a one-player game, in the pair of plays)."""
    if len(records) == 2:  # one-player game: A's play and B's play of the same deal
        a_record = next(r for r in records if r.seats[0] == bot_a)
        b_record = next(r for r in records if r.seats[0] != bot_a)
        a_return, b_return = a_record.returns[0], b_record.returns[0]
        if a_return == b_return:  # a puzzle solved (or not) by both: fewer actions is better
            return (
                1.0
                if a_record.length < b_record.length
                else 0.5
                if a_record.length == b_record.length
                else 0.0
            )
    else:
        record = records[0]
        a_seats = [s for s, spec in enumerate(record.seats) if spec == bot_a]
        b_seats = [s for s, spec in enumerate(record.seats) if spec != bot_a]
        a_return = sum(record.returns[s] for s in a_seats) / len(a_seats)
        b_return = sum(record.returns[s] for s in b_seats) / len(b_seats)
    return 1.0 if a_return > b_return else 0.5 if a_return == b_return else 0.0


def tally(bot_a: str, bot_b: str, records: Iterable[GameRecord]) -> PairResult:
    result = PairResult(bot_a, bot_b)
    by_game: dict[int, list[GameRecord]] = {}
    for record in records:
        by_game.setdefault(record.index, []).append(record)
        result.records.append(record)
    for index in sorted(by_game):
        outcome = _outcome_for_a(by_game[index], bot_a)
        if outcome == 1.0:
            result.wins += 1
        elif outcome == 0.5:
            result.draws += 1
        else:
            result.losses += 1
    return result


@dataclass
class ArenaResult:
    """A finished arena run: its settings, every pairing's result and, for 3+ bots, Elo."""

    game: str
    params: dict[str, Any]
    bots: list[str]
    games_per_pair: int
    seed: int
    pairs: list[PairResult]
    elo: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": self.params,
            "bots": self.bots,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "seconds": self.seconds,
            "pairs": [pair.summary() for pair in self.pairs],
            "elo": self.elo,
            "games": [asdict(record) for pair in self.pairs for record in pair.records],
        }

    def write_json(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    def write_csv(self, path: str | Path) -> None:
        """One row per game played: pairing, index, seed, bot per seat, returns, length."""
        with Path(path).open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(
                ["pair", "bot_a", "bot_b", "index", "seed", "seats", "returns", "length", "seconds"]
            )
            for pair_number, pair in enumerate(self.pairs):
                for record in pair.records:
                    writer.writerow(
                        [
                            pair_number,
                            pair.bot_a,
                            pair.bot_b,
                            record.index,
                            record.seed,
                            " ".join(record.seats),
                            " ".join(f"{r:g}" for r in record.returns),
                            record.length,
                            f"{record.seconds:.3f}",
                        ]
                    )


def _check_bots(game: Any, bots: Sequence[str]) -> None:
    """Build each bot once, so a bad name fails before any game starts."""
    for spec in bots:
        build_bot(spec, game, 0, 0, None)


def round_robin(
    game_name: str,
    bots: Sequence[str],
    *,
    games: int = 200,
    params: dict[str, Any] | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    ray_init: dict[str, Any] | None = None,
    progress: Progress | None = None,
) -> ArenaResult:
    """Every pair of ``bots`` plays ``games`` games; Elo ratings when three or more play."""
    if len(bots) < 2:
        raise ValueError("an arena needs at least two bots")
    if len(set(bots)) != len(bots):
        raise ValueError(f"the bots must differ (got {', '.join(bots)})")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    game = load_game(game_name, **(params or {}))
    resolved = dict(game.params)
    _check_bots(game, bots)
    players = game.info.num_players
    pairings = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]]
    tasks: list[GameTask] = []
    for pair, (bot_a, bot_b) in enumerate(pairings):
        tasks += tasks_for_pair(
            game_name, resolved, players, bot_a, bot_b, games, seed, pair, time_limit
        )
    started = time.perf_counter()
    records = run_tasks(
        tasks,
        workers=workers,
        backend=backend,
        ray_address=ray_address,
        ray_init=ray_init,
        progress=progress,
    )
    pairs = [
        tally(bot_a, bot_b, (r for r in records if r.pair == number))
        for number, (bot_a, bot_b) in enumerate(pairings)
    ]
    result = ArenaResult(
        game=game_name,
        params=resolved,
        bots=list(bots),
        games_per_pair=games,
        seed=seed,
        pairs=pairs,
        seconds=time.perf_counter() - started,
    )
    if len(bots) > 2:
        index = {bot: number for number, bot in enumerate(bots)}
        ratings = elo_ratings(
            len(bots),
            [(index[p.bot_a], index[p.bot_b], p.wins + 0.5 * p.draws, p.games) for p in pairs],
        )
        result.elo = dict(zip(bots, ratings))
    return result


def head_to_head(game_name: str, bot_a: str, bot_b: str, **options: Any) -> ArenaResult:
    """``bot_a`` against ``bot_b``: a round robin of two (same options)."""
    return round_robin(game_name, [bot_a, bot_b], **options)
