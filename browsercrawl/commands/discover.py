"""``browsercrawl discover URL [--job job.toml] --out job.toml``: write a community's social job."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
from pathlib import Path

import click

from browsercrawl.config import load_job
from browsercrawl.discover.jobfile import write_job
from browsercrawl.discover.run import Findings, discover
from browsercrawl.engine.browser import job_launch_options
from browsercrawl.errors import UserError


def report(f: Findings) -> str:
    """What was found, one example each, and what could not be decided: for a person to read."""
    lines = [f"person pages   {f.shape.regex()}",
             f"               e.g. {f.person_url} -> id {f.person_id!r}; queued as {f.shape.template()}"]
    for lst in f.relations:
        entry = next(iter(lst.fields.values()))
        if lst.source == "dom":
            lines.append(f"{lst.kind:<14} dom: tab {lst.tab}, entries {lst.entries_css}"
                         + (f", more {lst.more}" if lst.more else "")
                         + (f", recycled rows scrolled in {lst.scroll}" if lst.scroll else ""))
        else:
            where = lst.url if lst.source == "json_api" else f"<{lst.script}>"
            lines.append(f"{lst.kind:<14} {lst.source} {where} -> {lst.list_path or '(root)'}[].{entry}"
                         + (f", next: {lst.next_path}" if lst.next_path else ""))
        lines.append(f"               e.g. {lst.example} ({lst.entries} entries in {len(lst.requests)} "
                     "answers)")
    for lst in f.items:
        lines.append(f"items          {lst.source} {lst.url} -> {lst.list_path or '(root)'}[] "
                     f"{json.dumps(lst.fields)}")
        lines.append(f"               e.g. {lst.example!r}")
    for label, where in f.key_fields.items():
        lines.append(f"person key     {{{label}}} = {where} (the endpoints name the person by it)")
    if f.fields.fields:
        lines.append(f"fields         learned from {f.person_id} and {f.second_person}:")
        for label, where in f.fields.fields.items():
            lines.append(f"               {label} = {where}  e.g. {f.fields.examples.get(label, '')!r}")
    lines.append(f"safety         {f.clicks} tabs/more pressed; {len(f.blocked)} non-GET requests refused")
    undecided = f.undecided + f.fields.notes
    lines.append("could not decide:" if undecided else "could not decide: nothing")
    lines.extend(f"  - {u}" for u in undecided)
    return "\n".join(lines)


@click.command("discover")
@click.argument("url")
@click.option("--job", "job_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A job whose [session] logs in (and whose [browser]/[rendering] are kept).")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The job file to write (its database: the same name with .db).")
@click.option("--headed", is_flag=True, help="Show the browser window (needs a display).")
@click.option("--verbose", "-v", is_flag=True, help="Log what is opened.")
def discover_cmd(url: str, job_path: Path | None, out: Path, headed: bool, verbose: bool) -> None:
    """Open the person page at URL, infer the community's people, relation lists and fields, and
    write a job whose [social] section crawls them (prints what it found and could not decide)."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="browsercrawl: %(levelname)s %(message)s")
    if not re.match(r"^https?://[^/\s]+", url):
        raise UserError(f"{url}: not an http(s) URL")
    if out.exists() and job_path is not None and out.resolve() == job_path.resolve():
        raise UserError(f"{out}: --out would overwrite the --job file")
    job = load_job(job_path) if job_path is not None else None
    launch = job_launch_options(job, headed=headed) if job is not None else None
    if launch is None and headed:
        from browsercrawl.engine.browser import LaunchOptions

        launch = LaunchOptions(headless=False)
    findings = asyncio.run(discover(url, job, launch=launch))
    write_job(findings, out, job_path)
    click.echo(report(findings))
    click.echo(f"wrote {out}")
    if job_path is not None and out.resolve().parent != job_path.resolve().parent:
        click.echo(f"note: the sections kept from {job_path} name files relative to its folder; "
                   f"keep {out.name} next to it (or edit those paths)")
