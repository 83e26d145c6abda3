"""Benchmark of the search-forms part: classification, then query rounds with and without the filter.

1. Form classification on the labelled fixture pages: the tuning set and the held-out set
   (tests/fixtures/forms), precision and recall of "search" and how many purposes were right.
2. The demo site (``--members``; one thread in ten more is reachable only through its search),
   crawled twice from ``/boards`` with ``[search_forms]`` on and the same query budget: once with
   the template/noise filter of the source paper (drop terms on more than 90% or fewer than 5% of a
   round's result pages), once without it. Side by side: queries submitted, valid result pages per
   query (the paper reports 85-90%), new threads per query by round, search-only threads found.

Usage: ``.venv/bin/python scripts/bench_forms.py [--members 150] [--budget 150] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from browsercrawl_demo.app import demo_site_in_thread  # noqa: E402
from browsercrawl_demo.config import DemoConfig  # noqa: E402
from browsercrawl_demo.login import login_storage_state  # noqa: E402
from browsercrawl_demo.search_forms_demo import run_search_forms  # noqa: E402
from browsercrawl_demo.truth import build_truth  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from browsercrawl.forms.evaluate import score_folder  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "forms"


def classification_table() -> Table:
    table = Table(title="form classification (labelled pages)")
    for col in ("set", "pages", "forms", "search forms", "precision", "recall", "purposes right"):
        table.add_column(col, justify="right")
    for name in ("tune", "heldout"):
        s = score_folder(FIXTURES / name)
        table.add_row(name, str(s.pages), str(s.forms), str(s.tp + s.fn), f"{s.precision:.3f}",
                      f"{s.recall:.3f}", f"{s.kinds_right} / {s.forms}")
    return table


def crawl_table(runs: dict[str, dict], rounds: int) -> Table:
    table = Table(title="query rounds on the demo site (same budget)")
    table.add_column("")
    for name in runs:
        table.add_column(name, justify="right")

    def row(label: str, fn) -> None:
        table.add_row(label, *(fn(r) for r in runs.values()))

    row("queries submitted (+ probes)", lambda r: f"{r['queries']} (+{r['probes']})")
    row("valid result pages / queries", lambda r: f"{r['valid_share']:.3f}")
    row("result pages read", lambda r: str(r["result_pages"]))
    for n in range(1, rounds + 1):
        row(f"new threads per query, round {n}",
            lambda r, n=n: str(r["new_per_query_by_round"].get(n, "-")))
    row("search-only threads found", lambda r: f"{r['search_only_found']} / {r['search_only_existing']}")
    row("search-only coverage", lambda r: f"{r['search_only_found'] / r['search_only_existing']:.3f}")
    row("pages crawled / seconds", lambda r: f"{r['pages']} / {r['seconds']}")
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--members", type=int, default=150)
    parser.add_argument("--budget", type=int, default=150, help="queries per site")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="keep the job files and databases here")
    args = parser.parse_args()
    console = Console()
    console.print(classification_table())
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-forms-"))
    out.mkdir(parents=True, exist_ok=True)
    cfg = DemoConfig(port=0, seed=args.seed, members=args.members, session_ttl_seconds=1e7)
    runs: dict[str, dict] = {}
    with demo_site_in_thread(cfg) as site:
        truth = build_truth(site.state.content)
        console.print(f"demo: {len(truth['threads.json'])} listed threads, "
                      f"{len(truth['search_only.json'])} reachable only by search; budget {args.budget}")
        asyncio.run(login_storage_state(site, out / "state.json"))
        session = {"method": "state", "state": "state.json"}
        for name, term_filter in (("with filter", True), ("without filter", False)):
            runs[name] = run_search_forms(
                out, site.url, truth, session, None, console.print, name=name.replace(" ", "-"),
                overrides={"term_filter": term_filter, "max_queries_per_site": args.budget})
        mutations = len(site.state.mutations)
    rounds = max((max(r["new_per_query_by_round"], default=0) for r in runs.values()), default=0)
    console.print(crawl_table(runs, rounds))
    console.print(f"changes made to the site (must be 0): {mutations}; files in {out}")
    return 0 if mutations == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
