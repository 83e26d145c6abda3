"""kill -9 at random moments of a crawl, then resume: nothing lost, nothing stored twice.

The moments are drawn from a seeded generator (the seed is printed, and taken from
``BROWSERCRAWL_KILL_SEED`` when set, to replay a failure): right after the start (before the
database or the browser is up), and after a random number of stored pages plus a random few
milliseconds (mid-batch, mid-commit, mid-render). Every round checks what a kill may never
cause: a page stored twice, a page's links written twice, a stored page whose URL is still queued.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest

from tests.apps.jssite import JsSite
from tests.apps.server import serve_in_thread
from tests.apps.trapsite import TrapSite
from tests.conftest import CrawlDb
from tests.test_engine_crawl import count_pages, make_job, rows

BC = [sys.executable, "-m", "browsercrawl"]


def _rng(name: str) -> random.Random:
    seed = int(os.environ.get("BROWSERCRAWL_KILL_SEED", random.randrange(1 << 30)))
    print(f"{name}: BROWSERCRAWL_KILL_SEED={seed}")
    return random.Random(seed)


def _kill_at_random_moments(job, db, rng: random.Random, rounds: int, total: int) -> list[str]:
    """Start the crawl and kill -9 it (with its browser) ``rounds`` times; what each round did."""
    log = []
    for n in range(rounds):
        proc = subprocess.Popen([*BC, "crawl", str(job), "--quiet"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        before = count_pages(db)
        if n == 0:
            target = None  # a moment of the start-up: no page stored yet, maybe no database yet
            deadline = time.monotonic() + rng.uniform(0.05, 1.5)
        else:
            target = min(total - 1, before + rng.randint(1, max(2, total // rounds)))
            deadline = float("inf")
        while proc.poll() is None and time.monotonic() < deadline:
            if target is not None and count_pages(db) >= target:
                time.sleep(rng.uniform(0, 0.05))  # the random moment itself, not a wait for something
                break
            time.sleep(0.01)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        _check_nothing_twice(db)
        log.append(f"{before}->{count_pages(db)}")
    return log


def _check_nothing_twice(db) -> None:
    urls = [u for (u,) in rows(db, "SELECT url FROM pages")] if count_pages(db) else []
    assert len(urls) == len(set(urls)), "a page stored twice"
    if urls:
        # A page's links are written with it, once: as many rows as the page counted links.
        bad = rows(db, "SELECT p.url, p.links_count, COUNT(l.url) FROM pages p LEFT JOIN links l "
                       "ON l.page_id = p.id GROUP BY p.id, p.url, p.links_count "
                       "HAVING COUNT(l.url) > p.links_count")
        assert not bad, f"links written twice: {bad[:3]}"
        # A page and its request's 'done' mark commit together: no stored page is still queued.
        open_ = rows(db, "SELECT p.url, f.state FROM pages p JOIN frontier f ON f.url = p.requested_url "
                         "WHERE f.state <> 'done'")
        assert not open_, f"stored but not done: {open_[:3]}"


def _finish(job) -> None:
    done = subprocess.run([*BC, "crawl", str(job), "--quiet"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]


def test_kill_9_at_random_moments_then_resume(tmp_path, port, crawl_db: CrawlDb):
    rng = _rng("http")
    site = JsSite(pages=150, fanout=4)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base + "/static/0", crawl_db, rendering={"mode": "http"},
                       politeness={"delay_seconds": 0.01, "concurrency": 4, "per_host_concurrency": 4})
        job.write_text(job.read_text().replace('/static/0/"', '/static/0"'))
        log = _kill_at_random_moments(job, crawl_db, rng, rounds=6, total=150)
        print("rounds (pages before->after each kill):", log)
        _finish(job)
    urls = [u for (u,) in rows(crawl_db, "SELECT url FROM pages")]
    assert len(urls) == len(set(urls)) == 150
    assert set(urls) == {f"{base}/static/{i}" for i in range(150)}
    assert rows(crawl_db, "SELECT state, COUNT(*) FROM frontier GROUP BY state") == [("done", 150)]
    _check_nothing_twice(crawl_db)


@pytest.mark.browser
def test_kill_9_of_a_browser_crawl_at_random_moments_then_resume(tmp_path, port):
    rng = _rng("browser")
    site = JsSite(pages=40)
    db = tmp_path / "crawl.db"
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base + "/p/0", rendering={"wait_until": "networkidle"},
                       politeness={"concurrency": 4}, scope={"allow": ["/p/"]})
        job.write_text(job.read_text().replace('/p/0/"', '/p/0"'))
        log = _kill_at_random_moments(job, db, rng, rounds=4, total=40)
        print("rounds (pages before->after each kill):", log)
        _finish(job)
    got = rows(db, "SELECT url, text FROM pages")
    assert len(got) == len({u for u, _ in got}) == 40
    assert all(site.text_of(int(u.rsplit("/", 1)[1])) in t for u, t in got)  # rendered, not half-loaded
    _check_nothing_twice(db)


def test_kill_9_during_a_trap_crawl_keeps_the_trap_bounded(tmp_path, port):
    """The chains a trap grew before a kill are stored with their pages: resumed crawls do not
    start them again, so the calendar stays within one run's bound."""
    rng = _rng("traps")
    site = TrapSite()
    db = tmp_path / "crawl.db"
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base, rendering={"mode": "http"},
                       politeness={"concurrency": 2, "per_host_concurrency": 2})
        log = _kill_at_random_moments(job, db, rng, rounds=5, total=330)
        print("rounds (pages before->after each kill):", log)
        _finish(job)
    paths = []
    for (u,) in rows(db, "SELECT url FROM pages"):
        p = urlsplit(u)
        paths.append(p.path + (f"?{p.query}" if p.query else ""))
    assert len(paths) == len(set(paths))
    assert site.real_paths <= set(paths)
    assert 0 < sum(p.startswith("/calendar") for p in paths) <= 200
    assert 0 < sum(p.startswith("/list") for p in paths) <= 200
    _check_nothing_twice(db)
