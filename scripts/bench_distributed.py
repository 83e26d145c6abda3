#!/usr/bin/env python3
"""Benchmark distributed crawls: 1, 2 and 3 workers (Redis + PostgreSQL) beside the one-process SQLite crawl.

Usage: .venv/bin/python scripts/bench_distributed.py [--http-pages 1500] [--browser-pages 200]
                                                     [--workers 1,2,3] [--json OUT] [--quick]

What it does: serves the benchmark shop (scripts/bench/site.py) with nginx on 127.0.0.1, starts a
real Redis and a real PostgreSQL on loopback (browsercrawl_demo.services; PostgreSQL with its
default durability: fsync and synchronous commit on), then crawls the site in HTTP mode and in
browser mode: once as one process into SQLite (the default), then with 1, 2 and 3 worker processes
sharing the crawl through Redis and PostgreSQL. Every crawl must store every item page exactly
once. It samples every worker's process tree, the Redis server and the PostgreSQL server from
/proc, and prints per run:

* pages/s over the crawl window (first to last request nginx saw);
* crawler CPU ms per page (all worker processes and their Chromium, start-up included);
* Redis and PostgreSQL *server* CPU ms per page (what limits how many workers one server carries);
* Redis and store *client* wait per page, as the workers measured it (round trips included);

then the memory figures the 100-worker / 100-million-URL estimate needs: Redis bytes per queued
URL and for the seen-set, PostgreSQL bytes per stored page. The machine has 2 cores shared with
other work: workers beyond the cores compete for CPU, so compare ratios from one run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "demo"))
sys.path.insert(0, str(ROOT))

from bench import site  # noqa: E402
from bench.sampler import TreeSampler  # noqa: E402
from bench.server import SiteServer  # noqa: E402
from browsercrawl_demo.services import PostgresServer, RedisServer  # noqa: E402

WORK = Path("/tmp/bc-bench-distributed")
SITE_ROOT = Path("/tmp/bc-bench-site")
CONCURRENCY = 4  # per worker process (and for the one-process crawl)


@dataclass
class Run:
    name: str
    mode: str
    workers: int  # 0: the one-process SQLite crawl
    pages: int
    stored_once: bool
    window_s: float
    pages_per_s: float
    cpu_ms_per_page: float
    redis_cpu_ms_per_page: float
    pg_cpu_ms_per_page: float
    redis_wait_ms_per_page: float
    store_wait_ms_per_page: float
    redis_calls_per_page: float
    note: str = ""


def job_toml(seed: str, mode: str, database: str, redis_url: str | None, name: str) -> str:
    allow = "^" + re.escape(seed.rsplit("/", 1)[0] + "/") + r"\d+$"
    lines = [
        f'name = "{name}"', f"seeds = [{json.dumps(seed)}]",
        "[scope]", f"allow = [{json.dumps(allow)}]",
        "[politeness]", f"concurrency = {CONCURRENCY}", "per_host_concurrency = 64", "obey_robots = false",
        "[rendering]", f'mode = "{mode}"', 'wait_until = "domcontentloaded"',
        f"wait_for_selector = {json.dumps(site.READY_SELECTOR)}",
        "[output]", f"database = {json.dumps(database)}",
    ]
    if redis_url:
        lines += ["[distributed]", f'redis = "{redis_url}"', "lease_seconds = 30"]
    return "\n".join(lines) + "\n"


def _cpu_seconds(pid: int) -> float:
    """CPU time of one process (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pg_cpu(pg: PostgresServer) -> float:
    """CPU of the PostgreSQL server: the postmaster with its reaped backends, plus its live children."""
    tck = os.sysconf("SC_CLK_TCK")
    stats: dict[int, list[str]] = {}
    master = None
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stats[int(name)] = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
            argv = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
            # the postmaster itself (as root it is started through runuser, whose argv names it too)
            if master is None and argv[0].endswith(b"/postgres") and str(pg.data).encode() in argv:
                master = int(name)
    if master is None:
        return 0.0
    total = sum(int(f) for f in stats[master][11:15])  # its own time and its reaped children's
    for fields in stats.values():
        if int(fields[1]) == master:
            total += int(fields[11]) + int(fields[12])
    return total / tck


def run_crawl(name: str, mode: str, workers: int, n: int, server: SiteServer, redis: RedisServer,
              pg: PostgresServer, variant: str) -> Run:
    run_dir = WORK / name
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    seed = site.seed(server.port, n, variant)
    if workers:
        database = pg.create_database(re.sub(r"\W", "_", name))
        job = job_toml(seed, mode, database, redis.url, name)
    else:
        database = str(run_dir / "crawl.db")
        job = job_toml(seed, mode, database, None, name)
    (run_dir / "job.toml").write_text(job)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'demo'}"}
    cmd = [sys.executable, "-m", "browsercrawl", "crawl", "job.toml", "--quiet"]
    if workers:
        cmd.append("--worker")
    offset = server.offset()
    redis_cpu0, pg_cpu0 = _cpu_seconds(redis.proc.pid), _pg_cpu(pg)
    procs, samplers, outs = [], [], []
    for i in range(max(1, workers)):
        out = open(run_dir / f"out{i}.json", "w")  # noqa: SIM115 - closed below
        err = open(run_dir / f"err{i}.txt", "w")  # noqa: SIM115
        outs.append((out, err))
        p = subprocess.Popen(cmd, cwd=run_dir, env=env, stdout=out, stderr=err, start_new_session=True)
        procs.append(p)
        s = TreeSampler(p.pid)
        s.start()
        samplers.append(s)
    timeout = 300 + n * (2.0 if mode == "browser" else 0.3)
    deadline = time.monotonic() + timeout
    note = ""
    for p in procs:
        while True:
            info = os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if info is not None:
                break
            if time.monotonic() > deadline:
                note = f"killed after {timeout:.0f}s"
                os.killpg(p.pid, 9)
                break
            time.sleep(0.05)
    cpu = sum(s.stop().cpu_seconds for s in samplers)
    codes = [p.wait() for p in procs]
    for out, err in outs:
        out.close()
        err.close()
    redis_cpu = _cpu_seconds(redis.proc.pid) - redis_cpu0
    pg_cpu = _pg_cpu(pg) - pg_cpu0
    win = server.window(offset, f"/n{n}/{variant}/item/")
    summaries = []
    for i in range(len(procs)):
        with contextlib.suppress(ValueError):
            summaries.append(json.loads((run_dir / f"out{i}.json").read_text()))
    if any(codes) and not note:
        note = f"exit codes {codes}"
    from browsercrawl.storage.reader import open_reader

    reader = open_reader(database)
    urls = [u for (u,) in reader.execute("SELECT url FROM pages").fetchall()]
    reader.close()
    stored_once = len(urls) == len(set(urls)) == n
    pages = len(win.pages) if win else 0
    total_pages = max(1, sum(s.get("pages_stored", 0) for s in summaries))

    def per_page(key: str) -> float:
        weighted = sum(s.get("backends", {}).get(key, 0.0) * s.get("pages_stored", 0) for s in summaries)
        return round(weighted / total_pages, 3)

    return Run(
        name=name, mode=mode, workers=workers, pages=pages, stored_once=stored_once,
        window_s=round(win.seconds, 2) if win else 0.0,
        pages_per_s=round(pages / win.seconds, 1) if win else 0.0,
        cpu_ms_per_page=round(cpu * 1000 / max(pages, 1), 1),
        redis_cpu_ms_per_page=round(redis_cpu * 1000 / max(pages, 1), 3) if workers else 0.0,
        pg_cpu_ms_per_page=round(pg_cpu * 1000 / max(pages, 1), 3) if workers else 0.0,
        redis_wait_ms_per_page=per_page("redis_ms_per_page"),
        store_wait_ms_per_page=per_page("store_ms_per_page"),
        redis_calls_per_page=per_page("redis_calls_per_page"),
        note=note,
    )


def memory_figures(redis: RedisServer, pg: PostgresServer, n_urls: int, page_db: str) -> dict[str, float]:
    """Redis bytes per queued URL (a real queue of n_urls), per seen-set URL, and PostgreSQL per page."""
    import asyncio

    from browsercrawl.frontier.base import NewUrl
    from browsercrawl.frontier.cluster import Cluster
    from browsercrawl.frontier.redis_frontier import RedisFrontier, bloom_params
    from browsercrawl.frontier.stores import redis_client

    async def fill() -> int:
        c = Cluster(redis_client(redis.url), "bc:memory:", lease_seconds=30, balance_minutes=2,
                    concurrency=4, token_lease=30)
        await c.join()
        f = RedisFrontier(c, n_urls)
        await f.prepare([])
        before = redis.info_memory()
        batch = []
        for i in range(n_urls):
            # 80-character URLs over 50 hosts, with a parent URL as a crawl gives them
            url = f"http://shop{i % 50}.example.com/catalogue/item/{i:09d}?colour=blue&size=large&p=1"
            batch.append(NewUrl(url, f"shop{i % 50}.example.com", 3, 4.0, url[:-4]))
            if len(batch) == 2000:
                await f._push(batch)
                batch = []
        await f._push(batch)
        used = redis.info_memory() - before
        queued = int(await c.r.hget("bc:memory:totals", "queued"))
        bloom = sum([int(await c.r.strlen(k)) async for k in c.r.scan_iter(match="bc:memory:seen:*")])
        await c.leave("finished")
        await c.r.flushdb()
        await c.r.aclose()
        return (used - bloom) / max(queued, 1)

    per_url = asyncio.run(fill())
    shards, bits, _ = bloom_params(100_000_000)
    import psycopg

    with psycopg.connect(page_db) as conn:
        size, pages = conn.execute(
            "SELECT pg_total_relation_size('pages') + pg_total_relation_size('links'), "
            "(SELECT COUNT(*) FROM pages)").fetchone()
    return {
        "redis_bytes_per_queued_url": round(per_url, 1),
        "redis_seen_set_bytes_per_100M": shards * bits / 8,
        "pg_bytes_per_page": round(size / max(pages, 1), 1),
    }


def table(runs: list[Run]) -> str:
    head = ("| run | mode | workers | pages | stored once | pages/s | crawler CPU ms/page | "
            "Redis CPU ms/page | PG CPU ms/page | Redis wait ms/page | store wait ms/page | "
            "Redis calls/page |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for r in runs:
        label = r.name + (f" ({r.note})" if r.note else "")
        workers = str(r.workers) if r.workers else "1 (SQLite)"
        lines.append(f"| {label} | {r.mode} | {workers} | {r.pages} | {'yes' if r.stored_once else 'NO'} | "
                     f"{r.pages_per_s} | {r.cpu_ms_per_page} | {r.redis_cpu_ms_per_page} | "
                     f"{r.pg_cpu_ms_per_page} | {r.redis_wait_ms_per_page} | {r.store_wait_ms_per_page} | "
                     f"{r.redis_calls_per_page} |")
    return "\n".join(lines)


def estimate(runs: list[Run], mem: dict[str, float]) -> list[str]:
    """100 workers and 100 million URLs, from this run's per-page figures."""
    out = []
    for mode in ("http", "browser"):
        one = next((r for r in runs if r.mode == mode and r.workers == 1), None)
        multi = [r for r in runs if r.mode == mode and r.workers]
        if one is None or not multi:
            continue
        redis_ms = max(r.redis_cpu_ms_per_page for r in multi)
        pg_ms = max(r.pg_cpu_ms_per_page for r in multi)
        rate = one.pages_per_s * 100
        out.append(
            f"{mode}: 100 workers like the 1-worker run = {rate:.0f} pages/s; Redis would be busy "
            f"{rate * redis_ms / 1000:.2f} cores (of its 1), PostgreSQL {rate * pg_ms / 1000:.2f} cores; "
            f"one Redis saturates at {1000 / max(redis_ms, 1e-6):.0f} pages/s, "
            f"100M pages take {1e8 / rate / 3600:.1f} h")
    queued = mem["redis_bytes_per_queued_url"] * 1e8 / 2**30
    seen = mem["redis_seen_set_bytes_per_100M"] / 2**20
    pg = mem["pg_bytes_per_page"] * 1e8 / 2**30
    out.append(f"memory at 100M URLs: Redis seen-set {seen:.0f} MiB; Redis queue {queued:.1f} GiB if all "
               f"100M were queued at once ({mem['redis_bytes_per_queued_url']:.0f} B/URL); PostgreSQL "
               f"{pg:.0f} GiB of pages+links ({mem['pg_bytes_per_page']:.0f} B/page on this site)")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--http-pages", type=int, default=None)
    ap.add_argument("--browser-pages", type=int, default=None)
    ap.add_argument("--workers", default="1,2,3")
    ap.add_argument("--modes", default="http,browser")
    ap.add_argument("--queue-urls", type=int, default=100_000, help="URLs queued for the memory figure")
    ap.add_argument("--quick", action="store_true", help="300 HTTP and 40 browser pages")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    http_n = args.http_pages or (300 if args.quick else 1500)
    browser_n = args.browser_pages or (40 if args.quick else 200)
    counts = [int(w) for w in args.workers.split(",") if w.strip()]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    sizes = sorted({http_n, browser_n})
    site.build(SITE_ROOT, sizes)
    WORK.mkdir(parents=True, exist_ok=True)
    server = SiteServer(SITE_ROOT, WORK / "server").start()
    redis = RedisServer().start()
    pg = PostgresServer(durable=True).start()
    runs: list[Run] = []
    try:
        for mode in modes:
            n, variant = (http_n, "html") if mode == "http" else (browser_n, "js")
            runs.append(run_crawl(f"{mode}-sqlite", mode, 0, n, server, redis, pg, variant))
            print(table(runs[-1:]).splitlines()[-1], flush=True)
            for w in counts:
                runs.append(run_crawl(f"{mode}-{w}w", mode, w, n, server, redis, pg, variant))
                print(table(runs[-1:]).splitlines()[-1], flush=True)
        page_db = next((pg.url(re.sub(r"\W", "_", r.name)) for r in runs if r.workers), pg.url())
        mem = memory_figures(redis, pg, args.queue_urls, page_db)
    finally:
        server.stop()
        redis.stop()
        pg.stop()
    print()
    print(table(runs))
    print()
    print("memory:", json.dumps(mem))
    for line in estimate(runs, mem):
        print(line)
    if args.json:
        args.json.write_text(json.dumps({"runs": [asdict(r) for r in runs], "memory": mem}, indent=2))
    return 0 if all(r.stored_once and not r.note for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
