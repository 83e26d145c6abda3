"""Reading lists that recycle their DOM (virtual scrolling) in a live page.

Large social sites render only the dozen rows near the viewport and reuse those elements as the
list scrolls, so "read every entry after expanding" sees a dozen entries. :func:`collect_recycled`
scrolls the list's container in overlapping steps, reads the rows present after each step, merges
them by identity, and stops at the end of the list or at a cap (``recycled.js``). It lives in the
engine because both the ajax part (expanding pages) and the social part (relation lists) read
such lists, and parts do not import each other.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import Page

RECYCLED_JS = resources.files("browsercrawl.engine").joinpath("recycled.js").read_text("utf-8")


async def collect_recycled(
    page: Page,
    entries: str,
    fields: dict[str, str],
    *,
    container: str | None = None,
    key: str | None = None,
    cap: int = 10_000,
    settle_ms: int = 800,
    timeout_ms: int = 30_000,
) -> dict[str, Any]:
    """Entries of the list ``entries`` (CSS) inside the scrolling ``container`` (None: the window).

    ``fields`` maps a name to ``"css"`` (text), ``"css@attr"`` or ``"@attr"`` within one row;
    ``key`` names the field that identifies an entry (default: all fields together). Returns
    ``{entries, complete, error, steps}``; ``complete`` is true only when the end was reached.
    """
    return await page.evaluate(RECYCLED_JS, {
        "container": container, "entries": entries, "fields": fields, "key": key, "cap": cap,
        "settle_ms": settle_ms, "timeout_ms": timeout_ms,
    })
