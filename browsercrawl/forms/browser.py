"""The two things only the browser can do for search forms: send a POST query, learn a search box.

A POST query is a frontier URL like any other (the action plus its visible fields, so each term is
its own page); when the browser path navigates to it, a route turns that navigation into the POST
the form would send, with hidden fields (tokens) read afresh from the form's page just before.

A search box without a form is learned once: the probe term is typed into it and Enter pressed
(then its own search button clicked, if Enter did nothing and the box has one), and the request
that carries the term is the box's query template. This happens on the page that holds the box,
during its own fetch (like the AJAX part's clicks); every query after that is a frontier request
like any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browsercrawl.frontier.urls import canonical_url

if TYPE_CHECKING:
    from playwright.async_api import Page, Route

log = logging.getLogger(__name__)

PROBE_TIMEOUT_MS = 5000


class PostRoute:
    """Turns the browser's navigation to a POST query's frontier URL into that POST."""

    def __init__(self, url: str, action: str, body: str, fresh_fields) -> None:
        self.url = url
        self.action = action
        self.body = body
        self.fresh_fields = fresh_fields  # async () -> {hidden name: value} or None

    def matches(self, url: str) -> bool:
        try:
            return canonical_url(url) == self.url
        except ValueError:
            return False

    async def handle(self, route: Route) -> None:
        request = route.request
        if not request.is_navigation_request():
            await route.continue_()
            return
        # Every navigation to the URL while the route is on (a re-login may navigate again).
        body = self.body
        with contextlib.suppress(PlaywrightError, asyncio.TimeoutError):
            fresh = await self.fresh_fields()
            if fresh:
                pairs = [(k, fresh.get(k, v)) for k, v in parse_qsl(body, keep_blank_values=True)]
                body = urlencode(pairs)
        headers = {**request.headers, "content-type": "application/x-www-form-urlencoded"}
        await route.continue_(method="POST", post_data=body, headers=headers, url=self.action)

    async def install(self, page: Page) -> None:
        await page.route(self.matches, self.handle)

    async def remove(self, page: Page) -> None:
        with contextlib.suppress(PlaywrightError):
            await page.unroute(self.matches, self.handle)


@dataclass
class Probe:
    request_url: str
    method: str
    navigated: bool
    body: str | None
    content_type: str


async def probe_box(page: Page, selectors: tuple[str, ...], term: str,
                    buttons: tuple[str, ...] = ()) -> Probe | None:
    """Type ``term`` into the box and return the request that carried it (None: nothing did).

    ``buttons`` are selectors of the box's own search button (found by the extractor beside the
    box, its words checked by the caller); no other element of the page is ever clicked.
    """
    box = None
    for sel in selectors:
        with contextlib.suppress(PlaywrightError):
            loc = page.locator(sel)
            if await loc.count() == 1 and await loc.is_visible():
                box = loc
                break
    if box is None:
        return None

    def carries(req: Any) -> bool:
        return term in req.url or term in (req.post_data or "")

    steps: list[str | None] = [None, *buttons]  # Enter first, then the box's own button
    for button in steps:
        try:
            async with page.expect_request(carries, timeout=PROBE_TIMEOUT_MS) as info:
                if button is None:
                    await box.fill(term, timeout=PROBE_TIMEOUT_MS)
                    await box.press("Enter", timeout=PROBE_TIMEOUT_MS)
                else:
                    loc = page.locator(button)
                    if await loc.count() != 1:
                        continue
                    await loc.click(timeout=PROBE_TIMEOUT_MS)
            req = await info.value
        except PlaywrightTimeoutError:
            continue
        except PlaywrightError as exc:
            log.debug("search box probe on %s: %s", page.url, exc)
            return None
        body = None
        ctype = ""
        with contextlib.suppress(PlaywrightError, PlaywrightTimeoutError):
            resp = await req.response()
            if resp is not None:
                ctype = resp.headers.get("content-type", "")
                if "json" in ctype or "html" in ctype:
                    body = await resp.text()
        return Probe(req.url, req.method, req.is_navigation_request(), body, ctype)
    return None
