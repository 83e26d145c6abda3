"""scripts/bench_engine.py's judging of its pairs (auto's fallback against browser, browsercrawl
against the raw loop, the HTTP path against the aiohttp loop): each pair's order turns round by
round, the row is the median of the rounds' ratios, and a bad round count is one line."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_engine as bench  # noqa: E402


def test_each_pair_swaps_places_every_other_round_and_nothing_else_moves() -> None:
    configs = bench.plan(300, (300, 900), 3000)
    names = [c.name for c in configs]
    assert [c.name for c in bench.in_turn(configs, 0)] == names
    swapped = [c.name for c in bench.in_turn(configs, 1)]
    moved = set()
    for a, b in bench.PAIRS:
        i, j = names.index(a), names.index(b)
        assert abs(i - j) == 1, f"{a} and {b} do not run back to back"
        assert swapped[i] == b and swapped[j] == a
        moved |= {i, j}
    assert [n for k, n in enumerate(swapped) if k not in moved] == [
        n for k, n in enumerate(names) if k not in moved]
    only_one = [c for c in configs if c.name not in {b for _, b in bench.PAIRS}]  # one of each pair
    assert bench.in_turn(only_one, 1) == only_one


def _row(name: str, wall: float, variant: str = "jsx") -> bench.Row:
    return bench.Row(name=name, variant=variant, size=300, items_ok=300, pages=300, requests=600,
                     wall_s=wall, window_s=wall - 1, pages_per_s=300 / (wall - 1), cpu_ms_per_page=90,
                     peak_pss_mib=750, processes=10, exit_code=0)


def test_the_fallback_is_the_median_of_paired_whole_run_ratios() -> None:
    auto = [_row(bench.AUTO_JSX, w) for w in (20.0, 10.0, 16.0)]
    browser = [_row(bench.BROWSER_JSX, w) for w in (19.0, 12.0, 16.0)]
    median, each = bench.paired_fallback({bench.AUTO_JSX: auto, bench.BROWSER_JSX: browser})
    assert each == [19.0 / 20.0, 12.0 / 10.0, 1.0] and median == 1.0
    # The row's line uses it, and a wrong item in any auto round fails the row.
    rows = [bench.median_row(auto), bench.median_row(browser)]
    runs = {bench.AUTO_JSX: auto, bench.BROWSER_JSX: browser}
    line = next(x for x in bench.ratios(rows, (300, 900), runs) if x.startswith("JS site, JSON URLs"))
    assert "= 1.00x" in line and ": MET" in line
    runs[bench.AUTO_JSX] = [auto[0], replace(auto[1], items_ok=299), auto[2]]
    line = next(x for x in bench.ratios(rows, (300, 900), runs) if x.startswith("JS site, JSON URLs"))
    assert "NOT MET" in line


def _rendered(name: str, rates: tuple[float, ...], variant: str = "js") -> list[bench.Row]:
    return [replace(_row(name, 20.0, variant), pages_per_s=r) for r in rates]


def _rendered_line(rows: list[bench.Row], runs: dict[str, list[bench.Row]]) -> str:
    lines = bench.ratios(rows, (300, 900), runs)
    return next(x for x in lines if x.startswith("rendered: browsercrawl / raw"))


def test_the_rendered_row_is_the_median_of_paired_rounds_not_of_two_medians() -> None:
    # Round by round browsercrawl is ahead in two of three, but its median round met the loop's
    # faster one: the two medians' ratio says 0.95x.
    runs = {"browsercrawl": _rendered("browsercrawl", (20.0, 30.0, 14.0)),
            bench.RAW_LOOP: _rendered(bench.RAW_LOOP, (19.0, 28.0, 21.0))}
    median, each = bench.paired_pages(runs, "browsercrawl", bench.RAW_LOOP)
    assert each == [20 / 19, 30 / 28, 14 / 21] and median == 20 / 19
    rows = [bench.median_row(list(runs["browsercrawl"])), bench.median_row(list(runs[bench.RAW_LOOP]))]
    line = _rendered_line(rows, runs)
    assert "paired rounds 1.05x" in line and ": MET" in line and "medians 0.95x" in line
    slower = dict(runs, browsercrawl=_rendered("browsercrawl", (18.0, 30.0, 14.0)))
    line = _rendered_line(rows, slower)
    assert "paired rounds 0.95x" in line and "NOT MET" in line


def test_the_http_row_is_judged_on_paired_rounds_too() -> None:
    http = _rendered("browsercrawl-http", (1100.0, 1500.0, 1700.0), "html")
    loop = _rendered(bench.AIOHTTP_LOOP, (2000.0, 3300.0, 3000.0), "html")
    runs = {"browsercrawl-http": http, bench.AIOHTTP_LOOP: loop}
    rows = [bench.median_row(list(http)), bench.median_row(list(loop))]
    lines = bench.ratios(rows, (300, 900), runs)
    line = next(x for x in lines if x.startswith("plain HTML: browsercrawl rendering=http"))
    # rounds 0.55 / 0.45 / 0.57: the median round 0.55x; the rows' medians 1500 / 3000 = 0.50x
    assert "paired rounds 0.55x" in line and "medians 0.50x" in line and ": MET" in line


def test_a_pair_runs_its_own_rounds_and_the_other_rows_theirs() -> None:
    args = bench.argparse.Namespace(rounds=3, html_rounds=4, pair_rounds=5)
    by_name = {c.name: c for c in bench.plan(300, (300, 900), 3000)}
    assert bench.rounds_of(by_name["browsercrawl"], args) == 5
    assert bench.rounds_of(by_name[bench.RAW_LOOP], args) == 5
    assert bench.rounds_of(by_name[bench.AUTO_JSX], args) == 5
    assert bench.rounds_of(by_name["crawlee"], args) == 3
    assert bench.rounds_of(by_name[bench.AIOHTTP_LOOP], args) == 5
    assert bench.rounds_of(by_name["scrapy"], args) == 4


def test_a_round_count_below_one_is_refused_in_one_line() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_engine.py"), "--pair-rounds", "0"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines()[-1] == (
        "bench_engine.py: error: --pair-rounds wants a count of at least 1, got 0")
