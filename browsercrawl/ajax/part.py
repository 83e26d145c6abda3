"""The ajax part: waits, expansion (scroll, load more, click states) and captured JSON, per ``[ajax]``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from browsercrawl.ajax.hooks import AjaxHook
from browsercrawl.ajax.tables import create_ajax_tables
from browsercrawl.config import JobConfig
from browsercrawl.config.ajax import AjaxConfig
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import CrawlHandle, Part, PartSpec
from browsercrawl.storage.base import Store


class AjaxPart(Part):
    """One hook (see :mod:`browsercrawl.ajax.hooks`) and the tables it fills."""

    name = "ajax"

    def __init__(self, config: AjaxConfig) -> None:
        self.config = config
        self.hook = AjaxHook(config)

    def hooks(self) -> Sequence[PageHook]:
        return (self.hook,)

    def create_tables(self, db: Store) -> None:
        create_ajax_tables(db)

    def bind(self, crawl: CrawlHandle) -> None:
        self.hook.handle = crawl  # HTTP pages that show a load-more control go back to the browser

    def summary(self) -> dict[str, Any]:
        return {"sent_back_to_browser": self.hook.sent_back} if self.hook.sent_back else {}


def build(cfg: AjaxConfig, job: JobConfig, options: CrawlOptions) -> AjaxPart:
    return AjaxPart(cfg)


PART = PartSpec(name="ajax", config=AjaxConfig, build=build)
