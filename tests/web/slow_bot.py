"""A bot that thinks past any time limit, for tests/web/test_ray_bots.py: Ray workers import it
by name (the throwaway cluster has the repository on its PYTHONPATH)."""

from __future__ import annotations

import time


def think_too_long(seconds: float) -> int:
    time.sleep(seconds)
    return 0
