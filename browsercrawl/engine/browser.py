"""Find and launch the Chromium that Playwright drives: the one place a browser is started.

Playwright cannot download its own browser on closed networks, so browsercrawl drives a system
Chromium. The flags below matter: without the background-networking ones Chromium keeps trying to
reach Google's services and stalls on a machine with no internet. Every command that needs a
browser (crawl, induce, recrawl, login, CAPTCHA labelling) opens it with :func:`open_browser`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from browsercrawl.config import JobConfig, RenderingConfig
from browsercrawl.engine.chromium_features import merge_feature_switches
from browsercrawl.errors import EnvironmentProblem

log = logging.getLogger(__name__)

CHROMIUM_ENV = "BROWSERCRAWL_CHROMIUM"
_CANDIDATES = (
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
)
BASE_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    "--mute-audio",
    "--metrics-recording-only",
    "--password-store=basic",
    # Several tabs render at once in one window: without these, Chromium throttles the tabs it
    # considers hidden, and IntersectionObserver-driven infinite scroll stalls in them.
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    # A browser that looks like a browser: no navigator.webdriver = true (the user agent is set
    # at launch too, see headed_user_agent).
    "--disable-blink-features=AutomationControlled",
)


def renderer_process_args(cores: int | None = None) -> list[str]:
    """A cap on renderer processes: two per core, at least four; a site's tabs share them.

    Measured on the rendered bench (docs/benchmarks.md, 8 tabs on one site): without a cap a crawl
    peaked at 16-18 processes and 310-385 MiB of renderer PSS; capped at 4, 13 processes and
    290-315; capped at 2, 11-12 processes and ~230-290, but slower pages/s on this shared 2-core
    machine, where fewer renderer threads get fewer turns on the cores. The cap is soft: pages of
    other sites (a login server, cross-site frames) still get processes of their own.
    """
    return [f"--renderer-process-limit={max(4, 2 * (cores or os.cpu_count() or 2))}"]


# V8 flags for Playwright's node driver: the young generation's semi-spaces at 1 MiB instead of
# 16-32: the driver relays every protocol message and its heap grew to ~150 MiB of PSS on the
# rendered bench (90-140 MiB with this, for the same CPU).
DRIVER_NODE_OPTIONS = "--max-semi-space-size=1"


def node_compile_cache() -> Path:
    """Where the driver's node keeps its compiled code between runs (``$XDG_CACHE_HOME``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "browsercrawl" / "node-compile-cache"


@contextlib.contextmanager
def _driver_node_environment() -> Iterator[None]:
    """The environment of the driver Playwright starts now (it copies this process's): NODE_OPTIONS,
    a user's own last so they win, and node's compile cache, which cuts the driver's start by about
    a quarter (0.35 s to 0.26 s idle) on every launch after the first; a user's NODE_COMPILE_CACHE
    wins, and a cache node cannot write is skipped by node. Restored right after the driver started."""
    saved = {name: os.environ.get(name) for name in ("NODE_OPTIONS", "NODE_COMPILE_CACHE")}
    before = saved["NODE_OPTIONS"]
    os.environ["NODE_OPTIONS"] = f"{DRIVER_NODE_OPTIONS} {before}" if before else DRIVER_NODE_OPTIONS
    if saved["NODE_COMPILE_CACHE"] is None:
        os.environ["NODE_COMPILE_CACHE"] = str(node_compile_cache())
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


# Chromium's reduced user-agent string (what a headed desktop Chromium on Linux sends): only the
# major version varies. Headless Chromium says ``HeadlessChrome`` instead, which sites block.
_UA_TEMPLATE = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/{major}.0.0.0 Safari/537.36"
)


@functools.cache
def headed_user_agent(executable: str) -> str | None:
    """The user agent the installed Chromium sends when headed, from its ``--version``; None if unknown.

    Blocking (a subprocess), so callers on the event loop run it in a thread; cached per executable.
    """
    try:
        out = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=30,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)\.\d+\.\d+", out)
    return _UA_TEMPLATE.format(major=match.group(1)) if match else None


def find_chromium(configured: str | None = None) -> str:
    """Return the path of a Chromium executable: the configured one, $BROWSERCRAWL_CHROMIUM, or PATH."""
    for path in (configured, os.environ.get(CHROMIUM_ENV)):
        if path:
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
            raise EnvironmentProblem(
                f"Chromium not found at {path!r} (set by browser.executable or ${CHROMIUM_ENV})"
            )
    for name in _CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    raise EnvironmentProblem(
        "no Chromium found on PATH; run scripts/setup.sh (apt-get install chromium) "
        f"or set ${CHROMIUM_ENV}"
    )


@dataclass
class LaunchOptions:
    """How to start the browser; shared by the crawl, login recording and CAPTCHA labelling."""

    executable: str | None = None
    headless: bool = True
    slow_mo_ms: float = 0
    extra_args: list[str] = field(default_factory=list)
    user_agent: str | None = None  # None: the installed Chromium's headed user agent

    def as_kwargs(self) -> dict:
        if not self.headless and not os.environ.get("DISPLAY"):
            raise EnvironmentProblem(
                "--headed needs a display: DISPLAY is not set (run under xvfb-run, or drop --headed)"
            )
        return {
            "executable_path": find_chromium(self.executable),
            "headless": self.headless,
            "slow_mo": self.slow_mo_ms or None,
            "args": [*BASE_ARGS, *renderer_process_args(), *self.extra_args],
        }


# What the browser's own settings block, with no request interception: every image, and every web
# font but those a ``<link rel=preload as=font>`` hint asks for (measured on Chromium 156).
BLOCKED_BY_SETTINGS = {"image": "--blink-settings=imagesEnabled=false", "font": "--disable-remote-fonts"}


def launch_args_for(rendering: RenderingConfig) -> list[str]:
    """Chromium flags implied by the rendering section: the blocked types the browser's settings
    can block, so they are never requested, even where interception also fails them."""
    return [flag for kind, flag in BLOCKED_BY_SETTINGS.items() if kind in rendering.block]


def job_launch_options(
    job: JobConfig, *, headed: bool = False, slow_mo_ms: float | None = None
) -> LaunchOptions:
    """How a job's commands start Chromium, so the crawl, ``induce`` and ``recrawl`` render alike."""
    return LaunchOptions(
        executable=job.browser.executable,
        headless=job.browser.headless and not headed,
        slow_mo_ms=slow_mo_ms if slow_mo_ms is not None else job.browser.slow_mo_ms,
        extra_args=[*job.browser.extra_args, *launch_args_for(job.rendering)],
        user_agent=job.browser.user_agent,
    )


async def job_user_agent(job: JobConfig) -> str | None:
    """The user agent a job's requests carry on both paths: ``[rendering]``, else ``[browser]``,
    else the installed Chromium's headed one; None when there is no Chromium to ask (HTTP only)."""
    if job.rendering.user_agent or job.browser.user_agent:
        return job.rendering.user_agent or job.browser.user_agent
    try:
        executable = find_chromium(job.browser.executable)
    except EnvironmentProblem:
        return None
    return await asyncio.to_thread(headed_user_agent, executable)


# Playwright's default arguments, read by asking it to launch a tiny executable that writes down
# its arguments and exits: no browser starts (~25 ms, once per process). If that fails, the feature
# merge adds nothing of browsercrawl's own, so Playwright's lists survive.
_PROBE = '#!/bin/sh\nprintf "%s\\n" "$@" > "$0.args"\nexit 1\n'
_defaults: dict[bool, list[str] | None] = {}


def _write_probe(folder: str) -> Path:
    exe = Path(folder) / "argv"
    exe.write_text(_PROBE)
    exe.chmod(0o700)
    return exe


def _read_args(exe: Path) -> list[str] | None:
    out = exe.with_name(exe.name + ".args")
    return out.read_text().splitlines() if out.exists() else None


async def playwright_default_args(pw: Playwright, headless: bool) -> list[str] | None:
    """The arguments Playwright passes Chromium before a caller's own; None if they cannot be read."""
    if headless in _defaults:
        return _defaults[headless]
    found: list[str] | None = None
    if os.name == "posix":
        with tempfile.TemporaryDirectory(prefix="browsercrawl-args-") as folder:
            exe = await asyncio.to_thread(_write_probe, folder)
            try:
                browser = await pw.chromium.launch(executable_path=str(exe), headless=headless,
                                                   timeout=15_000)
            except PlaywrightError:
                found = await asyncio.to_thread(_read_args, exe)
            else:  # something answered as a browser would: not our probe, read nothing from it
                await browser.close()
    if found is None:
        log.info("Playwright's default Chromium arguments could not be read; "
                 "browsercrawl's own disabled features are left out")
    _defaults[headless] = found
    return found


async def with_merged_features(pw: Playwright, kwargs: dict) -> dict:
    """Launch keyword arguments whose feature switches hold Playwright's, browsercrawl's and the
    caller's lists, one switch of each kind."""
    defaults = await playwright_default_args(pw, bool(kwargs.get("headless", True)))
    args, ignore = merge_feature_switches(defaults, list(kwargs.get("args", [])))
    merged = {**kwargs, "args": args}
    if ignore:
        merged["ignore_default_args"] = ignore
    return merged


@asynccontextmanager
async def open_browser(options: LaunchOptions | None = None) -> AsyncIterator[Browser]:
    """Start Playwright and Chromium with browsercrawl's flags; close both on the way out."""
    kwargs = (options or LaunchOptions()).as_kwargs()  # a missing Chromium or display fails here
    user_agent = (options.user_agent if options else None) or await asyncio.to_thread(
        headed_user_agent, kwargs["executable_path"])
    if user_agent:  # every context's default; a context's own user_agent still wins
        kwargs["args"] = [*kwargs["args"], f"--user-agent={user_agent}"]
    with _driver_node_environment():
        manager = async_playwright()
        pw = await manager.__aenter__()
    try:
        browser = await pw.chromium.launch(**await with_merged_features(pw, kwargs))
        try:
            yield browser
        finally:
            await browser.close()
    finally:
        await manager.__aexit__(None, None, None)
