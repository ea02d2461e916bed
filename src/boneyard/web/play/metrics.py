"""Prometheus metrics of one server process, served at ``/metrics``.

Each process keeps its own registry (several apps may live in one test process); behind a proxy
every web process is scraped on its own address and the sums are taken in Prometheus
(``sum(rate(boneyard_moves_total[1m]))`` is the moves a second of the whole service).
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
BOT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


class Metrics:
    """Moves, move latency, live games, the bot queue and bot time of one process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter(
            "boneyard_moves",
            "Moves accepted and stored by this process (people's and computers').",
            registry=self.registry,
        )
        self.move_seconds = Histogram(
            "boneyard_move_seconds",
            "Seconds from receiving a move to having stored and announced it.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.live_games = Gauge(
            "boneyard_live_games", "Games held in this process's memory.", registry=self.registry
        )
        self.bot_queue = Gauge(
            "boneyard_bot_queue",
            "Computer moves and hints waiting for a bot worker.",
            registry=self.registry,
        )
        self.bot_seconds = Histogram(
            "boneyard_bot_seconds",
            "Seconds from asking a bot for a computer move or hint to its answer.",
            ["kind"],
            buckets=BOT_BUCKETS,
            registry=self.registry,
        )

    def watch(self, live_games: Callable[[], float], bot_queue: Callable[[], float]) -> None:
        """Read the two gauges from these functions at every scrape."""
        self.live_games.set_function(live_games)
        self.bot_queue.set_function(bot_queue)

    def text(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)
