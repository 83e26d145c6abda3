"""Playwright's node driver starts with a smaller young generation (it relays every protocol message
and its heap was the third largest part of a rendered crawl's memory). Checked on the real driver."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from browsercrawl.engine.browser import DRIVER_NODE_OPTIONS, LaunchOptions, open_browser


def _driver_environment() -> dict[str, str]:
    """The environment of this process's Playwright driver (node ... run-driver)."""
    for child in Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split():
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        if b"run-driver" in cmdline:
            raw = Path(f"/proc/{child}/environ").read_bytes().split(b"\0")
            return dict(item.decode().split("=", 1) for item in raw if b"=" in item)
    raise AssertionError("no Playwright driver among this process's children")


@pytest.mark.browser
async def test_the_driver_gets_its_node_options_and_ours_are_restored(monkeypatch):
    monkeypatch.setenv("NODE_OPTIONS", "--max-old-space-size=900")
    async with open_browser(LaunchOptions()):
        env = _driver_environment()
        assert os.environ["NODE_OPTIONS"] == "--max-old-space-size=900"  # only the driver's changed
    assert env["NODE_OPTIONS"] == f"{DRIVER_NODE_OPTIONS} --max-old-space-size=900"  # the user's last
    monkeypatch.delenv("NODE_OPTIONS")
    async with open_browser(LaunchOptions()):
        assert _driver_environment()["NODE_OPTIONS"] == DRIVER_NODE_OPTIONS
        assert "NODE_OPTIONS" not in os.environ
