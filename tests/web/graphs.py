"""The graph of ``boneyard.web``'s modules: what imports what (grimp, as import-linter builds it),
and who calls whom along a traced stretch of work (``sys.setprofile`` on every thread)."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import grimp

WEB = "boneyard.web"


def import_graph() -> dict[str, set[str]]:
    """Each ``boneyard.web`` module and the web modules it imports when it runs (imports for
    the type checker alone are left out: they never run)."""
    graph = grimp.build_graph("boneyard", exclude_type_checking_imports=True, cache_dir=None)
    modules = {m for m in graph.modules if m.startswith(WEB + ".")}
    return {
        module: {
            m
            for m in graph.find_modules_directly_imported_by(module)
            if m in modules and m != module
        }
        for module in modules
    }


def _module(frame: FrameType) -> str:
    return str(frame.f_globals.get("__name__", ""))


@contextmanager
def traced_calls() -> Iterator[Counter[tuple[str, str]]]:
    """Count each call from one ``boneyard.web`` module into another while the block runs, on
    every thread. Frames of other packages between the two (Starlette, asyncio) are passed
    through: the caller is the nearest web module below on the stack."""
    calls: Counter[tuple[str, str]] = Counter()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        callee = _module(frame)
        if not callee.startswith(WEB + "."):
            return
        back = frame.f_back
        while back is not None and not _module(back).startswith(WEB + "."):
            back = back.f_back
        if back is not None and _module(back) != callee:
            calls[(_module(back), callee)] += 1

    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        yield calls
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` leads to, by one edge or more."""
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    return seen


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that lead back to themselves, grouped by circle (the strongly connected
    parts of ``graph`` with more than one module); a graph of a hundred modules: no hurry."""
    leads = {node: reachable(graph, node) for node in graph}
    found: list[list[str]] = []
    for node in sorted(graph):
        if node in leads[node] and not any(node in part for part in found):
            found.append(sorted(other for other in leads[node] if node in leads.get(other, ())))
    return found
