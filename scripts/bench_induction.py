#!/usr/bin/env python3
"""Benchmark URL clustering and regex generation on generated, labelled URL sets.

    .venv/bin/python scripts/bench_induction.py [--sizes 10000 100000] [--seed 1]

Generates realistic URLs of many shapes (forums, shops, news with dates, query-string boards,
blogs with slugs, wikis, code hosting) over many hosts, each URL labelled with its true class
(host + shape), then times clustering and regex generation and prints URLs/s, cluster purity
(share of URLs in a cluster whose majority class is theirs) and pairwise F1 against the classes.
With ``--demo`` it also runs the whole method on the bundled demo community in the real browser:
``browsercrawl induce`` (pre-crawl, classes, wrapper from two sample threads) and the supervised
crawl to completion, then scores target precision/recall and field F1 against the truth dump
(definitions in browsercrawl/induction/evaluate.py):

    .venv/bin/python scripts/bench_induction.py --sizes --demo [--demo-members 60 --demo-threads 400]

With ``--wrappers`` it scores wrapper learning and healing on generated book shops
(scripts/bench/wrapper_sites.py: the tuning styles and the four held-out ones; ``--group`` picks one
group) and, with ``--rustdoc``, on real pages (the Rust std API docs of a rustup toolchain,
scripts/bench/rustdoc_pages.py): per site and field,
strict F1 (exact normalised values) on 35 pages for ``--pairs`` random sample pairs, mean and
worst, with and without the cluster's 25 unlabelled pages; then, for each markup change (classes
renamed, wrapper div, blocks reordered, tags changed), the share of true values extracted before
and after healing:

    .venv/bin/python scripts/bench_induction.py --sizes --wrappers [--pairs 6 --seed 1]
    .venv/bin/python scripts/bench_induction.py --sizes --wrappers --group held-out --rustdoc
"""

from __future__ import annotations

import argparse
import random
import re
import string
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from browsercrawl.induction.clustering import cluster_parsed
from browsercrawl.induction.regex import assign_regexes
from browsercrawl.induction.urlmodel import parse_url

WORDS = [
    "engine",
    "oil",
    "brake",
    "winter",
    "camping",
    "stove",
    "rice",
    "cooker",
    "chili",
    "sauce",
    "garden",
    "paint",
    "laptop",
    "battery",
    "phone",
    "river",
    "mountain",
    "bike",
    "election",
    "budget",
    "city",
    "school",
    "match",
    "goal",
    "season",
    "market",
    "stock",
    "bank",
    "storm",
    "festival",
    "music",
    "film",
    "review",
    "travel",
    "recipe",
    "noodle",
    "tofu",
    "pepper",
    "garlic",
    "harbor",
    "castle",
]
NAMES = [
    "alice",
    "bob",
    "carol",
    "dave",
    "erin",
    "frank",
    "grace",
    "heidi",
    "ivan",
    "judy",
    "olivia",
    "peggy",
    "rupert",
    "sybil",
]


def _shapes(r: random.Random) -> dict[str, list[tuple[str, Callable[[], str]]]]:
    def slug(a: int = 3, b: int = 7) -> str:
        return "-".join(r.choice(WORDS) for _ in range(r.randint(a, b)))

    def n(a: int = 1, b: int = 99999) -> int:
        return r.randint(a, b)

    def token(k: int) -> str:
        return "".join(r.choice(string.ascii_uppercase + string.digits) for _ in range(k))

    return {
        "forum": [
            ("thread", lambda: f"/threads/{slug()}.{n()}/"),
            ("thread-page", lambda: f"/threads/{slug()}.{n()}/page-{n(2, 50)}"),
            ("forum", lambda: f"/forums/{r.choice(WORDS)}.{n(1, 40)}/"),
            ("member", lambda: f"/members/{r.choice(NAMES)}{n(1, 999)}.{n()}/"),
            ("post", lambda: f"/posts/{n()}/"),
            ("search", lambda: f"/search/{n()}/?q={r.choice(WORDS)}&t=post"),
        ],
        "shop": [
            ("product", lambda: f"/{slug().title()}/dp/B0{token(8)}"),
            ("reviews", lambda: f"/product-reviews/B0{token(8)}?pageNumber={n(1, 30)}"),
            ("category", lambda: f"/c/{r.choice(WORDS)}/{r.choice(WORDS)}/?page={n(1, 20)}"),
            ("search", lambda: f"/s?k={r.choice(WORDS)}&page={n(1, 9)}"),
            ("item", lambda: f"/item/{n()}.html"),
        ],
        "news": [
            (
                "article",
                lambda: f"/{n(2010, 2024)}/{n(1, 12):02d}/{n(1, 28):02d}/{r.choice(WORDS)}/{slug()}.html",
            ),
            ("video", lambda: f"/video/{n(100000, 999999)}"),
            ("author", lambda: f"/profile/{r.choice(NAMES)}-{r.choice(NAMES)}"),
            ("tag", lambda: f"/tag/{r.choice(WORDS)}"),
            ("archive", lambda: f"/archive/{n(2010, 2024)}-{n(1, 12):02d}-{n(1, 28):02d}"),
        ],
        "bbs": [
            ("view", lambda: f"/viewthread.php?tid={n()}&page={n(1, 9)}"),
            ("list", lambda: f"/forumdisplay.php?fid={n(1, 60)}&page={n(1, 200)}"),
            ("space", lambda: f"/space.php?uid={n()}"),
            ("attachment", lambda: f"/attachment.php?aid={n()}"),
        ],
        "blog": [
            ("post", lambda: f"/{slug()}/"),
            ("paging", lambda: f"/page/{n(2, 400)}/"),
            ("month", lambda: f"/{n(2008, 2024)}/{n(1, 12):02d}/"),
            ("upload", lambda: f"/wp-content/uploads/{n(2008, 2024)}/{n(1, 12):02d}/IMG_{n(1000, 9999)}.jpg"),
            ("tag", lambda: f"/tag/{r.choice(WORDS)}/"),
        ],
        "wiki": [
            ("page", lambda: f"/wiki/{r.choice(WORDS).title()}_{r.choice(WORDS)}"),
            ("history", lambda: f"/w/index.php?title={r.choice(WORDS).title()}&action=history"),
            ("user", lambda: f"/wiki/User:{r.choice(NAMES).title()}{n(1, 99)}"),
        ],
    }


def generate(size: int, seed: int) -> list[tuple[str, str]]:
    """``size`` (label, URL) pairs over about size/500 hosts of assorted site kinds."""
    r = random.Random(seed)
    shapes = _shapes(r)
    kinds = sorted(shapes)
    hosts = [
        (f"www.site{i}.{r.choice(['com', 'org', 'net', 'cn'])}", kinds[i % len(kinds)])
        for i in range(max(6, size // 500))
    ]
    out = []
    for _ in range(size):
        host, kind = r.choice(hosts)
        label, make = r.choice(shapes[kind])
        out.append((f"{host}:{label}", f"{r.choice(['http', 'https'])}://{host}{make()}"))
    return out


def score(clusters, labels: dict[str, str]) -> tuple[float, float]:
    def c2(k: int) -> int:
        return k * (k - 1) // 2

    both = Counter((c.id, labels[p.url]) for c in clusters for p in c.members)
    tp = sum(c2(k) for k in both.values())
    pp = sum(c2(c.size) for c in clusters)
    pc = sum(c2(k) for k in Counter(labels.values()).values())
    best: dict[int, int] = {}
    for (cid, _), k in both.items():
        best[cid] = max(best.get(cid, 0), k)
    purity = sum(best.values()) / len(labels)
    p, rec = tp / pp if pp else 1.0, tp / pc if pc else 1.0
    return purity, 2 * p * rec / (p + rec) if p + rec else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--demo", action="store_true", help="also run induce + supervised crawl on the demo")
    ap.add_argument("--demo-members", type=int, default=60)
    ap.add_argument("--demo-threads", type=int, default=400)
    ap.add_argument("--precrawl", type=int, default=150, help="pre-crawl pages for the demo")
    ap.add_argument("--wrappers", action="store_true", help="score wrapper learning and healing")
    ap.add_argument("--pairs", type=int, default=6, help="random sample pairs per site (--wrappers)")
    ap.add_argument(
        "--rustdoc",
        nargs="?",
        const="auto",
        help="also score wrappers on real pages: the Rust std API docs of a rustup toolchain (or DIR)",
    )
    ap.add_argument(
        "--group",
        choices=("all", "tuning", "held-out"),
        default="all",
        help="which wrapper sites to score (--wrappers): a held-out batch alone scores in a minute",
    )
    args = ap.parse_args()
    if args.wrappers:
        bench_wrappers(args.pairs, args.seed, args.group)
    if args.rustdoc:
        bench_rustdoc(args.rustdoc, args.pairs, args.seed)
    if args.demo:
        bench_demo(args.demo_members, args.demo_threads, args.precrawl)
    if not args.sizes:
        return
    print(
        f"{'URLs':>8} {'parse s':>8} {'cluster s':>9} {'URLs/s':>9} {'clusters':>8} "
        f"{'classes':>7} {'purity':>6} {'pair F1':>7} {'regex s':>7} {'regex ok':>8}"
    )
    for size in args.sizes:
        rows = generate(size, args.seed)
        t0 = time.perf_counter()
        parsed = [parse_url(u) for _, u in rows]
        t1 = time.perf_counter()
        clusters = cluster_parsed(parsed)
        t2 = time.perf_counter()
        assign_regexes(clusters)
        t3 = time.perf_counter()
        labels = {p.url: lab for p, (lab, _) in zip(parsed, rows, strict=True)}
        purity, f1 = score(clusters, labels)
        # Check every regex: all members match, and nothing else of the same host does.
        ok = True
        by_host: dict[str, list] = {}
        for c in clusters:
            by_host.setdefault(c.host, []).append(c)
        for group in by_host.values():
            urls = [(p.url, c.id) for c in group for p in c.members]
            for c in group:
                rx = re.compile(c.regex)
                ok &= all(bool(rx.match(u)) == (cid == c.id) for u, cid in urls)
        total = t2 - t0
        print(
            f"{size:>8} {t1 - t0:>8.2f} {t2 - t1:>9.2f} {size / total:>9.0f} {len(clusters):>8} "
            f"{len(set(labels.values())):>7} {purity:>6.3f} {f1:>7.3f} {t3 - t2:>7.2f} "
            f"{'yes' if ok else 'NO':>8}"
        )
    print("URLs/s counts parsing + clustering; regex s is generation with the cross-cluster check.")


def bench_wrappers(n_pairs: int, seed: int, only: str = "all") -> None:
    """Strict per-field F1 over random sample pairs, and healing after markup changes."""
    from scripts.bench.wrapper_score import healing, pairs_for, score_pair, site_of
    from scripts.bench.wrapper_sites import FIELDS, HELD_OUT, TUNING

    for group, styles in (("tuning", TUNING), ("held-out", HELD_OUT)):
        if only not in ("all", group):
            continue
        print(f"\n== {group} sites: strict F1 per field over {n_pairs} random sample pairs ==")
        print(f"{'site':<11}{'field':<11}{'mean':>6}{'worst':>7}{'2-only mean':>13}{'2-only worst':>14}")
        low_mean, low_worst = 1.0, 1.0
        heal_rows = []
        for style in styles:
            site = site_of(style, seed)
            pairs = pairs_for(seed, n_pairs)
            with_cluster = [score_pair(site, p) for p in pairs]
            alone = [score_pair(site, p, use_cluster=False) for p in pairs]
            for f in FIELDS:
                a = [s.f1[f] for s in with_cluster]
                b = [s.f1[f] for s in alone]
                low_mean, low_worst = min(low_mean, sum(a) / len(a)), min(low_worst, min(a))
                print(
                    f"{style.name:<11}{f:<11}{sum(a) / len(a):>6.2f}{min(a):>7.2f}"
                    f"{sum(b) / len(b):>13.2f}{min(b):>14.2f}"
                )
            heal_rows.append((style.name, healing(site, with_cluster[0].wrapper, seed)))
        print(f"{group}: lowest field mean F1 {low_mean:.2f}, worst pair {low_worst:.2f}")
        print(f"\n== {group} sites: values extracted after a redesign (wrapper of the first pair) ==")
        print(f"{'site':<11}{'change':<17}{'before':>7}{'healed':>8}{'worst field':>13}{'repairs':>9}")
        for name, scores in heal_rows:
            for h in scores:
                print(f"{name:<11}{h.kind:<17}{h.before:>7.2f}{h.after:>8.2f}{h.worst_field:>13.2f}{h.repairs:>9}")
        for kind in {h.kind: None for _, scores in heal_rows for h in scores}:
            rates = [h.after for _, scores in heal_rows for h in scores if h.kind == kind]
            mean = sum(rates) / len(rates)
            print(f"{group}: {kind}: healed values {mean:.3f} (lowest site {min(rates):.3f})")
    print("F1 on exact whitespace-normalised values; '2-only' = learned from the two samples alone.")


def bench_rustdoc(where: str, n_pairs: int, seed: int) -> None:
    """Wrappers on real pages with truth from their file paths (``scripts/bench/rustdoc_pages.py``)."""
    from pathlib import Path

    from scripts.bench.rustdoc_pages import default_root, score

    root = default_root() if where == "auto" else Path(where)
    if root is None or not root.is_dir():
        print("\n(no Rust std docs found: install a rustup toolchain's docs or give --rustdoc DIR)")
        return
    score(root, seed, n_pairs)


def bench_demo(members: int, threads: int, precrawl_pages: int) -> None:
    """Induce and crawl the demo site (logged in from a saved state); print times and scores."""
    import asyncio
    import json
    import tempfile

    from browsercrawl_demo.app import demo_site_in_thread
    from browsercrawl_demo.config import DemoConfig
    from browsercrawl_demo.content import SITE_EPOCH
    from browsercrawl_demo.expected import score_records
    from browsercrawl_demo.jobs import induction_job
    from browsercrawl_demo.login import login_storage_state
    from browsercrawl_demo.truth import build_truth

    from browsercrawl.commands.crawl import run_crawl
    from browsercrawl.commands.induce import induce_job
    from browsercrawl.config import load_job
    from browsercrawl.engine.options import CrawlOptions

    with tempfile.TemporaryDirectory() as tmp, demo_site_in_thread(
        DemoConfig(port=0, seed=3, members=members, threads=threads)
    ) as site:
        folder = Path(tmp)
        truth = build_truth(site.state.content, SITE_EPOCH)
        asyncio.run(login_storage_state(site, folder / "state.json"))
        job_path = induction_job(folder, site.url, truth, precrawl_pages=precrawl_pages)
        t0 = time.perf_counter()
        outcome = asyncio.run(induce_job(load_job(job_path), CrawlOptions(quiet=True), job_path=job_path))
        t1 = time.perf_counter()
        summary = run_crawl(str(job_path), CrawlOptions(quiet=True, fresh=True))
        t2 = time.perf_counter()
        scores = score_records(folder / "demo.db", site.url, truth, outcome.profile).as_dict()
    print(
        f"demo site: {members} members, {threads} threads; induce {t1 - t0:.1f} s "
        f"({len(outcome.precrawl.pages)} pre-crawl pages); supervised crawl {t2 - t1:.1f} s "
        f"({summary.pages_stored} pages, {summary.pages_per_second} pages/s)"
    )
    print(json.dumps(scores, indent=1))


if __name__ == "__main__":
    main()
