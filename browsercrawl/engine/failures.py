"""What a browser failure means for the crawl: try again later, fetch over HTTP, or give up."""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

from browsercrawl.engine.result import FetchError

# "Execution context was destroyed": the page navigated while it was being read (its own script
# went elsewhere, e.g. to the login page when a session ended mid-page); a new try reads it whole.
_TRANSIENT = ("net::ERR_", "Target crashed", "Navigation failed", "closed", "Execution context was destroyed",
              "Frame was detached", "interrupted by another navigation")
_PERMANENT = ("ERR_NAME_NOT_RESOLVED", "ERR_INVALID_URL", "ERR_UNSAFE")


class NeedsHttp(FetchError):
    """The browser would download this URL instead of rendering it: fetch it over HTTP."""

    def __init__(self) -> None:
        super().__init__("download, not a page", retryable=False)


def classify(exc: PlaywrightError) -> FetchError:
    """The crawl's view of a Playwright error (its first line is the message kept)."""
    msg = str(exc).split("\n", 1)[0]
    if "Download is starting" in msg:
        return NeedsHttp()
    retryable = any(s in msg for s in _TRANSIENT) and not any(s in msg for s in _PERMANENT)
    return FetchError(msg, retryable=retryable)


def tab_survives(exc: PlaywrightError, page_closed: bool) -> bool:
    """May the tab that raised ``exc`` serve the next page?"""
    return not page_closed and "crash" not in str(exc).lower()
