"""What a fetch produces, whichever path (browser or plain HTTP) produced it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class FetchResult:
    """One fetched page, before links are canonicalised and scoped.

    ``extra_rows`` lets page hooks (AJAX capture, extraction, social traversal) attach rows for
    their own tables; the writer stores them in the same transaction as the page.
    """

    requested_url: str
    final_url: str
    status: int
    content_type: str
    via: str  # 'browser' | 'http'
    html: str | None = None
    text: str | None = None
    title: str | None = None
    links: list[tuple[str, str]] = field(default_factory=list)  # (absolute URL, anchor text)
    fetch_ms: float = 0.0
    render_ms: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    extra_rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    extra_urls: list[tuple[str, str | None]] = field(default_factory=list)  # (url, kind) to enqueue
    store: bool = True  # False for pages that must never be stored (e.g. a login page)
    # False when the page's wait ran out with requests in flight or its DOM still changing
    # (engine/settle.py): stored as pages.complete = 0.
    complete: bool = True
    # Over HTTP: whether the HTML runs any script (None: not known, e.g. a rendered page).
    scripted: bool | None = None


class FetchError(Exception):
    """A fetch that failed; ``retryable`` says whether trying again later may help."""

    def __init__(
        self,
        message: str,
        *,
        retryable: bool,
        retry_after: float | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status


class LeftScope(FetchError):
    """The page redirected or navigated out of the crawl's scope; it is never stored. ``target``
    is where it tried to go: stopped before the other site was loaded, or, with ``landed``, where
    it was loaded (``scope.stop_navigations = false``)."""

    def __init__(self, target: str, reason: str, *, landed: bool = False) -> None:
        where = "landed on" if landed else "tried to go to"
        super().__init__(f"left the scope: {where} {target} ({reason})", retryable=False)
        self.target = target
