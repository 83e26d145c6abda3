"""The session part: a crawl that logs in, notices when it is logged out, and logs in again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from browsercrawl.config import JobConfig
from browsercrawl.config.session import SessionConfig
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import CrawlHandle, Part, PartSpec
from browsercrawl.session.manager import SessionManager
from browsercrawl.session.secrets import resolve_password


class SessionPart(Part):
    """Logged-in browser contexts (one account each) and the hook that keeps them logged in."""

    name = "session"

    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        self.context_factory = manager.new_context

    def hooks(self) -> Sequence[PageHook]:
        return (self.manager,)

    def bind(self, crawl: CrawlHandle) -> None:
        self.manager.bind(crawl)

    def summary(self) -> dict[str, Any]:
        return self.manager.summary()


def build(cfg: SessionConfig, job: JobConfig, options: CrawlOptions) -> SessionPart:
    """The job's session; a missing password fails here, before any browser starts."""
    headed = options.headed or not job.browser.headless
    manager = SessionManager(cfg, job, job_path=job.source_path, trace_dir=options.trace_dir,
                             pause_on_error=options.pause_on_error and headed, headed=headed)
    if cfg.accounts and manager.can_log_in():
        for i, account in enumerate(cfg.accounts):
            resolve_password(account, f"{job.source_path}: session.accounts.{i}")
    return SessionPart(manager)


PART = PartSpec(name="session", config=SessionConfig, build=build)
