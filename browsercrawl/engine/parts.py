"""The part protocol: how an optional piece of browsercrawl (sessions, AJAX, induction, social...) joins.

A part is switched on by its section in the job file. It is described by a :class:`PartSpec`
(name, section model, how to build it, what it adds to ``stats``), and once built it is one
:class:`Part`: page hooks, tables, optionally a link priority and a browser-context factory, and
counters for the crawl summary. The registry (``browsercrawl/parts.py``) lists the specs in the
order their hooks run; the engine knows parts only through this module and never imports one.

A part with work that depends on pages already crawled (the next round of search queries) gets
the last word: when nothing is left to fetch, :meth:`Part.when_idle` may return more URLs, and the
crawl ends only when no part does.

A part gets a :class:`CrawlHandle` when the crawl starts: the few things it may do to the crawl
(hold a host while it logs in again, stop the crawl with an error, ask that a URL shape be
rendered), never the crawler itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from browsercrawl.config import JobConfig
from browsercrawl.engine.hooks import PageHook
from browsercrawl.errors import UserError
from browsercrawl.frontier.base import Request

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext

    from browsercrawl.engine.options import CrawlOptions
    from browsercrawl.engine.tabs import ContextFactory
    from browsercrawl.storage.base import Store
    from browsercrawl.storage.reader import Reader

# priority(parent request, link URL, anchor text) -> priority (lower first), or None to not follow.
LinkPriority = Callable[[Request, str, str], float | None]


class CrawlHandle(Protocol):
    """What a part may do to the crawl it is part of."""

    def hold_host(self, host: str) -> None:
        """Dispatch nothing more to ``host`` until :meth:`release_host` (e.g. during a re-login)."""

    def release_host(self, host: str) -> None:
        """Undo one :meth:`hold_host`."""

    def fail(self, error: UserError) -> None:
        """Stop the crawl: pages in flight finish, then the command ends with ``error``."""

    def render_shape(self, url: str) -> bool:
        """Auto mode: pages shaped like ``url`` need the browser; False when the crawl cannot switch."""

    async def pool_share(self, size: int) -> list[int]:
        """Which items of a pool of ``size`` (e.g. the session's accounts) this process uses: all of
        them, unless workers on several machines share the crawl and so split the pool."""

    def http_context(self) -> AbstractAsyncContextManager[BrowserContext | None]:
        """The browser context whose cookies the plain-HTTP path sends, held open for the block
        (launched again if auto mode closed the browser); the HTTP path takes its cookies anew
        once the block ends. None when the crawl has no browser.

        For a part that must change what the HTTP path is logged in as: a page fetched without
        the browser has no browser page that could notice the session ended."""


@dataclass(frozen=True)
class FollowUp:
    """A URL a part queues when the crawl would otherwise end (scoped and deduplicated like links)."""

    url: str
    kind: str | None = None
    depth: int = 0
    parent: str | None = None


class Part:
    """Base class of a built part; override what the part contributes."""

    name: str = ""
    link_priority: LinkPriority | None = None  # replaces the default (depth + 1) when set
    context_factory: ContextFactory | None = None  # makes the crawl's browser contexts when set

    def hooks(self) -> Sequence[PageHook]:
        """Page hooks, run in registry order with the other parts' hooks."""
        return ()

    def create_tables(self, db: Store) -> None:
        """Create this part's tables (and reload what an interrupted run knew) before the crawl."""

    def bind(self, crawl: CrawlHandle) -> None:
        """Called once the crawl starts, with the handle the part may use from then on."""

    def summary(self) -> dict[str, Any]:
        """This part's counters for the crawl's JSON summary (under its name); no secrets."""
        return {}

    async def when_idle(self) -> Sequence[FollowUp]:
        """Nothing is left to fetch: URLs to crawl next, or none to let the crawl end.

        Rows the part wants stored with them it writes itself (it has the database from
        :meth:`create_tables`); nothing is in flight at this point.
        """
        return ()


# A part's build function: its validated section, the whole job, the command-line options.
PartBuilder = Callable[[Any, JobConfig, "CrawlOptions"], Part | None]


@dataclass(frozen=True)
class PartSpec:
    """One entry of the registry: everything the composition root needs to know about a part."""

    name: str  # also the job section that switches it on
    config: type[BaseModel]
    build: PartBuilder
    # extra top-level entries of `browsercrawl stats` for a database this part wrote to; gets a
    # storage.reader.Reader (SQLite or PostgreSQL: SQLite-style SQL, translated)
    stats: Callable[[Reader], dict[str, Any] | None] | None = None

    def section(self, job: JobConfig) -> BaseModel | None:
        return getattr(job, self.name, None)


class StandaloneHandle:
    """The handle parts get outside a crawl (``induce``, ``recrawl``, ``discover``).

    There is no scheduler to hold a host in; a part that fails records its error, which the
    command raises once its work is done.
    """

    def __init__(self) -> None:
        self.error: UserError | None = None

    def hold_host(self, host: str) -> None:
        return None

    def release_host(self, host: str) -> None:
        return None

    def fail(self, error: UserError) -> None:
        if self.error is None:
            self.error = error

    def render_shape(self, url: str) -> bool:
        return False

    async def pool_share(self, size: int) -> list[int]:
        return list(range(size))

    @contextlib.asynccontextmanager
    async def http_context(self) -> AsyncIterator[BrowserContext | None]:
        yield None


class SimplePart(Part):
    """A part assembled from given pieces: a library user's own hook, context factory or tables."""

    def __init__(
        self,
        name: str = "custom",
        *,
        hooks: Sequence[PageHook] = (),
        context_factory: ContextFactory | None = None,
        link_priority: LinkPriority | None = None,
        tables: Callable[[Store], None] | None = None,
    ) -> None:
        self.name = name
        self._hooks = tuple(hooks)
        self.context_factory = context_factory
        self.link_priority = link_priority
        self._tables = tables

    def hooks(self) -> Sequence[PageHook]:
        return self._hooks

    def create_tables(self, db: Store) -> None:
        if self._tables is not None:
            self._tables(db)
