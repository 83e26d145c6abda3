"""Wait strategies: when is a JavaScript page loaded enough to expand and snapshot?

``load``, ``domcontentloaded`` and ``networkidle`` are Playwright load states (network idle is
capped, because pages with polling or long-lived connections never go idle). ``selector`` and
``dom-stable`` (no DOM mutation for ``stable_ms``, watched by a MutationObserver) run inside the
page as the first step of the single expansion ``evaluate`` (see ``expand.js``), so they cost no
extra round trip. The engine has already waited for ``rendering.wait_until`` (or, when that is
unset, until the page was done: ``engine/settle.py``); a rule's wait comes on top of it, so set
``rendering.wait_until = "commit"`` or ``"domcontentloaded"`` if rules should decide alone.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browsercrawl.config.ajax import AjaxRule

if TYPE_CHECKING:
    from playwright.async_api import Page

LOAD_STATES = ("load", "domcontentloaded", "networkidle")


async def wait_load_state(page: Page, rule: AjaxRule, remaining_s: float) -> bool:
    """Apply a load-state wait, capped; False if the cap ran out (the page is used anyway)."""
    if rule.wait not in LOAD_STATES:
        return True
    timeout_ms = max(1.0, min(rule.wait_cap_seconds, remaining_s) * 1000)
    with contextlib.suppress(PlaywrightTimeoutError):
        await page.wait_for_load_state(rule.wait, timeout=timeout_ms)
        return True
    return False


def in_page_wait(rule: AjaxRule) -> dict[str, Any]:
    """The part of the wait that runs inside ``expand.js``."""
    return {
        "waitSelector": rule.selector if rule.wait == "selector" else None,
        "waitStableMs": rule.stable_ms if rule.wait == "dom-stable" else 0,
        "waitCapMs": rule.wait_cap_seconds * 1000,
    }
