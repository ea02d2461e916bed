"""The web app: play every game in the browser (``boneyard serve``).

Needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy, Jinja2). ``create_app`` builds the app.
"""

from __future__ import annotations

from boneyard.web.app import create_app

__all__ = ["create_app"]
