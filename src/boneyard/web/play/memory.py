"""Estimates of what live games hold in memory, for the server's memory budget.

The estimate walks the objects a game and its state reach (``gc.get_referents``) and adds their
sizes. It stops at classes, modules and functions, and at frozen dataclass records: those are
the tables a game shares with every other game of its size (an OYNO ``Board`` is cached per
size), paid once, not per game.
"""

from __future__ import annotations

import dataclasses
import gc
import sys
import types
from typing import Any

_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def _shared(obj: Any) -> bool:
    if isinstance(obj, _SHARED):
        return True
    params = getattr(type(obj), "__dataclass_params__", None)
    return params is not None and dataclasses.is_dataclass(obj) and bool(params.frozen)


def estimate_bytes(*roots: Any, limit: int = 2_000_000) -> int:
    """Bytes reachable from ``roots`` (each object once; at most ``limit`` objects visited)."""
    seen: set[int] = set()
    stack = [root for root in roots if not _shared(root)]
    total = 0
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        for child in gc.get_referents(obj):
            if id(child) not in seen and not _shared(child):
                stack.append(child)
    return total
