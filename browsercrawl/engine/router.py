"""Adaptive rendering: render only the URL shapes whose content needs JavaScript.

For each URL shape (host + path with numbers and ids generalised), the first few pages are
fetched both over plain HTTP and in the browser. If the HTTP version already holds the rendered
page's links and text, the rest of that shape is fetched over HTTP (with the browser's cookies).
Other pages of a shape whose samples are still in flight wait for the verdict instead of being
rendered meanwhile (with 8 workers that was a burst of needless browser pages per shape). A
static shape's pages are rendered again now and then in case that changes: the ``recheck_every``-th
page, then at doubling intervals while the HTTP version keeps matching (a shape that has matched
ten times is unlikely to change on the next page), back to ``recheck_every`` after a mismatch.

A shape is judged with as few renders as the evidence allows: one mismatch decides 'browser' at
once, and a page whose HTML runs no script at all counts as a match without being rendered (the
browser would show exactly what the HTML says), so a site without scripts is crawled in ``auto``
mode without ever launching Chromium. ``browser_needed`` tells the runtime when it may close it.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

_NUMERIC = re.compile(r"^\d+$")
_HEXISH = re.compile(r"^(?=.*\d)[0-9a-fA-F-]{8,}$")
_ID_PREFIX = re.compile(r"^\d+[-_].*")
_WORD = re.compile(r"\w+")

# Thresholds: the HTTP page must carry this share of what the rendered page shows.
LINK_RECALL = 0.95
TEXT_RECALL = 0.90


def url_shape(url: str) -> str:
    """A coarse template of a URL: ``/t/123-some-slug?page=2`` -> ``host/t/{id}?page``."""
    parts = urlsplit(url)
    segs = []
    for seg in parts.path.split("/"):
        if _NUMERIC.match(seg) or _HEXISH.match(seg) or _ID_PREFIX.match(seg):
            segs.append("{id}")
        else:
            segs.append(seg)
    shape = f"{parts.netloc}{'/'.join(segs)}"
    if len(segs) > 2:
        # Deep paths with free-text names (/u/alice) share a shape per parent folder.
        shape = f"{parts.netloc}{'/'.join(segs[:-1])}/{{name}}" if segs[-1] and segs[-1] != "{id}" else shape
    if parts.query:
        keys = sorted({kv.split("=", 1)[0] for kv in parts.query.split("&")})
        shape += "?" + "&".join(keys)
    return shape


def _recall(needed: set[str], have: set[str]) -> float:
    if not needed:
        return 1.0
    return len(needed & have) / len(needed)


def same_content(http_text: str, http_links: set[str], rendered_text: str, rendered_links: set[str]) -> bool:
    """True when the HTTP page carries (nearly) everything the rendered page shows."""
    words_r = set(_WORD.findall(rendered_text.lower()))
    words_h = set(_WORD.findall(http_text.lower()))
    return _recall(rendered_links, http_links) >= LINK_RECALL and _recall(words_r, words_h) >= TEXT_RECALL


@dataclass
class _ShapeStats:
    compared: int = 0
    static_votes: int = 0
    http_since_check: int = 0
    comparing: int = 0  # comparisons started but not yet recorded
    recheck_after: int = 0  # HTTP pages before the next re-check (0: not set yet)
    renders: int = 0  # comparisons that had to render the page
    changed: asyncio.Event | None = None  # set (and replaced) whenever a comparison ends

    def decided(self, sample: int) -> bool:
        # A single page the HTTP version misses settles it: the shape needs rendering.
        return self.compared >= sample or self.static_votes < self.compared

    def is_static(self) -> bool:
        return self.compared > 0 and self.static_votes == self.compared

    def notify(self) -> None:
        if self.changed is not None:
            self.changed.set()
            self.changed = None


class AdaptiveRouter:
    """Decides, per URL, between 'browser', 'http' and 'compare' (fetch both and learn)."""

    def __init__(self, sample_pages: int = 3, recheck_every: int = 50) -> None:
        self.sample = sample_pages
        self.recheck_every = recheck_every
        self._shapes: dict[str, _ShapeStats] = {}
        self.http_pages = 0
        self.browser_pages = 0
        self.compared_pages = 0

    def will_wait(self, url: str) -> bool:
        """True when ``choose`` would wait for this URL's shape to be decided.

        The crawler fetches such a page over HTTP meanwhile, so the wait costs no round trip
        when the verdict is 'http'.
        """
        stats = self._shapes.get(url_shape(url))
        return (
            stats is not None
            and not stats.decided(self.sample)
            and stats.compared + stats.comparing >= self.sample
        )

    async def choose(self, url: str) -> str:
        stats = self._shapes.setdefault(url_shape(url), _ShapeStats())
        while not stats.decided(self.sample):
            if stats.compared + stats.comparing < self.sample:
                stats.comparing += 1
                return "compare"
            # Enough samples are in flight: wait for them (they end in a render time or fail).
            if stats.changed is None:
                stats.changed = asyncio.Event()
            await stats.changed.wait()
        if not stats.is_static():
            return "browser"
        stats.http_since_check += 1
        due = stats.http_since_check >= (stats.recheck_after or self.recheck_every)
        # One re-check in flight per shape: the interval doubles only when it ends.
        if self.recheck_every and due and not stats.comparing:
            stats.http_since_check = 0
            stats.comparing += 1
            return "compare"
        return "http"

    def record(self, url: str, static: bool, rendered: bool = True) -> None:
        """A comparison's verdict; ``rendered`` False: judged from the HTML alone (no script)."""
        stats = self._shapes.setdefault(url_shape(url), _ShapeStats())
        stats.comparing = max(0, stats.comparing - 1)
        stats.renders += int(rendered)
        if stats.decided(self.sample):  # a re-check; the next interval counts from its end
            stats.http_since_check = 0
            if static:
                stats.recheck_after = 2 * (stats.recheck_after or self.recheck_every)
            else:  # the shape needs rendering after all: render it from now on
                stats.static_votes = 0
                stats.recheck_after = 0
        stats.compared += 1
        stats.static_votes += int(static)
        stats.notify()

    def demote(self, url: str) -> None:
        """Evidence without a comparison (e.g. a load-more control in the HTTP page): render this shape."""
        stats = self._shapes.setdefault(url_shape(url), _ShapeStats())
        stats.compared = max(stats.compared, self.sample)
        stats.static_votes = 0
        stats.http_since_check = 0
        stats.recheck_after = 0
        stats.notify()

    def abandon(self, url: str) -> None:
        """A comparison failed before it could vote; let another page take the sample."""
        stats = self._shapes.setdefault(url_shape(url), _ShapeStats())
        stats.comparing = max(0, stats.comparing - 1)
        stats.notify()

    def browser_needed(self) -> bool:
        """True while a shape renders its pages, has a comparison in flight, or has rendered some
        of its samples and awaits the rest (closing between two samples would relaunch at once)."""
        return any(
            s.comparing or (not s.is_static() if s.decided(self.sample) else s.renders > 0)
            for s in self._shapes.values()
        )

    def summary(self) -> dict[str, str]:
        return {
            shape: ("http" if s.is_static() else "browser") if s.decided(self.sample) else "undecided"
            for shape, s in sorted(self._shapes.items())
        }
