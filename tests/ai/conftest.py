"""Markers of the bot tests."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ray: starts a small local Ray cluster (slow to start)")
