"""The suite's own scheduling aid: slow files named first exist, and the workers really take them
first (xdist's default, by number of tests, sent the one-test demo run out last)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import SLOW_FILES

ROOT = Path(__file__).resolve().parents[1]


def test_every_slow_file_named_first_exists() -> None:
    here = Path(__file__).parent
    assert [name for name in SLOW_FILES if not (here / name).is_file()] == []


def _dist_options() -> list[str]:
    """The xdist scheduling options scripts/test.sh runs the suite with."""
    text = (ROOT / "scripts" / "test.sh").read_text().replace("\\\n", " ")
    line = next(x for x in text.splitlines() if "-m pytest" in x)
    words = shlex.split(line)
    out = []
    for i, w in enumerate(words):
        if w == "--dist":
            out += [w, words[i + 1]]
        elif "loadscope" in w:
            out.append(w)
    return out


def test_the_suite_hands_out_files_in_the_order_conftest_sets(tmp_path: Path) -> None:
    """A one-test file ranked first runs before a file of many tests on the same worker."""
    opts = _dist_options()
    assert opts[:2] == ["--dist", "loadfile"], opts
    (tmp_path / "conftest.py").write_text(
        "def pytest_collection_modifyitems(items):\n"
        "    items.sort(key=lambda i: 'test_slow_one' not in i.nodeid)\n")
    (tmp_path / "test_many.py").write_text(
        "".join(f"def test_m{i}():\n    open('order.txt', 'a').write('many\\n')\n" for i in range(5)))
    (tmp_path / "test_slow_one.py").write_text("def test_s():\n    open('order.txt', 'a').write('one\\n')\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "1", *opts,
                        "--rootdir", str(tmp_path), str(tmp_path)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "order.txt").read_text().split()[0] == "one"
