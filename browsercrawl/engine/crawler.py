"""The crawl loop: job config -> session -> fetch/render -> parse -> hooks -> store.

Workers take requests from the per-host :class:`Scheduler`, fetch them through the
:class:`Dispatcher` (browser, HTTP, or auto), turn results into rows in a worker thread
(canonicalising and scoping links is CPU work) and hand them to the :class:`ResultWriter`, which
commits them with the frontier update. The crawler knows the optional parts only as
:class:`~browsercrawl.engine.parts.Part` objects: their hooks, tables, link priority, context
factory and summary; it is their :class:`~browsercrawl.engine.parts.CrawlHandle`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browsercrawl.config import JobConfig
from browsercrawl.engine.api_shortcut import TABLE as API_SHORTCUTS
from browsercrawl.engine.api_shortcut import ApiShortcut
from browsercrawl.engine.browser import job_launch_options, job_user_agent
from browsercrawl.engine.browser_fetcher import BrowserFetcher
from browsercrawl.engine.dispatch import Dispatcher
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.http_fetcher import HttpClient, HttpFetcher
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.outcome import OutcomeBuilder, default_priority
from browsercrawl.engine.parts import Part
from browsercrawl.engine.progress import CrawlCounters, ProgressReporter
from browsercrawl.engine.result import FetchError, FetchResult, LeftScope
from browsercrawl.engine.router import AdaptiveRouter
from browsercrawl.engine.runtime import BrowserRuntime, scope_check
from browsercrawl.engine.settle import SHAPE_WAITS
from browsercrawl.engine.summary import CrawlSummary
from browsercrawl.engine.writer import Outcome, ResultWriter, requeue_built_now
from browsercrawl.errors import UserError
from browsercrawl.frontier.base import Completion, Frontier, NewUrl, Request
from browsercrawl.frontier.cluster import Cluster
from browsercrawl.frontier.pacing import current_pacer
from browsercrawl.frontier.robots import RobotsCache
from browsercrawl.frontier.scheduler import Scheduler
from browsercrawl.frontier.scope import Scope
from browsercrawl.frontier.stores import lost_server, open_frontier
from browsercrawl.frontier.traps import TrapGuard
from browsercrawl.frontier.urls import canonical_url, host_key
from browsercrawl.storage.base import Store
from browsercrawl.storage.db import check_ours
from browsercrawl.storage.lock import DatabaseLock
from browsercrawl.storage.stores import store_for

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext

log = logging.getLogger(__name__)


def remove_database(path: Path) -> None:
    """Delete a crawl database and its WAL files (``--fresh``)."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


class Crawler:
    """Runs one job to completion (or until stopped), resumably."""

    def __init__(
        self, job: JobConfig, options: CrawlOptions | None = None, parts: Sequence[Part] = ()
    ) -> None:
        self.job = job
        self.opts = options or CrawlOptions()
        self.parts = list(parts)
        self.hooks: list[PageHook] = [h for p in self.parts for h in p.hooks()]
        priority = next((p.link_priority for p in self.parts if p.link_priority is not None), None)
        self.traps = TrapGuard(job.traps)
        self.outcomes = OutcomeBuilder(Scope(job.scope, job.seeds), priority or default_priority,
                                       job.output.store_html, self.traps)
        self.context_factory = next((p.context_factory for p in self.parts if p.context_factory), None)
        self.counters = CrawlCounters()
        self.scheduler: Scheduler | None = None
        self.runtime: BrowserRuntime | None = None
        self.router = (
            AdaptiveRouter(job.rendering.auto_sample_pages, job.rendering.auto_recheck_every)
            if job.rendering.mode == "auto"
            else None
        )
        # Auto mode: rendered URL shapes whose pages follow from JSON are built from it over HTTP.
        self.shortcut = ApiShortcut(job.rendering) if self.router is not None and job.rendering.api_shortcut \
            else None
        if self.shortcut is not None:
            self.hooks.append(self.shortcut.hook)
        self.fatal: UserError | None = None
        self.cluster: Cluster | None = None  # set when workers on several machines share the crawl
        self._releases: set[asyncio.Task[None]] = set()  # shared host slots being given back
        self._holds: dict[str, int] = {}
        self._interrupted = False
        self._dry = False  # the parts had nothing more when the crawl last ran dry
        self.blocked_seeds: dict[str, str] = {}  # seed -> why it was skipped (robots.txt rule, scope)
        self.search_built: dict[str, float] = {}  # seconds spent building each new search index
        self._cookie_resyncs: list[Callable[[], None]] = []  # what copies the browser's cookies

    # -- the handle the parts get (CrawlHandle) ---------------------------------------------------
    def hold_host(self, host: str) -> None:
        self._holds[host] = self._holds.get(host, 0) + 1
        if self.scheduler is not None and host in self.scheduler.slots:
            self.scheduler.hold(host)
        if self.cluster is not None and self._holds[host] == 1:
            self.cluster.hold(host)  # every worker waits until this one has logged in again

    def release_host(self, host: str) -> None:
        left = self._holds.get(host, 0) - 1
        if left > 0:
            self._holds[host] = left
            return
        self._holds.pop(host, None)
        if self.scheduler is not None and host in self.scheduler.slots:
            self.scheduler.release(host)
        if self.cluster is not None:
            self.cluster.unhold(host)

    def fail(self, error: UserError) -> None:
        if self.fatal is None:
            self.fatal = error
            log.error("%s", error)
        self.stop()

    def _on_store_error(self, error: UserError) -> None:
        """The store refused a batch (disk full, damaged file): stop now, keep what was committed."""
        if self.fatal is None:
            self.fatal = error  # the CLI prints it: one line, no log line beside it
        self.stop()

    def render_shape(self, url: str) -> bool:
        if self.router is None:
            return False
        self.router.demote(url)
        if self.shortcut is not None:  # a part saw the page needs the browser: not from JSON either
            self.shortcut.demote(url, "a part asked for this shape to be rendered (e.g. a load-more control)")
        return True

    async def pool_share(self, size: int) -> list[int]:
        if self.cluster is None:
            return list(range(size))
        return await self.cluster.share(size)

    @contextlib.asynccontextmanager
    async def http_context(self) -> AsyncIterator[BrowserContext | None]:
        runtime = self.runtime
        if runtime is None:
            yield None
            return
        try:
            async with runtime.in_use():
                yield await runtime.pool.cookie_context()
        finally:
            for resync in self._cookie_resyncs:
                resync()
            await runtime.close_if_unwanted()

    # -- set-up ----------------------------------------------------------------------------------
    def _max_pages(self) -> int | None:
        caps = [c for c in (self.opts.max_pages, self.job.scope.max_pages) if c is not None]
        return min(caps) if caps else None

    async def run(self) -> CrawlSummary:
        store = store_for(self.job.output.database, self.job.base_dir)
        lock = None
        if store.kind == "sqlite":
            folder = self.job.database_path.parent
            if not folder.is_dir():
                raise UserError(f"{self.job.database_path}: folder {folder} does not exist")
            check_ours(self.job.database_path)  # a damaged or foreign file: refused, no lock file beside
            lock = DatabaseLock(self.job.database_path).acquire()  # a second crawl refuses here
        try:
            return await self._open_and_run(store)
        except Exception as exc:
            if (lost := lost_server(exc, self.job, store)) is None:
                raise
            raise lost from None
        finally:
            if lock is not None:
                lock.release()

    async def _open_and_run(self, store: Store) -> CrawlSummary:
        if self.opts.fresh:
            if store.kind != "sqlite":
                raise UserError(f"--fresh deletes a SQLite file; {store.location} is a server: "
                                "drop its tables (or use a new database) instead")
            # ``run`` checked the file is ours (never delete another program's) before the lock.
            remove_database(self.job.database_path)
        started = time.monotonic()
        db = await store.open()
        try:
            if self.job.distributed is None and not await db.claim_single_writer():
                raise UserError(f"{db.location}: another crawl is writing to this database; wait for it "
                                "to end or stop it first (workers of one crawl share it with [distributed])")
            for part in self.parts:
                part.create_tables(db)
            self.traps.create_tables(db)
            if self.shortcut is not None:
                self.shortcut.create_table(db)
                self.shortcut.load(db)  # what an earlier run of this crawl learned
            self.traps.load(db)
            # After the parts' tables: the index covers the records, people and items they declare.
            self.search_built = db.ensure_search_index(self.job.output.search_index)
            frontier = await open_frontier(self.job, db)
        except BaseException:
            await db.close()
            raise
        self.cluster = getattr(frontier, "cluster", None)
        try:
            return await self._run(db, frontier, started)
        finally:
            if self.cluster is not None:
                state = "failed" if self.fatal else ("stopped" if self._interrupted else "finished")
                await self.cluster.leave(state)
                with contextlib.suppress(Exception):  # a server already gone has nothing to close
                    await self.cluster.r.aclose()

    async def _run(self, db: Store, frontier: Frontier, started: float) -> CrawlSummary:
        seeds = []
        for s in self.job.seeds:
            url = canonical_url(s)
            seeds.append(NewUrl(url=url, host=host_key(url), depth=0, priority=0.0, parent=None))
        await frontier.prepare(seeds)
        stored_before = await db.count_pages()
        cap = self._max_pages()
        budget = None if cap is None else max(0, cap - stored_before)

        pol = self.job.politeness
        # the HTTP path sends the browser's user agent: the cookies it shares were given to that one
        http_session = HttpClient.new_session(await job_user_agent(self.job), pol.concurrency)
        robots = RobotsCache(http_session, pol.robots_user_agent, pol.obey_robots)

        def _origin_delay(host: str):
            scheme = "https" if any(s.startswith(f"https://{host}") for s in self.job.seeds) else "http"
            return robots.crawl_delay(f"{scheme}://{host}/")

        shortcut = self.shortcut
        redo = shortcut.rendering_shapes() if shortcut is not None else set()
        # Shapes an earlier run sent back to the browser: their pages built from JSON are queued
        # again if that run ended before it did (Redis frontier) or before they were rendered.
        if redo:
            await requeue_built_now(db, frontier, redo)
        writer = ResultWriter(db, frontier, self._on_commit, self._on_store_error,
                              stale=shortcut.stale if shortcut is not None else None,
                              rerenders=shortcut.take_rerenders if shortcut is not None else None)
        self.scheduler = Scheduler(frontier, pol, budget, _origin_delay, writer.pending, self._when_idle,
                                   hurry_writes=writer.hurry, shared=self.cluster is not None)
        if self.cluster is not None:
            sched = self.scheduler
            # URLs other workers queued: every slot looks again after each heartbeat.
            self.cluster.on_beat.append(lambda: sched.notify(set(sched.slots)))
            self.cluster.unsettled = writer.pending
        self.counters.queued = (await frontier.counts()).get("queued", 0)
        progress = ProgressReporter(self.counters, self.opts.quiet)
        for part in self.parts:
            part.bind(self)

        client = HttpClient(http_session, self.job.rendering.timeout_seconds, scope_check(self.job),
                            judge_scripts=self.job.rendering.mode == "auto")
        http = HttpFetcher(client, self.hooks)
        renderer = None
        warm_task = None
        try:
            async with contextlib.AsyncExitStack() as stack:
                browser: BrowserRuntime | BrowserFetcher | None = None
                if self.job.rendering.mode != "http":
                    # In auto mode Chromium runs only while some URL shape needs it (runtime.py).
                    self.runtime = await stack.enter_async_context(BrowserRuntime(
                        self.job, job_launch_options(self.job, headed=self.opts.headed,
                                                     slow_mo_ms=self.opts.slow_mo_ms),
                        hooks=self.hooks, context_factory=self.context_factory,
                        on_demand=self.router is not None))
                    http = HttpFetcher(http.client, self.hooks, self.runtime.cookies)
                    self._cookie_resyncs.append(http.resync_cookies)
                    renderer = browser = self.runtime.fetcher
                    # What an earlier run of this crawl learned about its URL shapes' waits.
                    renderer.waits.load(await asyncio.to_thread(
                        db.read, "SELECT shape, selector, content_ms, learned FROM shape_waits"))
                    if self.router is not None:
                        self.runtime.wanted = self.router.browser_needed
                        self.runtime.on_close.append(http.resync_cookies)
                        browser = self.runtime
                    elif self.runtime.plain_contexts:
                        warm_task = self.runtime.pool.start_warming()
                if self.shortcut is not None and browser is not None and self.runtime is not None:
                    self.shortcut.bind(http, browser, self.runtime.cookies)
                    self._cookie_resyncs.append(self.shortcut.resync_cookies)
                dispatcher = Dispatcher(http, browser, self.router, self.runtime.close_if_unwanted
                                        if self.runtime is not None and self.router is not None else None,
                                        self.shortcut)
                self._install_signals()
                progress.start()
                writer_task = asyncio.create_task(writer.run())
                workers = [
                    asyncio.create_task(self._worker(dispatcher, robots, writer, progress))
                    for _ in range(pol.concurrency)
                ]
                try:
                    await asyncio.gather(*workers)
                finally:
                    for w in workers:
                        w.cancel()
                    await asyncio.gather(*workers, return_exceptions=True)
                    await asyncio.gather(*self._releases, return_exceptions=True)
                    await self.scheduler.settle_claims()  # its claims are in the buffer, or failed
                    if writer.store_error is None:
                        try:
                            await frontier.unclaim(self.scheduler.buffered())
                        except Exception as exc:  # the server is gone (the error that ends the crawl says so)
                            log.info("the claimed URLs not fetched stay claimed (%s): the lease (Redis) "
                                     "or the next run gives them back", exc)
                    await writer.close()
                    await writer_task
                    progress.stop()
                    if warm_task is not None:
                        await asyncio.gather(warm_task, return_exceptions=True)
        finally:
            self._remove_signals()
            await http_session.close()

        if writer.store_error is not None:
            with contextlib.suppress(Exception):  # the file is full or damaged; closing may fail too
                await db.close()
            raise writer.store_error
        if renderer is not None and renderer.waits.shapes:
            # The learned waits' final counts (pages, hits, misses), for `stats`.
            rows = renderer.waits.rows()
            await db.write(lambda tx: tx.insert_rows(SHAPE_WAITS, rows))
        if self.shortcut is not None and (shortcut_rows := self.shortcut.rows()):
            await db.write(lambda tx: tx.insert_rows(API_SHORTCUTS, shortcut_rows))
        counts = await frontier.counts()
        total = await db.count_pages()
        search = await asyncio.to_thread(self._search_figures, db)
        await db.close()
        seconds = time.monotonic() - started
        pool = renderer.pool if renderer is not None else None
        launches = self.runtime.launches if self.runtime is not None else 0
        summary = CrawlSummary(
            database=db.location,
            pages_stored=writer.pages_stored,
            incomplete=writer.incomplete,
            pages_total=total,
            failed=counts.get("failed", 0),
            retried=self.counters.retried,
            skipped_robots=counts.get("skipped", 0),
            duplicates=writer.duplicates,
            queued_left=counts.get("queued", 0) + counts.get("inflight", 0),
            seconds=round(seconds, 2),
            pages_per_second=round(writer.pages_stored / seconds, 2) if seconds else 0.0,
            via_browser=renderer.rendered if renderer else 0,
            via_http=http.fetched,
            contexts_opened=pool.contexts_opened if pool else 0,
            tabs_opened=pool.tabs_opened if pool else 0,
            browser_launches=launches,
            interrupted=self._interrupted and self.fatal is None,
            adaptive=self.router.summary() if self.router else {},
            waits=renderer.waits.summary() if renderer else {},
            api_shortcut=self.shortcut.summary() if self.shortcut is not None else {},
            parts={p.name: p.summary() for p in self.parts if p.summary()},
            traps=self.traps.summary(),
            backends=self._backends(db, writer),
            blocked_seeds=self.blocked_seeds,
            search=search,
        )
        self.runtime = None
        if self.fatal is not None:
            raise self.fatal  # e.g. every account locked: exit 3 with the reason
        return summary

    def _search_figures(self, db: Store) -> dict[str, Any]:
        """The full-text index's size per table and what building it took in this run."""
        if not self.job.output.search_index:
            return {"indexed": False}
        sizes = db.search_index_sizes()
        return {"indexed": True, "index_bytes": sum(sizes.values()), "index_bytes_by_table": sizes,
                "built_seconds": self.search_built}

    def _backends(self, db: Store, writer: ResultWriter) -> dict[str, Any]:
        """Where the crawl's state lives and what it cost per page (the distributed benchmark's figures)."""
        pages = max(1, writer.pages_stored + writer.duplicates)
        out: dict[str, Any] = {"store": db.kind,
                               "store_ms_per_page": round(writer.store_seconds * 1000 / pages, 3)}
        if self.cluster is not None:
            redis_s = self.cluster.redis_seconds + writer.settle_seconds
            out.update(frontier="redis", worker=self.cluster.id,
                       redis_ms_per_page=round(redis_s * 1000 / pages, 3),
                       redis_calls_per_page=round(self.cluster.redis_calls / pages, 2),
                       hosts_held_for_all=self.cluster.holds)
        return out

    def _install_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.stop)

    def _remove_signals(self) -> None:
        with contextlib.suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(sig)

    def stop(self) -> None:
        """Finish the pages in flight, store them, and stop; the next run resumes."""
        self._interrupted = True
        if self.scheduler is not None:
            self.scheduler.stop()

    async def _when_idle(self) -> bool:
        """Nothing left to fetch: the parts may queue more (the crawl ends when none does)."""
        assert self.scheduler is not None
        if self._dry:  # every worker reaches this point at the end; ask the parts once
            return False
        frontier = self.scheduler.frontier
        new: list[NewUrl] = []
        for part in self.parts:
            for f in await part.when_idle():
                try:
                    url = self.traps.clean(canonical_url(f.url))
                except ValueError:
                    continue
                if url in frontier.seen or not self.outcomes.scope.allows(url, f.depth):
                    continue
                frontier.seen.add(url)
                new.append(NewUrl(url, host_key(url), f.depth, float(f.depth), f.parent, f.kind))
        if not new:
            self._dry = True
            return False
        hosts = await frontier.add(new)
        self.counters.queued += len(new)
        self.scheduler.notify(hosts)
        return bool(hosts)

    def _on_commit(self, hosts: set[str], batch: list[Outcome], stored: int) -> None:
        assert self.scheduler is not None
        # Retries gave their place back when they were re-queued; every other request that stored
        # nothing gives it back now.
        # (A page built from JSON whose recipe was found wrong meanwhile went back to the queue.)
        self.scheduler.refund(sum(o.completion.state != "retry" or o.requeued for o in batch) - stored)
        self.counters.queued += sum(len(o.new_urls) + o.requeued for o in batch)
        hosts = hosts | {o.completion.request.host for o in batch if o.requeued}
        if self.cluster is not None:
            # Acknowledged claims leave room under this worker's cap: its hosts may claim again.
            hosts = hosts | {o.completion.request.host for o in batch}
        self.scheduler.notify(hosts)

    # -- the worker loop ---------------------------------------------------------------------
    async def _worker(
        self, fetcher: Dispatcher, robots: RobotsCache, writer: ResultWriter, progress: ProgressReporter
    ) -> None:
        assert self.scheduler is not None
        sched = self.scheduler
        cluster = self.cluster
        while True:
            req = await sched.next()
            if req is None:
                return
            token = ""
            if cluster is not None:
                try:
                    wait, token = await cluster.acquire(req.host, sched.slots[req.host].delay)
                except Exception as exc:  # Redis away for a moment: wait, the lease covers it
                    log.warning("Redis: cannot ask for %s (%s); waiting", req.host, exc)
                    wait = 1.0
                if wait > 0:
                    sched.defer(req, wait)
                    continue
            self.counters.queued = max(0, self.counters.queued - 1)
            current_pacer.set(sched.slots[req.host].pacer)  # the fetchers send at the host's pace
            retry = False
            pause = None
            try:
                if (why := await self.outcomes.scope.address_refusal(req.url)) is not None:
                    outcome = Outcome(Completion(req, "skipped", error=why[:500]))
                elif not await robots.allowed(req.url):
                    rule = robots.blocking_rule(req.url)
                    outcome = Outcome(Completion(req, "skipped", error=f"disallowed by {rule}"[:500]))
                else:
                    outcome, retry, pause = await self._handle(fetcher, req)
                if outcome.completion.state == "skipped":
                    self.counters.skipped += 1
                    if req.depth == 0:  # a seed: said in the summary, and in one line if all are
                        self.blocked_seeds[req.url] = outcome.completion.error or "skipped"
                writer.submit(outcome)
            except Exception as exc:  # a bug in a hook must not kill the crawl silently
                log.exception("unexpected error on %s", req.url)
                writer.submit(Outcome(Completion(req, "failed", error=f"internal error: {exc!r}"[:500])))
                self.counters.failed += 1
            finally:
                if cluster is not None:
                    # Off this task's path: the next request need not wait for Redis's answer.
                    task = asyncio.create_task(self._release_shared(cluster, req.host, token, pause))
                    self._releases.add(task)
                    task.add_done_callback(self._releases.discard)
                sched.finished(req, retry=retry, host_pause=pause)
                progress.update()

    async def _release_shared(self, cluster: Cluster, host: str, token: str, pause: float | None) -> None:
        """Give back the host's shared concurrency slot (and pass a Retry-After pause to all)."""
        try:
            if pause:
                await cluster.pause(host, pause)
            await cluster.release(host, token)
        except Exception as exc:  # the token expires by itself; the page is not lost
            log.warning("Redis: could not release %s: %s", host, exc)

    async def _handle(self, fetcher: Dispatcher, req: Request) -> tuple[Outcome, bool, float | None]:
        last_attempt = req.attempts >= self.job.politeness.max_retries
        trace_dir = self.opts.trace_dir
        trace = trace_dir if (trace_dir and last_attempt) else None
        try:
            result = await fetcher.fetch(req, trace_dir=trace)
        except LeftScope as exc:  # stopped before the other site loaded; the row says where it went
            return Outcome(Completion(req, "skipped", error=str(exc)[:500])), False, None
        except FetchError as exc:
            if exc.retryable and not last_attempt:
                return self._retry(req, str(exc), exc.retry_after, pause_host=exc.status == 429)
            if trace_dir and trace is None and self.runtime is not None:
                # Non-retryable failure: reproduce it once in a traced context for the user.
                with contextlib.suppress(FetchError):
                    result = await self.runtime.fetch(req, trace_dir=trace_dir)
                    return await self._outcome(req, result), False, None
            self.counters.failed += 1
            return Outcome(Completion(req, "failed", error=str(exc)[:500])), False, None
        if not result.store:
            # A hook refused the page (e.g. a login page after the session was lost). It counts as
            # an attempt like any failure, so a page that is always refused cannot loop forever.
            error = "page refused by a hook: " + (result.title or result.final_url)
            if last_attempt:
                self.counters.failed += 1
                return Outcome(Completion(req, "failed", error=error[:500])), False, None
            return self._retry(req, error, None, pause_host=False)
        return await self._outcome(req, result), False, None

    def _retry(
        self, req: Request, error: str, retry_after: float | None, pause_host: bool
    ) -> tuple[Outcome, bool, float | None]:
        """Queue the request again after Retry-After or an exponential backoff."""
        pol = self.job.politeness
        delay = retry_after if retry_after is not None else pol.retry_backoff_seconds * (2**req.attempts)
        delay = min(delay, pol.max_retry_after_seconds)
        self.counters.retried += 1
        completion = Completion(req, "retry", error=error[:500], not_before=time.time() + delay)
        return Outcome(completion), True, (delay if pause_host else None)

    async def _outcome(self, req: Request, result: FetchResult) -> Outcome:
        assert self.scheduler is not None
        seen = self.scheduler.frontier.seen
        if self.outcomes.inline(result):
            outcome = self.outcomes.build(req, result, seen)
        else:
            outcome = await asyncio.to_thread(self.outcomes.build, req, result, seen)
        self.counters.pages += 1
        return outcome
