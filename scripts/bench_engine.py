#!/usr/bin/env python3
"""Benchmark browsercrawl's engine against Crawlee, Scrapy and minimal loops on one generated site.

Usage: .venv/bin/python scripts/bench_engine.py [--pages 500] [--html-pages N] [--rounds N] [--html-rounds N]
                                                 [--pair-rounds N] [--only a,b] [--skip-peers] [--quick]
                                                 [--json OUT] [--keep]

What it does (issue 2): generates a shop of N items, each as a JavaScript-rendered page (the item
and its links come from a JSON endpoint) and as plain HTML (scripts/bench/site.py); serves it with
nginx on 127.0.0.1 (scripts/bench/server.py); then runs each crawler as a subprocess while a thread
samples the whole process tree from /proc (scripts/bench/sampler.py), and checks every crawler
extracted every item (title, price and SKU). Peers are installed into venvs under /tmp on first use.

Auto mode's API shortcut (docs/api-shortcut.md): ``browsercrawl-auto-js`` crawls the JavaScript site
in auto mode, where the item pages are built from their JSON once learned; its items are compared
with the rendered crawl's (``browsercrawl``) page by page. ``browsercrawl-auto-jsx`` and
``browsercrawl-jsx`` crawl the variant whose JSON URLs a script computes from a hash, where auto
mode must fall back to rendering; that pair is judged over the whole run (both hold one Chromium
launch). It, the rendered pair (``browsercrawl`` against ``raw-playwright``) and the HTTP pair
(``browsercrawl-http`` against ``aiohttp-lxml``) run back to back in each round, in turns of
order, and each is judged by the median of its rounds' ratios (``PAIRS``).

Columns: pages/s over the crawl window (first to last request the server saw, so start-up of each
crawler is excluded); CPU ms per page over the whole process tree and the whole run (start-up
included, Chromium included); peak PSS summed over the tree; requests per page the server saw
(shows whether the browser's HTTP cache works: ~2 means only the page and its JSON).

The machine is shared: compare only ratios from one run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from bench import peers, site  # noqa: E402
from bench.sampler import TreeSampler  # noqa: E402
from bench.server import SiteServer  # noqa: E402

# BC_BENCH_DIR moves the runs and the site elsewhere: two benches sharing /tmp/bc-bench-engine
# overwrite each other's run folders (a crawler then reads another bench's files).
WORK = Path(os.environ.get("BC_BENCH_DIR", "/tmp")) / "bc-bench-engine"
SITE_ROOT = Path(os.environ.get("BC_BENCH_DIR", "/tmp")) / "bc-bench-site"
VENV_PY = ROOT / ".venv" / "bin" / "python"
CONCURRENCY = 8
# The row for the smallest job file on the JavaScript site: no wait named, the engine's default
# wait (until the page is done, learned per URL shape) against the row with the explicit selector.
DEFAULT_WAITS = "browser, default waits"
# Auto mode's API shortcut: on the JavaScript site (JSON URLs follow from the page URL) and on its
# variant whose JSON URLs a script computes (the shortcut must fall back to rendering there).
AUTO_JS = "browsercrawl-auto-js"
# The rendered crawl without request interception: a navigation out of the scope is refused where
# it landed instead of stopped before it is sent (the one thing interception alone can do).
NO_STOP = "browsercrawl-no-stop"
AUTO_JSX = "browsercrawl-auto-jsx"
BROWSER_JSX = "browsercrawl-jsx"
RAW_LOOP = "raw-playwright"
AIOHTTP_LOOP = "aiohttp-lxml"
# Rows judged against each other round by round: they run back to back, their order swapped every
# other round, at least five rounds, and the row is the median of the rounds' ratios. Two rounds
# of one row differed by a quarter here, which a ratio of two independent medians carries whole,
# and a row that always ran first started on a machine its partner had not yet loaded.
PAIRS = (("browsercrawl-http", AIOHTTP_LOOP), ("browsercrawl", RAW_LOOP), (AUTO_JSX, BROWSER_JSX))
# The plain-HTML rows' fewest items: the aiohttp loop does 3,000-4,000 pages/s here, so a
# 900-page site gave it a 0.2-0.3 s window whose rounds differed by a factor of two.
MIN_HTML_PAGES = 3000


def toml_value(v: object) -> str:
    """A TOML literal for the few value types a job file needs (JSON's spelling is valid TOML here)."""
    return json.dumps(v)


def job_toml(job: dict[str, object]) -> str:
    """Serialise a job dict: top-level keys first, then one table per section."""
    lines = [f"{k} = {toml_value(v)}" for k, v in job.items() if not isinstance(v, dict)]
    for section, values in job.items():
        if isinstance(values, dict):
            lines.append(f"[{section}]")
            lines += [f"{k} = {toml_value(v)}" for k, v in values.items()]
    return "\n".join(lines) + "\n"


@dataclass
class Config:
    """One crawl of the bench: which crawler, on which variant and size of the site."""

    name: str
    crawler: str  # browsercrawl | raw_playwright | crawlee | scrapy | aiohttp_lxml
    variant: str  # js | jsx | html
    size: int
    mode: str = ""  # browsercrawl's rendering mode; scrapy: 'playwright' or ''
    peer: bool = False  # needs a peer venv (skipped by --skip-peers)
    default_waits: bool = False  # browsercrawl without wait_until/wait_for_selector: the default wait
    no_stop: bool = False  # browsercrawl with no request interception (scope.stop_navigations = false)


@dataclass
class Row:
    name: str
    variant: str
    size: int
    items_ok: int
    pages: int
    requests: int
    wall_s: float
    window_s: float
    pages_per_s: float
    cpu_ms_per_page: float
    peak_pss_mib: float
    processes: int
    exit_code: int
    note: str = ""
    cpu_ms_by_process: dict[str, float] = field(default_factory=dict)
    peak_pss_mib_by_process: dict[str, float] = field(default_factory=dict)


# The row of auto mode on static pages that each carry a script (tagged/item/{i}): it has to render
# a few pages to learn that nothing needs the browser, then close it.
AUTO_TAGGED = "browsercrawl-auto-tagged"


def plan(pages: int, mem_sizes: tuple[int, int], html_pages: int | None = None) -> list[Config]:
    small, big = mem_sizes
    static = html_pages or pages
    return [
        Config("browsercrawl-http", "browsercrawl", "html", static, "http"),
        Config(AIOHTTP_LOOP, "aiohttp_lxml", "html", static),
        Config("browsercrawl-auto", "browsercrawl", "html", static, "auto"),
        Config(AUTO_TAGGED, "browsercrawl", "tagged", static, "auto"),
        Config("scrapy", "scrapy", "html", static, "", peer=True),
        Config("browsercrawl", "browsercrawl", "js", pages, "browser"),
        Config(RAW_LOOP, "raw_playwright", "js", pages),
        Config(DEFAULT_WAITS, "browsercrawl", "js", pages, "browser", default_waits=True),
        Config(NO_STOP, "browsercrawl", "js", pages, "browser", no_stop=True),
        Config(AUTO_JS, "browsercrawl", "js", pages, "auto"),
        Config(BROWSER_JSX, "browsercrawl", "jsx", pages, "browser"),
        Config(AUTO_JSX, "browsercrawl", "jsx", pages, "auto"),
        Config("crawlee", "crawlee", "js", pages, peer=True),
        Config("scrapy-playwright", "scrapy", "js", pages, "playwright", peer=True),
        Config(f"browsercrawl-{small}", "browsercrawl", "js", small, "browser"),
        Config(f"browsercrawl-{big}", "browsercrawl", "js", big, "browser"),
    ]


# -- checking what each crawler extracted -------------------------------------------------------
_ITEM_URL = re.compile(r"/item/(\d+)$")


def check_items(found: list[dict], n: int) -> int:
    """How many of the n items were extracted with the right title, price and SKU."""
    ok: set[int] = set()
    for d in found:
        m = _ITEM_URL.search(d.get("url") or "")
        if not m:
            continue
        i = int(m.group(1))
        it = site.item(i, n)
        if i < n and (d.get("title"), d.get("price"), d.get("sku")) == (it.title, it.price, it.sku):
            ok.add(i)
    return len(ok)


def check_browsercrawl(db: Path, n: int) -> int:
    """Items whose stored page text holds the item's title, price and SKU (the rendered content)."""
    if not db.exists():
        return 0
    ok: set[int] = set()
    with sqlite3.connect(db) as conn:
        for url, text in conn.execute("SELECT url, text FROM pages"):
            m = _ITEM_URL.search(url)
            if not m or not text:
                continue
            i = int(m.group(1))
            it = site.item(i, n)
            if i < n and it.title in text and it.price in text and it.sku in text:
                ok.add(i)
    return len(ok)


def stored_items(db: Path) -> dict[str, list]:
    """What a browsercrawl run stored per page (title, text, links), to compare two runs' items."""
    if not db.exists():
        return {}
    with sqlite3.connect(db) as conn:
        links: dict[str, list] = {}
        for url, href, text in conn.execute(
                "SELECT p.url, l.url, l.text FROM links l JOIN pages p ON p.id = l.page_id"):
            links.setdefault(url, []).append([href, text])
        return {url: [title, text, sorted(links.get(url, []))]
                for url, title, text in conn.execute("SELECT url, title, text FROM pages")}


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


# -- running one crawler ------------------------------------------------------------------------
def command(
    cfg: Config, port: int, run_dir: Path, scripts: dict[str, Path], overrides: dict[str, object]
) -> tuple[list[str], dict]:
    seed = site.seed(port, cfg.size, cfg.variant)
    env = dict(os.environ)
    if cfg.crawler == "browsercrawl":
        job: dict[str, dict | object] = {
            "seeds": [seed],
            "scope": {"allow": ["^" + re.escape(seed.rsplit("/", 1)[0] + "/") + r"\d+$"]},
            "politeness": {
                "concurrency": CONCURRENCY,
                "per_host_concurrency": CONCURRENCY,
                "obey_robots": False,
            },
            "rendering": {"mode": cfg.mode} if cfg.default_waits else {
                "mode": cfg.mode,
                "wait_until": "domcontentloaded",
                "wait_for_selector": site.READY_SELECTOR,
            },
            "output": {"database": "crawl.db"},
        }
        if cfg.no_stop:  # nothing left that needs interception: the browser's settings block the rest
            job["scope"]["stop_navigations"] = False  # type: ignore[index]
            job["rendering"]["block"] = ["image", "font"]  # type: ignore[index]
        for key, value in overrides.items():
            section, _, name = key.partition(".")
            job.setdefault(section, {})[name] = value  # type: ignore[index]
        (run_dir / "job.toml").write_text(job_toml(job))
        exe = ROOT / ".venv" / "bin" / "browsercrawl"
        return [str(exe), "crawl", "job.toml", "--quiet", "--fresh"], env
    out = str(run_dir / "items.jsonl")
    local = cfg.crawler in ("raw_playwright", "aiohttp_lxml")
    py = VENV_PY if local else peers.ensure_venv(cfg.crawler)
    if cfg.crawler == "scrapy" and cfg.mode == "playwright":
        env["USE_PLAYWRIGHT"] = "1"
    return [str(py), str(scripts[cfg.crawler]), seed, out, str(CONCURRENCY)], env


def _wait_unreaped(proc: subprocess.Popen, timeout: float) -> bool:
    """Wait for exit but leave the process a zombie, so its final CPU times stay readable."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        if info is not None:
            return True
        time.sleep(0.05)
    return False


def run_one(
    cfg: Config, server: SiteServer, scripts: dict[str, Path], keep: bool, overrides: dict[str, object]
) -> Row:
    run_dir = WORK / "runs" / re.sub(r"[^\w.-]+", "-", cfg.name)
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    cmd, env = command(cfg, server.port, run_dir, scripts, overrides)
    offset = server.offset()
    timeout = 180 + cfg.size * 2.0
    t0 = time.monotonic()
    with open(run_dir / "stdout.txt", "wb") as out, open(run_dir / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(cmd, cwd=run_dir, env=env, stdout=out, stderr=err, start_new_session=True)
        sampler = TreeSampler(proc.pid)
        sampler.start()
        finished = _wait_unreaped(proc, timeout)
        if not finished:
            os.killpg(proc.pid, 9)
        usage = sampler.stop()
        code = proc.wait()
    wall = time.monotonic() - t0
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, 9)  # stray Chromium children of a crawler that did not close its browser
    prefix = f"/n{cfg.size}/{cfg.variant}/item/"
    win = server.window(offset, prefix)
    if cfg.crawler == "browsercrawl":
        items = check_browsercrawl(run_dir / "crawl.db", cfg.size)
        # Kept for the shortcut's check: auto mode's items against the rendered crawl's.
        (run_dir / "items.json").write_text(json.dumps(stored_items(run_dir / "crawl.db")))
    else:
        items = check_items(read_jsonl(run_dir / "items.jsonl"), cfg.size)
    pages = len(win.pages) if win else 0
    note = "" if finished else f"killed after {timeout:.0f}s"
    if code != 0 and not note:
        tail = (run_dir / "stderr.txt").read_text(errors="replace").strip().splitlines()[-1:]
        note = f"exit {code}: {tail[0][:80] if tail else ''}"
    row = Row(
        name=cfg.name,
        variant=cfg.variant,
        size=cfg.size,
        items_ok=items,
        pages=pages,
        requests=win.requests if win else 0,
        wall_s=round(wall, 1),
        window_s=round(win.seconds, 1) if win else 0.0,
        pages_per_s=round(pages / win.seconds, 1) if win else 0.0,
        cpu_ms_per_page=round(usage.cpu_seconds * 1000 / max(pages, 1)),
        peak_pss_mib=round(usage.peak_pss_mib),
        processes=usage.peak_processes,
        exit_code=code,
        note=note,
        peak_pss_mib_by_process={k: round(v) for k, v in sorted(usage.peak_pss_by_kind.items())},
        cpu_ms_by_process={
            k: round(v * 1000 / max(pages, 1), 1) for k, v in sorted(usage.cpu_by_kind.items())
        },
    )
    if cfg.crawler == "browsercrawl" and cfg.mode == "auto":
        summary = read_jsonl(run_dir / "stdout.txt")
        if summary:
            row.note = (row.note + " " if row.note else "") + (
                f"{summary[-1].get('via_browser', 0)} rendered, "
                f"{summary[-1].get('browser_launches', 0)} browser launches")
            info = summary[-1].get("api_shortcut") or {}
            if info:
                shapes = "; ".join(v.split(" (")[0] for v in (info.get("shapes") or {}).values())
                row.note += f"; renders avoided {info.get('renders_avoided', 0)}; {shapes}"
    if cfg.default_waits:
        summary = read_jsonl(run_dir / "stdout.txt")
        if summary:
            waits = "; ".join(f"{k.split('/', 1)[-1]}: {v}" for k, v in summary[-1].get("waits", {}).items())
            row.note = (row.note + " " if row.note else "") + (
                f"incomplete {summary[-1].get('incomplete')}; learned: {waits}")
    if not keep:
        for leftover in ("crawl.db", "crawl.db-wal", "crawl.db-shm", "storage"):
            p = run_dir / leftover
            if p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
            elif p.exists():
                p.unlink()
    return row


def in_turn(configs: list[Config], rnd: int) -> list[Config]:
    """The round's order: each pair of ``PAIRS`` swaps places every other round (the second of two
    back-to-back browser crawls starts on a machine the first has just warmed or loaded)."""
    if rnd % 2 == 0:
        return configs
    out = list(configs)
    names = [c.name for c in configs]
    for a, b in PAIRS:
        if a in names and b in names:
            i, j = names.index(a), names.index(b)
            out[i], out[j] = out[j], out[i]
    return out


def rounds_of(cfg: Config, args: argparse.Namespace) -> int:
    """How many rounds a row runs: a pair's rows ``--pair-rounds``, the other rendered rows
    ``--rounds``, the plain-HTML rows ``--html-rounds``."""
    if any(cfg.name in pair for pair in PAIRS):
        return args.pair_rounds
    return args.rounds if cfg.variant in ("js", "jsx") else args.html_rounds


# -- reporting ----------------------------------------------------------------------------------
def median_row(rounds: list[Row]) -> Row:
    """The round with the median pages/s (the lower middle of an even count); notes the spread."""
    ordered = sorted(rounds, key=lambda r: r.pages_per_s)
    row = ordered[(len(ordered) - 1) // 2]
    if len(ordered) > 1:
        spread = "/".join(str(r.pages_per_s) for r in ordered)
        row.note = (row.note + "; " if row.note else "") + f"median of {len(ordered)}: {spread} pages/s"
    return row


def table(rows: list[Row]) -> str:
    head = (
        "| crawler | site | pages | items ok | pages/s | CPU ms/page | peak PSS MiB | req/page | wall s |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for r in rows:
        rpp = r.requests / r.pages if r.pages else 0
        note = f" ({r.note})" if r.note else ""
        lines.append(
            f"| {r.name}{note} | {r.variant} | {r.pages} | {r.items_ok}/{r.size} | {r.pages_per_s} | "
            f"{r.cpu_ms_per_page} | {r.peak_pss_mib} | {rpp:.1f} | {r.wall_s} |"
        )
    return "\n".join(lines)


def paired(
    runs: dict[str, list[Row]], a: str, b: str, ratio: Callable[[Row, Row], float]
) -> tuple[float, list[float]] | None:
    """A pair's row (``PAIRS``): the median of each round's ``ratio(a's row, b's row)``, with every
    round's ratio; None before a round of both. A round whose ratio would divide by zero is left out."""
    pairs = []
    for ra, rb in zip(runs.get(a, []), runs.get(b, []), strict=False):
        with contextlib.suppress(ZeroDivisionError):
            pairs.append(ratio(ra, rb))
    if not pairs:
        return None
    return statistics.median_low(pairs), pairs


def paired_fallback(runs: dict[str, list[Row]]) -> tuple[float, list[float]] | None:
    """Auto's fallback against ``browser`` on the jsx site, over the whole run: browser's time over
    auto's, round by round."""
    return paired(runs, AUTO_JSX, BROWSER_JSX, lambda auto, browser: browser.wall_s / auto.wall_s)


def paired_pages(runs: dict[str, list[Row]], a: str, b: str) -> tuple[float, list[float]] | None:
    """A pair judged on pages/s (browsercrawl against a minimal loop): a's over b's, round by round."""
    return paired(runs, a, b, lambda ra, rb: ra.pages_per_s / rb.pages_per_s)


def rounds_note(each: list[float]) -> str:
    """Every round's ratio of a pair, for its line (nothing for a single round)."""
    return f" (rounds {'/'.join(f'{x:.2f}' for x in each)})" if len(each) > 1 else ""


def paired_line(runs: dict[str, list[Row]], a: Row, b: Row) -> tuple[float, str]:
    """A pages/s pair's ratio (the paired rounds' median, else the rows') and how it was found."""
    medians = a.pages_per_s / b.pages_per_s
    found = paired_pages(runs, a.name, b.name)
    if not found:
        return medians, f"{medians:.2f}x"
    ratio, each = found
    return ratio, (f"median of the paired rounds {ratio:.2f}x{rounds_note(each)}; "
                   f"of the two rows' medians {medians:.2f}x")


def ratios(
    rows: list[Row], mem_sizes: tuple[int, int], runs: dict[str, list[Row]] | None = None
) -> list[str]:
    by = {r.name: r for r in rows}
    out: list[str] = []

    def both(a: str, b: str) -> tuple[Row, Row] | None:
        ra, rb = by.get(a), by.get(b)
        return (ra, rb) if ra and rb and ra.pages_per_s and rb.pages_per_s else None

    if p := both("browsercrawl", "crawlee"):
        ratio = p[0].pages_per_s / p[1].pages_per_s
        pss = p[0].peak_pss_mib / max(p[1].peak_pss_mib, 1)
        ok = ratio >= 3 and pss <= 1.0
        out.append(
            f"rendered: browsercrawl / Crawlee pages/s = {ratio:.2f}x (target >= 3x), "
            f"peak PSS ratio {pss:.2f} (target <= 1.00): {'MET' if ok else 'NOT MET'}"
        )
    if p := both(DEFAULT_WAITS, "browsercrawl"):
        ratio = p[0].pages_per_s / p[1].pages_per_s
        right = p[0].items_ok == p[0].size
        out.append(
            f"rendered: default waits / explicit selector pages/s = {ratio:.2f}x (target >= 0.90, every "
            f"item right): {'MET' if ratio >= 0.9 and right else 'NOT MET'}"
        )
    if p := both("browsercrawl", RAW_LOOP):
        ratio, how = paired_line(runs or {}, *p)
        cpu = p[0].cpu_ms_per_page / max(p[1].cpu_ms_per_page, 1)
        out.append(f"rendered: browsercrawl / raw Playwright loop pages/s = {how}, CPU per page {cpu:.2f}x "
                   f"(target >= 1.0): {'MET' if ratio >= 1.0 else 'NOT MET'}")
    if p := both(NO_STOP, RAW_LOOP):
        ratio = p[0].pages_per_s / p[1].pages_per_s
        cpu = p[0].cpu_ms_per_page / max(p[1].cpu_ms_per_page, 1)
        out.append(f"rendered, no interception (scope.stop_navigations = false, block image and font) / "
                   f"raw Playwright loop pages/s = {ratio:.2f}x, CPU per page {cpu:.2f}x")
    if (r := by.get("browsercrawl")) and (c := by.get("crawlee")) and c.peak_pss_mib:
        pss = r.peak_pss_mib / c.peak_pss_mib
        out.append(f"rendered: browsercrawl / Crawlee peak PSS = {pss:.2f} (target <= 0.80): "
                   f"{'MET' if pss <= 0.8 else 'NOT MET'}")
    if p := both(AUTO_JS, RAW_LOOP):
        ratio = p[0].pages_per_s / p[1].pages_per_s
        same = same_items(AUTO_JS, "browsercrawl")
        out.append(
            f"JS site: auto with the API shortcut / raw Playwright loop pages/s = {ratio:.2f}x "
            f"(target >= 5x, every item identical to the rendered crawl's: {same}): "
            f"{'MET' if ratio >= 5 and same.startswith('yes') else 'NOT MET'}"
        )
    if p := both(AUTO_JSX, BROWSER_JSX):
        window = p[0].pages_per_s / p[1].pages_per_s
        right = all(r.items_ok == r.size for r in (runs or {}).get(AUTO_JSX, [p[0]]))
        # Judged over the whole run (process start to exit), where both rows hold one Chromium
        # launch. The crawl window starts at the server's first request: the browser row launched
        # Chromium before it, auto launches it inside (after the HTTP fetch that shows the page
        # needs rendering), so the window charges auto alone for a launch both pay.
        paired = paired_fallback(runs or {})
        whole, each = paired if paired else (p[1].wall_s / p[0].wall_s if p[0].wall_s else 0.0, [])
        out.append(
            f"JS site, JSON URLs not derived from the page: auto / browser over the whole run, median "
            f"of the paired rounds = {whole:.2f}x{rounds_note(each)} (target >= 0.95, every item right): "
            f"{'MET' if whole >= 0.95 and right else 'NOT MET'}; pages/s over the crawl window, "
            f"where only auto's launch falls: {window:.2f}x"
        )
    if p := both("browsercrawl", "scrapy-playwright"):
        out.append(
            f"rendered: browsercrawl / scrapy-playwright pages/s = {p[0].pages_per_s / p[1].pages_per_s:.2f}x"
        )
    for name in ("browsercrawl-auto", AUTO_TAGGED, "browsercrawl-http"):
        if p := both(name, "scrapy"):
            ratio = p[0].pages_per_s / p[1].pages_per_s
            pss = p[0].peak_pss_mib / max(p[1].peak_pss_mib, 1)
            line = f"plain HTML: {name} / Scrapy pages/s = {ratio:.2f}x, peak PSS {pss:.2f}x"
            if name != "browsercrawl-http":
                ok = ratio >= 1.5 and pss <= 2.0
                line += f" (target >= 1.5x at <= 2x PSS): {'MET' if ok else 'NOT MET'}"
            out.append(line)
    if p := both("browsercrawl-http", AIOHTTP_LOOP):
        ratio, how = paired_line(runs or {}, *p)
        out.append(f"plain HTML: browsercrawl rendering=http / aiohttp+lxml loop pages/s = {how} "
                   f"(target >= 0.5): {'MET' if ratio >= 0.5 else 'NOT MET'}")
    small, big = (by.get(f"browsercrawl-{s}") for s in mem_sizes)
    if small and big and small.peak_pss_mib:
        growth = big.peak_pss_mib / small.peak_pss_mib
        out.append(
            f"memory: peak PSS {mem_sizes[1]} pages / {mem_sizes[0]} pages = {growth:.2f} "
            f"(target <= 1.20): {'MET' if growth <= 1.2 else 'NOT MET'}"
        )
    return out


def same_items(a: str, b: str) -> str:
    """Are the items two browsercrawl rows stored identical (title, text, links per page)?"""
    files = [WORK / "runs" / re.sub(r"[^\w.-]+", "-", name) / "items.json" for name in (a, b)]
    if not all(f.exists() for f in files):
        return "not compared (a run is missing)"
    got, want = (json.loads(f.read_text()) for f in files)
    differ = [u for u in want if got.get(u) != want[u]]
    missing = len(set(want) - set(got))
    if not differ and len(got) == len(want):
        return f"yes, {len(got)} pages"
    return f"no: {len(differ)} of {len(want)} pages differ ({missing} missing), e.g. {differ[:1]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=None, help="items in the main site (default 500; quick 200)")
    ap.add_argument("--only", default="", help="comma-separated config names (see the table)")
    ap.add_argument("--skip-peers", action="store_true", help="skip Crawlee and Scrapy (no venvs needed)")
    ap.add_argument("--quick", action="store_true", help="200 pages and 300/1500-page memory runs")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of every row (each row: the median)")
    ap.add_argument("--html-rounds", type=int, default=3,
                    help="rounds of the plain-HTML rows (default 3: they take seconds and vary most)")
    ap.add_argument("--pair-rounds", "--jsx-rounds", dest="pair_rounds", type=int, default=None,
                    help="rounds of the paired rows: browsercrawl against the raw loop, http against "
                         "the aiohttp loop, auto's fallback against browser (default: --rounds, at "
                         "least 5: each pair is judged on its paired rounds' median)")
    ap.add_argument("--html-pages", type=int, default=None,
                    help=f"items of the plain-HTML site (default 3x --pages, at least {MIN_HTML_PAGES}: "
                         "an HTTP crawl of 900 pages lasts a fifth of a second for the aiohttp loop, "
                         "too short a window to measure)")
    ap.add_argument("--mem-sizes", default=None, help="two site sizes for the memory check (1000,5000)")
    ap.add_argument("--json", type=Path, default=None, help="also write the rows as JSON")
    ap.add_argument("--keep", action="store_true", help="keep each run's database/storage")
    ap.add_argument("--aiohttp-server", action="store_true", help="serve with aiohttp instead of nginx")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.KEY=TOML",
        help="override browsercrawl job keys, e.g. --set 'rendering.block=[\"image\"]'",
    )
    args = ap.parse_args()
    overrides: dict[str, object] = {}
    for item in args.set:
        key, _, raw = item.partition("=")
        if "." not in key or not raw:
            ap.error(f"--set wants SECTION.KEY=VALUE, got {item!r}")
        overrides[key] = tomllib.loads(f"v = {raw}")["v"]

    if args.pair_rounds is not None and args.pair_rounds < 1:
        ap.error(f"--pair-rounds wants a count of at least 1, got {args.pair_rounds}")
    pages = args.pages or (200 if args.quick else 500)
    args.pair_rounds = args.pair_rounds or max(args.rounds, 5)
    if args.mem_sizes:
        a, b = (int(x) for x in args.mem_sizes.split(","))
        mem_sizes = (a, b)
    else:
        mem_sizes = (300, 1500) if args.quick else (1000, 5000)
    configs = plan(pages, mem_sizes, args.html_pages or max(3 * pages, MIN_HTML_PAGES))
    if args.only:
        rest = args.only
        wanted = set()
        for name in (c.name for c in configs if "," in c.name):  # names with a comma, whole
            if name in rest:
                wanted.add(name)
                rest = rest.replace(name, "")
        wanted |= {w.strip() for w in rest.split(",") if w.strip()}
        unknown = wanted - {c.name for c in configs}
        if unknown:
            ap.error(f"unknown config(s) {sorted(unknown)}; known: {[c.name for c in configs]}")
        configs = [c for c in configs if c.name in wanted]
    if args.skip_peers:
        configs = [c for c in configs if not c.peer]

    sizes = sorted({c.size for c in configs})
    t = time.monotonic()
    site.build(SITE_ROOT, sizes)
    print(f"bench: site {sizes} ready in {time.monotonic() - t:.1f}s at {SITE_ROOT}", file=sys.stderr)
    scripts = peers.write_scripts(WORK / "scripts")
    for name in sorted({c.crawler for c in configs if c.peer}):
        peers.ensure_venv(name)
    server = SiteServer(SITE_ROOT, WORK / "server", force_aiohttp=args.aiohttp_server).start()
    runs: dict[str, list[Row]] = {c.name: [] for c in configs}
    started = datetime.now(UTC)
    try:
        # Rounds interleave the crawlers (a burst of load on the shared machine hits all of them),
        # and each row is the round with the median pages/s.
        for rnd in range(max(args.rounds, args.html_rounds, args.pair_rounds)):
            for cfg in in_turn(configs, rnd):
                wanted = rounds_of(cfg, args)
                if rnd >= wanted:
                    continue
                print(f"bench: {cfg.name} ({cfg.variant}, {cfg.size} pages) round {rnd + 1}/{wanted} ...",
                      file=sys.stderr, flush=True)
                row = run_one(cfg, server, scripts, args.keep, overrides)
                runs[cfg.name].append(row)
                print(
                    f"bench:   {row.items_ok}/{row.size} items, {row.pages_per_s} pages/s, "
                    f"{row.cpu_ms_per_page} CPU ms/page ({row.cpu_ms_by_process}), "
                    f"{row.peak_pss_mib} MiB PSS ({row.peak_pss_mib_by_process}) {row.note}",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        server.stop()
    rows = [median_row(runs[c.name]) for c in configs if runs[c.name]]
    load = os.getloadavg()
    print(
        f"\nbrowsercrawl engine bench, {started:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
        f"server {server.kind}, concurrency {CONCURRENCY}, load average at end {load[0]:.1f}\n"
    )
    print(table(rows))
    print()
    for line in ratios(rows, mem_sizes, runs):
        print(line)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0 if all(r.items_ok == r.size for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
