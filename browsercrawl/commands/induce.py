"""``browsercrawl induce JOB``: learn a site profile with the job's other parts switched on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click

from browsercrawl.assemble import build_parts
from browsercrawl.commands.watch_options import watch_options
from browsercrawl.config import JobConfig, load_job
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.induction.induce import InduceOutcome, run_induce


async def induce_job(job: JobConfig, options: CrawlOptions, *, job_path: Path | None = None,
                     write: bool = True) -> InduceOutcome:
    """Induce with the parts the job switches on (sessions, AJAX...), the induction part left out."""
    parts = build_parts(job, options, skip={"induction"})
    return await run_induce(job, options, parts, job_path=job_path, write=write)


@click.command("induce")
@click.argument("job", type=click.Path(dir_okay=False))
@watch_options
@click.option(
    "--max-pages",
    type=click.IntRange(min=2),
    default=None,
    help="Pre-crawl at most N pages (default: [induction] precrawl_pages).",
)
def induce_cmd(job: str, headed: bool, slow_mo: float | None, max_pages: int | None) -> None:
    """Learn a site profile for JOB: pre-crawl, URL classes, thresholds and a wrapper.

    Needs an [induction] section with two or more sample target pages and their values. Writes the
    profile to [induction] profile and prints the clusters with example URLs; `browsercrawl
    crawl JOB` then runs the supervised crawl and fills the records table.
    """
    path = Path(job)
    job_cfg = load_job(path)
    options = CrawlOptions(headed=headed, slow_mo_ms=slow_mo, max_pages=max_pages, quiet=True)
    outcome = asyncio.run(induce_job(job_cfg, options, job_path=path))
    click.echo(outcome.report())
