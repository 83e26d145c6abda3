"""The full-text index: kept in each page's transaction (kill -9 leaves it in step with pages),
Chinese found by two-character words, upserts and rebuilds, and the ``search`` command."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from browsercrawl.errors import UserError
from browsercrawl.storage.db import CrawlDatabase
from browsercrawl.storage.reader import open_reader
from browsercrawl.storage.search import SearchQuery, search
from browsercrawl.storage.search_index import cjk_bigrams
from tests.apps.server import serve_in_thread
from tests.apps.textsite import CJK_WORDS, TextSite, unique_word
from tests.conftest import CrawlDb
from tests.test_engine_crawl import count_pages, make_job

BC = [sys.executable, "-m", "browsercrawl"]


def find(database: str, text: str, **kw) -> list:
    reader = open_reader(database)
    try:
        return search(reader, SearchQuery(text=text, **kw))
    finally:
        reader.close()


def page_ids(db: CrawlDb) -> dict[str, int]:
    return {u: i for i, u in db.rows("SELECT id, url FROM pages")}


def assert_index_matches_pages(db: CrawlDb, site: TextSite, base: str) -> None:
    """Every stored page is found by its title's unique word, and the index has no other entry."""
    stored = page_ids(db)
    for url in stored:
        i = int(url.rsplit("/", 1)[1])
        hits = find(db.database, unique_word(i), limit=5)
        assert [h.url for h in hits] == [url], (url, hits)
    if db.backend == "sqlite":
        with sqlite3.connect(db.database) as conn:
            indexed = {r[0] for r in conn.execute("SELECT id FROM pages_fts_docsize")}
            conn.execute("INSERT INTO pages_fts(pages_fts, rank) VALUES ('integrity-check', 1)")
        assert indexed == set(stored.values())
    else:
        assert db.rows("SELECT COUNT(*) FROM pages WHERE search_tsv IS NULL")[0][0] == 0


def test_cjk_bigrams_cover_two_and_one_character_words():
    assert cjk_bigrams("hello 学习中文 ok 好") == "学习 习中 中文 文 好"
    assert cjk_bigrams("no cjk here") == ""


def test_the_bigram_function_is_called_only_for_rows_with_text_beyond_ascii(tmp_path):
    # A call of the Python function from the writing thread's statement waits for the GIL; a page
    # whose text is all ASCII has no bigrams, and SQLite tells so without the call.
    from browsercrawl.storage.db import SqliteTx
    from browsercrawl.storage.search_index import CJK_FUNCTION

    db = CrawlDatabase(tmp_path / "c.db").open_sync()
    db.ensure_search_index()
    calls: list[str] = []

    def counting(text: str | None) -> str:
        calls.append(text or "")
        return cjk_bigrams(text)

    def page(url: str, title: str, text: str) -> dict:
        return {"url": url, "requested_url": url, "title": title, "text": text,
                "fetched_at": "2026-11-24T00:00:00+00:00"}

    def write(conn: sqlite3.Connection) -> None:
        conn.create_function(CJK_FUNCTION, 1, counting, deterministic=True)
        tx = SqliteTx(conn)
        tx.insert_pages([page("http://h/a", "plain", "only ascii words\n\there")])
        tx.insert_pages([page("http://h/b", "caf\u00e9", "no cjk but accents")])
        tx.insert_pages([page("http://h/c", "mixed", "words and \u5b66\u4e60\u4e2d\u6587")])
        conn.commit()

    db._call(write)
    assert len(calls) == 2 and "\u5b66\u4e60" in calls[1]
    assert [h.url for h in find(db.location, "\u5b66\u4e60")] == ["http://h/c"]
    assert [h.url for h in find(db.location, "ascii")] == ["http://h/a"]
    asyncio.run(db.close())


def test_crawled_pages_found_by_title_words_and_chinese_by_two_characters(tmp_path, port, crawl_db):
    site = TextSite(pages=45)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base + "/p/0", crawl_db, rendering={"mode": "http"})
        job.write_text(job.read_text().replace('/p/0/"', '/p/0"'))
        done = subprocess.run([*BC, "crawl", str(job), "--quiet"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["search"]["indexed"] is True
    assert summary["search"]["index_bytes"] > 0
    assert count_pages(crawl_db) == 45
    assert_index_matches_pages(crawl_db, site, base)
    for word in CJK_WORDS:
        want = {f"{base}/p/{i}" for i in range(45) if word in site.cjk_words_of(i)}
        hits = find(crawl_db.database, word, limit=100)
        assert {h.url for h in hits} == want, word
        assert all(f"<mark>{word}</mark>" in h.snippet for h in hits), hits[:2]
    # A Chinese word and a title word together: both must hold.
    hits = find(crawl_db.database, f"{unique_word(3)} {site.cjk_words_of(3)[0]}")
    assert [h.url for h in hits] == [f"{base}/p/3"]
    # Filters: host, URL regex, date.
    assert len(find(crawl_db.database, "page", limit=100, host=f"127.0.0.1:{port}")) == 45
    assert find(crawl_db.database, "page", limit=100, host="elsewhere.example") == []
    only = find(crawl_db.database, "page", limit=100, url_regex=r"/p/1\d$")
    assert {h.url for h in only} == {f"{base}/p/{i}" for i in range(10, 20)}
    assert find(crawl_db.database, "page", since="2999-01-01") == []
    assert len(find(crawl_db.database, "page", limit=100, until="2999")) == 45


def test_kill_9_during_an_indexed_crawl_leaves_search_in_step_with_pages(tmp_path, port, crawl_db):
    site = TextSite(pages=60, fanout=4)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base + "/p/0", crawl_db, rendering={"mode": "http"},
                       politeness={"delay_seconds": 0.02, "per_host_concurrency": 2})
        job.write_text(job.read_text().replace('/p/0/"', '/p/0"'))
        for stop_at in (7, 23, 41):
            proc = subprocess.Popen([*BC, "crawl", str(job), "--quiet"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while proc.poll() is None:
                if count_pages(crawl_db) >= stop_at:
                    proc.kill()  # SIGKILL, between any two statements
                    break
            proc.wait()
            assert_index_matches_pages(crawl_db, site, base)
        done = subprocess.run([*BC, "crawl", str(job), "--quiet"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert count_pages(crawl_db) == 60
    assert_index_matches_pages(crawl_db, site, base)


def _people_store(path: Path) -> None:
    async def run() -> None:
        db = await CrawlDatabase(path).open()
        db.ensure_table("people", {"id": str, "url": str, "fields": str, "last_visit": str}, pk="id")
        db.ensure_table("records", {"url": str, "price": str, "extracted_at": str}, pk="url")
        db.ensure_table("items", {"person_id": str, "item_id": str, "time": str, "text": str, "data": str},
                        pk=("person_id", "item_id"))
        db.ensure_search_index()

        def first(tx) -> None:
            tx.insert_rows("people", [{"id": "wang", "url": "http://h/u/wang", "fields": '{"name": "王小明"}',
                                       "last_visit": "2026-01-01", "__upsert__": True}])
            tx.insert_rows("records", [{"url": "http://h/r/1", "price": "cheap lantern", "__upsert__": True}])
            tx.insert_rows("items", [{"person_id": "wang", "item_id": "1", "text": "went hiking today"}])

        def again(tx) -> None:  # an upsert replaces the row: the old words must leave the index
            tx.insert_rows("people", [{"id": "wang", "url": "http://h/u/wang", "fields": '{"name": "李小龙"}',
                                       "last_visit": "2026-02-01", "__upsert__": True}])
            tx.insert_rows("records", [{"url": "http://h/r/1", "price": "costly lantern",
                                        "__upsert__": True}])

        await db.write(first)
        await db.write(again)
        await db.close()
        # The next run's profile names a new field: the records index covers it from then on.
        db = await CrawlDatabase(path).open()
        db.ensure_table("records", {"url": str, "price": str, "color": str, "extracted_at": str}, pk="url")
        db.ensure_search_index()
        await db.write(lambda tx: tx.insert_rows("records", [
            {"url": "http://h/r/2", "price": "free", "color": "crimson", "__upsert__": True}]))
        await db.close()

    asyncio.run(run())


def test_upserted_people_records_and_items_are_indexed_once(tmp_path):
    path = tmp_path / "crawl.db"
    _people_store(path)
    db = str(path)
    assert [h.title for h in find(db, "小龙", table="people")] == ["wang"]
    assert find(db, "小明", table="people") == []
    assert [h.url for h in find(db, "costly", table="records")] == ["http://h/r/1"]
    assert find(db, "cheap", table="records") == []
    assert [h.title for h in find(db, "hiking", table="items")] == ["wang/1"]
    assert [h.url for h in find(db, "crimson", table="records")] == ["http://h/r/2"]
    with sqlite3.connect(path) as conn:
        for fts, rows in (("people_fts", 1), ("records_fts", 2), ("items_fts", 1)):
            assert conn.execute(f"SELECT COUNT(*) FROM {fts}").fetchone()[0] == rows
    with pytest.raises(UserError, match="do not apply to items"):
        find(db, "hiking", table="items", host="h")


def test_search_command_json_boost_reindex_and_errors(tmp_path):
    path = tmp_path / "crawl.db"

    async def run() -> None:
        db = await CrawlDatabase(path).open()
        db.ensure_search_index()

        def pages(tx) -> None:
            for i, (title, text) in enumerate([
                ("Garden tools", "rake and spade for the garden"),
                ("Weekly news", "garden rake garden spade garden"),
                ("Kitchen", "knives"),
            ]):
                tx.insert_pages([{"url": f"http://h/{i}", "requested_url": f"http://h/{i}", "title": title,
                                  "text": text, "fetched_at": "2026-01-01T00:00:00+00:00"}])

        await db.write(pages)
        await db.close()

    asyncio.run(run())

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*BC, "search", str(path), *args], capture_output=True, text=True)

    plain = json.loads(cli("rake", "--json").stdout)["hits"]
    boosted = json.loads(cli("rake", "--json", "--boost", "news").stdout)["hits"]
    assert {h["url"] for h in plain} == {"http://h/0", "http://h/1"}
    assert boosted[0]["url"] == "http://h/1" and boosted[0]["boosted"] == ["news"]
    assert "<mark>" in boosted[0]["snippet"]
    text = cli("rake")
    assert text.returncode == 0 and "Garden tools" in text.stdout
    bad = cli('"unbalanced')
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "malformed query" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert cli("x", "--url-regex", "(").returncode == 2
    assert cli("rake", "--in", "people").returncode == 2  # no people table in this crawl
    with sqlite3.connect(path) as conn:  # a crawl made without the index
        conn.execute("DROP TABLE pages_fts")
        conn.execute("DROP TRIGGER pages_fts_ai")
    missing = cli("rake")
    assert missing.returncode == 2 and "--reindex" in missing.stderr
    rebuilt = cli("rake", "--reindex", "--json")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert {h["url"] for h in json.loads(rebuilt.stdout)["hits"]} == {"http://h/0", "http://h/1"}
    assert subprocess.run([*BC, "search", str(tmp_path / "nope.db"), "x"],
                          capture_output=True, text=True).returncode == 2


def test_rank_window_ranks_only_the_newest_matches(tmp_path):
    path = tmp_path / "crawl.db"

    async def run() -> None:
        db = await CrawlDatabase(path).open()
        db.ensure_search_index()

        def pages(tx) -> None:
            for i in range(30):
                text = "lantern lantern lantern lantern" if i == 3 else f"a lantern and {i} other things here"
                url = f"http://h/{i}"
                tx.insert_pages([{"url": url, "requested_url": url, "title": f"page {i}", "text": text,
                                  "fetched_at": "2026-01-01T00:00:00+00:00"}])

        await db.write(pages)
        await db.close()

    asyncio.run(run())
    everything = find(str(path), "lantern", limit=3, rank_window=0)
    assert everything[0].url == "http://h/3"  # the best match, though stored early
    newest = find(str(path), "lantern", limit=30, rank_window=5)
    assert {h.url for h in newest} == {f"http://h/{i}" for i in range(25, 30)}
    assert len(find(str(path), "lantern", limit=30, rank_window=100)) == 30
    bad = subprocess.run([*BC, "search", str(path), "lantern", "--rank-window", "-1"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--rank-window" in bad.stderr


def test_boost_reindex_and_stats_on_either_backend(tmp_path, crawl_db):
    from browsercrawl.storage.stores import store_for

    async def run() -> None:
        db = await store_for(crawl_db.database, tmp_path).open()
        db.ensure_search_index()

        def pages(tx) -> None:
            for i, (title, text) in enumerate([("Garden tools", "rake and spade for the garden"),
                                               ("Weekly news", "garden rake garden spade garden rake"),
                                               ("Kitchen", "knives")]):
                url = f"http://h/{i}"
                tx.insert_pages([{"url": url, "requested_url": url, "title": title, "text": text,
                                  "fetched_at": "2026-01-01T00:00:00+00:00"}])

        await db.write(pages)
        await db.close()

    asyncio.run(run())

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*BC, *args], capture_output=True, text=True)

    plain = json.loads(cli("search", crawl_db.database, "rake", "--json").stdout)["hits"]
    assert [h["url"] for h in plain] == ["http://h/1", "http://h/0"]  # rake twice in a short text
    boosted = cli("search", crawl_db.database, "rake", "--json", "--boost", "tools")
    boosted = json.loads(boosted.stdout)["hits"]
    assert [h["url"] for h in boosted] == ["http://h/0", "http://h/1"]
    assert boosted[0]["boosted"] == ["tools"] and "<mark>" in boosted[0]["snippet"].lower()
    rebuilt = cli("search", crawl_db.database, "knives", "--reindex", "--json")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert [h["url"] for h in json.loads(rebuilt.stdout)["hits"]] == ["http://h/2"], rebuilt
    stats = cli("stats", crawl_db.database, "--json")
    assert stats.returncode == 0, stats.stderr
    stats = json.loads(stats.stdout)
    assert stats["search"]["indexed"] is True and stats["search"]["index_bytes"] > 0
    assert "pages" in stats["search"]["built_seconds"]
