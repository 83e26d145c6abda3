"""Logging in to the demo site for tests that are not about logging in.

Hand-written Playwright steps; the CAPTCHA is answered by the demo's test oracle
(``site.state.captcha_answer_for``). The saved storage state is then opened by every browser
context the crawler makes (:func:`state_context_factory`), and its cookies reach the HTTP path
through the crawler's cookie sync.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import Browser, BrowserContext

from browsercrawl.engine.browser import open_browser
from browsercrawl_demo.app import DemoSite
from browsercrawl_demo.auth import password_for


async def login_storage_state(site: DemoSite, out: Path, user: str | None = None) -> str:
    """Log in as ``user`` (default: the first member) and save the storage state to ``out``."""
    name = user or site.state.content.members[0].name
    async with open_browser() as browser:
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(f"{site.url}/login")
        csrf = await page.get_attribute("input[name=csrf_token]", "value")
        assert csrf
        await page.fill("#username", name)
        await page.fill("#password", password_for(name, site.config.seed))
        if await page.query_selector("#captcha"):
            answer = site.state.captcha_answer_for(csrf)
            assert answer, "demo site gave no CAPTCHA answer"
            await page.fill("#captcha", answer)
        await page.click("#login-submit")
        await page.wait_for_url("**/feed")
        await context.storage_state(path=str(out))
    return name


def state_context_factory(
    state: Path,
) -> Callable[[Browser, BrowserContext | None], Awaitable[BrowserContext]]:
    """A crawl ``context_factory`` whose contexts all start logged in from ``state``."""

    async def factory(browser: Browser, previous: BrowserContext | None) -> BrowserContext:
        return await browser.new_context(storage_state=str(state), service_workers="block")

    return factory
