"""Prometheus metrics of one server process, served at ``/metrics``.

Each process keeps its own registry (several apps may live in one test process); behind a proxy
every web process is scraped on its own address and the sums are taken in Prometheus
(``sum(rate(boneyard_moves_total[1m]))`` is the moves a second of the whole service).
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, Metric

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
        self.thinking_waits = Counter(
            "boneyard_thinking_waits",
            "Computer moves that waited for their client's thinking budget to refill.",
            registry=self.registry,
        )
        self.thinking_waiting = Gauge(
            "boneyard_thinking_waiting",
            "Games whose computer move waits now for its client's thinking budget.",
            registry=self.registry,
        )
        self.sockets = Gauge(
            "boneyard_sockets", "WebSockets open on this process.", registry=self.registry
        )
        self.refusals: collections.Counter[str] = collections.Counter()
        """This app's refusals by reason (``refuse``); ``count_refusals`` adds others."""
        self._refusal_sources: list[Callable[[], Mapping[str, int]]] = []
        self.registry.register(_Refusals(self))

    def refuse(self, reason: str) -> None:
        """Count one refusal (a budget spent, a socket over a cap): refusals under attack come
        by the thousand, so they are counted here, not logged line by line."""
        self.refusals[reason] += 1

    def count_refusals(self, source: Callable[[], Mapping[str, int]]) -> None:
        """Add the refusals ``source`` counts (read at every scrape: the process's connections,
        the app's budgets) to ``boneyard_refusals_total``."""
        self._refusal_sources.append(source)

    def all_refusals(self) -> collections.Counter[str]:
        """Every refusal counted so far, by reason."""
        total = collections.Counter(self.refusals)
        for source in self._refusal_sources:
            total.update(source())
        return total

    def watch(self, live_games: Callable[[], float], bot_queue: Callable[[], float]) -> None:
        """Read the two gauges from these functions at every scrape."""
        self.live_games.set_function(live_games)
        self.bot_queue.set_function(bot_queue)

    def watch_sockets(self, sockets: Callable[[], float]) -> None:
        """Read the open sockets from this function at every scrape."""
        self.sockets.set_function(sockets)

    def text(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


class _Refusals:
    """``boneyard_refusals_total{reason}``: what was refused, by reason, read at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "boneyard_refusals",
            "Requests, connections, sockets and messages refused, by reason (budgets spent, "
            "caps reached, slow or malformed requests).",
            labels=["reason"],
        )
        for reason, count in sorted(self.metrics.all_refusals().items()):
            family.add_metric([reason], count)
        yield family
