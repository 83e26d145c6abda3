"""Turns fetch results into rows and commits them in batches, one transaction per batch.

A batch holds, for each finished request: the page row, its links, the URLs it revealed, rows for
other tables (from hooks) and the frontier update. Because all of it commits together, a crash
loses at most the uncommitted batch, whose requests are still 'inflight' and so are fetched again
on resume: no page is lost and, with ``pages.url`` unique, none is stored twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from browsercrawl.engine.result import FetchResult
from browsercrawl.engine.router import url_shape
from browsercrawl.errors import UserError, error_line
from browsercrawl.frontier.base import Completion, Frontier, NewUrl
from browsercrawl.frontier.urls import host_key
from browsercrawl.storage.base import PageTx, Store, StoreFailed

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Outcome:
    """Everything one finished request writes."""

    completion: Completion
    page: dict[str, Any] | None = None
    links: list[tuple[str, str, int]] = field(default_factory=list)  # (url, text, in_scope)
    new_urls: list[NewUrl] = field(default_factory=list)
    extra_rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    requeued: bool = False  # built from JSON by a recipe found wrong meanwhile: queued again, not stored


def compress_html(raw: bytes) -> bytes:
    """zlib at level 3 with a window no larger than the page (and a hash table to match), read
    back by plain ``zlib.decompress``. Setting up zlib's default 32 KB window and 128 KB hash
    table costs ~60 us, five times the compression of a 2 KB page; for a page larger than the
    window it changes nothing."""
    wbits = min(15, max(9, (len(raw) - 1).bit_length()))
    packer = zlib.compressobj(3, zlib.DEFLATED, wbits, max(1, min(8, wbits - 6)))
    return packer.compress(raw) + packer.flush()


def page_row(
    result: FetchResult,
    canonical_final: str,
    depth: int,
    referrer: str | None,
    kind: str | None,
    store_html: bool,
) -> dict[str, Any]:
    html_blob = None
    html_bytes = 0
    if result.html is not None:
        raw = result.html.encode("utf-8", errors="replace")
        html_bytes = len(raw)
        if store_html:
            html_blob = compress_html(raw)
    return {
        "url": canonical_final,
        "requested_url": result.requested_url,
        "status": result.status,
        "content_type": result.content_type,
        "title": result.title,
        "text": result.text,
        "html": html_blob,
        "html_bytes": html_bytes,
        "fetched_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "depth": depth,
        "via": result.via,
        "fetch_ms": round(result.fetch_ms, 1),
        "render_ms": round(result.render_ms, 1),
        "links_count": len(result.links),
        "referrer": referrer,
        "kind": kind,
        "complete": int(result.complete),
    }


def built_pages(tx: PageTx, shapes: set[str]) -> list[NewUrl]:
    """The requests whose stored pages were built from JSON (``via = 'api'``) in these URL shapes."""
    if not shapes:
        return []
    rows = tx.execute("SELECT requested_url, depth, referrer, kind FROM pages WHERE via = 'api'").fetchall()
    return [NewUrl(url, host_key(url), depth or 0, float(depth or 0), referrer, kind)
            for url, depth, referrer, kind in rows if url_shape(url) in shapes]


def requeue_built(tx: PageTx, frontier: Frontier, shapes: set[str]) -> set[str] | None:
    """Queue again the pages built from JSON in shapes whose recipe a check found wrong: rendered,
    each replaces its stored page (:meth:`PageTx.replace_built_page`). Hosts that gained work, or
    None when the frontier queues them after the commit."""
    return frontier.requeue(tx, built_pages(tx, shapes))


async def requeue_built_now(db: Store, frontier: Frontier, shapes: set[str]) -> set[str]:
    """:func:`requeue_built` in a transaction of its own, then (Redis) in the shared frontier: what
    a resumed crawl does for shapes an earlier run sent back to the browser. Idempotent."""
    hosts = await db.write(lambda tx: requeue_built(tx, frontier, shapes))
    return hosts if hosts is not None else await frontier.settle([], [])


def commit_outcomes(
    tx: PageTx, outcomes: list[Outcome], frontier: Frontier, rerender: set[str] | None = None
) -> tuple[set[str] | None, int, int]:
    """Write a batch inside the store's transaction. Returns (hosts with new URLs or None when the
    frontier records after the commit, pages stored, duplicates).

    A page whose URL is stored already, from a request for the same URL, is a second delivery of
    that request (its claim's lease ran out while its worker was slow, or the worker died between
    the commit and the frontier's acknowledgement): nothing of it is written again. Unless the
    stored one was built from JSON and this one was not: the page of a URL shape whose recipe a
    check found wrong, queued again (``rerender``: those shapes' built pages are queued in this
    transaction) and rendered, replaces the built one, its links and its rows (upserted).
    """
    stored = dups = 0
    new_urls: list[NewUrl] = []
    # Pages go in in URL order, the same in every worker: two workers' batches that hold the same
    # pages (a claim delivered twice) then wait for each other instead of deadlocking.
    ordered = sorted(outcomes, key=_insert_order)
    ids = iter(tx.insert_pages([o.page for o in ordered if o.page is not None]))
    links: list[tuple[int, list[tuple[str, str, int]]]] = []
    extra: dict[str, list[dict[str, Any]]] = {}
    for o in ordered:
        replaced = False
        if o.page is not None:
            page_id = next(ids)
            if page_id is None and o.page.get("via") != "api":
                page_id = tx.replace_built_page(o.page)
                replaced = page_id is not None
            if page_id is not None:
                stored += not replaced
                if o.links:
                    links.append((page_id, o.links))
            else:
                dups += 1
                if tx.stored_from(o.page["url"]) == o.page["requested_url"]:
                    o.completion.error = "stored already by an earlier delivery of this request"
                    new_urls.extend(o.new_urls)
                    continue
                o.completion.error = f"same final URL as an earlier page: {o.page['url']}"
        for table, rows in o.extra_rows.items():
            if replaced:  # the built page's rows under the same keys give way
                rows = [{**r, "__upsert__": True} for r in rows]
            extra.setdefault(table, []).extend(rows)
        new_urls.extend(o.new_urls)
    tx.insert_links(links)
    for table, rows in extra.items():  # a table's rows of the whole batch at once, in page order
        tx.insert_rows(table, rows)
    hosts = frontier.record(tx, new_urls, [o.completion for o in outcomes])
    if rerender:
        again = requeue_built(tx, frontier, rerender)
        if hosts is not None and again is not None:
            hosts |= again
    return hosts, stored, dups


def _insert_order(o: Outcome) -> str:
    return o.page["url"] if o.page is not None else ""


def _requeue(o: Outcome) -> None:
    """A page built from JSON whose shape's recipe a check found wrong while it was on its way to
    the store: not stored; its request goes back to the queue (rendered next time).

    Its new URLs are still queued: building the outcome put them in the frontier's seen-set,
    which never forgets one, so the rendered page would find them seen and never queue them (the
    pages only they lead to would be lost). A link the wrong recipe wrote and the page lacks is
    fetched once, like any link in scope."""
    o.page, o.links, o.extra_rows, o.requeued = None, [], {}, True
    o.completion = Completion(o.completion.request, "retry", error="built from JSON by a recipe "
                              "found wrong: rendered again", not_before=0.0)


class ResultWriter:
    """Batches outcomes and commits them on the database thread."""

    def __init__(
        self,
        db: Store,
        frontier: Frontier,
        on_commit: Callable[[set[str], list[Outcome], int], None],
        on_store_error: Callable[[UserError], None],
        max_batch: int = 64,
        max_delay: float = 0.05,
        stale: Callable[[str], bool] | None = None,
        rerenders: Callable[[], set[str]] | None = None,
    ) -> None:
        self.db = db
        # Auto mode's API shortcut: is a page built from JSON of a shape now rendered (its recipe
        # found wrong)? And the shapes newly sent back to the browser, whose built pages go again.
        self._stale = stale
        self._rerenders = rerenders
        self.frontier = frontier
        self.store_seconds = 0.0  # time in the store's transactions (for the distributed figures)
        self.settle_seconds = 0.0  # time recording completions in a frontier outside the store
        self._on_commit = on_commit
        self._on_store_error = on_store_error
        self.store_error: UserError | None = None  # the store refused a write: nothing more is written
        self._pending: list[Outcome] = []
        self._max_batch = max_batch
        self._max_delay = max_delay
        self._have_work = asyncio.Event()
        self._hurry = asyncio.Event()  # commit now: workers are idle, waiting for the new URLs
        self._closing = False
        self.pages_stored = 0
        self.incomplete = 0  # stored pages whose wait ran out before they were done
        self.duplicates = 0
        self.committing = 0

    def pending(self) -> int:
        return len(self._pending) + self.committing

    def submit(self, outcome: Outcome) -> None:
        if self.store_error is not None:
            return  # its request stays 'inflight' in the store and is fetched again on resume
        self._pending.append(outcome)
        self._have_work.set()

    def hurry(self) -> None:
        """Commit what is pending without waiting for the batch to fill (workers are idle)."""
        if self._pending:
            self._hurry.set()

    async def run(self) -> None:
        while True:
            await self._have_work.wait()
            if not self._closing and len(self._pending) < self._max_batch and not self._hurry.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hurry.wait(), self._max_delay)
            self._hurry.clear()
            try:
                await self.flush()
            except Exception as exc:  # a commit hook's bug: one line and a stop, not a silent hang
                self._fail(exc, "storing pages failed")
            if self._closing and not self._pending:
                return

    async def flush(self) -> None:
        self._have_work.clear()
        batch, self._pending = self._pending, []
        if not batch:
            return
        self.committing = len(batch)
        if self._stale is not None:
            for o in batch:
                if o.page is not None and o.page.get("via") == "api" \
                        and self._stale(o.completion.request.url):
                    _requeue(o)
        rerender = self._rerenders() if self._rerenders is not None else set()
        try:
            t0 = time.perf_counter()
            try:
                hosts, stored, dups = await self.db.write(
                    lambda tx: commit_outcomes(tx, batch, self.frontier, rerender))
            except Exception as exc:  # disk full, damaged file, server gone: stop; what was committed stays
                self._fail(exc, f"{self.db.location}: cannot write a batch of {len(batch)} pages")
                return
            t1 = time.perf_counter()
            self.store_seconds += t1 - t0
            if hosts is None:
                # Only now that the pages are safe may the shared frontier forget the claims.
                try:
                    hosts = await self.frontier.settle([u for o in batch for u in o.new_urls],
                                                       [o.completion for o in batch])
                except Exception as exc:
                    # The pages are stored: their claims come back when the lease runs out, and
                    # a second delivery of them writes nothing.
                    self._fail(exc, f"cannot tell the shared frontier that a batch of {len(batch)} "
                                    "pages is stored")
                    return
                self.settle_seconds += time.perf_counter() - t1
        finally:
            self.committing = 0
        self.pages_stored += stored
        self.duplicates += dups
        # A duplicate's completion carries the reason it was not stored.
        self.incomplete += sum(1 for o in batch if o.page is not None and o.page.get("complete") == 0
                               and not o.completion.error)
        self._on_commit(hosts, batch, stored)

    def _fail(self, exc: Exception, what: str) -> None:
        """Stop writing and stop the crawl with one line, whatever the failure: a writer that died
        silently would leave the crawl waiting for its commits forever."""
        if not isinstance(exc, UserError):
            log.debug("%s", what, exc_info=exc)
            exc = StoreFailed(f"{what}: {error_line(exc)}; what was committed is kept: run the same "
                              "command again to resume")
        self.store_error = exc
        self._pending.clear()
        self._on_store_error(exc)

    async def close(self) -> None:
        self._closing = True
        self._have_work.set()
