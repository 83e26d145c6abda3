"""``browsercrawl recrawl JOB --budget N``: revisit the people most likely to have changed."""

from __future__ import annotations

import asyncio
import json
import logging
import sys

import click

from browsercrawl.assemble import build_parts
from browsercrawl.config import JobConfig, load_job
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.errors import UserError
from browsercrawl.social.recrawl import RecrawlSummary, Strategy, recrawl


async def recrawl_job(job: JobConfig, budget: int, strategy: Strategy = "policy", *, seed: int | None = None,
                      extra_hooks: list[PageHook] | None = None) -> RecrawlSummary:
    """Revisit with every part the job switches on (a session part logs in again when needed)."""
    if job.social is None:
        raise UserError(f"{job.source_path}: no [social] section")
    parts = build_parts(job, CrawlOptions(quiet=True))
    return await recrawl(job, budget, strategy, parts=parts, seed=seed, extra_hooks=extra_hooks)


@click.command()
@click.argument("job", type=click.Path(dir_okay=False))
@click.option("--budget", "-n", type=int, required=True, help="How many people to revisit.")
@click.option("--strategy", type=click.Choice(["policy", "random"]), default="policy", show_default=True,
              help="policy: top-N by P(change since last visit); random: a uniform sample (baseline).")
@click.option("--seed", type=int, default=None, help="Random seed for --strategy random.")
@click.option("--verbose", "-v", is_flag=True, help="Log failed revisits.")
def recrawl_cmd(job: str, budget: int, strategy: str, seed: int | None, verbose: bool) -> None:
    """Revisit BUDGET people of a social crawl (JOB's database) and record what changed.

    Prints a JSON summary: people revisited, how many had changed, new items, new and removed
    edges, and the changes the policy predicted. Details go to the ``changes`` and ``visits``
    tables.
    """
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="browsercrawl: %(levelname)s %(message)s")
    if budget < 1:
        raise UserError(f"--budget must be >= 1, got {budget}")
    summary = asyncio.run(recrawl_job(load_job(job), budget, strategy, seed=seed))  # type: ignore[arg-type]
    click.echo(json.dumps(summary.as_dict(), indent=2))
