"""The app's outer guard (ASGI middleware): headers, origins and request sizes.

- every answer carries ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (a
  seat's page carries its token in the address), frame refusal (``frame-ancestors 'none'``,
  ``X-Frame-Options: DENY``) and a Content-Security-Policy without inline script; everything but
  the static files is ``Cache-Control: no-store``, unless the route chose its own caching (the
  start pictures, the same for everyone and carrying no token: ``max-age=3600``), so an answer
  carries one policy, never two;
- a form post, a JSON post or a WebSocket from a page of another origin is refused (403): the
  ``Origin`` a browser sends must be the server's own or one of ``allowed_origins`` (or
  ``null`` with ``Sec-Fetch-Site: same-origin``). Programs that send neither are not browsers
  and pass;
- a request body over ``max_body_bytes`` is refused with 413 before it is read;
- a request or socket whose ``Host`` is not one of ``allowed_hosts`` (the port aside) is refused
  with 400: a foreign name that resolves to this server (DNS rebinding) reaches nothing.

What each request may create is charged by ``budgets.py``; connections are bounded by
``connections.py`` (``boneyard serve``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""No inline script; inline styles stay allowed (the games' SVG drawings carry style attributes)."""
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
"""The API pages (/docs, /redoc) start Swagger UI and ReDoc with an inline script; both are
served by the app (``DOCS_STATIC``), nothing from elsewhere. They carry no tokens."""
DOCS_STATIC = "/static-api-docs"
"""Where Swagger UI's and ReDoc's files are served."""

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


class Guard:
    def __init__(
        self,
        app: ASGIApp,
        max_body_bytes: int,
        allowed_origins: Iterable[str] = (),
        allowed_hosts: Iterable[str] = ("*",),
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.allowed_origins = {origin.rstrip("/") for origin in allowed_origins}
        self.allowed_hosts = {_bare_host(host) for host in allowed_hosts}

    def _foreign_host(self, headers: dict[str, str]) -> str | None:
        """The ``Host`` a request names when this server does not answer to it, else None."""
        if "*" in self.allowed_hosts:
            return None
        host = headers.get("host", "")
        return None if _bare_host(host) in self.allowed_hosts else host

    def _foreign_origin(self, scope: Scope, headers: dict[str, str]) -> str | None:
        """The ``Origin`` of another site, or None where the request is the server's own.

        A form post from a page with ``Referrer-Policy: no-referrer`` carries ``Origin: null``;
        the browser's ``Sec-Fetch-Site: same-origin`` then says it is the server's own page.
        """
        origin = headers.get("origin")
        site = headers.get("sec-fetch-site")
        if origin is None:
            return None if site in (None, "same-origin", "none") else site
        origin = origin.rstrip("/")
        if origin in self.allowed_origins:
            return None
        if origin == "null":
            return None if site == "same-origin" else origin
        host = headers.get("host", "")
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope["scheme"])
        if origin == f"{scheme}://{host}":
            return None
        return origin

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            headers = _headers(scope)
            if self._foreign_host(headers) is not None:
                await send({"type": "websocket.close", "code": 4400})  # before accepting: 400
                return
            if self._foreign_origin(scope, headers) is not None:
                await send({"type": "websocket.close", "code": 4403})  # before accepting: 403
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = self._foreign_host(headers)
        if host is not None:
            shown = ", ".join(sorted(self.allowed_hosts))
            await _refuse(
                send, 400, "bad_host", f"this server answers to {shown}, not to {host[:100]!r}"
            )
            return
        foreign = self._foreign_origin(scope, headers)
        if scope["method"] not in SAFE_METHODS and foreign is not None:
            await _refuse(send, 403, "foreign_origin", f"requests from {foreign} are refused")
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body_bytes):
            await _refuse(send, 413, "too_large", self._too_large())
            return
        await self.app(scope, self._counting(receive), self._with_headers(scope, send))

    def _too_large(self) -> str:
        return f"a request body is at most {self.max_body_bytes} bytes"

    def _counting(self, receive: Receive) -> Receive:
        """``receive`` that refuses (413) a body streamed without a length past the limit."""
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body_bytes:
                    raise HTTPException(413, self._too_large())
            return message

        return counted

    def _with_headers(self, scope: Scope, send: Send) -> Send:
        path: str = scope["path"]
        docs = path.startswith(("/docs", "/redoc"))
        static = path.startswith(("/static/", DOCS_STATIC))

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"content-security-policy", (DOCS_CSP if docs else CSP).encode()),
                ]
                headers = message.get("headers", [])
                chosen = any(name.lower() == b"cache-control" for name, _ in headers)
                if not static and not chosen:
                    extra.append((b"cache-control", b"no-store"))
                message = {**message, "headers": [*headers, *extra]}
            await send(message)

        return sending


def _bare_host(host: str) -> str:
    """A ``Host`` value without its port, lower case: "[::1]:8000" -> "::1"."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def _refuse(send: Send, status: int, code: str, detail: str) -> None:
    body = json.dumps({"error": code, "detail": detail}).encode()
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"cache-control", b"no-store"),
        (b"connection", b"close"),
    ]
    start: dict[str, Any] = {"type": "http.response.start", "status": status, "headers": headers}
    await send(start)
    await send({"type": "http.response.body", "body": body})
