"""Builds a :class:`Crawler` from a job: the one place that decides which parts a job switches on.

Each optional part (sessions, AJAX expansion, induction, social traversal) contributes hooks, a
context factory, a link-priority function or tables here, keyed by its section in the job file.
"""

from __future__ import annotations

from collections.abc import Callable

from browsercrawl.config import JobConfig
from browsercrawl.engine.crawler import Crawler, CrawlOptions
from browsercrawl.engine.hooks import PageHook
from browsercrawl.storage.db import CrawlDatabase


def assemble_crawler(job: JobConfig, options: CrawlOptions) -> Crawler:
    hooks: list[PageHook] = []
    table_makers: list[Callable[[CrawlDatabase], None]] = []

    # --- session (issue 4): log in, detect a lost session, refuse login pages; first hook ---
    from browsercrawl.session.manager import session_part

    headed = options.headed or not job.browser.headless
    session = session_part(job, options.trace_dir, pause_on_error=options.pause_on_error and headed,
                           headed=headed)
    if session is not None:
        hooks.append(session)
    # --- end session ---

    # --- ajax (issue 5): waits, expansion, states, captured JSON; before extraction hooks ---
    from browsercrawl.ajax.plugin import ajax_part

    ajax = ajax_part(job)
    if ajax is not None:
        hooks.append(ajax.hook)
        table_makers.append(ajax.tables)
    # --- end ajax ---

    # --- social (issue 8): people traversal; relation lists, not hyperlinks, drive the crawl ---
    link_priority = None
    if job.social is not None:
        from browsercrawl.social.config import social_config
        from browsercrawl.social.hook import SocialHook

        social = SocialHook(social_config(job), job)
        hooks.append(social)
        table_makers.append(social.tables)
        link_priority = social.link_priority
    # --- end social ---

    # --- induction (issue 7): a site profile -> weighted, supervised crawl; fills `records` ---
    from browsercrawl.induction.supervised import induction_part

    induction = induction_part(job)
    if induction is not None:
        hooks.append(induction.hook)
        table_makers.append(induction.tables)
        if induction.supervised and link_priority is None:
            link_priority = induction.link_priority
    # --- end induction ---

    def tables(db: CrawlDatabase) -> None:
        for make in table_makers:
            make(db)

    crawler = Crawler(job, options, hooks=hooks, tables=tables, link_priority=link_priority)

    # --- session (issue 4): the session manager is the context factory; counters in the summary ---
    if session is not None:
        session.attach(crawler)
    # --- end session ---

    # --- ajax (issue 5): adaptive mode may send HTTP pages with load-more controls back ---
    if ajax is not None:
        ajax.bind(crawler)
    # --- end ajax ---
    return crawler
