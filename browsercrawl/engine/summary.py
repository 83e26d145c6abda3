"""The JSON summary a crawl prints when it ends."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class CrawlSummary:
    database: str
    pages_stored: int
    incomplete: int  # stored with complete = 0: the wait ran out before the page was done
    pages_total: int
    failed: int
    retried: int
    skipped_robots: int
    duplicates: int
    queued_left: int
    seconds: float
    pages_per_second: float
    via_browser: int
    via_http: int
    contexts_opened: int
    tabs_opened: int
    interrupted: bool
    browser_launches: int = 0  # auto mode launches Chromium only while a URL shape needs it
    adaptive: dict[str, str] = field(default_factory=dict)
    waits: dict[str, str] = field(default_factory=dict)  # per URL shape: its learned wait
    # Auto mode's API shortcut: per URL shape whether it is built from JSON, and the renders avoided.
    api_shortcut: dict[str, Any] = field(default_factory=dict)
    # Links not followed as crawler traps (by rule) and session ids removed from URLs.
    traps: dict[str, Any] = field(default_factory=dict)
    # Each part's counters under its name (e.g. "session": logins, re-logins, retired accounts).
    parts: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Where the crawl's state lives and its cost per page: store kind and ms, Redis ms (workers).
    backends: dict[str, Any] = field(default_factory=dict)
    # Seeds that were skipped, with why: the robots.txt rule, the scope rule (a crawl of nothing
    # but those is an error).
    blocked_seeds: dict[str, str] = field(default_factory=dict)

    def nothing_crawlable(self) -> str | None:
        """One line when the database holds no page because every seed was refused."""
        if self.pages_total or not self.blocked_seeds or self.queued_left or self.interrupted:
            return None
        blocked = "; ".join(f"{seed} {why}" for seed, why in self.blocked_seeds.items())
        return (f"nothing could be crawled: every seed was refused ({blocked}); change the seeds, "
                "the [scope] or politeness.obey_robots (for a site you may crawl)")
    # The full-text index: size in bytes (per table) and seconds spent building new indexes.
    search: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "parts"}
        out.update(self.parts)
        return out
