"""The crawl loop: job config -> session -> fetch/render -> parse -> hooks -> store.

Workers take requests from the per-host :class:`Scheduler`, fetch them in the browser or over
HTTP, turn results into rows in a worker thread (canonicalising and scoping links is CPU work) and
hand them to the :class:`ResultWriter`, which commits them with the frontier update.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browsercrawl.ajax.adaptive import AdaptiveRouter, same_content
from browsercrawl.config import JobConfig
from browsercrawl.engine.browser_fetcher import (
    BrowserFetcher,
    ContextFactory,
    NeedsHttp,
    launch_args_for,
)
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.http_fetcher import HttpFetcher
from browsercrawl.engine.progress import CrawlCounters, ProgressReporter
from browsercrawl.engine.result import FetchError, FetchResult
from browsercrawl.engine.writer import Outcome, ResultWriter, page_row
from browsercrawl.frontier.base import Completion, NewUrl, Request
from browsercrawl.frontier.robots import RobotsCache
from browsercrawl.frontier.scheduler import Scheduler
from browsercrawl.frontier.scope import Scope
from browsercrawl.frontier.sqlite import SqliteFrontier
from browsercrawl.frontier.urls import canonical_url, host_key
from browsercrawl.session.browser import LaunchOptions, launch_chromium
from browsercrawl.storage.db import CrawlDatabase

log = logging.getLogger(__name__)

# priority(parent request, link URL, anchor text) -> priority (lower first), or None to not follow.
LinkPriority = Callable[[Request, str, str], float | None]


@dataclass
class CrawlOptions:
    """Command-line choices that override or add to the job file."""

    headed: bool = False
    slow_mo_ms: float | None = None
    trace_dir: Path | None = None
    max_pages: int | None = None
    fresh: bool = False
    quiet: bool = False
    pause_on_error: bool = False  # with headed: a failing login stops with its browser tab open


@dataclass
class CrawlSummary:
    database: str
    pages_stored: int
    pages_total: int
    failed: int
    retried: int
    skipped_robots: int
    duplicates: int
    queued_left: int
    seconds: float
    pages_per_second: float
    via_browser: int
    via_http: int
    contexts_opened: int
    tabs_opened: int
    interrupted: bool
    adaptive: dict[str, str] = field(default_factory=dict)
    session: dict[str, Any] = field(default_factory=dict)  # logins, re-logins, retired accounts

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


async def _discard(task: asyncio.Task | None) -> None:
    """Cancel a speculative fetch whose result is not wanted, and swallow its outcome."""
    if task is not None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def launch_options(job: JobConfig, opts: CrawlOptions) -> LaunchOptions:
    """How the crawl starts Chromium; shared with ``browsercrawl induce`` so both render alike."""
    return LaunchOptions(
        executable=job.browser.executable,
        headless=job.browser.headless and not opts.headed,
        slow_mo_ms=opts.slow_mo_ms if opts.slow_mo_ms is not None else job.browser.slow_mo_ms,
        extra_args=[*job.browser.extra_args, *launch_args_for(job.rendering)],
    )


def remove_database(path: Path) -> None:
    """Delete a crawl database and its WAL files (``--fresh``)."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


class Crawler:
    """Runs one job to completion (or until stopped), resumably."""

    def __init__(
        self,
        job: JobConfig,
        options: CrawlOptions | None = None,
        *,
        hooks: list[PageHook] | None = None,
        context_factory: ContextFactory | None = None,
        link_priority: LinkPriority | None = None,
        tables: Callable[[CrawlDatabase], None] | None = None,
    ) -> None:
        self.job = job
        self.opts = options or CrawlOptions()
        self.hooks = hooks or []
        self.context_factory = context_factory  # public: a caller may replace it before run()
        self.session_part: Any = None  # set by browsercrawl.session: .summary() and .fatal (a LoginError)
        self._link_priority = link_priority or (lambda req, url, text: float(req.depth + 1))
        self._tables = tables
        self.scope = Scope(job.scope, job.seeds)
        self.counters = CrawlCounters()
        self.db: CrawlDatabase | None = None
        self.scheduler: Scheduler | None = None
        self.browser_fetcher: BrowserFetcher | None = None
        self.http: HttpFetcher | None = None
        self.router = (
            AdaptiveRouter(job.rendering.auto_sample_pages, job.rendering.auto_recheck_every)
            if job.rendering.mode == "auto"
            else None
        )
        self._robots_skipped = 0
        self._cookie_sync_at = -1e9
        self._cookie_lock = asyncio.Lock()
        self._interrupted = False

    # -- set-up ----------------------------------------------------------------------------------
    def _max_pages(self) -> int | None:
        caps = [c for c in (self.opts.max_pages, self.job.scope.max_pages) if c is not None]
        return min(caps) if caps else None

    async def run(self) -> CrawlSummary:
        path = self.job.database_path
        if self.opts.fresh:
            remove_database(path)
        started = time.monotonic()
        db = self.db = await CrawlDatabase(path).open()
        if self._tables:
            self._tables(db)
        frontier = SqliteFrontier(db)
        seeds = []
        for s in self.job.seeds:
            url = canonical_url(s)
            seeds.append(NewUrl(url=url, host=host_key(url), depth=0, priority=0.0, parent=None))
        await frontier.prepare(seeds)
        stored_before = await db.run(lambda c: c.execute("SELECT COUNT(*) FROM pages").fetchone()[0])
        cap = self._max_pages()
        budget = None if cap is None else max(0, cap - stored_before)

        pol = self.job.politeness
        http_session = HttpFetcher.new_session(self.job.rendering.user_agent, pol.concurrency)
        self.http = HttpFetcher(http_session, self.job.rendering.timeout_seconds)
        robots = RobotsCache(http_session, pol.robots_user_agent, pol.obey_robots)

        def _origin_delay(host: str) -> Any:
            scheme = "https" if any(s.startswith(f"https://{host}") for s in self.job.seeds) else "http"
            return robots.crawl_delay(f"{scheme}://{host}/")

        writer = ResultWriter(db, self._on_commit)
        self.scheduler = Scheduler(frontier, pol, budget, _origin_delay, writer.pending)
        self.counters.queued = (await frontier.counts()).get("queued", 0)
        progress = ProgressReporter(self.counters, self.opts.quiet)

        pw_manager = browser = warm_task = None
        try:
            if self.job.rendering.mode != "http":
                from playwright.async_api import async_playwright

                pw_manager = async_playwright()
                pw = await pw_manager.__aenter__()
                browser = await launch_chromium(pw, launch_options(self.job, self.opts))
                self.browser_fetcher = BrowserFetcher(
                    browser, self.job.rendering, pol.concurrency, self.hooks, self.context_factory
                )
                if self.context_factory is None:
                    warm_task = self.browser_fetcher.start_warming()
            self._install_signals()
            progress.start()
            writer_task = asyncio.create_task(writer.run())
            workers = [
                asyncio.create_task(self._worker(robots, writer, progress)) for _ in range(pol.concurrency)
            ]
            try:
                await asyncio.gather(*workers)
            finally:
                for w in workers:
                    w.cancel()
                await asyncio.gather(*workers, return_exceptions=True)
                await frontier.unclaim(self.scheduler.buffered())
                await writer.close()
                await writer_task
                progress.stop()
        finally:
            self._remove_signals()
            if warm_task is not None:
                await asyncio.gather(warm_task, return_exceptions=True)
            if self.browser_fetcher is not None:
                await self.browser_fetcher.close()
            if browser is not None:
                await browser.close()
            if pw_manager is not None:
                await pw_manager.__aexit__(None, None, None)
            await http_session.close()

        counts = await frontier.counts()
        total = await db.run(lambda c: c.execute("SELECT COUNT(*) FROM pages").fetchone()[0])
        await db.close()
        seconds = time.monotonic() - started
        summary = CrawlSummary(
            database=str(path),
            pages_stored=writer.pages_stored,
            pages_total=total,
            failed=counts.get("failed", 0),
            retried=self.counters.retried,
            skipped_robots=counts.get("skipped", 0),
            duplicates=writer.duplicates,
            queued_left=counts.get("queued", 0) + counts.get("inflight", 0),
            seconds=round(seconds, 2),
            pages_per_second=round(writer.pages_stored / seconds, 2) if seconds else 0.0,
            via_browser=self.counters.browser,
            via_http=self.counters.http,
            contexts_opened=self.browser_fetcher.contexts_opened if self.browser_fetcher else 0,
            tabs_opened=self.browser_fetcher.tabs_opened if self.browser_fetcher else 0,
            interrupted=self._interrupted,
            adaptive=self.router.summary() if self.router else {},
            session=self.session_part.summary() if self.session_part is not None else {},
        )
        if self.session_part is not None and self.session_part.fatal is not None:
            raise self.session_part.fatal  # e.g. every account locked: exit 3 with the reason
        return summary

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

    def _on_commit(self, hosts: set[str], batch: list[Outcome]) -> None:
        assert self.scheduler is not None
        self.counters.queued += sum(len(o.new_urls) for o in batch)
        self.scheduler.notify(hosts)

    # -- the worker loop ---------------------------------------------------------------------
    async def _worker(self, robots: RobotsCache, writer: ResultWriter, progress: ProgressReporter) -> None:
        assert self.scheduler is not None
        sched = self.scheduler
        while True:
            req = await sched.next()
            if req is None:
                return
            self.counters.queued = max(0, self.counters.queued - 1)
            retry = False
            pause = None
            try:
                if not await robots.allowed(req.url):
                    writer.submit(Outcome(Completion(req, "skipped", error="disallowed by robots.txt")))
                    self.counters.skipped += 1
                    continue
                outcome, retry, pause = await self._handle(req)
                writer.submit(outcome)
            except Exception as exc:  # a bug in a hook must not kill the crawl silently
                log.exception("unexpected error on %s", req.url)
                writer.submit(Outcome(Completion(req, "failed", error=f"internal error: {exc!r}"[:500])))
                self.counters.failed += 1
            finally:
                sched.finished(req, retry=retry, host_pause=pause)
                progress.update()

    async def _handle(self, req: Request) -> tuple[Outcome, bool, float | None]:
        last_attempt = req.attempts >= self.job.politeness.max_retries
        trace = self.opts.trace_dir if (self.opts.trace_dir and last_attempt) else None
        try:
            result = await self._fetch(req, trace)
        except FetchError as exc:
            if exc.retryable and not last_attempt:
                return self._retry(req, str(exc), exc.retry_after, pause_host=exc.status == 429)
            if self.opts.trace_dir and trace is None and self.browser_fetcher is not None:
                # Non-retryable failure: reproduce it once in a traced context for the user.
                with contextlib.suppress(FetchError):
                    result = await self.browser_fetcher.fetch(req, trace_dir=self.opts.trace_dir)
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

    async def _fetch(self, req: Request, trace: Path | None) -> FetchResult:
        mode = self.job.rendering.mode
        if mode == "http" or self.browser_fetcher is None:
            return await self._fetch_http(req)
        if mode == "auto":
            assert self.router is not None
            # While the shape's samples render, this page is fetched over HTTP speculatively;
            # the result is used (and its hooks run) only if the verdict lets HTTP serve it.
            early = asyncio.create_task(self._http_get(req)) if self.router.will_wait(req.url) else None
            try:
                choice = await self.router.choose(req.url)
            except BaseException:
                await _discard(early)
                raise
            if choice == "http":
                return await self._fetch_http(req, early)
            if choice == "compare":
                return await self._compare(req, trace, early)
            await _discard(early)
        try:
            result = await self.browser_fetcher.fetch(req, trace_dir=trace)
        except NeedsHttp:
            return await self._fetch_http(req)
        self.counters.browser += 1
        return result

    async def _fetch_http(self, req: Request, early: asyncio.Task[FetchResult] | None = None) -> FetchResult:
        """An HTTP fetch with the browser's cookies, checked by the hooks like a rendered page."""
        result = await (early if early is not None else self._http_get(req))
        ctx = PageContext(request=req, page=None, response=None, result=result)
        for hook in self.hooks:
            await hook.after_snapshot(ctx)
        return result

    async def _http_get(self, req: Request) -> FetchResult:
        assert self.http is not None
        if self.browser_fetcher is not None and time.monotonic() - self._cookie_sync_at > 5.0:
            # Every worker waits for the first sync: an HTTP fetch without the browser's cookies
            # would be logged out. Later syncs refresh cookies the site rotated.
            async with self._cookie_lock:
                if time.monotonic() - self._cookie_sync_at > 5.0:
                    self.http.set_cookies(await self.browser_fetcher.cookies())
                    self._cookie_sync_at = time.monotonic()
        result = await self.http.fetch(req.url)
        self.counters.http += 1
        return result

    async def _compare(
        self, req: Request, trace: Path | None, early: asyncio.Task[FetchResult] | None = None
    ) -> FetchResult:
        """Fetch over HTTP and in the browser; learn whether this URL shape needs rendering."""
        assert self.router is not None and self.browser_fetcher is not None
        try:
            http_result = await self._fetch_http(req, early)
        except FetchError:
            http_result = None
        try:
            rendered = await self.browser_fetcher.fetch(req, trace_dir=trace)
        except NeedsHttp:
            if http_result is None:
                self.router.abandon(req.url)
                raise
            self.router.record(req.url, True)
            return http_result
        except FetchError:
            self.router.abandon(req.url)
            raise
        self.counters.browser += 1
        if http_result is not None and http_result.html is not None:
            static = same_content(
                http_result.text or "",
                {u for u, _ in http_result.links},
                rendered.text or "",
                {u for u, _ in rendered.links},
            )
            self.router.record(req.url, static)
        else:
            self.router.record(req.url, False)
        return rendered

    async def _outcome(self, req: Request, result: FetchResult) -> Outcome:
        outcome = await asyncio.to_thread(self._build_outcome, req, result)
        self.counters.pages += 1
        return outcome

    def _build_outcome(self, req: Request, result: FetchResult) -> Outcome:
        """CPU part of finishing a page (runs in a worker thread)."""
        final = canonical_url(result.final_url) if result.final_url.startswith("http") else req.url
        depth = req.depth + 1
        seen = self._seen()
        links: list[tuple[str, str, int]] = []
        new_urls: list[NewUrl] = []
        for href, text in result.links:
            try:
                url = canonical_url(href)
            except ValueError:
                continue
            in_scope = self.scope.allows(url, depth)
            links.append((url, text, int(in_scope)))
            if in_scope and url not in seen:
                prio = self._link_priority(req, url, text)
                if prio is None:
                    continue
                seen.add(url)
                new_urls.append(NewUrl(url, host_key(url), depth, prio, req.url))
        for href, kind in result.extra_urls:
            url = canonical_url(href)
            if url not in seen and self.scope.allows(url, depth):
                seen.add(url)
                new_urls.append(NewUrl(url, host_key(url), depth, float(depth), req.url, kind))
        row = page_row(result, final, req.depth, req.parent, req.kind, self.job.output.store_html)
        return Outcome(
            Completion(req, "done"),
            page=row,
            links=links,
            new_urls=new_urls,
            extra_rows=result.extra_rows,
        )

    def _seen(self) -> Any:
        assert self.scheduler is not None
        frontier = self.scheduler.frontier
        assert isinstance(frontier, SqliteFrontier)
        return frontier.seen
