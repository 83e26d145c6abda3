"""Builds a :class:`Crawler` from a job: the one place that decides which parts a job switches on.

Each optional part (sessions, AJAX expansion, induction, social traversal) contributes hooks, a
context factory, a link-priority function or tables here, keyed by its section in the job file.
"""

from __future__ import annotations

from browsercrawl.config import JobConfig
from browsercrawl.engine.crawler import Crawler, CrawlOptions


def assemble_crawler(job: JobConfig, options: CrawlOptions) -> Crawler:
    hooks = []

    # --- session (issue 4): log in, detect a lost session, refuse login pages; first hook ---
    from browsercrawl.session.manager import session_part

    session = session_part(job, options.trace_dir)
    if session is not None:
        hooks.append(session)
    # --- end session ---

    crawler = Crawler(job, options, hooks=hooks)

    # --- session (issue 4): the session manager is the context factory; counters in the summary ---
    if session is not None:
        session.attach(crawler)
    # --- end session ---
    return crawler
