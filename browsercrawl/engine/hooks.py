"""Page hooks: how the parts (sessions, AJAX expansion, extraction...) join the fetch of one page.

A hook sees a new tab once (``on_page_created``), each URL before navigation
(``before_navigation``: pace an account), the page right after navigation (``after_navigation``:
check the session, log in again), the loaded page before its snapshot (``before_snapshot``: scroll,
click, expand) and the finished result (``after_snapshot``: extract rows). On the plain-HTTP path
only ``after_snapshot`` runs, with ``ctx.page`` None. Hooks add rows for their own tables to
``ctx.result.extra_rows`` so everything a page yields is committed together.

What one hook keeps for the rest of a page's fetch lives in a typed note (``ctx.note(MyNote)``),
one instance of the hook's own dataclass per page, never under a string key.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from playwright.async_api import Page, Response

    from browsercrawl.engine.result import FetchResult
    from browsercrawl.frontier.base import Request

N = TypeVar("N")


@dataclass
class PageContext:
    """Everything a hook may look at or change for one page fetch."""

    request: Request
    page: Page | None  # None on the plain-HTTP path
    response: Response | None
    result: FetchResult | None = None  # set before after_snapshot
    # The goto wait for this URL, when a hook wants another than ``rendering.wait_until``.
    wait_until: str | None = None
    # False when a hook waits for this page in its own way (e.g. an [ajax] rule's wait): the
    # engine's default wait until the page is done (engine/settle.py) is then skipped.
    settle: bool = True
    # Set by the session part for a page fetched in a logged-in context: a hook whose request made
    # from the page (a JSON list) shows the session gone calls it with the reason; it logs in
    # again and returns True when the hook may repeat its requests (False: no new session).
    renew_session: Callable[[str], Awaitable[bool]] | None = None
    # Plain-HTTP path: a hook that refused the page for something it has just mended (the
    # session part, after a new login) sets this, and the page is fetched again at once instead of
    # costing one of its retries (a bounded number of times, like a re-navigation in the browser).
    fetch_again: bool = False
    _notes: dict[type, Any] = field(default_factory=dict, repr=False)

    def note(self, kind: type[N]) -> N:
        """This page's instance of ``kind`` (a hook's own dataclass), created on first use."""
        got = self._notes.get(kind)
        if got is None:
            got = self._notes[kind] = kind()
        return got

    def has_note(self, kind: type) -> bool:
        return kind in self._notes


class PageHook:
    """Base class: override what you need. Hooks run in the order their parts are registered."""

    async def on_page_created(self, page: Page) -> None:
        """Called once per new tab (e.g. to attach a response listener); tabs are reused for many URLs."""

    async def before_navigation(self, ctx: PageContext) -> None:
        """Called before ``goto`` (browser path only), e.g. to pace an account's requests."""

    async def after_navigation(self, ctx: PageContext) -> None:
        """Called right after ``goto``, before waits (browser path only): check the session here.

        A hook may navigate again (e.g. after logging in) and must then set ``ctx.response``.
        """

    async def before_snapshot(self, ctx: PageContext) -> None:
        """Called on the loaded page before its snapshot (browser path only): scroll, click, expand."""

    async def after_snapshot(self, ctx: PageContext) -> None:
        """Called with ``ctx.result`` filled in, on both paths."""


def overrides(hooks: Sequence[PageHook], stage: str) -> bool:
    """Does any hook do something at ``stage`` (saves a round trip when none does)?"""
    return any(getattr(type(h), stage) is not getattr(PageHook, stage) for h in hooks)
