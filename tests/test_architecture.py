"""The import rules of docs/architecture.md hold, and the one-place rules that a linter cannot see."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ROOT / "browsercrawl"


def test_import_contracts_hold() -> None:
    """Layers (parts independent, the engine importing no part), and no demo or tests in the product."""
    lint = Path(sys.executable).with_name("lint-imports")
    res = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    assert "0 broken" in res.stdout


def _sources() -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in PRODUCT.rglob("*.py")]


def test_chromium_is_launched_in_one_place() -> None:
    launches = [p.relative_to(ROOT) for p, text in _sources() if ".chromium.launch(" in text]
    assert launches == [Path("browsercrawl/engine/browser.py")]


def test_comments_say_why_not_which_issue() -> None:
    cited = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p, text in _sources()
             for m in re.finditer(r"(?i)\bissue[s]? #?\d+", text)]
    assert cited == []
