"""Guards around a crawl's database and its limits: one crawl per database at a time (an OS lock),
a full disk stops the crawl in one line and the next run resumes, ``--max-pages`` counts stored
pages, and a crawl whose every seed robots.txt forbids says which rule did and exits non-zero."""

from __future__ import annotations

import resource
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from aiohttp import web

from tests.apps.jssite import JsSite
from tests.apps.server import serve_in_thread

BC = [sys.executable, "-m", "browsercrawl"]


def write_job(folder: Path, seeds: list[str], extra: str = "") -> Path:
    path = folder / "job.toml"
    quoted = ", ".join(f'"{s}"' for s in seeds)
    path.write_text(f'seeds = [{quoted}]\n{extra}\n[output]\ndatabase = "crawl.db"\n')
    return path


def pages(db: Path) -> tuple[int, int]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT COUNT(*), COUNT(DISTINCT url) FROM pages").fetchone()


HTTP = '[rendering]\nmode = "http"\n'


def test_a_second_crawl_of_the_same_job_refuses_and_the_lock_dies_with_the_first(tmp_path, port):
    site = JsSite(pages=40)
    with serve_in_thread(site.app(), port) as base:
        job = write_job(tmp_path, [f"{base}/static/0"], HTTP + "[politeness]\ndelay_seconds = 0.5\n")
        first = subprocess.Popen([*BC, "crawl", "-q", str(job)], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        try:
            lock = tmp_path / "crawl.db.lock"
            deadline = time.monotonic() + 120
            while not (lock.exists() and lock.read_text().strip()) and time.monotonic() < deadline:
                if first.poll() is not None:
                    raise AssertionError(f"the first crawl ended early: {first.stderr.read()}")
                time.sleep(0.05)
            second = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True,
                                    timeout=300)
            assert first.poll() is None, "the first crawl must still run for this test to mean anything"
            assert second.returncode == 2, second.stderr
            assert second.stderr.count("\n") == 1 and "Traceback" not in second.stderr
            assert f"crawl.db: another crawl (pid {first.pid}) is writing to this database" in second.stderr
        finally:
            first.send_signal(signal.SIGKILL)  # the kernel drops its lock: no stale lock file to clean
            first.wait(60)
        resumed = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=600)
        assert resumed.returncode == 0, resumed.stderr
    assert pages(tmp_path / "crawl.db") == (40, 40)


def _file_size_limit(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_stops_the_crawl_in_one_line_and_the_next_run_resumes(tmp_path, port):
    """The crawl's files may not grow past 300 kB (as on a full disk): one line, exit 4, and what was
    committed before is kept and completed by the next run, with no page stored twice."""
    site = JsSite(pages=600)
    with serve_in_thread(site.app(), port) as base:
        job = write_job(tmp_path, [f"{base}/static/0"], HTTP + "[politeness]\nconcurrency = 4\n")
        full = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=600,
                              preexec_fn=_file_size_limit(300_000))
        assert full.returncode == 4, full.stderr
        assert full.stderr.count("\n") == 1 and "Traceback" not in full.stderr, full.stderr
        assert "crawl.db: cannot write the crawl database" in full.stderr
        assert "run the same command again to resume" in full.stderr
        kept, _ = pages(tmp_path / "crawl.db")
        assert 0 < kept < 600
        resumed = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=600)
        assert resumed.returncode == 0, resumed.stderr
    assert pages(tmp_path / "crawl.db") == (600, 600)


class FailingSite:
    """A home page whose first links fail (HTTP 500) or are forbidden by robots.txt, then good pages."""

    def app(self) -> web.Application:
        async def home(request: web.Request) -> web.Response:
            links = [f"/broken/{i}" for i in range(15)] + [f"/private/{i}" for i in range(15)]
            links += [f"/ok/{i}" for i in range(30)]
            body = "".join(f'<a href="{u}">{u}</a> ' for u in links)
            return web.Response(text=f"<html><title>home</title><body>{body}</body></html>",
                                content_type="text/html")

        async def ok(request: web.Request) -> web.Response:
            return web.Response(text=f"<html><title>ok {request.match_info['i']}</title></html>",
                                content_type="text/html")

        async def broken(request: web.Request) -> web.Response:
            return web.Response(status=500, text="broken")

        async def robots(request: web.Request) -> web.Response:
            return web.Response(text="User-agent: *\nDisallow: /private/\n")

        app = web.Application()
        app.add_routes([web.get("/", home), web.get("/ok/{i}", ok), web.get("/broken/{i}", broken),
                        web.get("/private/{i}", ok), web.get("/robots.txt", robots)])
        return app


def test_max_pages_counts_stored_pages_not_failed_or_skipped_requests(tmp_path, port):
    with serve_in_thread(FailingSite().app(), port) as base:
        job = write_job(tmp_path, [f"{base}/"], HTTP + "[politeness]\nmax_retries = 0\nconcurrency = 2\n")
        res = subprocess.run([*BC, "crawl", "-q", "--max-pages", "12", str(job)],
                             capture_output=True, text=True, timeout=600)
    assert res.returncode == 1, res.stderr  # the broken pages failed
    assert pages(tmp_path / "crawl.db") == (12, 12)
    with closing(sqlite3.connect(tmp_path / "crawl.db")) as conn:
        states = dict(conn.execute("SELECT state, COUNT(*) FROM frontier GROUP BY state").fetchall())
    assert states["failed"] == 15 and states["skipped"] == 15  # all dispatched before the good pages


def test_a_crawl_whose_seeds_robots_txt_all_forbid_names_the_rule_and_fails(tmp_path, port):
    with serve_in_thread(FailingSite().app(), port) as base:
        job = write_job(tmp_path, [f"{base}/private/1", f"{base}/private/2"], HTTP)
        res = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=300)
        assert res.returncode == 2, res.stderr
        assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr, res.stderr
        line = res.stderr
        assert "nothing could be crawled" in line
        for seed in (f"{base}/private/1", f"{base}/private/2"):
            assert f"{seed} disallowed by {base}/robots.txt 'Disallow: /private/'" in line
        # One allowed seed is enough: the crawl stores it and exits 0.
        job = write_job(tmp_path, [f"{base}/private/3", f"{base}/ok/1"], HTTP)
        res = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr


def test_a_crawl_refuses_a_database_another_crawl_holds_on_either_backend(tmp_path, crawl_db):
    """SQLite: the flock beside the file; PostgreSQL: the writer's advisory lock, dropped with its
    connection. Held here by the test, as by a crawl running in another process."""
    job = write_job(tmp_path, ["http://127.0.0.1:1/"], HTTP + "[politeness]\nmax_retries = 0\n")
    job.write_text(job.read_text().replace('"crawl.db"', f'"{crawl_db}"'))
    if crawl_db.backend == "postgresql":
        from browsercrawl.storage.postgres import _WRITER_LOCK, connect

        holder = connect(crawl_db.database)
        assert holder.execute("SELECT pg_try_advisory_lock(%s)", (_WRITER_LOCK,)).fetchone()[0]
        release = holder.close
    else:
        from browsercrawl.storage.lock import DatabaseLock

        release = DatabaseLock(Path(crawl_db.database)).acquire().release
    try:
        res = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=300)
        assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
        assert "another crawl" in res.stderr and "is writing to this database" in res.stderr
    finally:
        release()
    res = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 1, res.stderr  # it ran: its one seed (nothing listens there) failed
