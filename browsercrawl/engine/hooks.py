"""Page hooks: how sessions, AJAX expansion and extraction join the fetch of one page.

A hook sees a new tab once (``on_page_created``), each URL before navigation
(``before_navigation``: pace an account), the page right after navigation (``after_navigation``:
check the session, log in again), the loaded page before its snapshot (``before_snapshot``: scroll,
click, expand) and the finished result (``after_snapshot``: extract rows). Hooks add rows for
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

    async def on_page_created(self, page: Page) -> None:
        """Called once per new tab (e.g. to attach a response listener); tabs are reused for many URLs."""

    async def before_navigation(self, ctx: PageContext) -> None:
        """Called before ``goto`` (browser path only), e.g. to pace an account's requests.

        Setting ``ctx.state["wait_until"]`` overrides the job's ``rendering.wait_until`` for this URL.
        """

    async def after_navigation(self, ctx: PageContext) -> None:
        """Called right after ``goto``, before waits (browser path only): check the session here.

        A hook may navigate again (e.g. after logging in) and must then set ``ctx.response``.
        """

    async def before_snapshot(self, ctx: PageContext) -> None:
        """Called on the loaded page before its snapshot (browser path only): scroll, click, expand."""

    async def after_snapshot(self, ctx: PageContext) -> None:
        """Called with ``ctx.result`` filled in, on both paths."""
