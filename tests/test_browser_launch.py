"""The launch settings: a cap on renderer processes and a smaller young generation in Playwright's
node driver (a smaller browser), and one list of feature switches holding Playwright's,
browsercrawl's and a user's (a cheaper one). Checked on the real browser and driver."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from browsercrawl.engine.browser import (
    DRIVER_NODE_OPTIONS,
    LaunchOptions,
    node_compile_cache,
    open_browser,
    playwright_default_args,
    renderer_process_args,
)
from browsercrawl.engine.chromium_features import DISABLED_FEATURES, merge_feature_switches


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


@pytest.mark.browser
async def test_the_driver_keeps_its_compiled_code_in_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("NODE_COMPILE_CACHE", raising=False)
    async with open_browser(LaunchOptions()):
        assert _driver_environment()["NODE_COMPILE_CACHE"] == str(node_compile_cache())
        assert "NODE_COMPILE_CACHE" not in os.environ
    assert node_compile_cache().is_relative_to(tmp_path / "cache")
    assert any(f.is_file() for f in node_compile_cache().rglob("*"))  # node wrote its cache there
    mine = tmp_path / "mine"
    monkeypatch.setenv("NODE_COMPILE_CACHE", str(mine))  # a user's own cache wins
    async with open_browser(LaunchOptions()):
        assert _driver_environment()["NODE_COMPILE_CACHE"] == str(mine)
    assert os.environ["NODE_COMPILE_CACHE"] == str(mine)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("NODE_COMPILE_CACHE", str(blocked / "cache"))  # a cache node cannot create
    async with open_browser(LaunchOptions()) as browser:
        page = await browser.new_page()  # the launch goes on without a cache
        assert await page.evaluate("1 + 1") == 2


PLAYWRIGHTS = ["--headless", "--disable-features=PaintHolding,MediaRouter", "--enable-features=Shot"]


def _names(args: list[str], prefix: str) -> list[list[str]]:
    return [a[len(prefix):].split(",") for a in args if a.startswith(prefix)]


def test_every_list_ends_in_one_switch_of_its_kind():
    args, ignore = merge_feature_switches(
        PLAYWRIGHTS, ["--no-sandbox", "--disable-blink-features=AutomationControlled",
                      "--disable-features=Translate", "--disable-blink-features=Foo"])
    assert ignore == PLAYWRIGHTS[1:]  # Playwright's own switches leave its defaults
    assert _names(args, "--disable-features=") == [
        ["PaintHolding", "MediaRouter", *DISABLED_FEATURES, "Translate"]]
    assert _names(args, "--enable-features=") == [["Shot"]]
    assert _names(args, "--disable-blink-features=") == [["AutomationControlled", "Foo"]]
    assert args[0] == "--no-sandbox"


def test_a_feature_the_user_enables_leaves_the_disabled_list():
    args, _ = merge_feature_switches(PLAYWRIGHTS, [f"--enable-features={DISABLED_FEATURES[0]},X"])
    assert DISABLED_FEATURES[0] not in _names(args, "--disable-features=")[0]
    assert _names(args, "--enable-features=") == [["Shot", DISABLED_FEATURES[0], "X"]]


def test_unknown_defaults_add_nothing_of_browsercrawls_own():
    # Playwright's lists could not be read: a switch of ours would replace them, so none is added.
    assert merge_feature_switches(None, ["--no-sandbox"]) == (["--no-sandbox"], [])
    args, ignore = merge_feature_switches(None, ["--disable-features=A", "--disable-features=B"])
    assert args == ["--disable-features=A,B"] and ignore == []


@pytest.mark.browser
async def test_chromium_gets_one_feature_list_with_playwrights_ours_and_the_users():
    async with async_playwright() as pw:
        defaults = await playwright_default_args(pw, headless=True)
    assert defaults is not None and "--headless" in defaults  # read off Playwright, no browser
    playwrights = {n for names in _names(defaults, "--disable-features=") for n in names}
    async with open_browser(LaunchOptions()):
        plain = _chromium_command_line()
    async with open_browser(LaunchOptions(extra_args=["--disable-features=Translate"])):
        args = _chromium_command_line()
    for launched in (plain, args):
        lists = _names(launched, "--disable-features=")
        assert len(lists) == 1, launched  # Chromium would keep only the last one
        assert set(DISABLED_FEATURES) <= set(lists[0])
        assert playwrights <= set(lists[0])  # Playwright's own, kept
        assert _names(launched, "--disable-blink-features=") == [["AutomationControlled"]]
    assert "Translate" in _names(args, "--disable-features=")[0]
    assert len(_names(args, "--enable-features=")) <= 1
