"""Stops a tab's navigation that leaves the crawl's scope before the browser loads the other site.

A 302 to another host, a script's ``location = ...`` and a ``<meta http-equiv=refresh>`` all become
a main-frame document request. Each tab gets a CDP session with the ``Fetch`` domain enabled for
document requests only (a Playwright route would intercept every request and turn Chromium's HTTP
cache off): every main-frame document request pauses, the scope judges its URL, and one that leaves
is failed (``BlockedByClient``) before a byte is sent. The fetcher then reports the page as having
left the scope, with the URL it tried to reach, and nothing of it is stored.

A pause is a round trip through the driver to Python and back, 60-90 ms of a page's latency on a
busy machine, and most document requests are the crawl's own pages on the seeds' servers. So the
guard is given the origins it may trust (``http://host:port/``, checked once against the scope),
and its ``Fetch`` patterns match every URL *except* those under a trusted origin: a pattern cannot
say "not", but the complement of a set of prefixes is a finite union of wildcard patterns (for each
prefix of a trusted origin, every character that leaves it, then ``*``). A document on a trusted
origin loads without a pause; a redirect or navigation anywhere else pauses and is judged as before.

The same ``Fetch`` patterns block the resource types the job blocks (images, fonts, media): a
request of those types is failed when it pauses. ``Network.setBlockedURLs`` did that before, but it
needs ``Network.enable``, which sends every network event of the tab over the CDP session to the
driver and to Python (a few ms of CPU per page in Python, the driver and the browser process).

Interception has a price whatever its patterns: while ``Fetch`` is enabled, Chromium routes every
request of the tab through the browser process to check it: 14 % more Chromium CPU per page of
the rendered bench, about 5 % of its pages/s (docs/benchmarks.md). No other hook stops a
redirect before it is sent, so a job may choose (``scope.stop_navigations = false``) to have no
interception at all: the guard then only judges where each page landed, and a page that landed
outside the scope is refused, not stored, though the other server has seen the request. Images
and fonts are then blocked by the browser's own settings (``browser.launch_args_for``); media
still needs ``Fetch``.
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

# What can follow a prefix of a canonical URL: Chromium serialises the URLs it requests in ASCII
# (hosts in punycode, the rest percent-encoded), so these are all the characters a URL can diverge on.
_URL_CHARACTERS = [chr(c) for c in range(0x20, 0x7F)]
_MOST_TRUSTED_ORIGINS = 16  # beyond this the patterns grow past what is worth sending per tab


def _escape(text: str) -> str:
    """``text`` as a literal in a ``Fetch`` URL pattern (``*`` and ``?`` are wildcards, ``\\`` escapes)."""
    return "".join("\\" + c if c in "*?\\" else c for c in text)


def outside_patterns(prefixes: list[str]) -> list[str]:
    """``Fetch`` URL patterns matching exactly the URLs that start with none of ``prefixes``.

    Walks the prefixes' trie: at each node, a URL that goes on with a character no prefix has
    there, or that ends there, has left every prefix. A URL under a prefix matches no pattern.
    """
    # A prefix under another adds nothing: everything under the shorter one is trusted already.
    prefixes = [p for p in prefixes if not any(p != q and p.startswith(q) for q in prefixes)]
    if not prefixes:
        return ["*"]
    trie: dict[str, set[str]] = {}  # a proper prefix of some prefix -> the characters that follow it
    for prefix in prefixes:
        for i in range(len(prefix)):
            trie.setdefault(prefix[:i], set()).add(prefix[i])
    whole = set(prefixes)
    patterns = []
    for node, following in sorted(trie.items()):
        if node in whole:
            continue  # everything under a trusted prefix is trusted
        if node:
            patterns.append(_escape(node))  # the URL ends here
        patterns += [_escape(node + c) + "*" for c in _URL_CHARACTERS if c not in following]
    return patterns


class NavigationGuard:
    """Attaches to tabs; remembers, per tab, the out-of-scope navigations it stopped."""

    def __init__(
        self,
        check: NavigationCheck | None,
        blocked_types: frozenset[str] = frozenset(),
        trusted_origins: list[str] | None = None,
        *,
        stop: bool = True,
    ) -> None:
        self._check = check  # None: only block resource types, let every navigation go
        self.stop = stop  # False: judge where a page landed instead of stopping its navigation
        self.blocked_types = blocked_types  # CDP resource types failed at once (Image, Font, Media)
        self._trusted = list(trusted_origins or [])  # "scheme://host[:port]/" the check allows
        self._document_patterns: list[str] | None = None  # built on the first attach
        self._stopped: dict[Page, list[tuple[str, str]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.documents_judged = 0  # document requests paused and judged (the cost trust saves)

    async def _documents(self) -> list[str]:
        """URL patterns of the document requests to pause: all but those on a trusted origin that
        the check really allows (an origin it refuses, say by ``ip_ranges``, is not trusted)."""
        if self._document_patterns is None:
            trusted = [o for o in self._trusted if self._check is not None and await self._check(o) is None]
            if len(trusted) > _MOST_TRUSTED_ORIGINS:
                trusted = []
            self._document_patterns = outside_patterns(trusted)
        return self._document_patterns

    @property
    def intercepts(self) -> bool:
        """Whether tabs get a ``Fetch`` interception (for stopping navigations, or blocked types)."""
        return bool(self.blocked_types) or (self._check is not None and self.stop)

    async def landed(self, url: str) -> str | None:
        """Why a page that landed on ``url`` is outside the scope (None: it is inside). For a guard
        that does not stop navigations, this is the whole check."""
        return None if self._check is None else await self._check(url)

    async def attach(self, context: BrowserContext, page: Page) -> CDPSession | None:
        """Start intercepting in ``page``'s tab; None when this guard needs no interception."""
        if not self.intercepts:
            return None
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
        patterns = [{"urlPattern": "*", "resourceType": t, "requestStage": "Request"}
                    for t in sorted(self.blocked_types)]
        if self._check is not None and self.stop:
            patterns += [{"urlPattern": p, "resourceType": "Document", "requestStage": "Request"}
                         for p in await self._documents()]
        await cdp.send("Fetch.enable", {"patterns": patterns})
        return cdp

    async def _decide(self, cdp: CDPSession, page: Page, main_frame: str, event: dict[str, Any]) -> None:
        if event.get("resourceType") in self.blocked_types:
            with contextlib.suppress(PlaywrightError):
                await cdp.send("Fetch.failRequest", {"requestId": event["requestId"],
                                                     "errorReason": "BlockedByClient"})
            return
        url = event["request"]["url"]
        self.documents_judged += 1
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
