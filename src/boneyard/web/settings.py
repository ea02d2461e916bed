"""The server's policy: bot pacing and worker counts, and what it keeps in memory."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Settings:
    bot_delay: float = 0.8
    """Seconds a computer seat waits before it moves, so a person can follow."""
    bot_time_limit: float | None = None
    """Seconds a computer move may take; ``None``: the level's own budget."""
    bot_processes: int = 0
    """Worker processes for computer seats and hints (0: threads, as the tests use)."""
    replay_finished_only: bool = True
    max_live_games: int = 1000
    """Games kept in memory. Beyond it the least recently used idle games are dropped: the store
    holds every move, so a dropped game is replayed from it when next asked for."""
    live_idle_seconds: float = 600.0
    """How long a game must go unused (nobody watching, no computer move pending) to be dropped."""
