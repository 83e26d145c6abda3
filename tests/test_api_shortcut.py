"""Auto mode's API shortcut against a real JavaScript shop, in the real browser (tests/apps/apishop.py).

Each crawl in auto mode is compared with the same crawl in browser mode: every page built from its
JSON must be stored exactly like the rendered one (title, text, links).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import lxml.html
import pytest

from browsercrawl.config import load_job
from browsercrawl.engine import api_template as tpl
from browsercrawl.engine.api_shortcut import UNDERIVED_JSON, _Sample, learn_early, predict
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import Part
from browsercrawl.engine.result import FetchResult
from browsercrawl.errors import UserError
from browsercrawl.storage.report import collect_stats
from browsercrawl.storage.stores import store_for
from tests.apps.apishop import ApiShop
from tests.apps.server import serve_in_thread
from tests.conftest import CrawlDb


def write_job(tmp_path: Path, name: str, seed: str, allow: str, database: str, **rendering) -> Path:
    lines = [f'seeds = ["{seed}"]', "[scope]", f"allow = [{json.dumps(allow)}]",
             "[politeness]", "concurrency = 3", "per_host_concurrency = 3", "obey_robots = false",
             "[rendering]", *(f"{k} = {json.dumps(v)}" for k, v in rendering.items()),
             "[output]", f"database = {json.dumps(database)}"]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def crawl(job: Path, parts: tuple = ()) -> dict:
    return asyncio.run(Crawler(load_job(job), CrawlOptions(quiet=True), parts=parts).run()).as_dict()


class _HeadingHook(PageHook):
    """Stores each page's heading and list length, read from its HTML (as an extraction part does)."""

    async def after_snapshot(self, ctx: PageContext) -> None:
        result = ctx.result
        if result is None or not result.html or "<h1>" not in result.html:
            return
        doc = lxml.html.document_fromstring(result.html)
        ctx.result.extra_rows.setdefault("headings", []).append({
            "url": ctx.request.url, "heading": doc.findtext(".//h1"), "related": len(doc.findall(".//li")),
            "__upsert__": True})


class HeadingPart(Part):
    name = "headings"

    def hooks(self):
        return (_HeadingHook(),)

    def create_tables(self, db):
        db.ensure_table("headings", {"url": str, "heading": str, "related": int}, pk="url")


def short_of_pages(db: CrawlDb) -> str:
    """What a crawl that stored too few pages left behind (for a failing assertion's message)."""
    left = db.rows("SELECT url, state, attempts, error FROM frontier WHERE state != 'done'")
    retried = db.rows("SELECT url, attempts FROM frontier WHERE attempts > 1")
    unfinished = db.rows("SELECT url, via, text FROM pages WHERE complete = 0")
    return f"frontier not done: {left}; retried: {retried}; stored unfinished: {unfinished}"


def stored(db: CrawlDb) -> dict[str, tuple]:
    """Per page URL: title, text, how it was fetched, and its links (sorted)."""
    links: dict[str, list] = {}
    sql = "SELECT p.url, l.url, l.text FROM links l JOIN pages p ON p.id = l.page_id"
    for url, href, text in db.rows(sql):
        links.setdefault(url, []).append((href, text))
    return {url: (title, text, via, sorted(links.get(url, [])))
            for url, title, text, via in db.rows("SELECT url, title, text, via FROM pages")}


def browser_crawl(tmp_path: Path, seed: str, allow: str) -> dict[str, tuple]:
    db = CrawlDb("sqlite", str(tmp_path / "rendered.db"))
    crawl(write_job(tmp_path, "rendered", seed, allow, db.database, mode="browser"))
    return stored(db)


def same_as_rendered(auto: dict[str, tuple], rendered: dict[str, tuple]) -> None:
    assert set(auto) == set(rendered)
    for url, (title, text, _via, links) in auto.items():
        assert (title, text, links) == rendered[url][:2] + rendered[url][3:], url


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["item", "page"])
def test_pages_are_built_from_json_exactly_as_rendered(tmp_path, port, crawl_db, kind):
    """/item/: the JSON URL follows from the page URL; /page/<slug>: from the shell's data-id."""
    site = ApiShop(pages=30)
    with serve_in_thread(site.app(), port) as base:
        seed = f"{base}/item/0" if kind == "item" else f"{base}/page/{site.slug(0)}"
        allow = f"^{base}/{kind}/[^/]+$"
        summary = crawl(write_job(tmp_path, "auto", seed, allow, crawl_db.database, mode="auto",
                                  auto_sample_pages=2))
        rendered = browser_crawl(tmp_path, seed, allow)
    auto = stored(crawl_db)
    assert len(auto) == 30
    same_as_rendered(auto, rendered)
    vias = [via for _, _, via, _ in auto.values()]
    assert vias.count("api") >= 15, vias  # 2 compared, 3 more learned from, a few in flight, checks
    info = summary["api_shortcut"]
    shape = next(iter(info["shapes"]))
    assert info["shapes"][shape].startswith("shortcut"), info
    assert info["renders_avoided"] == vias.count("api")
    assert crawl_db.rows("SELECT state FROM api_shortcuts") == [("shortcut",)]


@pytest.mark.browser
def test_parts_reading_the_html_get_the_rendered_html(tmp_path, port):
    """A part stores rows from the page's HTML: the shortcut writes the rendered HTML exactly."""
    site = ApiShop(pages=30)
    auto_db = CrawlDb("sqlite", str(tmp_path / "auto.db"))
    rendered_db = CrawlDb("sqlite", str(tmp_path / "rendered.db"))
    with serve_in_thread(site.app(), port) as base:
        seed, allow = f"{base}/item/0", f"^{base}/item/\\d+$"
        summary = crawl(write_job(tmp_path, "auto", seed, allow, auto_db.database, mode="auto",
                                  auto_sample_pages=2), parts=(HeadingPart(),))
        crawl(write_job(tmp_path, "rendered", seed, allow, rendered_db.database, mode="browser"),
              parts=(HeadingPart(),))
    assert "HTML written" in next(iter(summary["api_shortcut"]["shapes"].values())), summary["api_shortcut"]
    query = "SELECT url, heading, related FROM headings ORDER BY url"
    assert auto_db.rows(query) == rendered_db.rows(query)
    assert len(auto_db.rows(query)) == 30
    assert auto_db.rows("SELECT COUNT(*) FROM pages WHERE via = 'api'")[0][0] >= 15


@pytest.mark.browser
def test_json_urls_that_do_not_follow_from_the_page_keep_it_rendered(tmp_path, port):
    site = ApiShop(pages=20)
    db = CrawlDb("sqlite", str(tmp_path / "crawl.db"))
    with serve_in_thread(site.app(), port) as base:
        summary = crawl(write_job(tmp_path, "auto", f"{base}/opaque/0", f"^{base}/opaque/\\d+$", db.database,
                                  mode="auto", auto_sample_pages=2))
    pages = stored(db)
    assert len(pages) == 20
    assert {via for _, _, via, _ in pages.values()} == {"browser"}
    reasons = list(summary["api_shortcut"]["shapes"].values())
    assert reasons and "does not follow from the page URL" in reasons[0], reasons
    assert all(site.name(int(u.rsplit("/", 1)[1])) in text for u, (_, text, _, _) in pages.items())


@pytest.mark.browser
def test_a_check_that_finds_a_difference_sends_the_shape_back_to_the_browser(tmp_path, port):
    # The site changes after 14 JSON answers: 2 compared + 3 samples, 4 built pages, the check on
    # the 5th (2 answers: built and rendered), 4 more built; the check on the 10th renders the new
    # version.
    site = ApiShop(pages=40, drift_after=14)
    db = CrawlDb("sqlite", str(tmp_path / "crawl.db"))
    with serve_in_thread(site.app(), port) as base:
        job = write_job(tmp_path, "auto", f"{base}/drift/0", f"^{base}/drift/\\d+$", db.database,
                        mode="auto", auto_sample_pages=2)
        job.write_text(job.read_text().replace("concurrency = 3", "concurrency = 1"))
        summary = crawl(job)
    shape = next(iter(summary["api_shortcut"]["shapes"]))
    assert "a check found a difference" in summary["api_shortcut"]["shapes"][shape]
    assert db.rows("SELECT state FROM api_shortcuts") == [("rendering",)]
    # The pages built from JSON before the check were rendered again (after the change): only the
    # pages rendered before it (2 compared, 3 samples, the first check) show the old version.
    rows = db.rows("SELECT via, text FROM pages")
    assert len(rows) == 40, short_of_pages(db)
    assert {via for via, _ in rows} == {"browser"}
    assert sum("Now on sale" not in text for _, text in rows) <= 6, rows


@pytest.mark.browser
def test_one_key_turns_it_off(tmp_path, port):
    site = ApiShop(pages=12)
    db = CrawlDb("sqlite", str(tmp_path / "crawl.db"))
    with serve_in_thread(site.app(), port) as base:
        summary = crawl(write_job(tmp_path, "auto", f"{base}/item/0", f"^{base}/item/\\d+$", db.database,
                                  mode="auto", auto_sample_pages=2, api_shortcut=False))
    assert {via for _, _, via, _ in stored(db).values()} == {"browser"}
    assert summary["api_shortcut"] == {}
    assert site.counts["/api/items/1"] == 1  # rendered once, never fetched besides


def test_a_bad_value_is_one_line(tmp_path):
    for key, value in (("api_shortcut", "maybe"), ("api_shortcut_samples", 1)):
        job = write_job(tmp_path, "bad", "http://127.0.0.1:1/", "x", "crawl.db", mode="auto", **{key: value})
        with pytest.raises(UserError) as err:
            load_job(job)
        assert f"rendering.{key}:" in str(err.value) and "\n" not in str(err.value), str(err.value)


@pytest.mark.browser
def test_a_resumed_crawl_keeps_what_it_learned(tmp_path, port, crawl_db):
    site = ApiShop(pages=30)
    with serve_in_thread(site.app(), port) as base:
        job = write_job(tmp_path, "auto", f"{base}/item/0", f"^{base}/item/\\d+$", crawl_db.database,
                        mode="auto", auto_sample_pages=2)
        text = job.read_text()
        job.write_text(text.replace("allow = [", "max_pages = 12\nallow = [", 1))
        first = crawl(job)
        assert first["pages_total"] == 12
        learned = crawl_db.rows("SELECT state, recipe FROM api_shortcuts")
        assert learned and learned[0][0] == "shortcut"
        job.write_text(text)
        second = crawl(job)
    assert second["pages_total"] == 30
    shape = next(iter(second["api_shortcut"]["shapes"]))
    assert second["api_shortcut"]["shapes"][shape].startswith("shortcut")
    # No new samples: only the router's two comparisons and the checks (10th, 20th built page) rendered.
    assert second["via_browser"] <= 2 + 3, second
    stats = collect_stats(crawl_db.database)["api_shortcut"]
    assert stats["shapes"][shape]["state"] == "shortcut"
    built = crawl_db.rows("SELECT COUNT(*) FROM pages WHERE via = 'api'")[0][0]
    assert stats["renders_avoided"] == stats["shapes"][shape]["pages_built_from_json"] == built


def test_templates_fold_lists_and_write_new_values():
    """The learner on its own: a list of any length, HTML escaping, a value from the URL."""
    def sample(i: int, n: int) -> tuple[str, tpl.Sources]:
        data = {"name": f"A & B {i}", "tags": [f"t{i}{k}" for k in range(n)]}
        html = (f"<h1>A &amp; B {i}</h1><ul>" + "".join(f'<li><a href="/tag/t{i}{k}">t{i}{k}</a></li>'
                                                           for k in range(n)) + f"</ul><p>page {i}</p>")
        src = tpl.url_sources(f"http://x/p/{i}").merged(tpl.json_sources("e0", data))
        return html, src

    template = tpl.learn_from([sample(1, 3), sample(2, 2)])
    assert template is not None and any(isinstance(p, tpl.Loop) for p in template)
    for i, n in ((5, 0), (6, 1), (70, 6)):
        html, src = sample(i, n)
        assert tpl.render(template, src) == html
    assert tpl.load(json.loads(tpl.dumps(template))) == template


class _StockHook(PageHook):
    """Stores each page's stock line, read from its HTML, as a plain insert (first row kept)."""

    async def after_snapshot(self, ctx: PageContext) -> None:
        result = ctx.result
        if result is None or not result.html or 'class="stock"' not in result.html:
            return
        doc = lxml.html.document_fromstring(result.html)
        ctx.result.extra_rows.setdefault("stock", []).append(
            {"url": ctx.request.url, "stock": doc.findtext(".//p[@class='stock']")})


class StockPart(Part):
    name = "stock"

    def hooks(self):
        return (_StockHook(),)

    def create_tables(self, db):
        db.ensure_table("stock", {"url": str, "stock": str}, pk="url")


@pytest.mark.browser
def test_pages_built_by_a_recipe_a_check_finds_wrong_are_rendered_again(tmp_path, port, crawl_db):
    """The samples (early items, all in stock) fit ``{stock} in stock``; later items are sold out.
    A check sees it; every page built from JSON before is rendered again and replaces the stored
    one (text, links, the part's rows): the crawl ends exactly as the rendered one."""
    # One page at a time, in the frontier's order: the router compares items 0 and 1, items 4, 5
    # and 13 are the samples (all in stock); checks on the 5th, 10th, 20th built page.
    site = ApiShop(pages=40, sold_out_from=14)
    rendered_db = CrawlDb("sqlite", str(tmp_path / "rendered.db"))
    with serve_in_thread(site.app(), port) as base:
        seed, allow = f"{base}/stock/0", f"^{base}/stock/\\d+$"
        job = write_job(tmp_path, "auto", seed, allow, crawl_db.database, mode="auto", auto_sample_pages=2)
        job.write_text(job.read_text().replace("concurrency = 3", "concurrency = 1"))
        summary = crawl(job, parts=(StockPart(),))
        crawl(write_job(tmp_path, "rendered", seed, allow, rendered_db.database, mode="browser"),
              parts=(StockPart(),))
    shape = next(iter(summary["api_shortcut"]["shapes"]))
    described = summary["api_shortcut"]["shapes"][shape]
    assert described.startswith("rendering: a check found a difference"), described
    assert "queued to be rendered again" in described, described
    auto = stored(crawl_db)
    assert len(auto) == 40, short_of_pages(crawl_db)
    same_as_rendered(auto, stored(rendered_db))
    assert {via for _, _, via, _ in auto.values()} == {"browser"}  # no built page left
    query = "SELECT url, stock FROM stock ORDER BY url"
    assert crawl_db.rows(query) == rendered_db.rows(query)
    assert sum(s == "sold out" for _, s in crawl_db.rows(query)) == 26
    assert summary["api_shortcut"]["renders_avoided"] == 0
    assert collect_stats(crawl_db.database)["api_shortcut"]["renders_avoided"] == 0
    assert crawl_db.rows("SELECT COUNT(*) FROM frontier WHERE state != 'done'") == [(0,)]

    # Killed after the check's commit and before the built pages were rendered again (what a
    # Redis frontier may miss): the resumed crawl queues them again from what the store says.
    stale = [u for u in auto if u.endswith(("/stock/20", "/stock/21", "/stock/3"))]
    asyncio.run(_mark_built(crawl_db.database, tmp_path, stale))
    assert {via for _, _, via, _ in stored(crawl_db).values()} == {"browser", "api"}
    with serve_in_thread(site.app(), port):
        again = crawl(job, parts=(StockPart(),))
    assert again["pages_total"] == 40 and again["via_browser"] == len(stale), again
    same_as_rendered(stored(crawl_db), stored(rendered_db))
    assert crawl_db.rows(query) == rendered_db.rows(query)


async def _mark_built(database: str, tmp_path: Path, urls: list[str]) -> None:
    """Make these stored pages look built from JSON by a wrong recipe (text, links, part rows)."""
    db = await store_for(database, tmp_path).open()
    try:
        def _mark(tx):
            for u in urls:
                tx.execute("UPDATE pages SET via = 'api', text = 'built wrong' WHERE url = ?", (u,))
                tx.execute("DELETE FROM links WHERE page_id = (SELECT id FROM pages WHERE url = ?)", (u,))
                tx.execute("UPDATE stock SET stock = 'built wrong' WHERE url = ?", (u,))
        await db.write(_mark)
    finally:
        await db.close()


def _sample(i: int, shown: str | None = None) -> _Sample:
    """A page /p/<i> whose script writes the JSON's name and count (or ``shown`` instead)."""
    url, json_url = f"http://x/p/{i}", f"http://x/api/{i}"
    data = {"name": f"Thing {i}", "count": i + 2}
    text = shown if shown is not None else f"Thing {i} has {i + 2} parts"
    shell = FetchResult(url, url, 200, "text/html", "http", html="<html><body><main></main></body></html>",
                        text="", title="T")
    rendered = FetchResult(url, url, 200, "text/html", "browser", html="<html>...</html>", text=text,
                           title="T", links=[(f"http://x/tags/{i}", "tags")])
    return _Sample(url, shell, rendered, [(json_url, data)], frozenset())


def test_samples_that_agree_decide_early_and_one_that_varies_asks_for_more():
    recipe, _ = learn_early([_sample(1), _sample(2), _sample(7)])
    assert recipe is not None  # learned from 1 and 2, it wrote 7 exactly
    assert predict(recipe, _sample(40)) is None
    # Item 7 shows a value the JSON does not hold (a script's sum): the recipe of 1 and 2 does not
    # write it, so the learner waits for more samples rather than deciding.
    varied = _sample(7, shown="Thing 7 has 9 parts, 2 spare")
    assert learn_early([_sample(1), _sample(2), varied]) == (None, "")
    assert predict(recipe, _sample(7, shown="Thing 7 has many parts")) is not None


def test_json_whose_url_follows_from_no_sample_decides_at_once():
    """Opaque JSON URLs (a hash per page): more samples cannot make them derivable, so the third
    sample settles the shape instead of rendering up to ``api_shortcut_samples`` of them."""
    def opaque(i: int) -> _Sample:
        s = _sample(i)
        return _Sample(s.url, s.shell, s.rendered, [(f"http://x/blob/{i * 2654435761 & 0xffffffff:08x}.json",
                                                     s.captured[0][1])], frozenset())

    assert learn_early([opaque(1), opaque(2), opaque(7)]) == (None, UNDERIVED_JSON)


@pytest.mark.browser
def test_the_shortcut_takes_over_after_three_renders_when_they_agree(tmp_path, port):
    """One page at a time: the router's 2 comparisons and 1 more sample, then JSON (and checks)."""
    site = ApiShop(pages=30)
    db = CrawlDb("sqlite", str(tmp_path / "crawl.db"))
    with serve_in_thread(site.app(), port) as base:
        job = write_job(tmp_path, "auto", f"{base}/item/0", f"^{base}/item/\\d+$", db.database,
                        mode="auto", auto_sample_pages=2, api_shortcut_samples=5)
        job.write_text(job.read_text().replace("concurrency = 3", "concurrency = 1"))
        summary = crawl(job)
    shape = next(iter(summary["api_shortcut"]["shapes"]))
    checks = int(summary["api_shortcut"]["shapes"][shape].split(", ")[-1].split()[0])
    assert summary["via_browser"] == 3 + checks, summary
    assert len(stored(db)) == 30


class _RefuseRendersOnce(PageHook):
    """Refuses the first render of every page past the learning ones, as the session part refuses a
    page that came back logged out (``store`` off, the title saying why)."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.refused: set[str] = set()

    async def after_snapshot(self, ctx: PageContext) -> None:
        url = ctx.request.url
        if ctx.page is None or int(url.rsplit("/", 1)[1]) < self.after or url in self.refused:
            return
        self.refused.add(url)
        assert ctx.result is not None
        ctx.result.store = False
        ctx.result.title = "session lost (redirected to the login page)"


class RefusingPart(Part):
    name = "refusing"

    def __init__(self, after: int) -> None:
        self.hook = _RefuseRendersOnce(after)

    def hooks(self):
        return (self.hook,)


@pytest.mark.browser
def test_a_check_whose_render_a_hook_refused_judges_nothing(tmp_path, port):
    """The demo's search crawl sent its boards back to the browser because a check's render had
    lost the session: the check compared the built page with the refused one. A refused render
    says nothing about the recipe; the page comes again as a retry."""
    site = ApiShop(pages=30)
    db = CrawlDb("sqlite", str(tmp_path / "crawl.db"))
    part = RefusingPart(after=5)  # pages 0-4: the comparisons and samples; later renders: checks
    with serve_in_thread(site.app(), port) as base:
        job = write_job(tmp_path, "auto", f"{base}/item/0", f"^{base}/item/\\d+$", db.database,
                        mode="auto", auto_sample_pages=2, api_shortcut_samples=5)
        job.write_text(job.read_text().replace("concurrency = 3", "concurrency = 1"))
        summary = crawl(job, parts=(part,))
    shape = next(iter(summary["api_shortcut"]["shapes"]))
    assert part.hook.refused, "no check was rendered"
    assert summary["api_shortcut"]["shapes"][shape].startswith("shortcut:"), summary["api_shortcut"]
    assert len(stored(db)) == 30 and summary["failed"] == 0, short_of_pages(db)
