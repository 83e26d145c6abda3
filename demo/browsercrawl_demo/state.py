"""The running demo site's state: generated content plus what visitors changed.

Content (``content.py``) never changes after start; the few things a visitor can change - follow
edges added, likes, deleted accounts - live here as overlays, and every such change is appended
to :attr:`DemoState.mutations`, so a test can assert a crawler changed nothing (the truth dump
is computed from the content alone, i.e. before any change).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from browsercrawl_demo.auth import Auth, password_for, totp_secret_for
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.content import Content, DemoClock, StatusPost, Thread, iso

PAGE_SIZE = 20  # board/tag/search/profile lists and the feed
COMMENTS_INLINE = 10  # comments in the thread HTML; the API pages by the same number


def page_count(total: int, size: int = PAGE_SIZE) -> int:
    return max(1, math.ceil(total / size))


def feed_key(p: StatusPost) -> tuple[datetime, str]:
    return (p.time, p.id)


def encode_cursor(p: StatusPost) -> str:
    return f"{int(p.time.timestamp())}_{p.id}"


def decode_cursor(cursor: str) -> tuple[float, str]:
    """``"<unix seconds>_<post id>"`` -> key; ValueError if malformed."""
    ts, _, post_id = cursor.partition("_")
    if not post_id:
        raise ValueError(cursor)
    return float(int(ts)), post_id


@dataclass
class DemoState:
    """Shared by all handlers of one site (and by in-process tests: ``site.state``)."""

    config: DemoConfig
    content: Content
    clock: DemoClock
    auth: Auth
    added_follows: dict[str, list[str]] = field(default_factory=dict)
    added_likes: dict[int, int] = field(default_factory=dict)
    mutations: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def build(cls, config: DemoConfig, content: Content) -> DemoState:
        clock = DemoClock(config.start_time) if config.start_time else DemoClock()
        auth = Auth(
            seed=config.seed,
            passwords={m.name: password_for(m.name, config.seed) for m in content.members},
            session_ttl_seconds=config.session_ttl_seconds,
            session_max_requests=config.session_max_requests,
            lock_after_failures=config.lock_after_failures,
            lock_seconds=config.lock_seconds,
            require_captcha=config.require_captcha,
            captcha_difficulty=config.captcha_difficulty,
            totp_secrets={name: totp_secret_for(name, config.seed) for name in config.two_factor},
        )
        return cls(config, content, clock, auth)

    # ----- test API -----

    def captcha_answer_for(self, session_or_token: str) -> str | None:
        """Test API: answer of the CAPTCHA shown to a session (sid, csrf token or image nonce)."""
        return self.auth.captcha_answer_for(session_or_token)

    def record(self, kind: str, user: str | None, target: str) -> None:
        self.mutations.append(
            {"kind": kind, "user": user, "target": target, "site_time": iso(self.clock.now())}
        )

    # ----- graph with overlays -----

    def following(self, name: str) -> list[str]:
        return self.content.follows[name] + self.added_follows.get(name, [])

    def followers(self, name: str) -> list[str]:
        base = self.content.followers[name]
        extra = [f for f, added in self.added_follows.items() if name in added]
        return base + sorted(extra, key=lambda n: self.content.by_name[n].id)

    def follow(self, who: str, whom: str) -> bool:
        """Add an edge; False if it already existed (still recorded as a mutation attempt)."""
        self.record("follow", who, f"/u/{whom}")
        if who == whom or whom in self.following(who):
            return False
        self.added_follows.setdefault(who, []).append(whom)
        return True

    def likes(self, t: Thread) -> int:
        return t.likes + self.added_likes.get(t.id, 0)

    def like(self, who: str, t: Thread) -> int:
        self.record("like", who, t.path)
        self.added_likes[t.id] = self.added_likes.get(t.id, 0) + 1
        return self.likes(t)

    def delete_account(self, who: str) -> None:
        self.record("delete_account", who, f"/u/{who}")
        self.auth.deleted.add(who)

    # ----- site-time dependent views -----

    def posts_of(self, name: str) -> list[StatusPost]:
        """A member's visible status posts, newest first."""
        return self.content.posts_of(name, self.clock.now())[::-1]

    def feed(self, name: str) -> list[StatusPost]:
        """The user's feed: visible posts by the user and everyone they follow, newest first."""
        now = self.clock.now()
        posts = [p for who in [name, *self.following(name)]
                 for p in self.content.posts_of(who, now)]
        posts.sort(key=feed_key, reverse=True)
        return posts
