"""The suite's own scheduling aid names files that exist (a renamed file would silently run last)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SLOW_FILES


def test_every_slow_file_named_first_exists() -> None:
    here = Path(__file__).parent
    assert [name for name in SLOW_FILES if not (here / name).is_file()] == []
