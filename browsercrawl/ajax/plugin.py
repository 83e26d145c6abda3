"""How the ajax part plugs into a crawl: one hook and its tables, from the job's ``[ajax]`` section."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from browsercrawl.ajax.config import AjaxConfig, parse_ajax
from browsercrawl.ajax.hooks import AjaxHook
from browsercrawl.ajax.tables import create_ajax_tables
from browsercrawl.config import JobConfig
from browsercrawl.engine.crawler import Crawler


@dataclass
class AjaxPart:
    config: AjaxConfig
    hook: AjaxHook
    tables = staticmethod(create_ajax_tables)

    def bind(self, crawler: Crawler) -> None:
        """Give the hook the crawler's adaptive router (so HTTP pages can be sent back to render)."""
        self.hook.router = crawler.router


def ajax_part(job: JobConfig, job_path: str | Path | None = None) -> AjaxPart | None:
    """None when the job has no ``[ajax]`` section; raises UserError on a bad one."""
    if job.ajax is None:
        return None
    cfg = parse_ajax(job.ajax, job_path or job.source_path)
    return AjaxPart(cfg, AjaxHook(cfg))
