"""Page hooks: how sessions, AJAX expansion and extraction join the fetch of one page.

A hook sees the live page between navigation and snapshot (``before_snapshot``: scroll, click,
check the session) and the finished result (``after_snapshot``: extract rows). Hooks add rows for
their own tables to ``ctx.result.extra_rows`` so everything a page yields is committed together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import Page, Response

    from browsercrawl.engine.result import FetchResult
    from browsercrawl.frontier.base import Request


@dataclass
class PageContext:
    """Everything a hook may look at or change for one page fetch."""

    request: Request
    page: Page | None  # None on the plain-HTTP path
    response: Response | None
    result: FetchResult | None = None  # set before after_snapshot
    state: dict[str, Any] = field(default_factory=dict)  # scratch space shared by hooks


class PageHook:
    """Base class: override what you need. Hooks run in the order they were registered."""

    async def before_snapshot(self, ctx: PageContext) -> None:
        """Called on the live page after navigation (browser path only)."""

    async def after_snapshot(self, ctx: PageContext) -> None:
        """Called with ``ctx.result`` filled in, on both paths."""
