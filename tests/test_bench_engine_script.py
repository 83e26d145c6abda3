"""scripts/bench_engine.py's judging of auto's fallback: the jsx pair's order turns round by round,
the row is the median of the rounds' whole-run ratios, and a bad round count is one line."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_engine as bench  # noqa: E402


def test_the_jsx_pair_swaps_places_every_other_round_and_nothing_else_moves() -> None:
    configs = bench.plan(300, (300, 900), 3000)
    names = [c.name for c in configs]
    assert [c.name for c in bench.in_turn(configs, 0)] == names
    swapped = [c.name for c in bench.in_turn(configs, 1)]
    i, j = names.index(bench.BROWSER_JSX), names.index(bench.AUTO_JSX)
    assert swapped[i] == bench.AUTO_JSX and swapped[j] == bench.BROWSER_JSX
    assert [n for k, n in enumerate(swapped) if k not in (i, j)] == [
        n for k, n in enumerate(names) if k not in (i, j)]
    only_one = [c for c in configs if c.name != bench.AUTO_JSX]
    assert bench.in_turn(only_one, 1) == only_one


def _row(name: str, wall: float) -> bench.Row:
    return bench.Row(name=name, variant="jsx", size=300, items_ok=300, pages=300, requests=600,
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


def test_a_round_count_below_one_is_refused_in_one_line() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_engine.py"), "--jsx-rounds", "0"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines()[-1] == (
        "bench_engine.py: error: --jsx-rounds wants a count of at least 1, got 0")
