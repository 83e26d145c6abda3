"""robots.txt per host, parsed by protego, fetched once per host and cached for the crawl."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
from protego import Protego

log = logging.getLogger(__name__)


def _disallow_values(text: str) -> list[str]:
    """Every non-empty ``Disallow:`` value of a robots.txt, in file order."""
    values = []
    for line in text.splitlines():
        key, _, value = line.split("#", 1)[0].partition(":")
        if key.strip().lower() == "disallow" and value.strip():
            values.append(value.strip())
    return values


class RobotsCache:
    """Fetches and caches robots.txt; a missing or broken file allows everything (RFC 9309)."""

    def __init__(self, http: aiohttp.ClientSession, user_agent: str, enabled: bool = True) -> None:
        self._http = http
        self._ua = user_agent
        self._enabled = enabled
        self._rules: dict[str, Protego | None] = {}
        self._disallows: dict[str, list[str]] = {}  # origin -> its Disallow values, to name the rule
        self._locks: dict[str, asyncio.Lock] = {}

    async def _load(self, origin: str) -> Protego | None:
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:
            if origin in self._rules:
                return self._rules[origin]
            rules: Protego | None = None
            try:
                async with self._http.get(
                    f"{origin}/robots.txt", timeout=aiohttp.ClientTimeout(total=15)
                ) as resp:
                    if resp.status == 200:
                        text = await resp.text(errors="replace")
                        rules = Protego.parse(text)
                        self._disallows[origin] = _disallow_values(text)
                    elif 500 <= resp.status < 600:
                        # RFC 9309: an unreachable robots.txt means "assume complete disallow";
                        # we keep crawling but log it, because local test servers often 5xx.
                        log.warning(
                            "robots.txt at %s returned %s; treating as allow-all",
                            origin,
                            resp.status,
                        )
            except (aiohttp.ClientError, TimeoutError) as exc:
                log.warning("robots.txt at %s unreachable (%s); treating as allow-all", origin, exc)
            self._rules[origin] = rules
            return rules

    @staticmethod
    def _origin(url: str) -> str:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://{rest.split('/', 1)[0]}"

    async def allowed(self, url: str) -> bool:
        if not self._enabled:
            return True
        rules = await self._load(self._origin(url))
        return rules is None or rules.can_fetch(url, self._ua)

    def blocking_rule(self, url: str) -> str:
        """The robots.txt line that forbids ``url`` (the longest matching Disallow), for messages."""
        origin = self._origin(url)
        matching = [v for v in self._disallows.get(origin, [])
                    if not Protego.parse(f"User-agent: *\nDisallow: {v}\n").can_fetch(url, "*")]
        rule = f"Disallow: {max(matching, key=len)}" if matching else "a rule for this user agent"
        return f"{origin}/robots.txt '{rule}'"

    async def crawl_delay(self, url: str) -> float:
        """The Crawl-delay for our user agent, 0 when none is set or robots is off."""
        if not self._enabled:
            return 0.0
        rules = await self._load(self._origin(url))
        if rules is None:
            return 0.0
        delay = rules.crawl_delay(self._ua)
        return float(delay) if delay else 0.0
