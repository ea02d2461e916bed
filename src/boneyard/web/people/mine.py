"""Pages of the session of play: My games (kept by the browser), the lobby, the puzzle ladder."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from boneyard.web.guard.budgets import PAGE, GuardedRouter
from boneyard.web.pages.routes import templates

router = GuardedRouter(include_in_schema=False)


@router.get("/mine", response_class=HTMLResponse, dependencies=[PAGE])
async def my_games(request: Request) -> Any:
    return templates.TemplateResponse(request, "mine.html", {})
