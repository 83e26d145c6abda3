"""Every table the parts write, through the store interface, on SQLite and on PostgreSQL.

Run on both with ``--backends sqlite,postgresql`` (scripts/test.sh does). No browser: the rows
are the ones the parts' hooks produce, written the way the writer writes them.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
import zlib
from collections import Counter
from pathlib import Path

from browsercrawl.ajax.tables import create_ajax_tables, state_row
from browsercrawl.commands.data import all_stats
from browsercrawl.engine.writer import Outcome, commit_outcomes
from browsercrawl.frontier.base import Completion, NewUrl, Request
from browsercrawl.frontier.stores import open_frontier
from browsercrawl.induction.supervised import create_tables as induction_tables
from browsercrawl.social.store import create_tables as social_tables
from browsercrawl.storage.base import redact
from browsercrawl.storage.stores import store_for
from tests.apps.jssite import JsSite
from tests.apps.server import serve_in_thread
from tests.conftest import CrawlDb

BC = [sys.executable, "-m", "browsercrawl"]


def _page(url: str, requested: str | None = None) -> dict:
    return {"url": url, "requested_url": requested or url, "status": 200, "content_type": "text/html",
            "title": "t\x00itle", "text": "some text", "html": b"\x78\x9c", "html_bytes": 2,
            "fetched_at": "2026-01-01T00:00:00+00:00", "depth": 0, "via": "http", "fetch_ms": 1.0,
            "render_ms": 0.0, "links_count": 2, "referrer": None, "kind": None}


def _rows() -> dict[str, list[dict]]:
    """One page's worth of rows of every part (ajax, social, induction), as their hooks make them."""
    state = {"hash": "h1", "path": [{"selector": "#more", "text": "more"}], "text": "state text",
             "html": "<p>x</p>", "links": ["a", "b"]}
    return {
        "responses": [{"url": "http://h/api/1", "method": "GET", "status": 200, "content_type": "json",
                       "page_url": "http://h/p/1", "body": "{}", "bytes": 2, "fetched_at": "now"}],
        "states": [state_row("http://h/p/1", 1, state, "now")],
        "expansions": [{"page_url": "http://h/p/1", "rule": "default", "wait": "load", "wait_ok": True,
                        "waited_ms": 5, "scroll_rounds": 1, "load_more_clicks": 0, "explore_clicks": 1,
                        "states": 1, "nodes_before": 1, "nodes_after": 2, "items_before": 0,
                        "items_after": 1, "blocked_requests": "[]", "budget_hit": False, "total_ms": 9,
                        "responses": 1, "__upsert__": True}],
        "people": [{"id": "ann", "url": "http://h/u/ann", "fields": "{}", "depth": 0, "first_seen": "x",
                    "first_seen_ts": 1.0, "last_visit": "x", "last_visit_ts": 2.0, "visits": 1, "items": 1,
                    "first_item": None, "last_item": None, "rate_per_day": 0.5, "follows": 1,
                    "followed_by": 0, "friends": 0, "__upsert__": True}],
        "relations": [{"kind": "follows", "from_id": "ann", "to_id": "bob", "first_seen": "x",
                       "last_seen": "x", "removed_at": None}],
        "items": [{"person_id": "ann", "item_id": "i1", "time": "x", "time_ts": 1.0, "text": "hi",
                   "data": None, "first_seen": "x"}],
        "visits": [{"person_id": "ann", "at": "x", "at_ts": 2.0, "strategy": "crawl", "p_change": 0.1,
                    "new_items": 1, "new_edges": 1, "removed_edges": 0, "changed": 1}],
        "records": [{"url": "http://h/p/1", "title": "T", "price": "3", "extracted_at": "now",
                     "__upsert__": True}],
        "induction_weights": [{"url": "http://h/p/1", "weight": 2, "__upsert__": True}],
    }


def _outcome(url: str, rows: dict[str, list[dict]], request_id: int | None = None) -> Outcome:
    req = Request(url=url, host="h", id=request_id)
    return Outcome(Completion(req, "done"), page=_page(url),
                   links=[("http://h/a", "a", 1), ("http://h/b", "b", 1)],
                   new_urls=[NewUrl("http://h/a", "h", 1, 1.0, url)], extra_rows=rows)


async def _crawl_rows(crawl_db: CrawlDb, tmp_path: Path) -> None:
    from browsercrawl.config import parse_job

    job = parse_job({"seeds": ["http://h/"], "output": {"database": crawl_db.database}}, tmp_path / "j.toml")
    db = await store_for(crawl_db.database, tmp_path).open()
    create_ajax_tables(db)
    social_tables(db)
    weights: dict[str, int] = {}
    induction_tables(db, ["title"], weights)
    induction_tables(db, ["title", "price"], weights)  # a profile induced again: a new label column
    frontier = await open_frontier(job, db)
    await frontier.prepare([NewUrl("http://h/p/1", "h", 0, 0.0, None)])
    [req] = await frontier.claim("h", 10, 1e12)
    first = _outcome("http://h/p/1", _rows(), req.id)
    hosts, stored, dups = await db.write(lambda tx: commit_outcomes(tx, [first], frontier))
    assert (hosts, stored, dups) == ({"h"}, 1, 0)
    # The same request delivered again (a lease that ran out): nothing of it is written again,
    # not even the rows of tables whose key is a counter (visits).
    again = _outcome("http://h/p/1", _rows(), req.id)
    again.extra_rows["records"][0]["title"] = "changed"
    _, stored, dups = await db.write(lambda tx: commit_outcomes(tx, [again], frontier))
    assert (stored, dups) == (0, 1)
    # Another page: upserts replace, plain inserts of an existing key are ignored.
    rows = _rows()
    rows["records"][0]["title"] = "T2"
    rows["expansions"][0]["waited_ms"] = 7
    rows["people"][0]["visits"] = 2
    await db.write(lambda tx: commit_outcomes(tx, [_outcome("http://h/p/2", rows)], frontier))
    weights.clear()
    induction_tables(db, ["title", "price"], weights)  # reload on resume
    assert weights == {"http://h/p/1": 2}
    assert db.has_table("people") and not db.has_table("nope")
    assert db.read("SELECT visits FROM people WHERE id=?", ("ann",)) == [(2,)]
    await db.close()


def test_part_tables_on_the_backend(crawl_db, tmp_path):
    asyncio.run(_crawl_rows(crawl_db, tmp_path))
    q = crawl_db.rows
    assert q("SELECT COUNT(*) FROM pages") == [(2,)]
    assert q("SELECT COUNT(*) FROM links") == [(4,)]  # two per page, not two more for the re-delivery
    assert q("SELECT COUNT(*) FROM visits") == [(2,)]  # the re-delivery added no visit
    assert q("SELECT id FROM visits ORDER BY id") == [(1,), (2,)]  # counters assigned by the store
    assert q("SELECT title, price FROM records") == [("T2", "3")]
    assert q("SELECT waited_ms, wait_ok, budget_hit FROM expansions") == [(7, 1, 0)]
    assert q("SELECT COUNT(*) FROM items") == [(1,)] and q("SELECT COUNT(*) FROM relations") == [(1,)]
    # PostgreSQL text cannot hold NUL: the store drops it (SQLite keeps it).
    want = "title" if crawl_db.backend == "postgresql" else "t\x00itle"
    assert q("SELECT title FROM pages WHERE url='http://h/p/1'") == [(want,)]
    assert zlib.decompress(bytes(q("SELECT html FROM states")[0][0])) == b"<p>x</p>"
    states = q("SELECT state, COUNT(*) FROM frontier GROUP BY state ORDER BY state")
    assert states == [("done", 1), ("queued", 1)]
    # stats (with the social part's graph figures) and export read the same on both backends.
    stats = all_stats(crawl_db.database)
    assert stats["tables"]["pages"] == 2 and stats["graph"]["edges"] == 1
    out = subprocess.run([*BC, "export", crawl_db.database, "--table", "records"], capture_output=True,
                         text=True, check=True).stdout
    assert [json.loads(line)["title"] for line in out.splitlines()] == ["T2"]
    graph = tmp_path / "edges.csv"
    subprocess.run([*BC, "export", crawl_db.database, "--graph", str(graph)], check=True, capture_output=True)
    assert graph.read_text().splitlines()[1].startswith("follows,ann,bob")


def test_bad_database_arguments_are_one_line(tmp_path, pg_server):
    res = subprocess.run([*BC, "stats", "mysql://x/y"], capture_output=True, text=True)
    assert res.returncode == 2 and "not a SQLite file or a postgresql:// URL" in res.stderr
    empty = pg_server.create_database("empty_for_stats")
    res = subprocess.run([*BC, "export", empty], capture_output=True, text=True)
    assert res.returncode == 2 and "no crawl database there" in res.stderr
    res = subprocess.run([*BC, "stats", "postgresql://nobody:secret@127.0.0.1:9/x"], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 2 and "cannot connect to PostgreSQL" in res.stderr
    assert "secret" not in res.stderr and "Traceback" not in res.stderr
    assert redact("postgresql://u:pw@h:5/db") == "postgresql://u:***@h:5/db"


def test_a_closed_postgresql_store_frees_the_writer_lock_at_once(pg_database, tmp_path) -> None:
    """A crawl started right after another ended was refused ("another crawl is writing") while
    the server was still tearing down the old connection, which alone released its session lock."""
    from browsercrawl.storage.stores import store_for

    async def go() -> None:
        for _ in range(50):
            first = await store_for(pg_database, tmp_path).open()
            assert await first.claim_single_writer()
            await first.close()
            second = await store_for(pg_database, tmp_path).open()
            try:
                assert await second.claim_single_writer()
            finally:
                await second.close()

    asyncio.run(go())


def test_a_transaction_the_server_rolls_back_for_a_deadlock_runs_again(pg_database, tmp_path) -> None:
    """Two workers writing the same keys in opposite orders deadlock, and PostgreSQL rolls one of
    them back. The store runs it again, so both batches land; a worker's writer used to die here,
    and the worker then waited for its commits forever."""
    both_hold_one = threading.Barrier(2)
    runs: Counter[str] = Counter()

    def batch(name: str, first: str, second: str):
        def write(tx) -> None:
            runs[name] += 1
            tx.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING", (first, name))
            if runs[name] == 1:  # each holds one key the other wants next: a deadlock, every time
                both_hold_one.wait(timeout=300)
            tx.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING", (second, name))
        return write

    async def go() -> list[tuple]:
        a = await store_for(pg_database, tmp_path).open()
        b = await store_for(pg_database, tmp_path).open()
        try:
            await asyncio.gather(a.write(batch("a", "k1", "k2")), b.write(batch("b", "k2", "k1")))
            return a.read("SELECT key, value FROM meta WHERE key IN ('k1', 'k2') ORDER BY key")
        finally:
            await a.close()
            await b.close()

    rows = asyncio.run(go())
    assert sum(runs.values()) == 3  # one of the two ran again
    winner = rows[0][1]
    assert rows == [("k1", winner), ("k2", winner)]  # one transaction's writes, whole


def _create_part_tables(db) -> None:
    create_ajax_tables(db)
    social_tables(db)
    induction_tables(db, ["title", "price"], {})
    db.ensure_search_index(True)


def test_a_worker_joining_a_running_crawl_waits_for_no_writer(pg_database, tmp_path) -> None:
    """A worker that joined a running crawl opened the store and created its parts' tables and
    search index with ``IF NOT EXISTS`` statements, and the server locks a table before it looks:
    holding one table's lock while it waited for a writer's, it deadlocked with the workers
    already writing (the late worker of the distributed test died of it). On a complete schema
    the join takes no table lock: it never waits on one while a writer holds every table."""
    joined = threading.Event()
    failed: list[BaseException] = []

    def join() -> None:
        try:
            late = store_for(pg_database, tmp_path).open_sync()
            _create_part_tables(late)
            asyncio.run(late.close())
        except BaseException as exc:  # reported by the test below
            failed.append(exc)
        finally:
            joined.set()

    def hold_every_table(tx) -> bool:
        [page_id] = tx.insert_pages([_page("http://h/p/1")])
        tx.insert_links([(page_id, [("http://h/a", "a", 1)])])
        for table, rows in _rows().items():
            tx.insert_rows(table, rows)
        late = threading.Thread(target=join)
        late.start()
        # Until the join is done, look for it waiting on a lock: a table lock this writer holds.
        while not joined.wait(timeout=0.05):
            if tx.execute("SELECT COUNT(*) FROM pg_locks WHERE NOT granted").fetchone()[0]:
                return False  # committing lets the join go on
        return True

    async def go() -> bool:
        db = await store_for(pg_database, tmp_path).open()
        try:
            _create_part_tables(db)
            return await db.write(hold_every_table)
        finally:
            await db.close()

    assert asyncio.run(go()), "the late worker's start waited for a writer's table locks"
    joined.wait(timeout=300)
    assert not failed, failed


def test_rows_given_to_the_store_are_not_changed(crawl_db, tmp_path) -> None:
    """A transaction run again gets the same rows: an upsert must still be an upsert."""
    async def go() -> None:
        db = await store_for(crawl_db.database, tmp_path).open()
        db.ensure_table("records", {"url": str, "title": str}, pk="url")
        rows = [{"url": "http://h/1", "title": "first", "__upsert__": True}]
        await db.write(lambda tx: tx.insert_rows("records", rows))
        rows[0]["title"] = "second"
        await db.write(lambda tx: tx.insert_rows("records", rows))
        assert rows[0]["__upsert__"] is True
        await db.close()

    asyncio.run(go())
    assert crawl_db.rows("SELECT title FROM records") == [("second",)]


def test_a_batch_inserts_its_pages_in_url_order(tmp_path) -> None:
    """The same order in every worker: two batches holding the same pages wait for each other
    rather than deadlock."""
    async def go() -> list[tuple]:
        db = await store_for(str(tmp_path / "c.db"), tmp_path).open()
        job_frontier = _NoFrontier()
        batch = [_outcome(f"http://h/p/{i}", {}) for i in (3, 1, 2)]
        await db.write(lambda tx: commit_outcomes(tx, batch, job_frontier))
        rows = db.read("SELECT url FROM pages ORDER BY id")
        await db.close()
        return rows

    assert asyncio.run(go()) == [("http://h/p/1",), ("http://h/p/2",), ("http://h/p/3",)]


def test_a_batch_of_pages_gets_the_right_ids_links_and_duplicates(crawl_db, tmp_path, monkeypatch) -> None:
    """A batch's pages go in a few statements, not one each: every stored page still gets its own
    links in order, a URL stored by an earlier batch or an earlier row of the same one is a
    duplicate, rows with other columns go in too, and a batch larger than one statement's
    parameters is split (the limit is made small here)."""
    import browsercrawl.storage.db as sqlite_store
    import browsercrawl.storage.postgres as pg_store

    monkeypatch.setattr(sqlite_store, "_MAX_PARAMS", 40)  # two or three pages per statement
    monkeypatch.setattr(pg_store, "_PG_MAX_PARAMS", 40)

    def outcome(url: str, requested: str, n_links: int, *, title: bool = True) -> Outcome:
        page = _page(url, requested)
        if not title:
            del page["title"]
        links = [(f"{url}/l{k}", f"to {k}", k % 2) for k in range(n_links)]
        return Outcome(Completion(Request(url=requested, host="h"), "done"), page=page, links=links)

    async def go() -> tuple[tuple[int, int], list[str | None]]:
        db = await store_for(crawl_db.database, tmp_path).open()
        first = [outcome("http://h/p/00", "http://h/p/00", 1)]
        await db.write(lambda tx: commit_outcomes(tx, first, _NoFrontier()))
        batch = [outcome(f"http://h/p/{i:02d}", f"http://h/p/{i:02d}", i % 4, title=i % 3 != 0)
                 for i in range(1, 12)]
        batch.append(outcome("http://h/p/00", "http://h/p/00", 3))  # stored by the first batch
        batch.append(outcome("http://h/p/05", "http://h/old/05", 2))  # same final URL in the batch
        result = await db.write(lambda tx: commit_outcomes(tx, batch, _NoFrontier()))
        await db.close()
        return (result[1], result[2]), [o.completion.error for o in batch[-2:]]

    (stored, dups), errors = asyncio.run(go())
    assert (stored, dups) == (11, 2)
    assert errors == ["stored already by an earlier delivery of this request",
                      "same final URL as an earlier page: http://h/p/05"]
    pages = crawl_db.rows("SELECT id, url, requested_url, title FROM pages ORDER BY id")
    assert [u for _, u, _, _ in pages] == [f"http://h/p/{i:02d}" for i in range(12)]
    assert len({i for i, _, _, _ in pages}) == 12
    assert {u: r for _, u, r, _ in pages}["http://h/p/05"] == "http://h/p/05"
    assert [t is None for _, _, _, t in pages] == [False] + [i % 3 == 0 for i in range(1, 12)]
    links = crawl_db.rows("SELECT p.url, l.url, l.text, l.in_scope FROM links l "
                          "JOIN pages p ON p.id = l.page_id ORDER BY p.url, l.rowid"
                          if crawl_db.backend == "sqlite" else
                          "SELECT p.url, l.url, l.text, l.in_scope FROM links l "
                          "JOIN pages p ON p.id = l.page_id ORDER BY p.url, l.ctid")
    want = [(f"http://h/p/{i:02d}", f"http://h/p/{i:02d}/l{k}", f"to {k}", k % 2)
            for i in range(12) for k in range(1 if i == 0 else i % 4)]
    assert links == want


def test_a_batch_without_pages_commits(crawl_db, tmp_path) -> None:
    """A batch of failures and skips (no page, no row) commits its completions and nothing else."""
    async def go() -> tuple:
        db = await store_for(crawl_db.database, tmp_path).open()
        batch = [Outcome(Completion(Request(url=f"http://h/f/{i}", host="h"), "failed", error="gone"))
                 for i in range(3)]
        result = await db.write(lambda tx: commit_outcomes(tx, batch, _NoFrontier()))
        await db.close()
        return result

    assert asyncio.run(go()) == (None, 0, 0)
    assert crawl_db.rows("SELECT COUNT(*) FROM pages") == [(0,)]


def test_hook_rows_keep_their_order_and_verbs_in_few_statements(crawl_db, tmp_path, monkeypatch) -> None:
    """Runs of rows with the same columns share a statement: the first of two plain rows with one
    key stays, the last of two upserts wins, and rows with other columns or over one statement's
    parameters (made small here) still go in."""
    import browsercrawl.storage.db as sqlite_store
    import browsercrawl.storage.postgres as pg_store

    monkeypatch.setattr(sqlite_store, "_MAX_PARAMS", 7)  # three rows of two columns per statement
    monkeypatch.setattr(pg_store, "_PG_MAX_PARAMS", 7)

    rows = [{"url": f"http://h/{i}", "title": f"t{i}"} for i in range(8)]
    rows += [{"url": "http://h/1", "title": "ignored"},
             {"url": "http://h/2", "title": "up-1", "__upsert__": True},
             {"url": "http://h/2", "title": "up-2", "__upsert__": True},
             {"url": "http://h/9"},
             {"url": "http://h/9", "title": "ignored too"},
             {"url": "http://h/3", "title": "up-3", "__upsert__": True}]

    async def go() -> None:
        db = await store_for(crawl_db.database, tmp_path).open()
        db.ensure_table("records", {"url": str, "title": str}, pk="url")
        await db.write(lambda tx: tx.insert_rows("records", rows))
        await db.close()

    asyncio.run(go())
    got = dict(crawl_db.rows("SELECT url, title FROM records"))
    want = {f"http://h/{i}": f"t{i}" for i in range(8)}
    want.update({"http://h/2": "up-2", "http://h/3": "up-3", "http://h/9": None})
    assert got == want


class _NoFrontier:
    """A frontier told after the commit (as Redis is): nothing of it in the transaction."""

    def record(self, tx, new_urls, completions) -> None:
        return None


def test_a_write_the_server_refuses_stops_the_crawl_in_one_line_and_the_next_run_resumes(
        pg_database, tmp_path, port) -> None:
    """A failure the writer did not expect (here a trigger that refuses pages past 40) ends the
    crawl with one line and exit 4, instead of a writer that dies and a crawl that never ends."""
    db = CrawlDb("postgresql", pg_database)
    with serve_in_thread(JsSite(pages=300, fanout=4).app(), port) as base:
        job = _http_job(tmp_path, base, pg_database, "concurrency = 4")
        first = subprocess.run([*BC, "crawl", "-q", "--max-pages", "5", str(job)], capture_output=True,
                               text=True, timeout=600)
        assert first.returncode == 0, first.stderr
        refuse = ("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                  "IF (SELECT COUNT(*) FROM pages) >= 40 THEN RAISE EXCEPTION 'no room for %', NEW.url; "
                  "END IF; RETURN NEW; END $$",
                  "CREATE TRIGGER refuse BEFORE INSERT ON pages FOR EACH ROW EXECUTE FUNCTION refuse()")
        _execute(pg_database, refuse)
        failed = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=600)
        assert failed.returncode == 4, failed.stderr
        assert failed.stderr.count("\n") == 1 and "Traceback" not in failed.stderr, failed.stderr
        assert "cannot write a batch of" in failed.stderr and "no room for" in failed.stderr, failed.stderr
        assert "run the same command again to resume" in failed.stderr
        [(kept,)] = db.rows("SELECT COUNT(*) FROM pages")
        # The batches committed before the refused one: the trigger lets the 40th page in (it
        # counts the pages already there), so a batch that ends on it commits whole.
        assert 5 <= kept <= 40
        _execute(pg_database, ("DROP TRIGGER refuse ON pages",))
        resumed = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=600)
        assert resumed.returncode == 0, resumed.stderr
    assert db.rows("SELECT COUNT(*), COUNT(DISTINCT url) FROM pages") == [(300, 300)]


def _http_job(tmp_path: Path, base: str, database: str, politeness: str) -> Path:
    """A job crawling the site's static pages over HTTP into ``database``."""
    job = tmp_path / "job.toml"
    job.write_text(f'seeds = ["{base}/static/0"]\n[rendering]\nmode = "http"\n'
                   f'[politeness]\n{politeness}\n[output]\ndatabase = "{database}"\n')
    return job


def _pages(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('pages')").fetchone()[0] is None:
            return 0  # the crawl has not created its tables yet
        return conn.execute("SELECT COUNT(*) FROM pages").fetchone()[0]


def _execute(url: str, statements: tuple[str, ...]) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for stmt in statements:
            conn.execute(stmt)


def test_a_postgresql_connection_cut_mid_crawl_ends_it_in_one_line_and_the_next_run_resumes(
        pg_database, tmp_path, port) -> None:
    """The server ends the crawl's session (a restart, an administrator, a failover): whichever call
    meets it, a commit or a claim, the crawl stops with one line naming the database and exit 4."""
    import psycopg

    db = CrawlDb("postgresql", pg_database)
    with serve_in_thread(JsSite(pages=400, fanout=4).app(), port) as base:
        job = _http_job(tmp_path, base, pg_database, "concurrency = 2\ndelay_seconds = 0.02")
        crawl = subprocess.Popen([*BC, "crawl", "-q", str(job)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        while _pages(pg_database) < 30:
            assert crawl.poll() is None, crawl.communicate()[1][-2000:]
            time.sleep(0.05)
        with psycopg.connect(pg_database, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        _, err = crawl.communicate(timeout=300)
        assert crawl.returncode == 4, err[-2000:]
        assert err.count("\n") == 1 and "Traceback" not in err, err[-2000:]
        assert "postgresql://postgres@127.0.0.1:" in err and "run the same command again" in err, err
        resumed = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=600)
        assert resumed.returncode == 0, resumed.stderr
    assert db.rows("SELECT COUNT(*), COUNT(DISTINCT url) FROM pages") == [(400, 400)]


def test_a_conflict_left_after_the_retries_is_not_called_a_lost_connection(tmp_path) -> None:
    """psycopg counts a deadlock an ``OperationalError``, as it does a dropped connection: the
    crawl said "the connection was lost" of a deadlock, and told the user to wait for a server
    that was up all along."""
    import psycopg

    from browsercrawl.config import parse_job
    from browsercrawl.frontier.stores import lost_server

    job = parse_job({"seeds": ["http://h/"]}, tmp_path / "j.toml")
    store = store_for("postgresql://u:pw@127.0.0.1:5/db", tmp_path)
    conflict = lost_server(psycopg.errors.DeadlockDetected("deadlock detected"), job, store)
    assert conflict is not None and "conflicts with other workers (deadlock detected)" in str(conflict)
    assert "lost" not in str(conflict) and "pw" not in str(conflict)
    dropped = lost_server(psycopg.OperationalError("server closed the connection"), job, store)
    assert dropped is not None and "the connection was lost" in str(dropped)
    assert lost_server(ValueError("x"), job, store) is None
