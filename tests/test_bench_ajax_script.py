"""scripts/bench_ajax.py overrides engine internals (a static-only router, a cookie-priming
crawler); when those changed signature, its static-only column crashed and printed 0% with a
traceback while the run still "finished". A small run keeps the script in step with the engine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.browser
def test_bench_ajax_small_run_finds_everything_three_ways():
    args = ["--members", "20", "--threads", "60", "--thread-pages", "10", "--profiles", "4", "--tags", "4"]
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_ajax.py"), *args],
                         capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "Traceback" not in out, out[-3000:]
    row = re.search(r"^all items\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)%", out, re.M)
    assert row, out[-3000:]
    static, always, adaptive = map(float, row.groups())
    assert 0 < static < 100  # plain HTTP sees the server-rendered part, not the AJAX part
    assert always == adaptive == 100.0
