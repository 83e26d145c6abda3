"""What time it is *on the site*: the time axis item timestamps and revisit decisions share.

Real sites stamp items with real time, so ``clock = "wall"`` (the default) uses this machine's UTC
clock. A site whose clock is not ours - the demo site, whose time moves only when a test advances
it, or a site whose timestamps are in another zone or skewed - uses ``clock = "site"``: now is the
newest time the site itself shows, read from ``[social.clock_probe]`` (e.g. the newest entry of
a feed) once per run, and raised by any newer item seen during the run. The probe may lag the
true site time a little; visits are stamped with the same estimate, so the lag mostly cancels out
of ``now - last_visit``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from browsercrawl.config.social import SocialConfig
from browsercrawl.social.extract import parse_time, read_list

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

log = logging.getLogger(__name__)


async def probe_site_time(page: Page, base_url: str, cfg: SocialConfig) -> float | None:
    """The newest time any probe source shows, read by navigating ``page`` (a spare tab)."""
    newest: float | None = None
    for probe in cfg.clock_probe:
        await page.goto(urljoin(base_url, probe.page), wait_until="load")
        answer = await read_list(page, probe, {})
        times = [t for t in (parse_time(e.get("time")) for e in answer["entries"]) if t is not None]
        if answer.get("error"):
            log.warning("clock probe %s: %s", probe.page, answer["error"])
        if times:
            newest = max(times) if newest is None else max(newest, *times)
    return newest


class SiteClock:
    """Site time for one run (crawl or recrawl); safe to share between concurrent page hooks."""

    def __init__(self, cfg: SocialConfig, known: float | None = None) -> None:
        self.cfg = cfg
        self.estimate = known  # newest site time seen so far (None = nothing yet)
        self.probed = cfg.clock == "wall"
        self._lock = asyncio.Lock()

    def see(self, t: float | None) -> None:
        """Raise the estimate to a time the site showed (an item's timestamp)."""
        if t is not None and (self.estimate is None or t > self.estimate):
            self.estimate = t

    async def probe(self, context: BrowserContext, base_url: str) -> None:
        """Read the probe once per run (the first caller does it; the rest wait for it)."""
        async with self._lock:
            if self.probed:
                return
            page = await context.new_page()
            try:
                self.see(await probe_site_time(page, base_url, self.cfg))
            finally:
                await page.close()
                self.probed = True  # once per run, even if it failed (now() then falls back)

    def now(self) -> float:
        if self.cfg.clock == "wall":
            return time.time()
        if self.estimate is None:
            log.warning("social: the site showed no time yet; using this machine's clock")
            return time.time()
        return self.estimate
