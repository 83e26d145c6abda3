"""The plain-HTTP path fetches a page again when a hook mended what refused it (a new login)."""

from __future__ import annotations

import asyncio

from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.http_fetcher import FETCH_AGAIN_ROUNDS, HttpFetcher
from browsercrawl.engine.result import FetchResult
from browsercrawl.frontier.base import Request


class _Client:
    """Answers logged out until ``good_from`` fetches have been made."""

    def __init__(self, good_from: int) -> None:
        self.good_from = good_from
        self.fetches = 0

    async def fetch(self, url: str) -> FetchResult:
        self.fetches += 1
        title = "ok" if self.fetches >= self.good_from else "logged out"
        return FetchResult(requested_url=url, final_url=url, status=200, content_type="text/html",
                           via="http", title=title)


class _Mends(PageHook):
    """Refuses a logged-out page and says it mended the cause, as the session part does."""

    def __init__(self) -> None:
        self.seen = 0

    async def after_snapshot(self, ctx: PageContext) -> None:
        self.seen += 1
        assert ctx.result is not None
        if ctx.result.title == "logged out":
            ctx.result.store = False
            ctx.fetch_again = True


def _fetch(good_from: int) -> tuple[FetchResult, _Client, _Mends]:
    client, hook = _Client(good_from), _Mends()
    fetcher = HttpFetcher(client, [hook])  # type: ignore[arg-type]
    result = asyncio.run(fetcher.fetch(Request(url="http://h/p", host="h")))
    return result, client, hook


def test_a_mended_page_is_fetched_again_at_once_without_a_retry() -> None:
    result, client, hook = _fetch(good_from=3)
    assert result.title == "ok" and result.store and client.fetches == 3 and hook.seen == 3


def test_fetching_again_is_bounded() -> None:
    result, client, _ = _fetch(good_from=100)
    assert client.fetches == FETCH_AGAIN_ROUNDS + 1 and not result.store  # then a retry, as before
