"""axe-core in the browser tests: the violations a page must not have, in words.

axe-core's JavaScript comes bundled with ``axe-playwright-python`` (the ``dev`` extra), so the
check runs offline against the page as Chromium drew it.
"""

from __future__ import annotations

from typing import Any

BLOCKING = ("critical", "serious")


def blocking_violations(page: Any) -> list[str]:
    """Every critical or serious axe-core violation on ``page``, one readable line each: the
    rule, its impact, what it means and the first elements it found."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    lines = []
    for violation in results.response["violations"]:
        if violation.get("impact") not in BLOCKING:
            continue
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:4]]
        more = len(violation["nodes"]) - len(targets)
        where = ", ".join(targets) + (f" (+{more} more)" if more > 0 else "")
        lines.append(f"{violation['id']} [{violation['impact']}]: {violation['help']} at {where}")
    return lines
