"""``browsercrawl induce JOB``: the initialisation pre-crawl in the real browser -> a site profile.

The browser is launched exactly as ``browsercrawl crawl`` launches it, and the pages are fetched by
the same :class:`BrowserFetcher` with the hooks and context factory that ``assemble_crawler``
gives the crawl (sessions, AJAX expansion), so the profile is learned from the pages the
supervised crawl will see. The profile (regexes, thresholds, wrapper, cluster report) is written
to ``[induction] profile`` with mode 644 (it holds no secrets); the report goes to stdout.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import click

from browsercrawl.config import JobConfig, load_job
from browsercrawl.errors import UserError
from browsercrawl.induction.jobconfig import induction_config
from browsercrawl.induction.precrawl import PrecrawlResult
from browsercrawl.induction.precrawl import induce as induce_profile
from browsercrawl.induction.profile import SiteProfile


@dataclass
class InduceOutcome:
    profile: SiteProfile
    precrawl: PrecrawlResult
    warnings: list[str] = field(default_factory=list)
    path: Path | None = None
    pages_fetched: int = 0

    def report(self) -> str:
        pre = self.precrawl
        weights = [r.weight for r in pre.pages.values()]
        lines = [
            f"pre-crawl: {len(pre.pages)} pages fetched, {len(pre.errors)} not fetched, "
            f"{len(pre.discovered)} URLs known; mean weight "
            f"{(sum(weights) / len(weights) if weights else 0):.2f}",
            self.profile.report(),
        ]
        rules = self.profile.wrapper.rules if self.profile.wrapper else []
        lines.append(f"wrapper: {len(rules)} fields")
        lines.extend(f"    {r.key}: {r.css}" + (f"  regex {r.regex}" if r.regex else "") for r in rules)
        lines.extend(f"warning: {w}" for w in self.warnings)
        if self.path is not None:
            lines.append(f"profile written to {self.path}")
        return "\n".join(lines)


def write_profile(profile: SiteProfile, path: Path) -> None:
    """Write atomically (a half-written profile must never steer a crawl), mode 644."""
    if not path.parent.is_dir():
        raise UserError(f"{path}: folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".profile-", suffix=".json", dir=path.parent)
    os.close(fd)
    try:
        profile.save(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise UserError(f"{path}: cannot write site profile ({exc.strerror})") from None


async def run_induce(
    job: JobConfig,
    options,
    *,
    job_path: Path | None = None,
    build_crawler: Callable | None = None,
    write: bool = True,
) -> InduceOutcome:
    """Pre-crawl from the entry URLs, derive the profile, learn the wrapper, write the profile.

    ``options`` is a :class:`CrawlOptions` (``max_pages`` caps the pre-crawl). ``build_crawler``
    (default ``assemble_crawler``) supplies the hooks and context factory of the crawl; the
    induction's own hook is left out, it needs the profile being made.
    """
    from playwright.async_api import async_playwright

    from browsercrawl.engine.assemble import assemble_crawler
    from browsercrawl.engine.browser_fetcher import BrowserFetcher
    from browsercrawl.engine.crawler import launch_options
    from browsercrawl.engine.http_fetcher import HttpFetcher
    from browsercrawl.frontier.robots import RobotsCache
    from browsercrawl.frontier.scope import Scope
    from browsercrawl.induction.browser_source import BrowserPageSource
    from browsercrawl.induction.supervised import InductionHook
    from browsercrawl.session.browser import launch_chromium

    ind = induction_config(job, job_path)
    if ind is None:
        raise UserError(f"{job_path or 'job file'}: no [induction] section; see docs/induction.md")
    samples = ind.samples()
    max_pages = options.max_pages or ind.config.precrawl_pages
    # Without [induction]: the profile being made (or a broken old one) must not steer the pre-crawl.
    crawler = (build_crawler or assemble_crawler)(job.model_copy(update={"induction": None}), options)
    hooks = [h for h in crawler.hooks if not isinstance(h, InductionHook)]
    pol = job.politeness

    http_session = HttpFetcher.new_session(job.rendering.user_agent, pol.concurrency)
    try:
        async with async_playwright() as pw:
            browser = await launch_chromium(pw, launch_options(job, options))
            fetcher = BrowserFetcher(browser, job.rendering, pol.concurrency, hooks, crawler.context_factory)
            # Parts bound to the crawler (e.g. a login context factory) find the browser here.
            crawler.browser_fetcher = fetcher
            robots = RobotsCache(http_session, pol.robots_user_agent, pol.obey_robots)
            source = BrowserPageSource(
                fetcher,
                Scope(job.scope, job.seeds),
                robots,
                delay_seconds=pol.delay_seconds,
                retries=min(pol.max_retries, 3),
                keep=[u for u, _ in samples],
            )
            try:
                profile, result, warnings = await induce_profile(
                    source,
                    ind.entry_urls,
                    samples,
                    keywords=ind.config.keywords,
                    max_pages=max_pages,
                    concurrency=pol.concurrency,
                )
            finally:
                await fetcher.close()
                await browser.close()
    finally:
        await http_session.close()
    outcome = InduceOutcome(profile, result, warnings, pages_fetched=source.fetched)
    if profile.wrapper is None or not profile.wrapper.rules:
        raise UserError(f"{ind.source}: induction.samples: no label was found on the sample pages")
    if write:
        write_profile(profile, ind.profile_path)
        outcome.path = ind.profile_path
    return outcome


@click.command("induce")
@click.argument("job", type=click.Path(dir_okay=False))
@click.option("--headed", is_flag=True, help="Show the browser window (needs a display).")
@click.option(
    "--slow-mo",
    "slow_mo",
    type=click.FloatRange(min=0),
    default=None,
    metavar="MS",
    help="Slow every browser operation by MS milliseconds.",
)
@click.option(
    "--max-pages",
    type=click.IntRange(min=2),
    default=None,
    help="Pre-crawl at most N pages (default: [induction] precrawl_pages).",
)
def induce_cmd(job: str, headed: bool, slow_mo: float | None, max_pages: int | None) -> None:
    """Learn a site profile for JOB: pre-crawl, URL classes, thresholds and a wrapper.

    Needs an [induction] section with two sample target pages and their values. Writes the
    profile to [induction] profile and prints the clusters with example URLs; `browsercrawl
    crawl JOB` then runs the supervised crawl and fills the records table.
    """
    from browsercrawl.engine.crawler import CrawlOptions

    path = Path(job)
    job_cfg = load_job(path)
    options = CrawlOptions(headed=headed, slow_mo_ms=slow_mo, max_pages=max_pages, quiet=True)
    outcome = asyncio.run(run_induce(job_cfg, options, job_path=path))
    click.echo(outcome.report())

