"""The supervised crawl: a site profile steering the engine and filling the ``records`` table.

The induction part (``induction/part.py``) plugs two pieces into the crawl:

* :class:`InductionHook` (``after_snapshot``) computes each page's tunneling weight (0 when its
  link-free text matches the keywords or it links to a target-class URL, else its parent's + 1)
  and, on a page of the target class, applies the wrapper and adds one row to ``records``.
  The wrapper heals itself when the site's markup changed (``wrappers/heal.py``): each repair
  is logged and the profile file rewritten with the new paths.
  Weights go to a small ``induction_weights`` table too, committed with the page, so a resumed
  crawl knows the weights of the pages it already fetched.
* :meth:`SupervisedLinks.priority` follows only URLs of the target or a directory class, from
  pages whose weight is within the profile's threshold, with the parent's weight as priority
  (the frontier serves lowest first): the weight of a page is known only after fetching it, so a
  link waits with its parent's weight, as in the pre-crawl.

With ``supervised = false`` the profile still extracts records but does not restrict the crawl.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from browsercrawl.config.induction import RESERVED_COLUMNS
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.errors import UserError
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.urls import canonical_url
from browsercrawl.induction.pages import TunnelingScorer, text_without_links
from browsercrawl.induction.profile import SiteProfile
from browsercrawl.induction.urlmodel import canonical
from browsercrawl.storage.base import Store
from browsercrawl.wrappers.heal import HealingWrapper, Repair

RECORDS = "records"
WEIGHTS = "induction_weights"


def record_row(url: str, values: dict[str, Any]) -> dict[str, Any]:
    """One ``records`` row: repeated fields as JSON lists, single fields as text or NULL."""
    row: dict[str, Any] = {"url": url}
    for label, value in values.items():
        row[label] = json.dumps(value, ensure_ascii=False) if isinstance(value, list) else value
    row["extracted_at"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return row


@dataclass
class _PageFacts:
    weight: int
    record: dict[str, Any] | None


class InductionHook(PageHook):
    """Weighs every fetched page and extracts a record from target pages."""

    def __init__(
        self,
        profile: SiteProfile,
        weights: dict[str, int],
        on_repair: Callable[[Repair], None] | None = None,
    ) -> None:
        self.profile = profile
        self.weights = weights
        self.scorer = TunnelingScorer(profile.keywords, profile.target_regex)
        # A redesign of the site mid-crawl: fields whose paths find nothing are found again by
        # their fingerprints, the wrapper (the profile's own object) updated in place.
        self.healer = HealingWrapper(profile.wrapper, on_repair) if profile.wrapper is not None else None

    def _analyse(self, url: str, html: str, links: list[str], parent_weight: int | None) -> _PageFacts:
        """CPU part (lxml parsing, regexes, the wrapper): runs in a worker thread."""
        out_links = []
        for href in links:
            try:
                out_links.append(canonical(href))
            except Exception:  # a malformed href is not this page's weight problem
                continue
        text = text_without_links(html) if self.scorer.keywords is not None else ""
        weight = self.scorer.weight(url, parent_weight, text, out_links)
        record = None
        if self.healer is not None and self.profile.is_target(url):
            record = record_row(url, self.healer.apply(html, base_url=url))
        return _PageFacts(weight, record)

    def parent_weight(self, req: Request) -> int | None:
        """The parent's weight; seeds have none (they weigh 0 like relevant pages)."""
        if req.parent is None:
            return None
        known = self.weights.get(req.parent)
        # Unknown parent (a URL added by another part): its link priority is the best guess.
        return known if known is not None else max(0, round(req.priority))

    async def after_snapshot(self, ctx: PageContext) -> None:
        result = ctx.result
        if result is None or result.html is None or not result.store:
            return
        req = ctx.request
        final = canonical_url(result.final_url) if result.final_url.startswith("http") else req.url
        links = [h for h, _ in result.links]
        facts = await asyncio.to_thread(self._analyse, final, result.html, links, self.parent_weight(req))
        self.weights[req.url] = facts.weight
        if final != req.url:
            self.weights[final] = facts.weight
        rows = result.extra_rows
        rows.setdefault(WEIGHTS, []).append({"url": req.url, "weight": facts.weight, "__upsert__": True})
        if facts.record is not None:
            rows.setdefault(RECORDS, []).append({**facts.record, "__upsert__": True})


class SupervisedLinks:
    """The supervised crawl's link filter (see the module docstring)."""

    def __init__(self, profile: SiteProfile, hook: InductionHook) -> None:
        self.profile = profile
        self.hook = hook

    def priority(self, req: Request, url: str, anchor_text: str) -> float | None:
        """Target/directory URLs from pages within the weight threshold; priority = page weight."""
        weight = self.hook.weights.get(req.url)
        if weight is None:
            weight = self.hook.parent_weight(req) or 0
        if not self.profile.within_weight(weight) or not self.profile.should_follow(url):
            return None
        return float(weight)


def create_tables(db: Store, labels: list[str], weights: dict[str, int]) -> None:
    """``records`` (one column per label) and ``induction_weights``; reload known weights."""
    columns: dict[str, Any] = {"url": str, **{label: str for label in labels}, "extracted_at": str}
    # A profile induced again may name new labels: ensure_table adds their columns.
    db.ensure_table(RECORDS, columns, pk="url")
    db.ensure_table(WEIGHTS, {"url": str, "weight": int}, pk="url")
    weights.update(dict(db.read(f"SELECT url, weight FROM [{WEIGHTS}]")))


def load_profile(path: Path) -> SiteProfile:
    """Load a profile and check its labels fit the records table."""
    profile = SiteProfile.load(path)
    for rule in profile.wrapper.rules if profile.wrapper else []:
        if rule.label in RESERVED_COLUMNS:
            raise UserError(
                f"{path}: wrapper label {rule.label!r} is a column of the records table; rename it"
            )
    return profile
