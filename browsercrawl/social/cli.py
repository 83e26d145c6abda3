"""``browsercrawl recrawl JOB --budget N``: revisit the people most likely to have changed."""

from __future__ import annotations

import asyncio
import json
import logging
import sys

import click


@click.command()
@click.argument("job", type=click.Path(dir_okay=False))
@click.option("--budget", "-n", type=int, required=True, help="How many people to revisit.")
@click.option("--strategy", type=click.Choice(["policy", "random"]), default="policy", show_default=True,
              help="policy: top-N by P(change since last visit); random: a uniform sample (baseline).")
@click.option("--seed", type=int, default=None, help="Random seed for --strategy random.")
@click.option("--verbose", "-v", is_flag=True, help="Log failed revisits.")
def recrawl(job: str, budget: int, strategy: str, seed: int | None, verbose: bool) -> None:
    """Revisit BUDGET people of a social crawl (JOB's database) and record what changed.

    Prints a JSON summary: people revisited, how many had changed, new items, new and removed
    edges, and the changes the policy predicted. Details go to the ``changes`` and ``visits``
    tables.
    """
    from browsercrawl.config import load_job
    from browsercrawl.errors import UserError
    from browsercrawl.social.config import parse_social
    from browsercrawl.social.recrawl import recrawl as run

    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="browsercrawl: %(levelname)s %(message)s")
    if budget < 1:
        raise UserError(f"--budget must be >= 1, got {budget}")
    cfg = load_job(job)
    parse_social(cfg.social, job, cfg.base_dir)  # errors name the job file given here
    summary = asyncio.run(run(cfg, budget, strategy, seed=seed))  # type: ignore[arg-type]
    click.echo(json.dumps(summary.as_dict(), indent=2))
