"""The page hook that turns a crawl into a traversal of people.

On a person's page (recognised by ``social.person_url`` after redirects and ``<link
rel=canonical>``) it reads the person's fields, relation lists and items *before* the snapshot
(lists may need tab clicks and "more" buttons), and *after* it adds ``people``/``relations``/
``items``/``visits`` rows to the page's result and enqueues related people as frontier kind
``person``, within ``max_depth`` hops of the seeds and ``max_people`` people. Hyperlinks are not
followed unless ``follow_links`` says so: the graph of people is the crawl order.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from browsercrawl.config import JobConfig
from browsercrawl.config.social import SocialConfig
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.frontier.base import Request
from browsercrawl.social.clock import SiteClock
from browsercrawl.social.extract import PersonMatcher, PersonSnapshot, read_person
from browsercrawl.social.store import Edge, create_tables, edges_of, iso, item_rows, person_row
from browsercrawl.storage.base import Store

log = logging.getLogger(__name__)

PERSON_KIND = "person"
_LOGGED_OUT = re.compile(r"-> HTTP 401\b")


@dataclass
class _PageNote:
    """The person read from the live page before its snapshot, if it is a person's page."""

    snapshot: PersonSnapshot | None = None
    failed: str | None = None  # a list request that failed even after a fresh login


class SocialHook(PageHook):
    """Reads people on person pages; one instance per run, shared by all tabs."""

    def __init__(self, cfg: SocialConfig, job: JobConfig) -> None:
        self.cfg = cfg
        self.base_url = job.seeds[0]
        self.matcher = PersonMatcher(cfg)
        self.clock = SiteClock(cfg)
        self.wrapper = None
        if cfg.wrapper:
            from browsercrawl.wrappers import Wrapper

            self.wrapper = Wrapper.load(cfg.wrapper)
        self.first_seen: dict[str, float] = {}  # person id -> first visit (site time)
        self.visits: dict[str, int] = {}
        self.edge_first: dict[Edge, str] = {}
        self.known: set[str] = set()  # people visited or queued: the max_people budget
        # Set by a recrawl: snapshots (with wrapper fields and page text) are handed over here
        # instead of becoming crawl rows.
        self.collect: dict[str, tuple[PersonSnapshot, dict[str, Any], str]] | None = None
        self.lists_failed = 0  # person pages refused because a list request failed

    # -- set-up ---------------------------------------------------------------------------------
    def tables(self, db: Store) -> None:
        """Create the social tables and reload what an earlier (interrupted) run already knew."""
        create_tables(db)
        self.load_state(db)

    def load_state(self, db: Store) -> None:
        for pid, first, visits in db.read("SELECT id, first_seen_ts, visits FROM people"):
            self.first_seen[pid] = first
            self.visits[pid] = visits or 0
            self.known.add(pid)
        # The frontier is a table of the database unless the crawl's queue is shared (Redis).
        if db.has_table("frontier"):
            for url, in db.read("SELECT url FROM frontier WHERE kind=?", (PERSON_KIND,)):
                pid = self.matcher.id_of(url)
                if pid is not None:
                    self.known.add(pid)
        for kind, a, b, first in db.read("SELECT kind, from_id, to_id, first_seen FROM relations"):
            self.edge_first[(kind, a, b)] = first

    def link_priority(self, req: Request, url: str, text: str) -> float | None:
        """Engine link filter: by default hyperlinks are not followed, only relation lists are."""
        if self.cfg.follow_links == "all":
            return float(req.depth + 1)
        if self.cfg.follow_links == "people" and self.matcher.id_of(url) is not None:
            return float(req.depth + 1)
        return None

    # -- per page -------------------------------------------------------------------------------
    async def before_snapshot(self, ctx: PageContext) -> None:
        page = ctx.page
        if page is None:
            return
        snap = await read_person(page, self.cfg, self.matcher)
        if snap is None:
            return  # not a person's page
        # A list request refused (403, a login page instead of JSON) usually means the session
        # ended between the page and its lists: read them again under a fresh login. A list that
        # still fails fails the page (the engine retries it), never a person stored with no edges.
        while snap is not None and snap.failed_requests:
            if ctx.renew_session is None or not await ctx.renew_session(snap.failed_requests[0]):
                break
            snap = await read_person(page, self.cfg, self.matcher)
        if snap is None:
            return
        if snap.failed_requests:
            ctx.note(_PageNote).failed = snap.failed_requests[0]
            return
        if not self.clock.probed:
            await self.clock.probe(page.context, self.base_url)
        ctx.note(_PageNote).snapshot = snap

    async def after_snapshot(self, ctx: PageContext) -> None:
        note = ctx.note(_PageNote)
        snap = note.snapshot
        result = ctx.result
        if note.failed is not None and result is not None:
            result.store = False
            result.title = f"a list of the person failed ({note.failed})"
            result.extra_rows.clear()
            result.extra_urls.clear()
            self.lists_failed += 1
            return
        if snap is None or result is None or not result.store or not 200 <= result.status < 400:
            return
        if any(_LOGGED_OUT.search(e) for e in snap.errors):
            # The session ended while the lists were read (an endpoint answered 401): the
            # lists are cut short. Refuse the page; the engine fetches it again after a re-login.
            result.store = False
            result.title = "relation lists read while logged out"
            log.info("person %s: a list answered 401; page refused for a retry", snap.id)
            return
        self.clock.see(snap.newest_item_time())
        extra = self.wrapper.apply(result.html) if (self.wrapper and result.html) else {}
        if self.collect is not None:
            self.collect[ctx.request.url] = (snap, extra, result.text or "")
            return
        now = self.clock.now()
        self._rows(ctx, snap, extra, now)
        self._enqueue(ctx, snap)

    def _rows(self, ctx: PageContext, snap: PersonSnapshot, extra: dict[str, Any], now: float) -> None:
        assert ctx.result is not None
        first = self.first_seen.setdefault(snap.id, now)
        self.visits[snap.id] = self.visits.get(snap.id, 0) + 1
        self.known.add(snap.id)
        times = [i["time"] for i in snap.items.values() if i["time"] is not None]
        row = person_row(snap, self.cfg, now=now, depth=ctx.request.depth, first_seen=first,
                         visits=self.visits[snap.id], item_times=times, extra_fields=extra)
        at = iso(now)
        edges = sorted(set().union(*edges_of(snap).values()))
        rows = ctx.result.extra_rows
        rows.setdefault("people", []).append({**row, "__upsert__": True})
        rows.setdefault("items", []).extend(item_rows(snap, now))
        rows.setdefault("relations", []).extend(
            {"kind": k, "from_id": a, "to_id": b, "first_seen": self.edge_first.setdefault((k, a, b), at),
             "last_seen": at, "removed_at": None, "__upsert__": True}
            for k, a, b in edges
        )
        rows.setdefault("person_texts", []).append(
            {"person_id": snap.id, "url": snap.url, "text": ctx.result.text or "", "at": at,
             "__upsert__": True})
        rows.setdefault("visits", []).append(
            {"person_id": snap.id, "at": at, "at_ts": now, "strategy": "crawl", "p_change": None,
             "new_items": len(snap.items), "new_edges": len(edges), "removed_edges": 0, "changed": 1}
        )

    def _enqueue(self, ctx: PageContext, snap: PersonSnapshot) -> None:
        """Relation targets become frontier URLs of kind ``person`` while within the limits."""
        assert ctx.result is not None
        if self.cfg.max_depth is not None and ctx.request.depth + 1 > self.cfg.max_depth:
            return
        for rel in snap.relations.values():
            for pid, url in rel.targets.items():
                if pid in self.known:
                    continue
                if self.cfg.max_people is not None and len(self.known) >= self.cfg.max_people:
                    return
                self.known.add(pid)
                ctx.result.extra_urls.append((url, PERSON_KIND))
            for url in rel.unknown_urls:  # a person URL form whose id only a visit tells
                if self.cfg.max_people is None or len(self.known) < self.cfg.max_people:
                    ctx.result.extra_urls.append((url, PERSON_KIND))
