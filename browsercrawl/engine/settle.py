"""When is a JavaScript page done? The default wait, and what it learns per URL shape.

The ``load`` event says nothing about content a script fetches afterwards: on a shop whose item
pages fetch their JSON after ``load``, 18% of pages were stored as empty shells. So unless the job
names a wait (``rendering.wait_until`` or ``wait_for_selector``), the snapshot's evaluate first
waits until the page is done: the load event passed, no fetch/XHR in flight, no short timer
pending, no poll going on (a URL asked for three times or more, lately), and the DOM quiet for
``settle_quiet_ms``. ``page_watch.js`` (installed in every tab before the page's scripts) counts
the requests, timers and DOM changes; ``snapshot.js`` waits on them, under ``settle_cap_seconds``
and the page's remaining time budget.

The quiet window is a blind wait paid on every page, so it is learned away: after
``settle_learn_pages`` finished pages of a URL shape (``router.url_shape``), the learner knows
how long that shape's content takes and which elements appear last (selectors that match only
elements of the page's last burst of changes, common to all the samples); later pages of the shape
wait for every root of that burst and no request in flight, then snapshot at once. A page where it does not
appear in good time (twice the learned time, at least 2 s more) falls back to the quiet rule and
counts as a miss; a shape that misses often is learned again. A shape whose samples never changed
after DOMContentLoaded (server-rendered) keeps only a short quiet window.

A request in flight holds the wait for the whole cap: one JSON answer slow for a moment (a busy
machine, a slow server) would otherwise leave the snapshot the page's shell, stored without its
content and without the links that lead on. Only on a shape whose pages mostly end with a request
that never answers (``ShapeWait.usually_done`` false: a long poll, a tracker the network drops)
does a request older than ``REQUEST_CAP_MS`` stop holding it, so such pages do not all pay the cap.

A page whose wait ran out with requests in flight or the DOM still changing is stored with
``pages.complete = 0``: counted in the crawl's summary and in ``stats``, never silently equal to a
finished one. The learned waits are kept in the ``shape_waits`` table, read back on resume and
shown by ``stats``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from browsercrawl.config import RenderingConfig
from browsercrawl.engine.router import url_shape

# On a shape whose pages mostly never finish, a request older than this stops holding the wait.
REQUEST_CAP_MS = 5000
GIVE_UP_EXTRA_MS = 2000  # a learned element may come this much later than it ever did
SHAPE_WAITS = "shape_waits"  # the table (declared in storage/db.py's core schema)
STATIC_QUIET_MS = 50  # the quiet window of a shape whose learned pages never changed after DOMContentLoaded
_SAVE_EVERY = 100  # learned shapes: row refreshed every this many pages (hit counts for stats)


@dataclass
class ShapeWait:
    """What the crawl knows about one URL shape's pages."""

    shape: str
    samples: list[tuple[float, list[str]]] = field(default_factory=list)  # (content ms, last elements)
    selector: str | None = None
    content_ms: float = 0.0  # the slowest sample's last content change, ms after navigation start
    learned: bool = False
    pages: int = 0
    hits: int = 0  # pages that ended on the learned element
    misses: int = 0  # pages where it did not come in time
    unfinished: int = 0  # pages whose wait ran out (stored with complete = 0)

    @property
    def usually_done(self) -> bool:
        """Do this shape's pages mostly finish within the wait? True while there is little to go
        on (under two pages seen), so one slow page is not taken for the rule."""
        return self.pages < 2 or self.unfinished * 2 <= self.pages

    def row(self) -> dict[str, Any]:
        return {
            "__upsert__": True,
            "shape": self.shape,
            "selector": self.selector,
            "content_ms": round(self.content_ms, 1),
            "learned": int(self.learned),
            "samples": len(self.samples),
            "pages": self.pages,
            "hits": self.hits,
            "misses": self.misses,
            "unfinished": self.unfinished,
            "updated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }

    def describe(self) -> str:
        if not self.learned:
            return f"learning ({len(self.samples)} finished samples, {self.unfinished} unfinished)"
        if self.selector:
            target = f"wait for {self.selector!r}"
        elif self.content_ms:
            target = "quiet window"
        else:
            target = "short quiet window (no change after DOMContentLoaded)"
        return f"{target}, content by {self.content_ms:.0f} ms ({self.hits} hits, {self.misses} misses)"


class SettleLearner:
    """Plans each page's default wait and learns from its report (see the module docstring)."""

    def __init__(self, cfg: RenderingConfig) -> None:
        self.cfg = cfg
        self.shapes: dict[str, ShapeWait] = {}

    def load(self, rows: list[tuple[Any, ...]]) -> None:
        """Learned waits an earlier run of this crawl stored (``shape, selector, content_ms, learned``)."""
        for shape, selector, content_ms, learned in rows:
            if learned:
                self.shapes[shape] = ShapeWait(shape, selector=selector, content_ms=content_ms or 0.0,
                                               learned=True)

    def plan(self, url: str, budget_ms: float) -> dict[str, Any]:
        """The ``settle`` argument of ``snapshot.js`` for this URL, given the time left."""
        sw = self.shapes.get(url_shape(url))
        out: dict[str, Any] = {
            "capMs": max(0.0, min(self.cfg.settle_cap_seconds * 1000, budget_ms)),
            "quietMs": self.cfg.settle_quiet_ms,
            "requestCapMs": None if sw is None or sw.usually_done else REQUEST_CAP_MS,
            "learn": sw is None or not sw.learned,
        }
        if sw is not None and sw.learned and sw.selector:
            out["selector"] = sw.selector
            out["giveUpAt"] = max(2 * sw.content_ms, sw.content_ms + GIVE_UP_EXTRA_MS)
        elif sw is not None and sw.learned and not sw.content_ms:
            # No sample changed after DOMContentLoaded (a server-rendered shape): what remains to
            # wait for is requests, timers and the load event, not a long quiet window.
            out["quietMs"] = min(self.cfg.settle_quiet_ms, STATIC_QUIET_MS)
        return out

    def record(self, url: str, report: dict[str, Any]) -> dict[str, Any] | None:
        """Learn from one page's wait; a ``shape_waits`` row to store when something changed."""
        shape = url_shape(url)
        sw = self.shapes.setdefault(shape, ShapeWait(shape))
        sw.pages += 1
        changed = False
        if not report.get("done"):
            sw.unfinished += 1
            changed = True
        if sw.learned:
            if report.get("by") == "learned":
                sw.hits += 1
            if report.get("missed"):
                sw.misses += 1
                changed = True
                if sw.misses >= 3 and sw.misses * 10 > sw.hits:  # the shape changed: learn it again
                    sw.learned, sw.selector, sw.samples = False, None, []
                    sw.hits = sw.misses = 0
        elif report.get("done"):
            sw.samples.append((float(report.get("content_ms") or 0.0), list(report.get("last") or [])))
            changed = True
            if len(sw.samples) >= self.cfg.settle_learn_pages:
                self._learn(sw)
        if changed or sw.pages % _SAVE_EVERY == 0:
            return sw.row()
        return None

    def _learn(self, sw: ShapeWait) -> None:
        """The slowest sample's time, and an element every sample added in its last burst."""
        sw.content_ms = max(ms for ms, _ in sw.samples)
        common = set(sw.samples[0][1])
        for _, last in sw.samples[1:]:
            common &= set(last)
        latest = max(sw.samples, key=lambda s: s[0])[1]
        # Shallowest first (a root of the burst, not a leaf an emptier page lacks: the last link
        # of a list with no links), then the latest in document order.
        ranked = sorted((s.count(" > "), n, s) for n, s in enumerate(latest) if s in common)
        sw.selector = every_root([s for _, _, s in ranked])
        sw.learned = True

    def rows(self) -> list[dict[str, Any]]:
        """Every shape's ``shape_waits`` row as it stands (written when the crawl ends)."""
        return [sw.row() for _, sw in sorted(self.shapes.items())]

    def summary(self) -> dict[str, str]:
        return {shape: sw.describe() for shape, sw in sorted(self.shapes.items())}


def every_root(selectors: list[str]) -> str | None:
    """One selector that matches once every root of the burst is there: the selectors no other one
    of the list leads to (``#c > ul`` covers ``#c > ul > li``), joined by ``:has()``.

    Waiting for one root alone is not enough: page chrome a script draws at DOMContentLoaded (a
    header's search box) lands in the same burst as the content whenever the content is quick, and
    is the shallowest element of it; a page whose content is late then ended on the chrome and was
    stored as its shell."""
    roots = [s for s in selectors if not any(s.startswith(o + " > ") for o in selectors)]
    if len(roots) <= 1:
        return roots[0] if roots else None
    return ":root" + "".join(f":has({s})" for s in roots)

