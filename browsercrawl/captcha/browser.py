"""Solving a CAPTCHA inside a live page: screenshot the image element, solve, type the answer.

The element screenshot (not the image URL) is what gets solved: re-fetching the URL usually makes
the site issue a new challenge, and the screenshot is exactly what a person would see. The login
flow calls :func:`solve_captcha_on_page`, submits, and on rejection calls it again (with
``refresh_selector`` to ask for a fresh image when the site does not replace it by itself).
"""

from __future__ import annotations

import asyncio

from playwright.async_api import Error as PlaywrightError

from browsercrawl.captcha.solver import CaptchaSolver, Solution
from browsercrawl.errors import UserError


async def captcha_image_bytes(page, image_selector: str, refresh_selector: str | None = None) -> bytes:
    """Optionally click refresh, wait for the image to load, and return its PNG screenshot."""
    img = page.locator(image_selector).first
    if refresh_selector:
        old = await img.get_attribute("src") if await img.count() else None
        await page.locator(refresh_selector).first.click()
        # the refresh may swap the src in place or reload the whole page: poll for a new src
        deadline = asyncio.get_running_loop().time() + 10
        while asyncio.get_running_loop().time() < deadline:
            await page.wait_for_load_state()
            try:
                if await img.count() and await img.get_attribute("src") != old:
                    break
            except PlaywrightError:  # the old document went away mid-call
                pass
            await asyncio.sleep(0.1)
    if await img.count() == 0:
        raise UserError(f"{page.url}: no CAPTCHA image matches {image_selector!r}")
    await img.wait_for(state="visible", timeout=10_000)
    await page.wait_for_function(
        "sel => { const e = document.querySelector(sel);"
        " return !e || e.tagName !== 'IMG' || (e.complete && e.naturalWidth > 0); }",
        arg=image_selector, timeout=10_000,
    )
    return await img.screenshot(type="png", animations="disabled")


async def solve_captcha_on_page(
    page, solver: CaptchaSolver, image_selector: str, input_selector: str,
    refresh_selector: str | None = None,
) -> Solution:
    """Screenshot the CAPTCHA element, solve it off the event loop, and fill the answer field."""
    image = await captcha_image_bytes(page, image_selector, refresh_selector)
    solution = await solver.solve(image)
    field = page.locator(input_selector).first
    if await field.count() == 0:
        raise UserError(f"{page.url}: no CAPTCHA answer field matches {input_selector!r}")
    await field.fill(solution.text)
    return solution
