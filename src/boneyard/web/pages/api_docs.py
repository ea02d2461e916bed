"""The ReDoc page of the API (/redoc), whole under the API pages' policy.

FastAPI-offline serves ReDoc's script from the package, but that script's footer ("API docs by
Redocly") draws its logo from cdn.redoc.ly, which the policy (``DOCS_CSP``: images from the app
only) blocks and which an offline server cannot reach anyway (issue 35). This page serves the
same script with that address replaced by an empty ``data:`` image: it fails to decode, and the
footer's own error handler then leaves the logo out, so nothing is asked from elsewhere and the
policy stays as strict as the rest of the site's.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import fastapi_offline
from fastapi import Request, Response
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse

from boneyard.web.guard.budgets import PAGE, GuardedRouter
from boneyard.web.guard.middleware import DOCS_STATIC

router = GuardedRouter(include_in_schema=False)

REDOC_SCRIPT = Path(fastapi_offline.__file__).resolve().parent / "static" / "redoc.standalone.js"
OUTSIDE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
SCRIPT_PATH = "/redoc/redoc.standalone.js"


@lru_cache(maxsize=1)
def redoc_script() -> str:
    """ReDoc's script with its footer logo asked from nowhere (read once)."""
    return REDOC_SCRIPT.read_text(encoding="utf-8").replace(OUTSIDE_LOGO, "data:,")


@router.get("/redoc", dependencies=[PAGE])
def redoc_page(request: Request) -> HTMLResponse:
    return get_redoc_html(
        openapi_url=request.app.openapi_url,
        title=request.app.title + " - ReDoc",
        redoc_js_url=SCRIPT_PATH,
        redoc_favicon_url=f"{DOCS_STATIC}/favicon.png",
        with_google_fonts=False,
    )


@router.get(SCRIPT_PATH, dependencies=[PAGE])
def redoc_page_script() -> Response:
    return Response(
        redoc_script(),
        media_type="text/javascript",
        headers={"Cache-Control": "public, max-age=86400"},
    )
