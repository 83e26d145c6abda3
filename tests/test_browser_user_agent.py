"""The browser's user agent: a headless crawl must not announce ``HeadlessChrome``."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from browsercrawl.config import load_job
from browsercrawl.engine.browser import LaunchOptions, headed_user_agent, job_launch_options, open_browser


async def _header_server(seen: list[str]) -> web.AppRunner:
    async def handler(request: web.Request) -> web.Response:
        seen.append(request.headers.get("User-Agent", ""))
        return web.Response(text="<p>ok</p>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    return runner


async def _user_agents(options: LaunchOptions, port: int) -> tuple[str, str, str]:
    """(navigator.userAgent, the User-Agent header the site saw, the browser's version)."""
    seen: list[str] = []
    runner = await _header_server(seen)
    try:
        await web.TCPSite(runner, "127.0.0.1", port).start()
        async with open_browser(options) as browser:
            context = await browser.new_context()
            page = await context.new_page()
            await page.goto(f"http://127.0.0.1:{port}/")
            navigator = await page.evaluate("navigator.userAgent")
            assert await page.evaluate("navigator.webdriver") is False
            await context.close()
            return navigator, seen[0], browser.version
    finally:
        await runner.cleanup()


async def test_default_user_agent_is_the_headed_chromium_one(port: int) -> None:
    navigator, header, version = await _user_agents(LaunchOptions(), port)
    assert "Headless" not in navigator and "Headless" not in header
    assert navigator == header
    assert f"Chrome/{version.split('.')[0]}.0.0.0" in header
    assert header.startswith("Mozilla/5.0 (")


async def test_browser_section_user_agent_wins(tmp_path: Path, port: int) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text('seeds = ["http://127.0.0.1/"]\n[browser]\nuser_agent = "TestAgent/1.0 (crawler)"\n')
    options = job_launch_options(load_job(job_file))
    navigator, header, _ = await _user_agents(options, port)
    assert navigator == header == "TestAgent/1.0 (crawler)"


def test_unknown_executable_gives_no_user_agent(tmp_path: Path) -> None:
    fake = tmp_path / "not-chromium"
    fake.write_text("#!/bin/sh\necho no version here\n")
    fake.chmod(0o755)
    assert headed_user_agent(str(fake)) is None
    assert headed_user_agent(str(tmp_path / "missing")) is None


def test_the_http_path_sends_the_browsers_user_agent(tmp_path: Path, port: int) -> None:
    """Pages fetched over plain HTTP (and robots.txt) carry the same user agent as the browser."""
    import subprocess
    import sys

    from tests.apps.server import serve_in_thread

    seen: list[str] = []

    async def handler(request: web.Request) -> web.Response:
        seen.append(request.headers.get("User-Agent", ""))
        return web.Response(text="<p>plain</p>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/{tail:.*}", handler)
    with serve_in_thread(app, port) as url:
        job = tmp_path / "job.toml"
        job.write_text(f'seeds = ["{url}/a"]\n[scope]\nmax_depth = 0\n[rendering]\nmode = "http"\n'
                       '[output]\ndatabase = "c.db"\n')
        bin_ = str(Path(sys.executable).with_name("browsercrawl"))
        r = subprocess.run([bin_, "crawl", str(job), "--quiet"], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
    assert len(seen) >= 2  # robots.txt and the page
    assert all(ua and "Headless" not in ua and "browsercrawl" not in ua and "Chrome/" in ua for ua in seen)
