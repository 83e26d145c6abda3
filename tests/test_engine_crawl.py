"""The crawl engine against a real local JavaScript site, in the real browser and over HTTP."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from browsercrawl.config import parse_job
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.errors import UserError
from tests.apps.jssite import JsSite
from tests.apps.server import serve_in_thread
from tests.conftest import CrawlDb

BC = [sys.executable, "-m", "browsercrawl"]


def make_job(tmp_path: Path, base: str, database: object = None, **sections) -> Path:
    """Write a job file; ``sections`` maps section name -> dict of keys; ``database`` is a path,
    a URL or the ``crawl_db`` fixture (default: crawl.db in tmp_path)."""
    lines = [f'seeds = ["{base}/"]']
    for name, values in sections.items():
        lines.append(f"[{name}]")
        for k, v in values.items():
            lines.append(f"{k} = {json.dumps(v)}")
    if "output" not in sections:
        lines += ["[output]", f'database = "{database or tmp_path / "crawl.db"}"']
    path = tmp_path / "job.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def crawl(job_path: Path, **opts) -> dict:
    from browsercrawl.config import load_job

    summary = asyncio.run(Crawler(load_job(job_path), CrawlOptions(quiet=True, **opts)).run())
    return summary.as_dict()


def rows(db: Path | CrawlDb, sql: str) -> list[tuple]:
    if isinstance(db, CrawlDb):
        return db.rows(sql)
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def count_pages(db: CrawlDb) -> int:
    """Pages stored so far, 0 while the crawl has not created its database yet."""
    try:
        return rows(db, "SELECT COUNT(*) FROM pages")[0][0]
    except Exception:
        return 0


@pytest.mark.browser
def test_browser_crawl_renders_scopes_retries_and_obeys_robots(tmp_path, port, crawl_db):
    site = JsSite(pages=24)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(
            tmp_path, base, crawl_db, politeness={"retry_backoff_seconds": 0.2},
            rendering={"wait_until": "networkidle"}
        )
        summary = crawl(job)
    db = crawl_db
    urls = {u for (u,) in rows(db, "SELECT url FROM pages")}
    # Every client-rendered page was reached through links that exist only after rendering.
    for i in range(24):
        assert f"{base}/p/{i}" in urls
    text = dict(rows(db, "SELECT url, text FROM pages"))
    assert site.text_of(5) in text[f"{base}/p/5"]
    # robots.txt: /private/ never requested, recorded as skipped.
    assert site.counts["/private/secret"] == 0
    assert rows(db, "SELECT state FROM frontier WHERE url LIKE '%/private/secret'") == [("skipped",)]
    # Scope: the same server under another host name is linked but never crawled.
    assert not any(u.startswith("http://localhost") for u in urls)
    assert rows(db, "SELECT in_scope FROM links WHERE url LIKE 'http://localhost%' LIMIT 1") == [(0,)]
    # Redirect: stored under its final URL, once.
    assert rows(db, f"SELECT COUNT(*) FROM pages WHERE url='{base}/p/1'") == [(1,)]
    assert f"{base}/redirect/1" not in urls
    # Retries: 503 twice then success; 429 honoured with its Retry-After before the retry.
    assert f"{base}/flaky/1" in urls and site.counts["/flaky/1"] == 3
    assert f"{base}/limited" in urls
    limited = [t for p, t in site.hits if p == "/limited"]
    assert len(limited) == 2 and limited[1] - limited[0] >= 0.95
    assert summary["failed"] == 0 and summary["retried"] >= 3
    assert summary["pages_total"] == len(urls) == 24 + 24 + 3  # /p/*, /static/*, home, flaky, limited
    assert rows(db, "SELECT COUNT(*) FROM pages WHERE via='browser'") == [(len(urls),)]


def test_http_mode_depth_allow_deny(tmp_path, port, crawl_db):
    site = JsSite(pages=40)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(
            tmp_path,
            base.replace("127.0.0.1", "127.0.0.1") + "/static/0",
            crawl_db,
            scope={"max_depth": 2, "deny": [r"/static/1\d$"]},
            rendering={"mode": "http"},
        )
        job.write_text(job.read_text().replace('/static/0/"', '/static/0"'))
        crawl(job)
    urls = {u for (u,) in rows(crawl_db, "SELECT url FROM pages")}
    depths = dict(rows(crawl_db, "SELECT url, depth FROM pages"))
    assert max(depths.values()) == 2
    assert not any(u.rsplit("/", 1)[1].startswith("1") and len(u.rsplit("/", 1)[1]) == 2 for u in urls)
    # depth 0: static/0 -> 1,2,3 (depth 1) -> their links (depth 2), minus the denied 10-19
    expected = {0, 1, 2, 3} | {j for i in (1, 2, 3) for j in site.links_of(i)}
    expected = {i for i in expected if not 10 <= i <= 19}
    assert urls == {f"{base}/static/{i}" for i in expected}


@contextlib.contextmanager
def busy_interpreter(active: bool):
    """Threads that grab the interpreter in uneven bursts, as a loaded machine delays both the
    crawler's and the test server's work by different amounts at different moments."""
    stop = threading.Event()

    def _burn(seed: int) -> None:
        rnd = random.Random(seed)
        while not stop.is_set():
            sum(range(rnd.randint(10_000, 400_000)))
            time.sleep(rnd.random() * 0.02)

    threads = [threading.Thread(target=_burn, args=(i,), daemon=True) for i in range(2 if active else 0)]
    for t in threads:
        t.start()
    try:
        yield
    finally:
        stop.set()
        for t in threads:
            t.join(10)


@pytest.mark.parametrize(("delay", "crawl_delay", "mode", "busy"), [
    (0.3, None, "http", False), (0.0, 0.5, "http", False), (0.5, None, "http", True),
    pytest.param(0.5, None, "browser", True, marks=pytest.mark.browser),
])
def test_per_host_delay_and_robots_crawl_delay_are_measured_at_the_server(
        tmp_path, port, delay, crawl_delay, mode, busy):
    """The promise: two requests to one host start at the server at least the delay apart,
    however loaded the machine is (the hits are timed by the server as they arrive)."""
    site = JsSite(pages=8, crawl_delay=crawl_delay)
    with serve_in_thread(site.app(), port) as base, busy_interpreter(busy):
        job = make_job(
            tmp_path,
            base + "/static/0",
            rendering={"mode": mode},
            politeness={"delay_seconds": delay, "per_host_concurrency": 4, "concurrency": 8},
        )
        job.write_text(job.read_text().replace('/static/0/"', '/static/0"'))
        crawl(job)
    starts = [t for p, t in site.hits if p.startswith("/static/")]
    assert len(starts) == 8
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert min(gaps) >= max(delay, crawl_delay or 0), gaps


def test_one_slow_host_does_not_stall_another(tmp_path):
    from tests.conftest import free_port

    slow, fast = JsSite(pages=6, crawl_delay=1.0), JsSite(pages=30)
    p1, p2 = free_port(), free_port()
    with serve_in_thread(slow.app(), p1) as b1, serve_in_thread(fast.app(), p2) as b2:
        job = tmp_path / "job.toml"
        job.write_text(
            f'seeds = ["{b1}/static/0", "{b2}/static/0"]\n[rendering]\nmode = "http"\n'
            f'[output]\ndatabase = "{tmp_path / "crawl.db"}"\n'
        )
        crawl(job)
    fast_done = max(t for p, t in fast.hits if p.startswith("/static/"))
    slow_times = sorted(t for p, t in slow.hits if p.startswith("/static/"))
    assert len(slow_times) == 6
    # The fast host finished while the slow one was still waiting out its Crawl-delay.
    assert fast_done < slow_times[2]


@pytest.mark.browser
def test_auto_mode_renders_only_what_needs_it(tmp_path, port):
    site = JsSite(pages=12)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(
            tmp_path,
            base,
            rendering={"mode": "auto", "wait_until": "networkidle", "auto_sample_pages": 2},
            politeness={"concurrency": 2, "per_host_concurrency": 2},
        )
        summary = crawl(job)
    via = dict(rows(tmp_path / "crawl.db", "SELECT url, via FROM pages"))
    static = [u for u in via if "/static/" in u]
    dynamic = [u for u in via if "/p/" in u]
    assert len(static) == 12 and len(dynamic) == 12
    # Never plain HTTP: rendered, or built from their JSON by the API shortcut once it learned how.
    assert all(via[u] in ("browser", "api") for u in dynamic)
    # After two compared samples the static shape goes over plain HTTP.
    assert sum(via[u] == "http" for u in static) >= 8
    assert summary["adaptive"][f"127.0.0.1:{port}/static/{{id}}"] == "http"
    text = dict(rows(tmp_path / "crawl.db", "SELECT url, text FROM pages"))
    assert all(site.text_of(int(u.rsplit("/", 1)[1])) in text[u] for u in static + dynamic)


@pytest.mark.browser
def test_auto_mode_fetches_waiting_pages_once_and_reuses_one_warm_tab(tmp_path, port):
    """Pages waiting for their shape's verdict are fetched over HTTP meanwhile and that fetch is
    kept (no second request); the few renders reuse the warm tab instead of opening one each."""
    site = JsSite(pages=40, fanout=8)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(
            tmp_path,
            base + "/static/0",
            rendering={"mode": "auto", "auto_sample_pages": 2, "auto_recheck_every": 5},
            politeness={"concurrency": 8, "per_host_concurrency": 8},
        )
        job.write_text(job.read_text().replace('/static/0/"', '/static/0"'))
        summary = crawl(job)
    via = dict(rows(tmp_path / "crawl.db", "SELECT url, via FROM pages"))
    assert len(via) == 40
    hits = collections.Counter(p for p, _ in site.hits if p.startswith("/static/"))
    for url, how in via.items():
        path = url.split(str(port), 1)[1]
        # An HTTP page was requested once; a compared page twice (HTTP and browser).
        assert hits[path] == (1 if how == "http" else 2), (path, how, hits[path])
    assert summary["via_browser"] <= 2 + 4  # two samples, re-checks one at a time
    assert summary["tabs_opened"] <= 3, summary  # warm tab + two samples at once, at most


def test_resume_after_kill_9_loses_and_duplicates_nothing(tmp_path, port, crawl_db):
    site = JsSite(pages=60, fanout=4)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(
            tmp_path,
            base + "/static/0",
            crawl_db,
            rendering={"mode": "http"},
            politeness={"delay_seconds": 0.02, "per_host_concurrency": 2},
        )
        job.write_text(job.read_text().replace('/static/0/"', '/static/0"'))
        db = crawl_db
        for stop_at in (5, 17, 33):
            proc = subprocess.Popen(
                [*BC, "crawl", str(job), "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            while proc.poll() is None:
                if count_pages(db) >= stop_at:
                    proc.kill()  # SIGKILL: no clean-up at all
                    break
            proc.wait()
        assert rows(db, "SELECT COUNT(*) FROM pages")[0][0] < 60
        done = subprocess.run([*BC, "crawl", str(job), "--quiet"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    urls = [u for (u,) in rows(db, "SELECT url FROM pages")]
    assert len(urls) == len(set(urls)) == 60
    assert set(urls) == {f"{base}/static/{i}" for i in range(60)}
    assert rows(db, "SELECT state, COUNT(*) FROM frontier GROUP BY state") == [("done", 60)]


@pytest.mark.browser
def test_resume_after_kill_9_in_the_browser(tmp_path, port):
    site = JsSite(pages=30)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(
            tmp_path,
            base + "/p/0",
            rendering={"wait_until": "networkidle"},
            politeness={"concurrency": 4},
            scope={"allow": ["/p/"]},
        )
        job.write_text(job.read_text().replace('/p/0/"', '/p/0"'))
        db = tmp_path / "crawl.db"
        proc = subprocess.Popen(
            [*BC, "crawl", str(job), "--quiet"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        while proc.poll() is None:
            try:
                if db.exists() and rows(db, "SELECT COUNT(*) FROM pages")[0][0] >= 8:
                    break
            except sqlite3.OperationalError:
                pass
        import os
        import signal

        os.killpg(proc.pid, signal.SIGKILL)  # the crawler and its Chromium, mid-render
        proc.wait()
        done = subprocess.run([*BC, "crawl", str(job), "--quiet"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    urls = [u for (u,) in rows(db, "SELECT url FROM pages")]
    assert len(urls) == len(set(urls)) == 30
    assert all(
        site.text_of(int(u.rsplit("/", 1)[1])) in t for u, t in rows(db, "SELECT url, text FROM pages")
    )


def test_max_pages_then_continue(tmp_path, port, crawl_db):
    site = JsSite(pages=20)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base + "/static/0", crawl_db, rendering={"mode": "http"})
        job.write_text(job.read_text().replace('/static/0/"', '/static/0"'))
        first = crawl(job, max_pages=7)
        assert first["pages_total"] == 7 and first["queued_left"] > 0
        second = crawl(job)
        assert second["pages_total"] == 20 and second["pages_stored"] == 13
        if crawl_db.backend == "sqlite":  # --fresh deletes a file; a server's tables stay
            fresh = crawl(job, fresh=True, max_pages=3)
            assert fresh["pages_total"] == 3
        else:
            with pytest.raises(UserError, match="--fresh deletes a SQLite file"):
                crawl(job, fresh=True)


@pytest.mark.browser
def test_headed_crawl_under_xvfb(tmp_path, port, xvfb_display):
    site = JsSite(pages=4)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(
            tmp_path, base + "/p/0", rendering={"wait_until": "networkidle"}, scope={"allow": ["/p/"]}
        )
        job.write_text(job.read_text().replace('/p/0/"', '/p/0"'))
        res = subprocess.run(
            [*BC, "crawl", str(job), "--quiet", "--headed", "--slow-mo", "20"], capture_output=True, text=True
        )
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["pages_total"] == 4


@pytest.mark.browser
def test_trace_saved_for_a_failing_page(tmp_path, port):
    site = JsSite(pages=2)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base + "/p/99", politeness={"max_retries": 0})
        job.write_text(job.read_text().replace('/p/99/"', '/p/99"'))
        # /p/99 is a 404, which is a page, not a failure: point the seed at a closed port instead.
        from tests.conftest import free_port

        job.write_text(job.read_text().replace(f"{base}/p/99", f"http://127.0.0.1:{free_port()}/gone"))
        res = subprocess.run(
            [*BC, "crawl", str(job), "--quiet", "--trace", str(tmp_path / "traces")],
            capture_output=True,
            text=True,
        )
    assert res.returncode == 1, res.stderr  # documented: 1 = some pages failed
    assert json.loads(res.stdout)["failed"] == 1
    traces = list((tmp_path / "traces").glob("*.zip"))
    assert len(traces) == 1 and traces[0].stat().st_size > 1000


def test_export_contract_jsonl_and_csv(tmp_path, port, crawl_db):
    site = JsSite(pages=5)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base + "/static/0", crawl_db, rendering={"mode": "http"})
        job.write_text(job.read_text().replace('/static/0/"', '/static/0"'))
        crawl(job)
    db = crawl_db
    out = subprocess.run(
        [*BC, "export", str(db), "--table", "pages", "--format", "jsonl"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    objs = [json.loads(line) for line in out.splitlines()]
    assert len(objs) == 5
    for o in objs:
        assert {"url", "status", "title", "text", "fetched_at"} <= set(o)
        assert o["status"] == 200 and o["url"].startswith(base)
    csv_path = tmp_path / "pages.csv"
    subprocess.run(
        [*BC, "export", str(db), "--format", "csv", "--out", str(csv_path)], check=True, capture_output=True
    )
    assert csv_path.read_text().splitlines()[0].startswith("id,url,requested_url,status")
    assert len(csv_path.read_text().splitlines()) == 6
    st = json.loads(
        subprocess.run([*BC, "stats", str(db), "--json"], capture_output=True, text=True, check=True).stdout
    )
    assert st["tables"]["pages"] == 5 and st["frontier"] == {"done": 5}


def test_parse_job_minimal_contract():
    job = parse_job({"seeds": ["http://127.0.0.1:8000/"], "output": {"database": "crawl.db"}}, Path("j.toml"))
    assert job.scope.mode == "same-host" and job.rendering.mode == "browser"
    assert job.politeness.obey_robots is True


@pytest.mark.browser
def test_contexts_and_tabs_recycle_under_concurrency(tmp_path, port):
    """Contexts retire while their tabs close concurrently; no page is lost to the recycling."""
    site = JsSite(pages=60)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(
            tmp_path,
            base + "/static/0",
            politeness={"concurrency": 8, "per_host_concurrency": 8},
            rendering={"pages_per_context": 7, "uses_per_page": 3, "wait_until": "domcontentloaded"},
        )
        job.write_text(job.read_text().replace('/static/0/"', '/static/0"'))
        summary = crawl(job)
    assert summary["failed"] == 0 and summary["pages_total"] == 60
    # A draining context finishes the pages its open tabs already hold (up to concurrency - 1 more).
    assert summary["contexts_opened"] >= 60 // (7 + 7) and summary["tabs_opened"] >= 60 // 3
