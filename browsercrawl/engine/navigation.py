"""Stops a tab's navigation that leaves the crawl's scope before the browser loads the other site.

A 302 to another host, a script's ``location = ...`` and a ``<meta http-equiv=refresh>`` all become
a main-frame document request. Each tab gets a CDP session with the ``Fetch`` domain enabled for
document requests only (a Playwright route would intercept every request and turn Chromium's HTTP
cache off): every main-frame document request pauses, the scope judges its URL, and one that leaves
is failed (``BlockedByClient``) before a byte is sent. The fetcher then reports the page as having
left the scope, with the URL it tried to reach, and nothing of it is stored.

The same ``Fetch`` patterns block the resource types the job blocks (images, fonts, media): a
request of those types is failed when it pauses. ``Network.setBlockedURLs`` did that before, but it
needs ``Network.enable``, which sends every network event of the tab over the CDP session to the
driver and to Python (a few ms of CPU per page in Python, the driver and the browser process).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger(__name__)

# url -> why a navigation there leaves the scope, or None when it may go ahead.
NavigationCheck = Callable[[str], Awaitable[str | None]]


class NavigationGuard:
    """Attaches to tabs; remembers, per tab, the out-of-scope navigations it stopped."""

    def __init__(self, check: NavigationCheck | None, blocked_types: frozenset[str] = frozenset()) -> None:
        self._check = check  # None: only block resource types, let every navigation go
        self.blocked_types = blocked_types  # CDP resource types failed at once (Image, Font, Media)
        self._stopped: dict[Page, list[tuple[str, str]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def attach(self, context: BrowserContext, page: Page) -> CDPSession:
        cdp = await context.new_cdp_session(page)
        tree = await cdp.send("Page.getFrameTree")
        main_frame = tree["frameTree"]["frame"]["id"]
        self._stopped[page] = []
        page.once("close", lambda _page: self._stopped.pop(page, None))

        def paused(event: dict[str, Any]) -> None:
            task = asyncio.create_task(self._decide(cdp, page, main_frame, event))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        cdp.on("Fetch.requestPaused", paused)
        types = sorted(self.blocked_types) + (["Document"] if self._check is not None else [])
        await cdp.send("Fetch.enable", {"patterns": [
            {"urlPattern": "*", "resourceType": t, "requestStage": "Request"} for t in types]})
        return cdp

    async def _decide(self, cdp: CDPSession, page: Page, main_frame: str, event: dict[str, Any]) -> None:
        if event.get("resourceType") in self.blocked_types:
            with contextlib.suppress(PlaywrightError):
                await cdp.send("Fetch.failRequest", {"requestId": event["requestId"],
                                                     "errorReason": "BlockedByClient"})
            return
        url = event["request"]["url"]
        reason = None
        if self._check is not None and event.get("frameId") == main_frame:  # frames: their own business
            try:
                reason = await self._check(url)
            except Exception as exc:  # never leave a request paused: the tab would hang
                reason = f"{url}: scope check failed ({exc})"
        with contextlib.suppress(PlaywrightError):
            if reason is None:
                await cdp.send("Fetch.continueRequest", {"requestId": event["requestId"]})
                return
            log.info("stopped a navigation out of scope: %s", reason)
            self._stopped.setdefault(page, []).append((url, reason))
            await cdp.send("Fetch.failRequest", {"requestId": event["requestId"],
                                                 "errorReason": "BlockedByClient"})

    def reset(self, page: Page) -> None:
        """Forget what was stopped in this tab (a new page is about to be fetched in it)."""
        if page in self._stopped:
            self._stopped[page] = []

    def stopped(self, page: Page) -> tuple[str, str] | None:
        """The first navigation out of scope stopped in this tab since :meth:`reset`: (url, why)."""
        found = self._stopped.get(page)
        return found[0] if found else None
