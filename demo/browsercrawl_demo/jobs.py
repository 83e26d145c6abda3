"""Job files for crawling the demo site, shared by the tests and the benchmark scripts."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import tomli_w

from browsercrawl.assemble import build_crawler
from browsercrawl.config import load_job
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.summary import CrawlSummary
from browsercrawl_demo.expected import pick_samples

# Everything the ajax part can do, on the demo's pages: infinite scroll on boards and the feed,
# "load more" on threads, the Followers tab and its "More" button on profiles, all /api/ JSON.
DEMO_AJAX: dict[str, Any] = {
    "rules": [
        {"match": r"/(board/\d+|feed)", "wait": "dom-stable", "stable_ms": 300, "scroll": 200,
         "done_selector": "#list-end:not([hidden])", "item_selector": "li.thread-item, li.post"},
        {"match": r"/t/\d+", "load_more": "auto", "item_selector": "li.comment"},
        {"match": r"/u/[^/]+$", "wait": "dom-stable", "stable_ms": 300, "load_more": "button.more",
         "explore": {"max_clicks": 10, "max_states": 5}},
    ],
    "capture": [{"match": r"/api/"}],
}


def induction_job(
    folder: Path, site_url: str, truth: dict, *, precrawl_pages: int, concurrency: int = 4
) -> Path:
    """A job file for the demo: home page as seed, the state-changing URLs kept out of scope.

    Logged in from ``folder/state.json`` (see :func:`browsercrawl_demo.login.login_storage_state`).
    """
    (folder / "samples.json").write_text(json.dumps(pick_samples(site_url, truth), indent=1))
    job = folder / "demo.toml"
    # Board pages render their thread list from JSON after the load event: wait for it there.
    job.write_text(
        f"""seeds = ["{site_url}/"]

[[ajax.rules]]
match = "/board/"
wait = "selector"
selector = "#thread-list[data-loaded]"
wait_cap_seconds = 5

[session]
method = "state"
state = "state.json"

[scope]
deny = ["/logout", "/login", "/account/", "/search"]

[politeness]
concurrency = {concurrency}
per_host_concurrency = {concurrency}

[output]
database = "demo.db"
store_html = false

[induction]
samples = "samples.json"
precrawl_pages = {precrawl_pages}
profile = "demo.profile.json"
"""
    )
    return job


def crawl_fresh(out: Path, name: str, job: dict[str, Any]) -> tuple[CrawlSummary, float]:
    """Write ``job`` to ``out/<name>.toml`` (a user can run it again) and crawl it from scratch:
    the crawl's summary and the seconds it took."""
    path = out / f"{name}.toml"
    path.write_text(tomli_w.dumps(job))
    t0 = time.monotonic()
    summary = asyncio.run(build_crawler(load_job(path), CrawlOptions(quiet=True, fresh=True)).run())
    return summary, round(time.monotonic() - t0, 1)
