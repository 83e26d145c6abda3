"""The focus part: ``[focus]`` switches it on (see docs/focus.md).

How it joins the crawl:

* its **link priority** keeps every in-scope link out of the frontier and hands it to the
  :class:`~browsercrawl.focus.core.FocusCore`, where it waits (a link found again on another page
  adds its anchor words; the page most like a target becomes its parent);
* its **hook** scores each fetched page (in a worker thread), labels it target or other (the
  page row's ``kind``, which the engine takes from the request) and adds the ``focus_pages``
  row to the page's transaction, with the rows of pages a bootstrapping round just made
  examples (upserts);
* **when the crawl runs dry** it releases the example pages first, then, each time, the best
  ``batch_per_site`` waiting links of every site, re-scored with what was learned since they
  were found. So the crawl order is best-first on R(l), and a link under the threshold is taken
  only when its site has nothing better left.

A crawl that stops (Ctrl-C, kill -9) resumes: ``create_tables`` replays the stored pages through
the core, in their order, and offers their stored links again, so the waiting links and what
was learned come back.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Sequence
from typing import Any

from browsercrawl.config import JobConfig
from browsercrawl.config.focus import FocusConfig
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import CrawlHandle, FollowUp, Part, PartSpec, StandaloneHandle
from browsercrawl.errors import UserError
from browsercrawl.focus.core import FocusCore, FocusSettings, LinkWeights, Verdict
from browsercrawl.focus.stats import focus_stats
from browsercrawl.focus.target import TargetSettings
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.urls import canonical_url
from browsercrawl.storage.base import Store

FOCUS_KIND = "focus"  # the frontier kind of the URLs this part releases
TABLE = "focus_pages"
STATE = "focus_state"  # settings the crawl fixed once (the threshold), kept for a resumed run
COLUMNS = {"url": str, "host": str, "kind": str, "score": float, "round": int, "example_round": int,
           "seq": int, "depth": int, "path": str}


def settings_of(cfg: FocusConfig) -> FocusSettings:
    """The core's settings from the job section."""
    return FocusSettings(
        target=TargetSettings(weights=dict(cfg.weights), threshold_share=cfg.threshold_share,
                              default_threshold=cfg.default_threshold, drift_share=cfg.drift_share,
                              admit_per_round=cfg.admit_per_round, max_rounds=cfg.max_rounds,
                              max_examples=cfg.max_examples),
        links=LinkWeights(cfg.anchor_weight, cfg.page_weight, cfg.predicted_weight),
        link_threshold=cfg.link_threshold, round_every=cfg.round_every, path_weight=cfg.path_weight,
        keywords=tuple(cfg.keywords))


def row_of(v: Verdict, upsert: bool = False) -> dict[str, Any]:
    row: dict[str, Any] = {"url": v.url, "host": v.host, "kind": v.kind, "score": v.score,
                           "round": v.round, "example_round": v.example_round, "seq": v.seq,
                           "depth": v.depth, "path": v.path}
    if upsert:
        row["__upsert__"] = True
    return row


class FocusHook(PageHook):
    """Scores each fetched page and stores its verdict with it."""

    def __init__(self, core: FocusCore) -> None:
        self.core = core

    async def after_snapshot(self, ctx: PageContext) -> None:
        result = ctx.result
        if result is None or not result.store:  # e.g. a login page served instead: fetched again later
            return
        url = ctx.request.url
        if result.status >= 400 or "html" not in (result.content_type or "html"):
            if url in self.core.examples_pending:
                self.core.example_failed(url)
            return
        had_threshold = self.core.model.threshold is not None
        verdict, admitted = await asyncio.to_thread(
            self.core.observe, url, result.title, result.text, result.html, ctx.request.depth)
        if result.store and ctx.request.kind in (None, FOCUS_KIND):
            ctx.request.kind = verdict.kind  # the page row takes its request's kind: pages.kind
        rows = [row_of(verdict)] + [row_of(v, upsert=True) for v in admitted if v.url != url]
        result.extra_rows.setdefault(TABLE, []).extend(rows)
        if not had_threshold and self.core.model.threshold is not None:
            result.extra_rows.setdefault(STATE, []).append(
                {"key": "threshold", "value": self.core.model.threshold, "__upsert__": True})


class FocusPart(Part):
    """The hook, the waiting links and the release of the best of them (see module docstring)."""

    name = "focus"

    def __init__(self, cfg: FocusConfig, job: JobConfig) -> None:
        self.cfg = cfg
        examples = []
        for u in cfg.examples:
            try:
                examples.append(canonical_url(u))
            except ValueError:
                raise UserError(f"{job.source_path}: focus.examples: {u!r} is not a valid URL") from None
        self.core = FocusCore(settings_of(cfg), examples)
        self.hook = FocusHook(self.core)
        self.handle: CrawlHandle = StandaloneHandle()
        self.released = 0

    def hooks(self) -> Sequence[PageHook]:
        return (self.hook,)

    def link_priority(self, req: Request, url: str, anchor: str) -> float | None:
        """Every link waits in the core; :meth:`when_idle` releases the best ones."""
        self.core.offer(req.url, url, anchor)
        return None

    def create_tables(self, db: Store) -> None:
        db.ensure_table(TABLE, COLUMNS, pk="url", indexes=[("host", "seq")])
        db.ensure_table(STATE, {"key": str, "value": float}, pk="key")
        self._resume(db)

    def _resume(self, db: Store) -> None:
        """Replay what an interrupted run stored: its pages through the core, then their links."""
        rows = db.read(
            f"SELECT f.url, f.depth, p.title, p.text, p.html, p.id FROM {TABLE} f "
            "JOIN pages p ON p.requested_url = f.url ORDER BY p.id")
        if not rows:
            return
        ids = []
        for url, depth, title, text, html, page_id in rows:
            html_text = zlib.decompress(html).decode("utf-8", "replace") if html else None
            self.core.observe(url, title, text, html_text, depth or 0)
            ids.append((page_id, url))
        self.core.examples_asked = not self.core.examples_pending  # else ask again (deduplicated)
        for (value,) in db.read(f"SELECT value FROM {STATE} WHERE key = 'threshold'"):
            self.core.model.threshold = value  # what labelled the stored pages labels the rest
        queued = {r[0] for r in db.read("SELECT url FROM frontier")} if db.has_table("frontier") else set()
        for page_id, url in ids:
            for link, text in db.read("SELECT url, text FROM links WHERE page_id = ? AND in_scope = 1",
                                      (page_id,)):
                if link not in queued:
                    self.core.offer(url, link, text or "")

    def bind(self, crawl: CrawlHandle) -> None:
        self.handle = crawl

    async def when_idle(self) -> Sequence[FollowUp]:
        if self.cfg.budget is not None and sum(self.core.seq.values()) >= self.cfg.budget:
            return ()
        nodes = await asyncio.to_thread(self.core.take, self.cfg.batch_per_site)
        if not self.core.model.examples and self.core.examples_asked and not self.core.examples_pending:
            self.handle.fail(UserError("focus.examples: none of the example pages could be fetched "
                                       "(are they on the seed sites, inside the scope?)"))
            return ()
        self.released += len(nodes)
        return [FollowUp(n.url, kind=FOCUS_KIND, depth=n.depth, parent=n.parent) for n in nodes]

    def summary(self) -> dict[str, Any]:
        core = self.core
        pages = sum(core.seq.values())
        targets = sum(1 for v in core.verdicts.values() if v.kind == "target")
        return {"pages": pages, "targets": targets,
                "harvest_rate": round(targets / pages, 3) if pages else 0.0,
                "examples": len(core.model.examples), "rounds": core.model.round,
                "threshold": round(core.model.threshold, 4) if core.model.threshold else None,
                "waiting_links": core.waiting_count()}


def build(cfg: FocusConfig, job: JobConfig, options: CrawlOptions) -> FocusPart | None:
    if not cfg.enabled:
        return None
    if job.distributed is not None:
        # The waiting links and what was learned live in this process; workers on other machines
        # would each hold a part of them and learn from a part of the pages.
        raise UserError(f"{job.source_path}: focus: a focused crawl runs in one process; "
                        "remove [distributed] (or [focus])")
    return FocusPart(cfg, job)


PART = PartSpec(name="focus", config=FocusConfig, build=build, stats=focus_stats)
