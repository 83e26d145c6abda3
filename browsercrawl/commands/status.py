"""``browsercrawl status JOB``: the workers of a distributed crawl, its queue, rates and failures."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from browsercrawl.config import load_job
from browsercrawl.errors import UserError
from browsercrawl.frontier.cluster import crawl_status
from browsercrawl.frontier.stores import connect_redis, crawl_prefix


async def _status(job_path: str) -> dict[str, Any]:
    job = load_job(job_path)
    if job.distributed is None:
        raise UserError(f"{job_path}: no [distributed] section; for a one-machine crawl use "
                        "`browsercrawl stats DATABASE`")
    r = await connect_redis(job.distributed.redis)
    try:
        return await crawl_status(r, crawl_prefix(job))
    finally:
        await r.aclose()


@click.command()
@click.argument("job", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def status(job: str, as_json: bool) -> None:
    """Show the workers of the JOB's distributed crawl, its queue, rates and failures."""
    data = asyncio.run(_status(job))
    if as_json or not sys.stdout.isatty():
        click.echo(json.dumps(data, indent=2))
        return
    console = Console()
    t = Table(title=f"workers of {data['crawl']}")
    for col in ("id", "state", "pages", "failed", "pages/min", "claims", "cap", "seen (s ago)"):
        t.add_column(col)
    for w in data["workers"]:
        t.add_row(w["id"], w["state"], str(w["pages"]), str(w["failed"]), str(w["pages_per_min"]),
                  str(w["claims"]), str(w["claim_cap"]), str(w["last_seen_s"]))
    console.print(t)
    for key in ("queue", "totals", "rates", "failures", "seen_set"):
        section = Table(title=key, show_header=False)
        for k, v in data[key].items():
            section.add_row(str(k), str(v))
        console.print(section)
