"""The search-forms part: ``[search_forms]`` switches it on (see docs/forms.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from browsercrawl.config import JobConfig
from browsercrawl.config.search_forms import SearchFormsConfig
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import CrawlHandle, FollowUp, Part, PartSpec
from browsercrawl.forms import tables
from browsercrawl.forms.hook import SearchFormsHook
from browsercrawl.forms.lexicon import lexicon
from browsercrawl.forms.plan import Emit, Planner
from browsercrawl.frontier.scope import Scope
from browsercrawl.storage.db import CrawlDatabase
from browsercrawl.storage.reader import Reader


class SearchFormsPart(Part):
    """One hook, five tables, and the next query round when the crawl runs dry."""

    name = "search_forms"

    def __init__(self, cfg: SearchFormsConfig, job: JobConfig) -> None:
        self.cfg = cfg
        scope = Scope(job.scope, job.seeds)
        self.planner = Planner(cfg, scope.allows)
        self.hook = SearchFormsHook(cfg, self.planner, lexicon(cfg.languages),
                                    can_render=job.rendering.mode != "http")

    def hooks(self) -> Sequence[PageHook]:
        return (self.hook,)

    def create_tables(self, db: CrawlDatabase) -> None:
        tables.create_tables(db)
        self.hook.db = db

    def bind(self, crawl: CrawlHandle) -> None:
        self.hook.handle = crawl

    async def when_idle(self) -> Sequence[FollowUp]:
        emit = Emit()
        await self.hook.load(emit)
        self.planner.idle(emit)
        await self.hook.maybe_seed(emit, idle=True)
        self.hook.settle(emit)
        await self.hook.write(emit)
        for url in emit.post_urls:
            self.hook.handle.render_shape(url)
        depth = {}
        for iface in self.planner.interfaces.values():
            depth[iface.id] = iface.depth + 1
        out = []
        for url, kind in emit.urls:
            at = self.planner.pages.get(url)
            d = depth.get(self.planner.queries[at[0]].iface, 1) if at else 1
            out.append(FollowUp(url, kind, depth=d))
        return out

    def summary(self) -> dict[str, Any]:
        out = {"forms_seen": dict(sorted(self.hook.kinds.items()))} if self.hook.kinds else {}
        if self.planner.interfaces:
            out.update(self.planner.summary())
        return out


def build(cfg: SearchFormsConfig, job: JobConfig, options: CrawlOptions) -> SearchFormsPart | None:
    return SearchFormsPart(cfg, job) if cfg.enabled else None


def stats(reader: Reader) -> dict[str, Any] | None:
    """``stats`` of a crawl that queried search forms: queries, valid share, records by round."""
    # Asked of the tables first: a failed query would abort a PostgreSQL session's transaction.
    if not {"queries", "forms"} <= reader.tables():
        return None
    rows = reader.execute(
        "SELECT round, COUNT(*), SUM(valid), SUM(result_pages), SUM(new) FROM queries "
        "WHERE round > 0 AND result_pages > 0 GROUP BY round ORDER BY round").fetchall()
    kinds = dict(reader.execute("SELECT kind, COUNT(*) FROM forms GROUP BY kind").fetchall())
    if not kinds:
        return None
    queries = sum(r[1] for r in rows)
    valid = sum(r[2] or 0 for r in rows)
    return {"search_forms": {
        "forms_seen": kinds,
        "queries": queries,
        "valid_share": round(valid / queries, 3) if queries else None,
        "result_pages": sum(r[3] or 0 for r in rows),
        "new_records_per_query_by_round": {r[0]: round((r[4] or 0) / r[1], 2) for r in rows},
    }}


PART = PartSpec(name="search_forms", config=SearchFormsConfig, build=build, stats=stats)
