"""The launch settings that keep a crawl's browser small: a cap on renderer processes, and a smaller
young generation in Playwright's node driver. Checked on the real browser and driver."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from browsercrawl.engine.browser import (
    DRIVER_NODE_OPTIONS,
    LaunchOptions,
    open_browser,
    renderer_process_args,
)


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _cmdline(pid: int) -> list[str]:
    return [a.decode() for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if a]


def _chromium_command_line() -> list[str]:
    """The command line of the Chromium that this process's Playwright driver launched."""
    for driver in _children(os.getpid()):
        if "run-driver" in _cmdline(driver):
            for child in _children(driver):
                args = _cmdline(child)
                if any(a.startswith("--remote-debugging-pipe") for a in args):
                    return args
    raise AssertionError("no Chromium launched by this process's Playwright driver")


def test_the_cap_follows_the_cores():
    assert renderer_process_args(1) == ["--renderer-process-limit=4"]
    assert renderer_process_args(8) == ["--renderer-process-limit=16"]


@pytest.mark.browser
async def test_chromium_runs_with_the_cap_and_a_users_own_flag_wins():
    async with open_browser(LaunchOptions()):
        args = _chromium_command_line()
    assert renderer_process_args()[0] in args
    async with open_browser(LaunchOptions(extra_args=["--renderer-process-limit=32"])):
        args = _chromium_command_line()
    limits = [a for a in args if a.startswith("--renderer-process-limit=")]
    assert limits[-1] == "--renderer-process-limit=32"  # Chromium takes a switch's last value


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
