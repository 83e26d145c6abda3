"""Fixtures shared by the suite: free loopback ports, a launched Chromium, Xvfb for headed tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from browsercrawl.session.browser import LaunchOptions, launch_chromium


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def port() -> int:
    return free_port()


@pytest_asyncio.fixture
async def browser() -> AsyncIterator:
    """A real headless Chromium, one per test (tests must not share cookies or pages)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        b = await launch_chromium(pw, LaunchOptions())
        try:
            yield b
        finally:
            await b.close()


@pytest.fixture(scope="session")
def xvfb_display() -> Iterator[str]:
    """Start Xvfb on a free display for headed-browser tests and point DISPLAY at it."""
    if not shutil.which("Xvfb"):
        pytest.fail("Xvfb is not installed; scripts/setup.sh installs it")
    display = None
    proc = None
    for n in range(90, 140):
        if os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        proc = subprocess.Popen(
            ["Xvfb", f":{n}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(50):
            if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                display = f":{n}"
                break
            time.sleep(0.1)
        if display:
            break
        proc.kill()
    if not display:
        pytest.fail("could not start Xvfb")
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    yield display
    if old is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = old
    proc.terminate()
    proc.wait(5)
