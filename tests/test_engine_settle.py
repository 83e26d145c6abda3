"""The default wait: the smallest job file stores what JavaScript pages fetch after load, flags the rest.

The fixture site (tests/apps/latesite.py) has pages whose content comes after the load event by
fetch, after a timer, in two rounds of requests, never, and from a poll that never stops; every
page's links to further pages come with its content, so pages snapshotted too early also hide
the rest of the site.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from browsercrawl.commands.data import all_stats
from browsercrawl.config import RenderingConfig, load_job
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.settle import SettleLearner, every_root
from browsercrawl.storage.stores import store_for
from tests.apps.jssite import JsSite
from tests.apps.latesite import LateSite, marker
from tests.apps.server import serve_in_thread
from tests.conftest import CrawlDb

FINISHING = ("fetch", "timer", "two")


def smallest_job(tmp_path: Path, base: str, database: object, extra: str = "", seed: str = "/") -> Path:
    """The README's smallest job file: seeds and a database (plus ``extra`` lines)."""
    path = tmp_path / "job.toml"
    path.write_text(f'seeds = ["{base}{seed}"]\n{extra}\n[output]\ndatabase = "{database}"\n')
    return path


def crawl(job: Path) -> dict:
    return asyncio.run(Crawler(load_job(job), CrawlOptions(quiet=True)).run()).as_dict()


def pages(db: CrawlDb, base: str) -> dict[str, tuple[str, int | None]]:
    """path -> (text, complete)."""
    return {url[len(base):]: (text or "", complete)
            for url, text, complete in db.rows("SELECT url, text, complete FROM pages")}


@pytest.mark.browser
def test_smallest_job_stores_late_content_flags_the_rest_and_finishes(tmp_path, port, crawl_db):
    site = LateSite(pages=6)
    with serve_in_thread(site.app(), port) as base:
        summary = crawl(smallest_job(tmp_path, base, crawl_db))
    got = pages(crawl_db, base)
    # Every page whose content arrives within the budget is stored with it, and marked done;
    # pages reachable only through rendered links were all found.
    for kind in FINISHING:
        for i in range(site.pages):
            text, complete = got[f"/{kind}/{i}"]
            assert marker(kind, i) in text, (kind, i, text)
            assert complete == 1, (kind, i)
    # Content that never comes: the shell is stored, flagged.
    text, complete = got["/never/0"]
    assert marker("never", 0) not in text and complete == 0
    # A page that polls forever: its content came with the first answer, but it was never done.
    for i in range(site.unfinished_pages):
        text, complete = got[f"/poll/{i}"]
        assert marker("poll", i) in text and complete == 0
    assert summary["failed"] == 0
    assert summary["incomplete"] == 1 + site.unfinished_pages
    # The summary says what was learned per URL shape ...
    learned = {shape.split("/", 1)[1]: how for shape, how in summary["waits"].items()}
    for kind in FINISHING:
        assert learned[f"{kind}/{{id}}"].startswith("wait for '#content > article.item'"), learned
    # ... and so does `stats`, read back from the database.
    stats = all_stats(str(crawl_db))
    assert stats["incomplete_pages"] == 1 + site.unfinished_pages
    waits = {shape.split("/", 1)[1]: w for shape, w in stats["learned_waits"].items()}
    for kind in FINISHING:
        w = waits[f"{kind}/{{id}}"]
        assert w["selector"] == "#content > article.item"
        assert w["content_ms"] > 0
    assert waits["poll/{id}"] == {"learning": True, "unfinished": site.unfinished_pages}


@pytest.mark.browser
def test_a_page_whose_json_is_slow_a_moment_is_waited_for_not_stored_as_a_shell(tmp_path, port, crawl_db):
    """The JSON of page 4 answers after 6 s once (a machine or server slow for a moment): the page
    is stored with its content and the links on, not as the shell without them."""
    site = LateSite(pages=6, kinds=("fetch",), slow_once={4: 6.0})
    with serve_in_thread(site.app(), port) as base:
        summary = crawl(smallest_job(tmp_path, base, crawl_db))
    got = pages(crawl_db, base)
    for i in range(site.pages):
        text, complete = got[f"/fetch/{i}"]
        assert marker("fetch", i) in text and complete == 1, (i, text)
    assert site.answers[4] == 1  # waited for, not fetched again
    assert summary["incomplete"] == 0 and summary["failed"] == 0


@pytest.mark.browser
def test_page_chrome_drawn_with_the_first_pages_content_is_not_taken_for_it(tmp_path, port, crawl_db):
    """The first pages drew a header widget and their content in one moment, and the learner
    waited for the shallowest element of that burst alone: the widget. Later pages, whose content
    comes after a refused request and a retry timer, were then stored as their shells, marked
    complete (the demo's board cards did this). The learned wait needs every part of the burst."""
    site = LateSite(pages=8, kinds=("chrome",))
    with serve_in_thread(site.app(), port) as base:
        summary = crawl(smallest_job(tmp_path, base, crawl_db, "[rendering]\nsettle_learn_pages = 2"))
    got = pages(crawl_db, base)
    for i in range(site.pages):
        text, complete = got[f"/chrome/{i}"]
        assert marker("chrome", i) in text and complete == 1, (i, text)
    shape = next(s for s in summary["waits"] if s.endswith("/chrome/{id}"))
    assert "#widget" in summary["waits"][shape] and "#content" in summary["waits"][shape]
    assert all(site.refused[i] == 1 for i in range(3, site.pages))  # the later pages did retry


def test_a_request_stops_holding_the_wait_only_on_a_shape_that_mostly_never_finishes():
    learner = SettleLearner(RenderingConfig())
    url = "http://127.0.0.1/never/1"
    assert learner.plan(url, 10_000)["requestCapMs"] is None  # nothing known: a request holds
    for i in range(2):
        learner.record(f"http://127.0.0.1/never/{i + 2}", {"by": "cap", "done": False})
    assert learner.plan(url, 10_000)["requestCapMs"] == 5000
    learner.record("http://127.0.0.1/fetch/1", {"by": "cap", "done": False})
    for i in range(3):
        learner.record(f"http://127.0.0.1/fetch/{i + 2}", {"by": "quiet", "done": True})
    assert learner.plan("http://127.0.0.1/fetch/9", 10_000)["requestCapMs"] is None


@pytest.mark.browser
def test_learned_wait_is_used_and_survives_a_resume(tmp_path, port):
    site = LateSite(pages=10, kinds=("fetch",))
    db = tmp_path / "crawl.db"
    with serve_in_thread(site.app(), port) as base:
        job = smallest_job(tmp_path, base, db, "[scope]\nmax_pages = 6")
        first = crawl(job)
        job.write_text(job.read_text().replace("max_pages = 6", ""))
        second = crawl(job)  # resumes: the shape's wait is known from the first page on
    shape = next(s for s in second["waits"] if s.endswith("/fetch/{id}"))
    assert first["pages_stored"] + second["pages_stored"] == 11
    hits = int(second["waits"][shape].split("(")[1].split(" hits")[0])
    assert hits == second["pages_stored"], second["waits"]
    stats = all_stats(str(db))
    assert stats["incomplete_pages"] == 0
    assert stats["learned_waits"][shape]["hits"] == hits  # written when the crawl ended


@pytest.mark.browser
def test_auto_mode_never_judges_late_pages_static(tmp_path, port, crawl_db):
    site = LateSite(pages=6, kinds=FINISHING)
    with serve_in_thread(site.app(), port) as base:
        summary = crawl(smallest_job(tmp_path, base, crawl_db, '[rendering]\nmode = "auto"'))
    got = pages(crawl_db, base)
    for kind in FINISHING:
        for i in range(site.pages):
            assert marker(kind, i) in got[f"/{kind}/{i}"][0], (kind, i)
    verdicts = {shape.split("/", 1)[1]: v for shape, v in summary["adaptive"].items()}
    for kind in FINISHING:
        assert verdicts[f"{kind}/{{id}}"] == "browser"


@pytest.mark.browser
def test_explicit_waits_still_override(tmp_path, port, crawl_db):
    """With ``wait_for_selector`` the job's own wait decides (and nothing is learned)."""
    site = LateSite(pages=4, kinds=("fetch",))
    extra = '[scope]\nallow = ["/fetch/"]\n[rendering]\nwait_for_selector = "article.item"'
    with serve_in_thread(site.app(), port) as base:
        summary = crawl(smallest_job(tmp_path, base, crawl_db, extra, seed="/fetch/0"))
    got = pages(crawl_db, base)
    assert all(marker("fetch", i) in got[f"/fetch/{i}"][0] for i in range(4))
    assert summary["waits"] == {} and summary["incomplete"] == 0


def test_learner_takes_the_shallowest_common_last_element_and_relearns_after_misses():
    learner = SettleLearner(RenderingConfig(settle_learn_pages=2))
    url = "http://h/item/1"
    done = {"done": True, "by": "quiet"}
    assert learner.plan(url, 30_000)["learn"] is True
    learner.record(url, done | {"content_ms": 400, "last": ["#c > div.x > a", "#c > div.x", "#c > p"]})
    assert not learner.shapes["h/item/{id}"].learned
    second = {"content_ms": 700, "last": ["#c > div.x > a", "#c > div.x"]}
    row = learner.record("http://h/item/2", done | second)
    assert row is not None and row["learned"] == 1 and row["selector"] == "#c > div.x"
    plan = learner.plan("http://h/item/3", 30_000)
    assert plan["selector"] == "#c > div.x" and plan["giveUpAt"] == 2700 and plan["learn"] is False
    assert learner.plan("http://h/item/3", 1_000)["capMs"] == 1_000  # never past the page's budget
    learner.record(url, {"done": True, "by": "learned", "missed": False})
    for _ in range(3):
        learner.record(url, {"done": True, "by": "quiet", "missed": True})
    assert not learner.shapes["h/item/{id}"].learned  # missed too often: learned again
    # An unfinished page is counted, never a sample.
    row = learner.record(url, {"done": False, "by": "cap", "content_ms": 900, "last": []})
    assert row is not None and row["unfinished"] == 1 and row["samples"] == 0


def test_the_learned_wait_needs_every_root_of_the_last_burst():
    learner = SettleLearner(RenderingConfig(settle_learn_pages=2))
    burst = ["#c > ul.next > li > a", "#c > ul.next > li", "#c > h1.name", "#c > ul.next", "#widget"]
    for i in range(2):
        learner.record(f"http://h/item/{i}", {"done": True, "by": "quiet", "content_ms": 300, "last": burst})
    assert learner.shapes["h/item/{id}"].selector == ":root:has(#widget):has(#c > h1.name):has(#c > ul.next)"
    assert every_root(["#a > p"]) == "#a > p" and every_root([]) is None


def test_learned_waits_reload_from_rows():
    learner = SettleLearner(RenderingConfig())
    learner.load([("h/item/{id}", "#c > div.x", 650.0, 1), ("h/", None, 0.0, 0)])
    assert learner.plan("http://h/item/9", 30_000)["selector"] == "#c > div.x"
    assert "selector" not in learner.plan("http://h/", 30_000)


OLD_PAGE = "INSERT INTO pages (url, requested_url, fetched_at) VALUES ('http://h/', 'http://h/', 'x')"


async def _open_and_close(database: str, base_dir: Path) -> None:
    store = await store_for(database, base_dir).open()
    await store.close()


def test_a_database_made_before_the_complete_column_still_opens(tmp_path, crawl_db):
    """An older crawl database gains ``pages.complete`` when opened; ``stats`` reads it either way."""
    asyncio.run(_open_and_close(str(crawl_db), tmp_path))
    if crawl_db.backend == "sqlite":
        import sqlite3

        with sqlite3.connect(str(crawl_db)) as conn:
            conn.execute("ALTER TABLE pages DROP COLUMN complete")
            conn.execute(OLD_PAGE)
    else:
        from browsercrawl.storage.postgres import connect

        conn = connect(str(crawl_db))
        conn.execute("ALTER TABLE pages DROP COLUMN complete")
        conn.execute(OLD_PAGE)
        conn.close()
    before = all_stats(str(crawl_db))
    assert "incomplete_pages" not in before and before["tables"]["pages"] == 1
    asyncio.run(_open_and_close(str(crawl_db), tmp_path))
    assert crawl_db.rows("SELECT complete FROM pages") == [(None,)]
    assert all_stats(str(crawl_db))["incomplete_pages"] == 0
    json.dumps(before)  # stats stay serialisable


@pytest.mark.browser
def test_held_out_site_is_stored_whole_with_the_smallest_job(tmp_path, port):
    """A site the wait was not tuned on (content fetched as the page's script runs, redirects,
    retried errors): every client-rendered page holds its text, marked done."""
    site = JsSite(pages=12)
    db = tmp_path / "crawl.db"
    with serve_in_thread(site.app(), port) as base:
        summary = crawl(smallest_job(tmp_path, base, db, "[politeness]\nretry_backoff_seconds = 0.2"))
    got = pages(CrawlDb("sqlite", str(db)), base)
    for i in range(12):
        text, complete = got[f"/p/{i}"]
        assert site.text_of(i) in text and complete == 1, (i, text, complete)
    assert summary["incomplete"] == 0 and summary["failed"] == 0, (summary, got)


def test_a_shape_that_never_changes_after_domcontentloaded_keeps_a_short_window():
    learner = SettleLearner(RenderingConfig(settle_learn_pages=2, settle_quiet_ms=400))
    for i in range(2):
        learner.record(f"http://h/doc/{i}", {"done": True, "by": "quiet", "content_ms": 0, "last": []})
    plan = learner.plan("http://h/doc/9", 30_000)
    assert plan["quietMs"] == 50 and "selector" not in plan
    assert "short quiet window" in learner.summary()["h/doc/{id}"]
