"""Search on a crawl of the demo community (logged in, in the real browser): each thread is found
by the words of its title and by a sentence of its body, and the keyword boost lifts the threads
whose title carries the boosted word."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from browsercrawl_demo.app import demo_site_in_thread
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.login import login_storage_state, state_context_factory
from browsercrawl_demo.search_demo import report_rows, search_scores
from browsercrawl_demo.truth import build_truth

from browsercrawl.assemble import build_parts
from browsercrawl.config import parse_job
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import SimplePart
from browsercrawl.storage.reader import open_reader
from browsercrawl.storage.search import SearchQuery, search

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def crawled(tmp_path_factory) -> Any:
    cfg = DemoConfig(port=0, members=40, threads=300, session_ttl_seconds=1e7)
    tmp = tmp_path_factory.mktemp("search-demo")
    with demo_site_in_thread(cfg) as site:
        state = tmp / "state.json"
        asyncio.run(login_storage_state(site, state))
        c = site.state.content
        threads = sorted(c.threads.values(), key=lambda t: t.id)[::6][:45]
        boards = [f"{site.url}{b.path}" for b in c.boards[:2]]
        db = tmp / "crawl.db"
        job = parse_job({"seeds": [site.url + t.path for t in threads] + boards,
                         "scope": {"max_depth": 0}, "politeness": {"concurrency": 3},
                         "output": {"database": str(db)}}, tmp / "job.toml")
        options = CrawlOptions(quiet=True, fresh=True)
        login = SimplePart("demo-login", context_factory=state_context_factory(state))
        summary = asyncio.run(Crawler(job, options, [*build_parts(job, options), login]).run())
        assert summary.failed == 0 and summary.pages_stored == len(threads) + len(boards)
        assert summary.search["index_bytes"] > 0
        yield db, {site.url + t.path: t for t in threads}, site.url, build_truth(c)


def find(db: Path, text: str, **kw: Any) -> list:
    reader = open_reader(db)
    try:
        return search(reader, SearchQuery(text=text, **{"limit": 10, **kw}))
    finally:
        reader.close()


def test_threads_found_by_the_words_of_their_titles(crawled):
    db, threads, *_ = crawled
    ranks = []
    for url, t in threads.items():
        hits = [h.url for h in find(db, t.title)]
        assert url in hits[:3], (t.title, hits[:3])  # the board page listing it may come close
        ranks.append(hits.index(url))
    # The thread itself (its title weighs most) beats the board pages that list the same title.
    assert sum(r == 0 for r in ranks) >= 0.9 * len(ranks), ranks


def test_threads_found_by_a_sentence_of_their_bodies(crawled):
    db, threads, *_ = crawled
    for url, t in threads.items():
        sentence = t.body.split(". ")[0].strip().rstrip(".")
        hits = find(db, '"' + sentence.replace('"', '""') + '"')
        assert hits and hits[0].url == url, (sentence, [h.url for h in hits[:3]])
        assert "<mark>" in hits[0].snippet


def test_the_boost_ranks_threads_whose_title_carries_the_word_higher(crawled):
    db, threads, *_ = crawled
    lifted = tried = 0
    counts = Counter(w for t in threads.values() for w in set(re.findall(r"[a-z]{4,}", t.body.lower())))
    for word, _ in counts.most_common(12):
        plain = [h.url for h in find(db, word, limit=200)]
        if len(plain) < 5 or plain[1] not in threads:
            continue
        # A word of the second hit's title that the first hit's title lacks.
        top_title = threads[plain[0]].title.lower() if plain[0] in threads else ""
        booster = next((w for w in threads[plain[1]].title.split()
                        if len(w) >= 4 and w.lower() not in top_title), None)
        if booster is None:
            continue
        boosted = find(db, word, limit=200, boost=(booster,))
        urls = [h.url for h in boosted]
        carrying = [h for h in boosted if booster.lower() in f"{h.title} {h.url}".lower()]
        assert carrying and all(h.boosted == [booster] for h in carrying)
        # A hit carrying the boosted word never ranks lower than without the boost...
        assert all(urls.index(h.url) <= plain.index(h.url) for h in carrying)
        # ...and the second hit overtakes the first.
        tried += 1
        lifted += urls.index(plain[1]) < urls.index(plain[0])
    assert tried >= 3
    assert lifted >= tried - 1, (lifted, tried)


def test_the_demo_report_scores_search_against_the_truth(crawled):
    db, threads, site_url, truth = crawled
    scores = search_scores(db, site_url, truth)
    assert scores["threads_searched"] == len(threads)
    assert scores["first_by_title"] >= 0.9
    assert scores["first_by_body_sentence"] == 1.0
    assert scores["record_in_top3_by_title"] is None  # this crawl extracted no records
    assert scores["index_bytes"] > 0
    assert len(report_rows({"search": scores})) == 4
