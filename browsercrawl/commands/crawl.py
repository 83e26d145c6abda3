"""``browsercrawl crawl JOB``: run a job file, resumably, and print a JSON summary."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path

import click

from browsercrawl.assemble import build_crawler
from browsercrawl.commands.watch_options import watch_options
from browsercrawl.config import load_job
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.summary import CrawlSummary
from browsercrawl.errors import EXIT_CRAWL_FAILURES, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UserError


def run_crawl(job_path: str | Path, options: CrawlOptions, *, worker: bool = False) -> CrawlSummary:
    """Load the job, assemble the crawler (with the parts the job enables) and run it.

    A job with a ``[distributed]`` section runs as one worker of the shared crawl (``--worker``
    says so explicitly and fails on a job without that section).
    """
    job = load_job(job_path)
    if worker and job.distributed is None:
        raise UserError(f"{job_path}: --worker needs a [distributed] section with redis = \"redis://...\"")
    return asyncio.run(build_crawler(job, options).run())


@click.command()
@click.argument("job", type=click.Path(dir_okay=False))
@watch_options
@click.option(
    "--trace",
    "trace_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Save a Playwright trace for every page that fails (playwright show-trace).",
)
@click.option("--max-pages", type=click.IntRange(min=1), default=None, help="Stop after N stored pages.")
@click.option("--fresh", is_flag=True, help="Delete the job's database and start over.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output; only the JSON summary.")
@click.option("--verbose", "-v", is_flag=True, help="Log each failure and retry.")
@click.option("--worker", is_flag=True,
              help="Join the shared crawl of the job's [distributed] section (any number of machines).")
@click.option("--pause-on-error", is_flag=True,
              help="With --headed: a login that fails stops at the failing step with the browser open.")
def crawl(
    job: str,
    headed: bool,
    slow_mo: float | None,
    trace_dir: str | None,
    max_pages: int | None,
    fresh: bool,
    quiet: bool,
    verbose: bool,
    worker: bool,
    pause_on_error: bool,
) -> int:
    """Crawl the site described by the JOB file into its database (SQLite file or PostgreSQL).

    Run the same command again after an interruption (Ctrl-C, kill -9, a crash) and the crawl
    continues where it stopped. With a [distributed] section, each run is one worker of a crawl
    shared through Redis and PostgreSQL; start as many as you like, on any machines.
    Exit codes: 0 done, 1 done but some pages failed after all retries,
    2 bad job file or options, 3 login failed, 4 missing Chromium/display, 130 interrupted.
    """
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        stream=sys.stderr,
        format="browsercrawl: %(levelname)s %(message)s",
    )
    options = CrawlOptions(
        headed=headed,
        slow_mo_ms=slow_mo,
        trace_dir=Path(trace_dir) if trace_dir else None,
        max_pages=max_pages,
        fresh=fresh,
        quiet=quiet,
        pause_on_error=pause_on_error,
    )
    if pause_on_error and not headed:
        raise UserError("--pause-on-error needs --headed (there is no browser window to pause in)")
    summary = run_crawl(job, options, worker=worker)
    click.echo(json.dumps(summary.as_dict(), indent=None if quiet else 2))
    if (blocked := summary.nothing_crawlable()) is not None:
        click.echo(f"browsercrawl: error: {blocked}", err=True)
        return EXIT_USAGE
    if summary.interrupted:
        return EXIT_INTERRUPTED
    return EXIT_CRAWL_FAILURES if summary.failed else EXIT_OK
