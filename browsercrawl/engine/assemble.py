"""Builds a :class:`Crawler` from a job: the one place that decides which parts a job switches on.

Each optional part (sessions, AJAX expansion, induction, social traversal) contributes hooks, a
context factory, a link-priority function or tables here, keyed by its section in the job file.
"""

from __future__ import annotations

from browsercrawl.config import JobConfig
from browsercrawl.engine.crawler import Crawler, CrawlOptions


def assemble_crawler(job: JobConfig, options: CrawlOptions) -> Crawler:
    return Crawler(job, options)
