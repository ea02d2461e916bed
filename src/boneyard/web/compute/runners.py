"""Where a web process's computer moves and hints run: its own workers, the job queue or a
Ray cluster (``Settings.bots``)."""

from __future__ import annotations

from prometheus_client import Histogram

from boneyard.web.compute.fairness import ThinkingBudget
from boneyard.web.compute.jobs import QueueBots, TimedBotWorkers
from boneyard.web.compute.ray_bots import RayBots
from boneyard.web.settings import Settings, is_ray_address
from boneyard.web.store.games import Store

BotRunner = TimedBotWorkers | QueueBots | RayBots


def thinking_budget(settings: Settings) -> ThinkingBudget:
    """Each client's budget of the computer's thinking, in CPU seconds (``Settings``)."""
    per_minute = settings.thinking_seconds_per_minute
    rate = None if per_minute is None else per_minute / 60.0
    return ThinkingBudget(rate, settings.thinking_seconds_burst)


def bot_runner(settings: Settings, store: Store, bot_seconds: Histogram) -> BotRunner:
    """Where a web process's computer moves and hints run (``Settings.bots``)."""
    thinking = thinking_budget(settings)
    if settings.bots == "queue":
        return QueueBots(store, settings, bot_seconds, thinking)
    if is_ray_address(settings.bots):
        # a lost cluster degrades to this process's own workers (one at least: they take the
        # state documents the cluster's tasks take), not to the first legal move
        return RayBots(
            settings.bots,
            settings,
            bot_seconds,
            thinking,
            local=lambda: TimedBotWorkers(max(1, settings.bot_processes), bot_seconds, thinking),
        )
    return TimedBotWorkers(settings.bot_processes, bot_seconds, thinking)
