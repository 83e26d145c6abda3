"""Workers on several processes sharing one crawl through a real Redis and a real PostgreSQL.

The servers are started by the fixtures on loopback (tests/conftest.py); each test uses its own
crawl name in Redis and its own PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from browsercrawl.frontier.base import NewUrl
from browsercrawl.frontier.cluster import Cluster, claim_cap, crawl_status
from browsercrawl.frontier.redis_frontier import RedisFrontier, bloom_params
from browsercrawl.frontier.stores import redis_client
from tests.apps.jssite import JsSite
from tests.apps.server import serve_in_thread
from tests.conftest import CrawlDb

BC = [sys.executable, "-m", "browsercrawl"]
_names = itertools.count()


def dist_job(tmp_path: Path, base: str, redis_url: str, database: str, *, lease: float = 3.0,
             politeness: str = "", seed: str = "/static/0") -> Path:
    name = f"t{os.getpid()}-{next(_names)}"
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\nseeds = ["{base}{seed}"]\n[rendering]\nmode = "http"\n'
        f"[politeness]\n{politeness}\n"
        f'[output]\ndatabase = "{database}"\n'
        f'[distributed]\nredis = "{redis_url}"\nlease_seconds = {lease}\nseen_capacity = 100000\n'
    )
    return path


def start_worker(job: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([*BC, "crawl", str(job), "--worker", "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def pages(db: CrawlDb) -> int:
    try:
        return db.rows("SELECT COUNT(*) FROM pages")[0][0]
    except Exception:
        return 0  # the first worker has not created the tables yet


def wait_for_pages(db: CrawlDb, n: int, procs: list[subprocess.Popen[str]], timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while pages(db) < n:
        assert time.monotonic() < deadline, f"fewer than {n} pages after {timeout}s"
        assert any(p.poll() is None for p in procs), "every worker exited early"
        time.sleep(0.05)


def status(job: Path) -> dict:
    res = subprocess.run([*BC, "status", str(job), "--json"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


@pytest.mark.slow
def test_three_workers_one_killed_one_interrupted_one_late_lose_and_duplicate_nothing(
        tmp_path, port, redis_server, pg_database):
    """3,000 pages; kill -9 at a random moment, Ctrl-C on another, a third joins late."""
    site = JsSite(pages=3000, fanout=4)
    db = CrawlDb("postgresql", pg_database)
    rng = random.Random()
    kill_at, stop_at = rng.randint(150, 900), rng.randint(1000, 1600)
    with serve_in_thread(site.app(), port) as base:
        job = dist_job(tmp_path, base, redis_server.url, pg_database,
                       politeness="concurrency = 4\nper_host_concurrency = 12")
        a, b = start_worker(job), start_worker(job)
        wait_for_pages(db, kill_at, [a, b])
        os.kill(a.pid, signal.SIGKILL)  # mid-crawl, claims in flight, no clean-up at all
        a.wait()
        mid = status(job)
        c = start_worker(job)  # the late worker
        wait_for_pages(db, stop_at, [b, c])
        os.kill(b.pid, signal.SIGINT)  # Ctrl-C: finish the pages in flight, give back the rest
        b_out, b_err = b.communicate(timeout=120)
        c_out, c_err = c.communicate(timeout=600)
    note = f"(killed at {kill_at}, stopped at {stop_at} pages)"
    assert b.returncode == 130, b_err[-2000:]
    assert c.returncode == 0, c_err[-2000:]
    b_sum, c_sum = json.loads(b_out), json.loads(c_out)
    assert b_sum["interrupted"] is True
    # Every page stored, exactly once, with its links stored once.
    urls = [u for (u,) in db.rows("SELECT url FROM pages")]
    assert len(urls) == len(set(urls)) == 3000, note
    assert set(urls) == {f"{base}/static/{i}" for i in range(3000)}, note
    links, expected_links = db.rows("SELECT (SELECT COUNT(*) FROM links), SUM(links_count) FROM pages")[0]
    assert links == expected_links, note
    # The late worker took a real share of the work.
    assert c_sum["pages_stored"] >= 300, (c_sum, b_sum, mid, note)
    # The killed worker's claims came back; the registry tells who did what.
    final = status(job)
    states = {w["id"]: w["state"] for w in final["workers"]}
    assert sorted(states.values()) == ["finished", "lost", "stopped"], (states, note)
    assert final["queue"]["queued"] == 0 and final["queue"]["in_flight"] == 0
    assert final["totals"]["done"] >= 3000 and final["live_workers"] == 0
    assert mid["live_workers"] >= 1
    # Nothing was fetched more often than a lost lease explains (the killed worker's claims).
    fetched = sum(1 for p, _ in site.hits if p.startswith("/static/"))
    assert fetched - 3000 <= max(final["totals"]["reclaimed"], 0) + 4 * 4, note


def test_per_host_delay_is_held_across_workers_at_the_server(tmp_path, port, redis_server, pg_database):
    gate = threading.Event()
    site = JsSite(pages=24, fanout=3, hold=gate)
    with serve_in_thread(site.app(), port) as base:
        job = dist_job(tmp_path, base, redis_server.url, pg_database,
                       politeness="delay_seconds = 0.25\nconcurrency = 4\nper_host_concurrency = 4")
        procs = [start_worker(job) for _ in range(3)]
        # On a loaded machine a worker can take seconds to start, and the 24 pages take six: hold the
        # seed until all three have joined, or the first one up may crawl the site alone.
        deadline = time.monotonic() + 240
        while status(job)["live_workers"] < 3:
            assert time.monotonic() < deadline, "three workers did not join"
            assert all(p.poll() is None for p in procs), "a worker exited early"
            time.sleep(0.2)
        gate.set()
        outs = [p.communicate(timeout=300) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err[-2000:]
    starts = sorted(t for p, t in site.hits if p.startswith("/static/"))
    assert len(starts) == 24
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    # Redis spaces the grants by 0.25 s of its clock; between a grant and the request reaching the
    # server each worker process adds its own scheduling delay (over 100 ms now and then on a
    # loaded machine), so the gap after a late request shrinks by that much, but the rate over the
    # crawl is the delay's. Three workers that did not share the delay would fetch three times as
    # fast, and grants handed out together would leave gaps near zero all through the crawl.
    assert starts[-1] - starts[0] >= 23 * 0.25 * 0.97, gaps
    short = [g for g in gaps if g < 0.25 * 0.6]
    assert len(short) <= 2, gaps
    # More than one worker did the work (they share the host, they do not take turns crawling it).
    stored = [json.loads(out)["pages_stored"] for out, _ in outs]
    assert sum(stored) == 24 and sum(1 for n in stored if n) >= 2, stored


def test_worker_needs_a_distributed_section_and_a_shared_store(tmp_path):
    job = tmp_path / "job.toml"
    job.write_text('seeds = ["http://127.0.0.1:9/"]\n[output]\ndatabase = "c.db"\n')
    res = subprocess.run([*BC, "crawl", str(job), "--worker"], capture_output=True, text=True)
    assert res.returncode == 2 and "--worker needs a [distributed] section" in res.stderr
    job.write_text('seeds = ["http://127.0.0.1:9/"]\n[output]\ndatabase = "c.db"\n'
                   '[distributed]\nredis = "redis://127.0.0.1:9/0"\n')
    res = subprocess.run([*BC, "crawl", str(job), "--worker"], capture_output=True, text=True)
    assert res.returncode == 2 and "need a shared store" in res.stderr, res.stderr
    job.write_text('seeds = ["http://127.0.0.1:9/"]\n[distributed]\nredis = "http://x"\n')
    res = subprocess.run([*BC, "crawl", str(job)], capture_output=True, text=True)
    assert res.returncode == 2 and "distributed.redis" in res.stderr and "Traceback" not in res.stderr


def test_unreachable_redis_is_one_line(tmp_path, pg_database):
    from tests.conftest import free_port

    job = tmp_path / "job.toml"
    job.write_text(f'seeds = ["http://127.0.0.1:9/"]\n[output]\ndatabase = "{pg_database}"\n'
                   f'[distributed]\nredis = "redis://127.0.0.1:{free_port()}/0"\n')
    res = subprocess.run([*BC, "crawl", str(job), "--worker"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "cannot connect" in res.stderr and "Traceback" not in res.stderr


# -- the shared frontier and politeness, on a real Redis, without crawling -----------------------


async def _cluster(url: str, prefix: str, *, lease: float = 30.0, concurrency: int = 4) -> Cluster:
    c = Cluster(redis_client(url), prefix, lease_seconds=lease, balance_minutes=2, concurrency=concurrency,
                token_lease=30)
    await c.join()
    return c


async def _close(*clusters: Cluster) -> None:
    for c in clusters:
        await c.leave("finished")
        await c.r.aclose()


async def test_a_hold_stops_every_worker_until_released_or_its_lease_ends(redis_server):
    prefix = f"bc:hold{os.getpid()}-{next(_names)}:"
    a = await _cluster(redis_server.url, prefix, lease=1.0)
    b = await _cluster(redis_server.url, prefix)
    a.hold("h")
    await a._hold_chain
    wait, _ = await b.acquire("h", 0.0)
    assert wait > 0  # another worker is logging in again on this host
    a.unhold("h")
    await a._hold_chain
    wait, token = await b.acquire("h", 0.0)
    assert wait == 0 and token
    await b.release("h", token)
    # A worker that dies holding a host does not hold it forever: the hold ends with its lease.
    a.hold("h")
    await a._hold_chain
    a._hb_task.cancel()  # it stops beating, as if killed
    assert (await b.acquire("h", 0.0))[0] > 0
    await asyncio.sleep(1.3)
    assert (await b.acquire("h", 0.0))[0] == 0
    await _close(a, b)


async def test_host_concurrency_delay_and_retry_after_are_shared(redis_server):
    prefix = f"bc:gate{os.getpid()}-{next(_names)}:"
    a = await _cluster(redis_server.url, prefix)
    b = await _cluster(redis_server.url, prefix)
    a.host_concurrency = b.host_concurrency = 2
    w1, t1 = await a.acquire("h", 0.0)
    w2, t2 = await b.acquire("h", 0.0)
    assert w1 == w2 == 0
    assert (await a.acquire("h", 0.0))[0] > 0  # two in flight on the host, over both workers
    await b.release("h", t2)
    assert (await a.acquire("h", 5.0))[0] == 0  # a slot again; this start sets a 5 s gap
    await a.release("h", t1)
    wait, _ = await b.acquire("h", 0.0)
    assert 4.0 < wait <= 5.0
    await a.pause("other", 30)  # a 429 with Retry-After: 30 seen by a
    wait, _ = await b.acquire("other", 0.0)
    assert 29 < wait <= 30
    await _close(a, b)


async def test_claims_are_capped_by_the_weight_of_recent_pages(redis_server):
    assert claim_cap(0, 0, 32, 4) == 16  # nobody has a weight yet: 4 x concurrency each
    assert claim_cap(30, 40, 32, 4) == 24 and claim_cap(10, 40, 32, 4) == 8
    assert claim_cap(0, 40, 32, 4) == 4  # a stalled worker keeps its own concurrency
    prefix = f"bc:cap{os.getpid()}-{next(_names)}:"
    fast = await _cluster(redis_server.url, prefix)
    slow = await _cluster(redis_server.url, prefix)
    now = time.monotonic()
    fast.finished.extend([now] * 90)
    slow.finished.extend([now] * 10)
    await fast.beat()
    await slow.beat()
    await fast.beat()
    assert (fast.claim_cap, slow.claim_cap) == (29, 4)
    frontier = RedisFrontier(slow, 10_000)
    await frontier.prepare([NewUrl(f"http://h/{i}", "h", 1, 1.0, None) for i in range(50)])
    got = await frontier.claim("h", 16, time.time())
    assert len(got) == 4  # its share, not the 16 it asked for
    fast_frontier = RedisFrontier(fast, 10_000)
    assert len(await fast_frontier.claim("h", 16, time.time())) == 16
    await frontier.unclaim(got)
    await _close(fast, slow)


async def test_seen_set_queues_a_url_once_across_workers(redis_server):
    prefix = f"bc:seen{os.getpid()}-{next(_names)}:"
    a = await _cluster(redis_server.url, prefix)
    b = await _cluster(redis_server.url, prefix)
    fa, fb = RedisFrontier(a, 100_000), RedisFrontier(b, 100_000)
    await fa.prepare([])
    urls = [NewUrl(f"http://h/{i}", "h", 1, 1.0, None) for i in range(500)]
    got = await asyncio.gather(*(f._push(urls[i::3]) for f in (fa, fb) for i in range(3)))
    assert got  # every push ran
    status_now = await crawl_status(a.r, prefix)
    assert status_now["queue"]["queued"] == 500 == status_now["totals"]["discovered"]
    # The filter's size per URL: 43.1 bits at 1e-9, so 100 million URLs take about 539 MB.
    shards, bits, k = bloom_params(100_000_000)
    assert shards == 2 and k == 30 and 530e6 < shards * bits / 8 < 545e6
    await _close(a, b)


async def test_account_pool_is_shared_out_between_workers(redis_server):
    prefix = f"bc:share{os.getpid()}-{next(_names)}:"
    ws = [await _cluster(redis_server.url, prefix) for _ in range(3)]
    shares = [await w.share(4) for w in ws]
    assert sorted(i for s in shares for i in s) == [0, 1, 2, 3]
    assert all(s for s in shares)
    assert [await w.share(2) for w in ws] == [[0], [1], [0]]  # more workers than accounts
    await _close(*ws)


def test_a_redis_that_dies_mid_crawl_ends_the_worker_in_one_line_and_a_new_one_resumes(
        tmp_path, port, pg_database):
    """Redis gone for good mid-crawl: exit 4 and one line naming it (not a traceback); the pages
    committed stay, and the same job on a new, empty Redis completes the crawl, each page once."""
    from browsercrawl_demo.services import RedisServer

    site = JsSite(pages=400, fanout=4)
    db = CrawlDb("postgresql", pg_database)
    redis = RedisServer().start()
    try:
        with serve_in_thread(site.app(), port) as base:
            job = dist_job(tmp_path, base, redis.url, pg_database,
                           politeness="concurrency = 2\ndelay_seconds = 0.02")
            worker = start_worker(job)
            wait_for_pages(db, 50, [worker])
            redis.stop()
            _, err = worker.communicate(timeout=300)
            assert worker.returncode == 4, err[-2000:]
            last = err.strip().splitlines()[-1]
            assert "Traceback" not in err, err[-2000:]
            assert last.startswith("browsercrawl: error: [distributed] redis = redis://127.0.0.1:"), last
            assert "the connection was lost during the crawl" in last and "run the same command again" in last
            [(kept,)] = db.rows("SELECT COUNT(*) FROM pages")
            assert 50 <= kept < 400
            redis = RedisServer().start()  # empty: the seed again, and the store says what is done
            job.write_text(job.read_text().replace(f"redis://127.0.0.1:{_port_of(job)}/0", redis.url))
            again = start_worker(job)
            out, err = again.communicate(timeout=600)
            assert again.returncode == 0, err[-2000:]
    finally:
        redis.stop()
    assert db.rows("SELECT COUNT(*), COUNT(DISTINCT url) FROM pages") == [(400, 400)]
    assert json.loads(out)["pages_stored"] == 400 - kept


def _port_of(job: Path) -> str:
    return job.read_text().split("redis://127.0.0.1:")[1].split("/")[0]


@pytest.mark.browser
@pytest.mark.slow
def test_workers_split_the_accounts_and_hold_the_host_for_all_during_a_relogin(
        tmp_path, redis_server, pg_database):
    """Two workers, two accounts, sessions that die every 15 requests on the demo community."""
    from browsercrawl_demo.app import demo_site_in_thread
    from browsercrawl_demo.auth import password_for
    from browsercrawl_demo.config import DemoConfig

    n = 60
    cfg = DemoConfig(port=0, members=40, require_captcha=False, session_max_requests=15)
    with demo_site_in_thread(cfg) as site:
        members = [m.name for m in site.state.content.members[:2]]
        env = {**os.environ, **{f"BC_PW_{i}": password_for(m, 0) for i, m in enumerate(members)}}
        accounts = "".join(f'[[session.accounts]]\nusername = "{m}"\npassword_env = "BC_PW_{i}"\n'
                           for i, m in enumerate(members))
        job = tmp_path / "job.toml"
        seeds = json.dumps([f"{site.url}/t/{i}" for i in range(1, n + 1)])
        job.write_text(
            f'name = "sessions{os.getpid()}"\nseeds = {seeds}\n'
            "[scope]\nmax_depth = 0\n[politeness]\nconcurrency = 4\nper_host_concurrency = 8\n"
            "retry_backoff_seconds = 0.1\n"
            '[rendering]\ncontexts = 1\nwait_until = "domcontentloaded"\n'
            'block = ["image", "font", "media", "stylesheet", "script"]\n'
            f'[output]\ndatabase = "{pg_database}"\n'
            f'[distributed]\nredis = "{redis_server.url}"\nlease_seconds = 5\n'
            f'[session]\nmethod = "form"\nlogin_url = "{site.url}/login"\n'
            '[session.logged_in]\nselector = "#logout"\n' + accounts)
        procs = [subprocess.Popen([*BC, "crawl", str(job), "--worker", "--quiet"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
        outs = [p.communicate(timeout=600) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err[-2000:]
    sums = [json.loads(out) for out, _ in outs]
    db = CrawlDb("postgresql", pg_database)
    urls = [u for (u,) in db.rows("SELECT url FROM pages")]
    assert len(urls) == len(set(urls)) == n
    assert db.rows("SELECT COUNT(*) FROM pages WHERE url LIKE '%/login%' OR title = 'Log in'") == [(0,)]
    # Each worker logged in only with its own account of the pool.
    used = [{a for a, k in s["session"]["logins_per_account"].items() if k} for s in sums]
    assert len(used[0]) == len(used[1]) == 1 and used[0] != used[1], [s["session"] for s in sums]
    # Sessions died (15 requests each): the worker that saw it held the host for both meanwhile.
    assert sum(s["session"]["relogins"] for s in sums) >= 2
    assert sum(s["backends"]["hosts_held_for_all"] for s in sums) >= 2
    for s in sums:
        blob = json.dumps(s)
        assert all(password_for(m, 0) not in blob for m in members)
