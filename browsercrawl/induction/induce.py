"""``induce``: the initialisation pre-crawl in the real browser -> a site profile.

The pages are rendered by the same browser runtime, with the hooks and context factory of the
job's other parts (sessions, AJAX expansion), as ``browsercrawl crawl`` renders them, so the
profile is learned from the pages the supervised crawl will see. The profile (regexes,
thresholds, wrapper, cluster report) is written to ``[induction] profile`` with mode 644 (it holds
no secrets); the report goes to stdout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from browsercrawl.config import JobConfig
from browsercrawl.engine.browser import job_launch_options, job_user_agent
from browsercrawl.engine.http_fetcher import HttpClient
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import Part, StandaloneHandle
from browsercrawl.engine.runtime import BrowserRuntime
from browsercrawl.errors import UserError
from browsercrawl.frontier.robots import RobotsCache
from browsercrawl.frontier.scope import Scope
from browsercrawl.induction.browser_source import BrowserPageSource
from browsercrawl.induction.precrawl import PrecrawlResult
from browsercrawl.induction.precrawl import induce as induce_profile
from browsercrawl.induction.profile import SiteProfile
from browsercrawl.induction.settings import induction_settings


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
    profile.save_atomic(path)


async def run_induce(
    job: JobConfig,
    options: CrawlOptions,
    parts: Sequence[Part],
    *,
    job_path: Path | None = None,
    write: bool = True,
) -> InduceOutcome:
    """Pre-crawl from the entry URLs, derive the profile, learn the wrapper, write the profile.

    ``options.max_pages`` caps the pre-crawl. ``parts`` are the job's other parts (never the
    induction part: it needs the profile being made, and a broken old one must not block this).
    """
    ind = induction_settings(job, job_path)
    if ind is None:
        raise UserError(f"{job_path or 'job file'}: no [induction] section; see docs/induction.md")
    samples = ind.samples()
    max_pages = options.max_pages or ind.config.precrawl_pages
    handle = StandaloneHandle()
    for part in parts:
        part.bind(handle)
    hooks = [h for p in parts for h in p.hooks()]
    factory = next((p.context_factory for p in parts if p.context_factory), None)
    pol = job.politeness
    launch = job_launch_options(job, headed=options.headed, slow_mo_ms=options.slow_mo_ms)

    http_session = HttpClient.new_session(await job_user_agent(job), pol.concurrency)
    try:
        async with BrowserRuntime(job, launch, hooks=hooks, context_factory=factory) as runtime:
            robots = RobotsCache(http_session, pol.robots_user_agent, pol.obey_robots)
            source = BrowserPageSource(
                runtime.fetcher,
                Scope(job.scope, job.seeds),
                robots,
                delay_seconds=pol.delay_seconds,
                retries=min(pol.max_retries, 3),
                keep=[u for u, _ in samples],
            )
            profile, result, warnings = await induce_profile(
                source,
                ind.entry_urls,
                samples,
                keywords=ind.config.keywords,
                max_pages=max_pages,
                concurrency=pol.concurrency,
            )
    finally:
        await http_session.close()
    if handle.error is not None:
        raise handle.error
    outcome = InduceOutcome(profile, result, warnings, pages_fetched=source.fetched)
    if profile.wrapper is None or not profile.wrapper.rules:
        raise UserError(f"{ind.source}: induction.samples: no label was found on the sample pages")
    if write:
        write_profile(profile, ind.profile_path)
        outcome.path = ind.profile_path
    return outcome
