"""The SQLite frontier's statements that take a whole batch at once (one JSON array per statement)."""

from __future__ import annotations

import time

from browsercrawl.frontier.base import Completion, NewUrl
from browsercrawl.frontier.sqlite import SqliteFrontier, add_urls, finish_requests
from browsercrawl.storage.db import CrawlDatabase


def _new(url: str, host: str, priority: float, kind: str | None = None) -> NewUrl:
    return NewUrl(url=url, host=host, depth=2, priority=priority, parent="http://a/p\u00e9re", kind=kind)


async def test_add_claim_and_finish_keep_every_field_order_and_state(tmp_path) -> None:
    db = await CrawlDatabase(tmp_path / "c.db").open()
    frontier = SqliteFrontier(db)
    try:
        now = time.time()
        first = [_new("http://a/1", "a", 2.0), _new("http://a/2", "a", 1.0, "search"),
                 _new("http://b/1", "b", 1.5)]
        hosts = await db.transaction(lambda c: add_urls(c, first, now))
        assert hosts == {"a", "b"}
        # Known URLs are ignored, and their hosts are not reported as having gained any.
        again = [_new("http://b/1", "b", 9.0), _new("http://a/3 \"q\"", "a", 3.0)]
        hosts = await db.transaction(lambda c: add_urls(c, again, now + 1))
        assert hosts == {"a"}

        claimed = await frontier.claim("a", 10, now + 2)
        assert [(r.url, r.priority, r.kind, r.depth, r.parent, r.attempts) for r in claimed] == [
            ("http://a/2", 1.0, "search", 2, "http://a/p\u00e9re", 0),
            ("http://a/1", 2.0, None, 2, "http://a/p\u00e9re", 0),
            ("http://a/3 \"q\"", 3.0, None, 2, "http://a/p\u00e9re", 0),
        ]
        assert await frontier.claim("a", 10, now + 2) == []  # all in flight now

        done, retry, failed = claimed
        ends = [Completion(done, "done"), Completion(retry, "retry", error="HTTP 503", not_before=now + 60),
                Completion(failed, "failed", error="timeout")]
        await db.transaction(lambda c: finish_requests(c, ends))
        rows = await db.run(lambda c: c.execute(
            "SELECT url, state, attempts, error, not_before > 0, finished_at IS NOT NULL FROM frontier "
            "WHERE host='a' ORDER BY url").fetchall())
        assert rows == [("http://a/1", "queued", 1, "HTTP 503", 1, 0),  # a retry waits its turn
                        ("http://a/2", "done", 1, None, 0, 1),
                        ("http://a/3 \"q\"", "failed", 1, "timeout", 0, 1)]
    finally:
        await db.close()
