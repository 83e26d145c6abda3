"""How the focused crawler's defaults were chosen: two grids over the four tuning sites only.

1. **Target discriminator** (which fields, which threshold share): every page of the tuning sites
   scored against four different example sets, on the sites of three generator seeds, with the
   document frequencies of all their pages
   (the end of a crawl; the crawl itself scores with the frequencies known so far);
   per setting the worst precision over the example sets and the mean recall of the pages
   labelled target.
2. **Link relevance** (h1, h2, h3 of R(l) and the path's share in R(anchor)): the algorithm run
   over the in-memory sites (``focus_sim.py``) from three example sets; mean target recall at 25%
   and 50% of each site's pages.

The held-out site (``portal``) is never read here. Usage:
``.venv/bin/python scripts/bench/focus_tune.py [--part targets|links|both]``.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from browsercrawl_demo.focus_sites import TUNING, make_site  # noqa: E402

from browsercrawl.engine.parse import parse_page  # noqa: E402
from browsercrawl.focus.core import FocusSettings, LinkWeights  # noqa: E402
from browsercrawl.focus.features import FIELDS, PageFeatures  # noqa: E402
from browsercrawl.focus.target import TargetModel, TargetSettings  # noqa: E402
from browsercrawl.focus.tfidf import cosine  # noqa: E402
from scripts.bench.focus_sim import prefix_figures, simulate  # noqa: E402

TARGET_EXAMPLE_SETS = [("tree", "cms", "wiki"), ("cms", "blog"), ("wiki",), ("tree", "blog", "wiki")]
LINK_EXAMPLE_SETS = [("tree", "cms", "wiki"), ("blog",), ("cms", "blog")]


def first_target(site_name: str, seed: int = 1) -> str:
    return sorted(make_site(site_name, seed).targets())[0]


def target_grid(seeds: list[int]) -> list[tuple]:
    cosines = []  # per seed and example set: for every page, its per-field cosine with each example
    pages = []
    for seed in seeds:
        sites = {s: make_site(s, seed) for s in TUNING}
        for s, site in sites.items():
            for path, page in site.pages.items():
                url = f"http://{s}.test{path}#{seed}"
                html = site.html(path)
                title, text, _, _ = parse_page(html, url)
                pages.append((PageFeatures.of(url, title, text, html), page.kind == "target"))
    for seed in seeds:
        mine = [(f, t) for f, t in pages if f.url.endswith(f"#{seed}")]
        vocab = TargetModel(TargetSettings(weights={f: 1.0 for f in FIELDS}))
        for feats, _ in mine:
            vocab.observe(feats)
        vectors = {feats.url: vocab._vectors(feats) for feats, _ in mine}
        for example_sites in TARGET_EXAMPLE_SETS:
            given = [f"http://{s}.test{first_target(s, seed)}#{seed}" for s in example_sites]
            table = {f.url: [{k: cosine(vectors[f.url][k], vectors[g][k]) for k in FIELDS} for g in given]
                     for f, _ in mine}
            cosines.append((given, table))
    rows = []
    grid = (0.0, 0.1, 0.2, 0.3)
    for title_w, url_w, struct_w in itertools.product(grid, grid, grid):
        weights = {"text": 1.0, "title": title_w, "url": url_w, "structure": struct_w}
        total = sum(weights.values())
        w = {f: v / total for f, v in weights.items()}
        for share in (0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95):
            precisions, recalls = [], []
            for given, table in cosines:
                def score(url: str, skip: int | None = None, table=table, w=w) -> float:
                    sims = (sum(w[f] * c[f] for f in FIELDS) for i, c in enumerate(table[url]) if i != skip)
                    return max(sims, default=0.0)
                if len(given) > 1:  # the part's rule: a share of the lowest leave-one-out similarity
                    threshold = share * min(score(g, skip=i) for i, g in enumerate(given))
                else:
                    threshold = 0.45
                tp = fp = fn = 0
                for feats, is_target in pages:
                    if feats.url not in table or feats.url in given:
                        continue
                    said = score(feats.url) >= threshold
                    tp += said and is_target
                    fp += said and not is_target
                    fn += is_target and not said
                precisions.append(tp / (tp + fp) if tp + fp else 1.0)
                recalls.append(tp / (tp + fn))
            rows.append((min(precisions), statistics.mean(recalls), title_w, url_w, struct_w, share))
    rows.sort(key=lambda r: (r[0] >= 0.97, r[1], r[0]), reverse=True)
    return rows


def link_grid() -> list[tuple]:
    sites = {f"{s}.test": make_site(s) for s in TUNING}
    rows = []
    steps = (0.0, 0.25, 0.5, 0.75, 1.0)
    for h1, h2 in itertools.product(steps, steps):
        h3 = round(1.0 - h1 - h2, 2)
        if h3 < 0:
            continue
        for path_weight in (0.4, 0.6) if h1 else (0.4,):
            settings = FocusSettings(TargetSettings(weights={"text": 1.0}),
                                     LinkWeights(h1, h2, h3), path_weight=path_weight)
            r25, r50 = [], []
            for example_sites in LINK_EXAMPLE_SETS:
                examples = [f"http://{s}.test{first_target(s)}" for s in example_sites]
                run = simulate(sites, examples, settings)
                for share, acc in ((0.25, r25), (0.5, r50)):
                    figs = prefix_figures(sites, run, share, set(examples))
                    acc.append(statistics.mean(v["recall"] for v in figs.values()))
            rows.append((statistics.mean(r25), statistics.mean(r50), h1, h2, h3, path_weight))
            print(f"h1={h1} h2={h2} h3={h3} path={path_weight}: recall@25% {rows[-1][0]:.3f} "
                  f"recall@50% {rows[-1][1]:.3f}", flush=True)
    rows.sort(key=lambda r: r[0] + r[1], reverse=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("targets", "links", "both"), default="both")
    parser.add_argument("--seeds", default="1,2,3", help="site generator seeds for the target grid")
    args = parser.parse_args()
    if args.part in ("targets", "both"):
        print("target discriminator: worst precision, mean recall, title, url, structure (text = 1), share")
        for row in target_grid([int(s) for s in args.seeds.split(",")])[:12]:
            print("  " + "  ".join(f"{x:.3f}" if isinstance(x, float) else str(x) for x in row))
    if args.part in ("links", "both"):
        print("link relevance: recall@25%, recall@50%, h1, h2, h3, path share")
        for row in link_grid()[:10]:
            print("  " + "  ".join(f"{x:.3f}" for x in row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
