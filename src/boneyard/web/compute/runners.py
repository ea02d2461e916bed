"""Where a web process's computer moves and hints run: its own workers, the job queue or a
Ray cluster (``Settings.bots``)."""

from __future__ import annotations

from boneyard.web.compute.jobs import QueueBots, TimedBotWorkers
from boneyard.web.compute.ray_bots import RayBots
from boneyard.web.play.metrics import Metrics
from boneyard.web.settings import Settings, is_ray_address
from boneyard.web.store.games import Store

BotRunner = TimedBotWorkers | QueueBots | RayBots


def bot_runner(settings: Settings, store: Store, metrics: Metrics) -> BotRunner:
    """Where a web process's computer moves and hints run (``Settings.bots``)."""
    if settings.bots == "queue":
        return QueueBots(store, settings, metrics)
    if is_ray_address(settings.bots):
        return RayBots(settings.bots, settings, metrics)
    return TimedBotWorkers(settings.bot_processes, metrics)
