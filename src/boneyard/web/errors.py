"""The one error the web app refuses a request with: an HTTP status, a code and words."""

from __future__ import annotations


class WebError(Exception):
    """A refused request: an HTTP status, a short code and a message for the person.

    ``retry_after`` (seconds) is sent as the Retry-After header of a 429 or 503.
    """

    def __init__(
        self, status: int, code: str, detail: str, retry_after: float | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.retry_after = retry_after

    def __reduce__(self) -> tuple[type[WebError], tuple[int, str, str, float | None]]:
        # Raised in a worker process and pickled back to the server.
        return (WebError, (self.status, self.code, self.detail, self.retry_after))
