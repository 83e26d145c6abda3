"""The social part: a crawl that walks people and their relation lists instead of hyperlinks."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from browsercrawl.config import JobConfig
from browsercrawl.config.social import SocialConfig
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import Part, PartSpec
from browsercrawl.errors import UserError
from browsercrawl.social.graph import graph_stats
from browsercrawl.social.hook import SocialHook
from browsercrawl.storage.base import Store


class SocialPart(Part):
    """The people hook, its tables, and the link filter that makes relation lists the crawl order."""

    name = "social"

    def __init__(self, hook: SocialHook) -> None:
        self.hook = hook
        self.link_priority = hook.link_priority

    def hooks(self) -> Sequence[PageHook]:
        return (self.hook,)

    def create_tables(self, db: Store) -> None:
        self.hook.tables(db)

    def summary(self) -> dict[str, Any]:
        return {"people_known": len(self.hook.known),
                "person_pages_refused_for_failed_lists": self.hook.lists_failed}


def resolved_config(cfg: SocialConfig, job: JobConfig) -> SocialConfig:
    """The section with its files found next to the job file and ``profile`` turned into a regex."""
    source = job.source_path
    update: dict[str, Any] = {}
    if cfg.wrapper:
        update["wrapper"] = str(job.resolve(cfg.wrapper))
    if cfg.profile:
        path = job.resolve(cfg.profile)
        update["profile"] = str(path)
        if not cfg.person_url:
            update["person_url"] = _profile_target_regex(path, source)
    return cfg.model_copy(update=update) if update else cfg


def _profile_target_regex(path: Any, source: Any) -> str:
    """The target-page regex of an induced site profile (its JSON file format, see docs/induction.md)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{source}: social.profile: cannot read {path} ({exc})") from None
    target = data.get("target_regex") if isinstance(data, dict) else None
    if not isinstance(target, str) or not target:
        raise UserError(f"{source}: social.profile: {path} has no target regex")
    try:
        re.compile(target)
    except re.error as exc:
        raise UserError(f"{source}: social.profile: {path}: bad target regex ({exc})") from None
    return target


def build(cfg: SocialConfig, job: JobConfig, options: CrawlOptions) -> SocialPart:
    return SocialPart(SocialHook(resolved_config(cfg, job), job))


def stats(conn: Any) -> dict[str, Any] | None:
    """``stats`` of a social crawl: the people graph's figures under ``graph``."""
    graph = graph_stats(conn)
    return {"graph": graph} if graph else None


PART = PartSpec(name="social", config=SocialConfig, build=build, stats=stats)
