#!/usr/bin/env python3
"""Benchmark the full-text index: what it costs a crawl, how fast it answers, how big it is.

Usage: .venv/bin/python scripts/bench_search.py [--crawl-pages 400] [--pages 100000] [--queries 300]
                                                [--json OUT] [--quick]

Three measurements, each from one run (the machine is shared: compare the ratios, not the times):

1. **Indexing cost during a crawl.** A generated site of text pages (one in five in Chinese) is
   served on 127.0.0.1 and crawled twice in HTTP mode, the fastest crawl there is, so the index's
   share is the largest it can be: once with ``output.search_index = false``, once with the index.
   Printed: the writer's transaction time per page (``backends.store_ms_per_page`` of the summary,
   where the triggers run), pages/s, and the CPU time per page of the whole process (the site is
   served from it too), and their ratios. On a loaded machine the wall-clock figures stretch with
   the run queue; the CPU figures do not.
2. **Index size and build time** over ``--pages`` generated pages (100,000 by default) written
   through the store, then indexed with ``ensure_search_index(rebuild=True)`` (what
   ``search --reindex`` does): seconds, ms per page, index bytes per page and per byte of text.
3. **Query latency** over those pages: ``--queries`` queries of several kinds (a rare word, a
   common word, two words, a phrase, a two-character Chinese word, a three-character Chinese word,
   a query with a boost, with a host filter) through the same code as ``browsercrawl search``,
   p50/p95 per kind and over all. Target: p95 < 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiohttp import web  # noqa: E402

from browsercrawl.config import parse_job  # noqa: E402
from browsercrawl.engine.crawler import Crawler  # noqa: E402
from browsercrawl.engine.options import CrawlOptions  # noqa: E402
from browsercrawl.storage.db import CrawlDatabase  # noqa: E402
from browsercrawl.storage.reader import open_reader  # noqa: E402
from browsercrawl.storage.search import SearchQuery, search  # noqa: E402

HOSTS = 7


class Corpus:
    """Zipf-distributed words and Chinese characters, so common words have long posting lists."""

    def __init__(self, seed: int = 1) -> None:
        rng = random.Random(seed)
        letters = "abcdefghijklmnopqrstuvwxyz"
        words: set[str] = set()
        while len(words) < 30000:
            words.add("".join(rng.choice(letters) for _ in range(rng.randint(3, 10))))
        self.words = sorted(words)  # a set's order changes between processes; this does not
        rng.shuffle(self.words)
        self.cjk = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
        self._word_cum = _cumulative([1 / (i + 1) for i in range(len(self.words))])
        self._cjk_cum = _cumulative([1 / (i + 1) ** 0.8 for i in range(len(self.cjk))])

    def _pick(self, rng: random.Random, items: list[str], cum: list[float], k: int) -> list[str]:
        top = cum[-1]
        return [items[bisect.bisect(cum, rng.random() * top)] for _ in range(k)]

    def page(self, i: int) -> tuple[str, str]:
        """(title, text) of page ``i``: ~900 bytes of English-like text, or 300 Chinese characters."""
        rng = random.Random(i)
        if i % 5 == 0:
            return ("".join(self._pick(rng, self.cjk, self._cjk_cum, 12)),
                    "".join(self._pick(rng, self.cjk, self._cjk_cum, 300)))
        return (" ".join(self._pick(rng, self.words, self._word_cum, 7)),
                " ".join(self._pick(rng, self.words, self._word_cum, 130)))


def _cumulative(weights: list[float]) -> list[float]:
    out, total = [], 0.0
    for w in weights:
        total += w
        out.append(total)
    return out


# -- 1. the crawl, with and without the index ---------------------------------------------------

def _site(corpus: Corpus, pages: int) -> web.Application:
    async def page(request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if not 0 <= i < pages:
            raise web.HTTPNotFound()
        title, text = corpus.page(i)
        links = " ".join(f'<a href="/p/{(i * 3 + k) % pages}">more</a>' for k in (1, 2, 3))
        return web.Response(text=f"<html><head><meta charset='utf-8'><title>{title}</title></head>"
                                 f"<body>{links}<p>{text}</p></body></html>",
                            content_type="text/html", charset="utf-8")

    app = web.Application()
    app.add_routes([web.get("/p/{i}", page)])
    return app


async def _crawl_both(corpus: Corpus, pages: int, work: Path) -> dict[str, Any]:
    runner = web.AppRunner(_site(corpus, pages), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    out: dict[str, Any] = {}
    try:
        for indexed in (False, True):
            db = work / f"crawl-{'index' if indexed else 'plain'}.db"
            job = parse_job({"seeds": [f"http://127.0.0.1:{port}/p/0"], "rendering": {"mode": "http"},
                             "politeness": {"concurrency": 8, "per_host_concurrency": 8},
                             "output": {"database": str(db), "search_index": indexed}}, work / "job.toml")
            c0 = time.process_time()
            summary = await Crawler(job, CrawlOptions(quiet=True, fresh=True)).run()
            cpu_ms = (time.process_time() - c0) * 1000 / pages
            assert summary.pages_stored == pages, summary
            out["index" if indexed else "plain"] = {
                "pages": summary.pages_stored, "seconds": summary.seconds,
                "pages_per_second": summary.pages_per_second,
                "store_ms_per_page": summary.backends["store_ms_per_page"],
                "cpu_ms_per_page": round(cpu_ms, 3),  # the whole process: site, crawler, writer
                "index_bytes": summary.search.get("index_bytes", 0),
            }
    finally:
        await runner.cleanup()
    plain, index = out["plain"], out["index"]
    out["store_ms_ratio"] = round(index["store_ms_per_page"] / max(plain["store_ms_per_page"], 1e-9), 2)
    out["index_ms_per_page"] = round(index["store_ms_per_page"] - plain["store_ms_per_page"], 3)
    out["cpu_ms_ratio"] = round(index["cpu_ms_per_page"] / max(plain["cpu_ms_per_page"], 1e-9), 3)
    out["pages_per_second_ratio"] = round(index["pages_per_second"] / max(plain["pages_per_second"], 1e-9), 3)
    return out


# -- 2. 100,000 pages: build time and size -------------------------------------------------------

async def _generate(corpus: Corpus, pages: int, path: Path) -> dict[str, Any]:
    db = await CrawlDatabase(path).open()
    db.ensure_search_index(enabled=False)
    text_bytes = 0
    for start in range(0, pages, 1000):
        rows = []
        for i in range(start, min(pages, start + 1000)):
            title, text = corpus.page(i)
            text_bytes += len(title.encode()) + len(text.encode())
            url = f"http://h{i % HOSTS}.example/t/{i}"
            rows.append({"url": url, "requested_url": url, "status": 200, "title": title, "text": text,
                         "fetched_at": f"2026-01-{1 + i % 28:02d}T00:00:00+00:00"})
        await db.write(lambda tx, rows=rows: tx.insert_pages(rows))
    t0 = time.perf_counter()
    await asyncio.to_thread(db.ensure_search_index, True, True)
    seconds = time.perf_counter() - t0
    size = sum(db.search_index_sizes().values())
    await db.close()
    return {"pages": pages, "build_seconds": round(seconds, 1),
            "build_ms_per_page": round(seconds * 1000 / pages, 3),
            "index_bytes": size, "index_bytes_per_page": round(size / pages),
            "text_bytes_per_page": round(text_bytes / pages),
            "index_bytes_per_text_byte": round(size / text_bytes, 2)}


# -- the choice of tokenizer: FTS5's trigram beside the word index ------------------------------

def _compare_trigram(corpus: Corpus, pages: int, path: Path) -> dict[str, Any]:
    """Both indexes over the same pages: size, build time, and a word's query (CPU ms) by how
    common it is. The trigram index is built the way it would be used: external content on pages."""
    import sqlite3

    from browsercrawl.storage import search_index

    asyncio.run(_generate(corpus, pages, path))  # pages plus the word index
    conn = sqlite3.connect(path)
    search_index.prepare_connection(conn)
    t0 = time.process_time()
    conn.execute("CREATE VIRTUAL TABLE tri USING fts5(title, text, url, content='pages', content_rowid='id', "
                 "tokenize='trigram')")
    conn.execute("INSERT INTO tri(tri) VALUES ('rebuild')")
    conn.commit()
    tri_build = time.process_time() - t0
    t0 = time.process_time()
    search_index.ensure_index(conn, rebuild=True)  # words and CJK bigrams, as search --reindex
    word_build = time.process_time() - t0

    def size(prefix: str) -> int:
        return sum((conn.execute("SELECT pgsize FROM dbstat WHERE name=? AND aggregate=TRUE",
                                 (f"{prefix}_{part}",)).fetchone() or (0,))[0] or 0
                   for part in ("data", "idx", "docsize", "config"))

    def cpu_ms(table: str, word: str) -> float:
        t0 = time.process_time()
        for _ in range(3):
            conn.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY rank LIMIT 20",
                         (f'"{word}"',)).fetchall()
        return round((time.process_time() - t0) * 1000 / 3, 2)

    words = {"common": corpus.words[:5], "mid": corpus.words[200:205], "rare": corpus.words[5000:5005]}
    out: dict[str, Any] = {"pages": pages,
                           "trigram": {"bytes": size("tri"), "build_cpu_s": round(tri_build, 1)},
                           "words": {"bytes": search_index.index_sizes(conn)["pages"],
                                     "build_cpu_s": round(word_build, 1)}}
    for kind, ws in words.items():
        out["trigram"][f"{kind}_word_cpu_ms"] = round(statistics.mean(cpu_ms("tri", w) for w in ws), 2)
        out["words"][f"{kind}_word_cpu_ms"] = round(statistics.mean(cpu_ms("pages_fts", w) for w in ws), 2)
    two = corpus.page(0)[1][:2]
    out["trigram"]["two_char_chinese_hits"] = conn.execute(
        "SELECT COUNT(*) FROM tri WHERE tri MATCH ?", (f'"{two}"',)).fetchone()[0]
    out["words"]["two_char_chinese_hits"] = conn.execute(
        "SELECT COUNT(*) FROM pages_fts_cjk WHERE pages_fts_cjk MATCH ?", (f'"{two}"',)).fetchone()[0]
    conn.close()
    return out


# -- 3. queries ------------------------------------------------------------------------------------

def _queries(corpus: Corpus, count: int) -> list[tuple[str, SearchQuery]]:
    rng = random.Random(7)
    w, c = corpus.words, corpus.cjk
    kinds = [
        ("rare word", lambda: SearchQuery(rng.choice(w[5000:]))),
        ("common word", lambda: SearchQuery(rng.choice(w[:20]))),
        ("two words", lambda: SearchQuery(f"{rng.choice(w[:300])} {rng.choice(w[:3000])}")),
        ("phrase", lambda: SearchQuery(_phrase_of(corpus, rng))),
        ("2-char Chinese", lambda: SearchQuery(rng.choice(c[:200]) + rng.choice(c[:200]))),
        ("3-char Chinese", lambda: SearchQuery(_chinese_word_of(corpus, rng, 3))),
        ("boosted word", lambda: SearchQuery(rng.choice(w[:500]), boost=(rng.choice(w[:50]),))),
        ("word + host", lambda: SearchQuery(rng.choice(w[:500]), host=f"h{rng.randrange(HOSTS)}.example")),
    ]
    return [(name, make()) for name, make in (kinds[i % len(kinds)] for i in range(count))]


def _chinese_word_of(corpus: Corpus, rng: random.Random, length: int) -> str:
    """``length`` consecutive characters of a Chinese page (pages 0, 5, 10... are Chinese)."""
    _, text = corpus.page(rng.randrange(0, 5000) * 5)
    at = rng.randrange(len(text) - length)
    return text[at:at + length]


def _phrase_of(corpus: Corpus, rng: random.Random) -> str:
    _, text = corpus.page(rng.randrange(1, 5000) * 5 + 1)
    words = text.split()
    at = rng.randrange(len(words) - 3)
    return '"' + " ".join(words[at:at + 3]) + '"'


def _time_queries(path: Path, queries: list[tuple[str, SearchQuery]]) -> dict[str, Any]:
    reader = open_reader(path)
    by_kind: dict[str, list[float]] = {}
    cpu_by_kind: dict[str, list[float]] = {}
    hits: dict[str, list[int]] = {}
    try:
        for _, q in queries[:20]:  # warm the page cache as a second search would find it
            search(reader, q)
        for kind, q in queries:
            t0, c0 = time.perf_counter(), time.process_time()
            found = search(reader, q)
            by_kind.setdefault(kind, []).append((time.perf_counter() - t0) * 1000)
            cpu_by_kind.setdefault(kind, []).append((time.process_time() - c0) * 1000)
            hits.setdefault(kind, []).append(len(found))
    finally:
        reader.close()
    out = {"all": {**_pct([t for ts in by_kind.values() for t in ts]),
                   **_pct([t for ts in cpu_by_kind.values() for t in ts], "cpu_")}}
    for kind, ts in by_kind.items():
        out[kind] = {**_pct(ts), **_pct(cpu_by_kind[kind], "cpu_"),
                     "mean_hits": round(statistics.mean(hits[kind]), 1)}
    return out


def _pct(ts: list[float], prefix: str = "") -> dict[str, float]:
    """p50/p95/max in ms; ``cpu_`` figures are this process's CPU time (what a loaded machine's
    wall clock inflates by its run queue)."""
    ts = sorted(ts)
    return {"n": len(ts), f"{prefix}p50_ms": round(ts[len(ts) // 2], 2),
            f"{prefix}p95_ms": round(ts[int(len(ts) * 0.95)], 2), f"{prefix}max_ms": round(ts[-1], 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crawl-pages", type=int, default=400)
    ap.add_argument("--pages", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=400)
    ap.add_argument("--compare-trigram", type=int, default=0, metavar="PAGES",
                    help="Also build FTS5's trigram index beside the word index over this many pages.")
    ap.add_argument("--json", type=Path, default=None, help="Also write the figures here.")
    ap.add_argument("--quick", action="store_true", help="120 crawled pages, 10,000 generated (a smoke run).")
    args = ap.parse_args()
    if args.quick:
        args.crawl_pages, args.pages, args.queries = 120, 10_000, 160
    corpus = Corpus()
    with tempfile.TemporaryDirectory(prefix="bc-bench-search-") as tmp:
        work = Path(tmp)
        t0 = time.perf_counter()
        crawl = asyncio.run(_crawl_both(corpus, args.crawl_pages, work))
        plain, index = crawl["plain"], crawl["index"]
        print(f"crawl of {args.crawl_pages} pages (HTTP mode): store ms/page "
              f"{plain['store_ms_per_page']} without the index, {index['store_ms_per_page']} "
              f"with it (x{crawl['store_ms_ratio']}, +{crawl['index_ms_per_page']} ms/page); pages/s "
              f"{plain['pages_per_second']} -> {index['pages_per_second']} "
              f"(x{crawl['pages_per_second_ratio']}); CPU ms/page (site + crawler) "
              f"{plain['cpu_ms_per_page']} -> {index['cpu_ms_per_page']} "
              f"(x{crawl['cpu_ms_ratio']})", flush=True)
        big = asyncio.run(_generate(corpus, args.pages, work / "big.db"))
        print(f"index of {big['pages']:,} pages: built in {big['build_seconds']} s "
              f"({big['build_ms_per_page']} ms/page), {big['index_bytes'] / 1e6:.1f} MB = "
              f"{big['index_bytes_per_page']} bytes/page ({big['index_bytes_per_text_byte']} x the "
              f"{big['text_bytes_per_page']} bytes of text per page)", flush=True)
        latency = _time_queries(work / "big.db", _queries(corpus, args.queries))
        print(f"queries (wall clock; CPU in brackets; load average {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} cores):")
        for kind, f in latency.items():
            extra = f", {f['mean_hits']} hits" if "mean_hits" in f else ""
            print(f"  {kind:15s} n={f['n']:4d} p50 {f['p50_ms']:7.2f} ({f['cpu_p50_ms']:6.2f}) ms  "
                  f"p95 {f['p95_ms']:7.2f} ({f['cpu_p95_ms']:6.2f}) ms{extra}")
        figures = {"crawl": crawl, "index": big, "queries": latency,
                   "seconds": round(time.perf_counter() - t0, 1)}
        if args.compare_trigram:
            cmp = _compare_trigram(corpus, args.compare_trigram, work / "compare.db")
            figures["trigram_vs_words"] = cmp
            for name in ("words", "trigram"):
                f = cmp[name]
                print(f"{name:8s} index of {cmp['pages']:,} pages: {f['bytes'] / 1e6:.1f} MB, built in "
                      f"{f['build_cpu_s']} s CPU; a word's query (CPU ms) common {f['common_word_cpu_ms']}, "
                      f"mid {f['mid_word_cpu_ms']}, rare {f['rare_word_cpu_ms']}; pages found by a "
                      f"two-character Chinese word: {f['two_char_chinese_hits']}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    print(json.dumps({"p95_ms": latency["all"]["p95_ms"], "cpu_p95_ms": latency["all"]["cpu_p95_ms"],
                      "target_p95_ms": 50, "load_average": round(os.getloadavg()[0], 1),
                      "index_bytes_per_page": big["index_bytes_per_page"],
                      "crawl_store_ms_ratio": crawl["store_ms_ratio"]}))


if __name__ == "__main__":
    main()
